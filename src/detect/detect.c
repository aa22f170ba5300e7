// SPDX-License-Identifier: GPL-2.0
/*
 * Running the detectors: their hooks called in table order, and the watchdog thread that
 * looks at every harness thread ten times a second in a free-running run (and at the clock
 * alone in a controlled one, for the hard deadline).
 */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "detect.h"

#define WATCH_PERIOD_NS	100000000L

static struct cgt_detect_config dcfg;
static pthread_t watchdog;
static int watchdog_stop;
static bool watchdog_running;

/* the point hooks, gathered once: marked points are the hot path */
typedef void (*point_hook_t)(enum cgt_point_id id, const void *obj);
static point_hook_t point_hooks[CGT_NR_DETECTORS], resume_hooks[CGT_NR_DETECTORS];
static int npoint_hooks, nresume_hooks;

#define for_each_detector(d) \
	for (const struct cgt_detector_ops *const *d = cgt_detectors; \
	     d < cgt_detectors + CGT_NR_DETECTORS; d++)

static void *watchdog_main(void *arg)
{
	struct cgt_thread *v = NULL;
	int cap = 0;
	struct timespec ts = { 0, WATCH_PERIOD_NS };
	struct cgt_thread self;

	(void)arg;
	cgt_thread_register(&self, CGT_ROLE_WATCHDOG, 0);
	while (!__atomic_load_n(&watchdog_stop, __ATOMIC_ACQUIRE)) {
		uint64_t now;
		int n;

		nanosleep(&ts, NULL);
		n = dcfg.controlled ? 0 : cgt_threads_snapshot(&v, &cap);
		if (n < 0)
			continue;	/* out of memory: look again next time */
		now = cgt_clock_ns();
		for_each_detector(d)
			if ((*d)->watch && (!dcfg.controlled || (*d)->wall_clock))
				(*d)->watch(v, n, now);
	}
	cgt_thread_unregister(&self);
	free(v);
	return NULL;
}

/* The point hooks of the table, which never changes: gathered once, by the first start. */
static void gather_hooks(void)
{
	for_each_detector(d) {
		if ((*d)->point)
			point_hooks[npoint_hooks++] = (*d)->point;
		if ((*d)->resume)
			resume_hooks[nresume_hooks++] = (*d)->resume;
	}
}

/*
 * Before the model boots: liburcu's call_rcu thread runs the model's callbacks (rcu_sync's,
 * through a lock's marked points) as soon as the boot queues them, and only what was written
 * before the call_rcu() that queued one is ordered before it.
 */
int cgt_detect_start(const struct cgt_detect_config *cfg)
{
	static pthread_once_t gathered = PTHREAD_ONCE_INIT;

	pthread_once(&gathered, gather_hooks);
	dcfg = *cfg;
	for_each_detector(d)
		if ((*d)->start && (*d)->start(cfg))
			return -1;
	return 0;
}

int cgt_detect_watch(void)
{
	__atomic_store_n(&watchdog_stop, 0, __ATOMIC_RELAXED);
	if (pthread_create(&watchdog, NULL, watchdog_main, NULL))
		return -1;
	watchdog_running = true;
	return 0;
}

void cgt_detect_stop(void)
{
	__atomic_store_n(&watchdog_stop, 1, __ATOMIC_RELEASE);
	if (watchdog_running)
		pthread_join(watchdog, NULL);
	watchdog_running = false;
	cgt_detect_last_look();
}

void cgt_detect_last_look(void)
{
	for_each_detector(d)
		if ((*d)->stop)
			(*d)->stop();
}

void cgt_detect_point(enum cgt_point_id id, const void *obj)
{
	for (int i = 0; i < npoint_hooks; i++)
		point_hooks[i](id, obj);
}

void cgt_detect_resume(enum cgt_point_id id, const void *obj)
{
	for (int i = 0; i < nresume_hooks; i++)
		resume_hooks[i](id, obj);
}

void cgt_detect_decision(long step)
{
	for_each_detector(d)
		if ((*d)->decision)
			(*d)->decision(step);
}

void cgt_detect_stuck(long step)
{
	for_each_detector(d)
		if ((*d)->stuck)
			(*d)->stuck(step);
}

void cgt_detect_at_rest(void)
{
	for_each_detector(d)
		if ((*d)->at_rest)
			(*d)->at_rest();
}

void cgt_detect_no_rest(double timeout)
{
	for_each_detector(d)
		if ((*d)->no_rest)
			(*d)->no_rest(timeout);
}

void cgt_detect_after_exit(void)
{
	for_each_detector(d)
		if ((*d)->after_exit)
			(*d)->after_exit();
}
