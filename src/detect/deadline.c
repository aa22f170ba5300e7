// SPDX-License-Identifier: GPL-2.0
/*
 * deadline: a whole run has a hard end, whatever the model does. Past it the run is told to
 * write what it has and leave (the run's on_abort), even with every worker stuck: a nightly
 * job must never hang. Wall-clock in every run, controlled ones included. A run still
 * moving past it (within the last second a thread left, or a model thread passed a marked
 * point) is slow, not deaf: a machine loaded many times over its cores stretched a correct
 * run's end past it (at a load of 35 on two cores, an ASan migration of a 300-thread
 * process held cgroup_mutex for 10 s while stepping on). It gets up to GRACE_NS more, well
 * inside the supervisor's 20 s.
 */
#include "detect.h"

#define PROGRESS_NS	1000000000ULL
#define GRACE_NS	10000000000ULL

static uint64_t deadline_ns;
static void (*on_abort)(void);
static bool fired;
static int last_n;
static uint64_t last_left_ns;	/* when the last thread left */

static int deadline_start(const struct cgt_detect_config *cfg)
{
	deadline_ns = (uint64_t)(cfg->deadline * 1e9);
	on_abort = cfg->on_abort;
	fired = false;
	last_n = 0;
	last_left_ns = 0;
	return 0;
}

/*
 * A model thread, or the driver reaping the last zombies, passed a marked point within the
 * last PROGRESS_NS.
 */
static bool stepping(const struct cgt_thread *v, int n, uint64_t now)
{
	for (int i = 0; i < n; i++)
		if ((v[i].role == CGT_ROLE_ACTOR || v[i].role == CGT_ROLE_DRIVER) &&
		    cgt_age_ns(now, v[i].heartbeat_ns) < PROGRESS_NS)
			return true;
	return false;
}

static void deadline_watch(const struct cgt_thread *v, int n, uint64_t now)
{
	if (n < last_n)
		last_left_ns = now;
	last_n = n;
	if (!deadline_ns || fired || now <= deadline_ns)
		return;
	if (now <= deadline_ns + GRACE_NS &&
	    ((last_left_ns && now - last_left_ns < PROGRESS_NS) || stepping(v, n, now)))
		return;
	fired = true;
	cgt_fail(CGT_DET_DEADLINE, cgt_self ? cgt_self->id : 0, NULL,
		 "the run did not end by its hard deadline (%.0f s)", (double)deadline_ns / 1e9);
	if (on_abort)
		on_abort();
}

const struct cgt_detector_ops deadline_detector = {
	.id		= CGT_DET_DEADLINE,
	.start		= deadline_start,
	.watch		= deadline_watch,
	.wall_clock	= true,
};
