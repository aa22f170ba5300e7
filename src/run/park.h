/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run under way: the state its threads (driver, init, walkers, actors) share, and the
 * pause (park.c) where a model thread waits, between operations, while the driver checks.
 */
#ifndef CGT_RUN_PARK_H
#define CGT_RUN_PARK_H

#include <pthread.h>
#include <stdbool.h>

#include "run.h"

struct run_walker;

struct cgt_run {
	const struct cgt_run_config *cfg;
	const struct cgt_run_hooks *hooks;
	struct cgt_stats stats;
	int stop;			/* every model thread exits at its next loop top */
	int pause;			/* every model thread parks at its next loop top */
	int parked;			/* model threads and walkers parked */
	pthread_mutex_t park_lock;	/* a controlled run's park, for TSan */
	int failed;			/* the --stop-on detector reported: end now */
	int ramping;			/* the population is growing: every operation forks */
	double start;
	struct run_walker *walkers;	/* init and the walkers (walker.c) */
	int nwalkers;			/* of them, those started */
	/* swarm phases (swarm.h): the one in force, and when the next begins */
	int phase;
	double next_phase_s;		/* free-running: seconds into the run */
	long next_phase_step;		/* controlled: a decision */
	/* a controlled run */
	bool final;			/* the pause under way is the last one */
	long stop_step;
	long next_check_step;
	/* the progress line of a free run past its time (run_internal.h), or NULL */
	struct run_progress *ending;
};

void cgt_run_park(struct cgt_run *run, struct task *me);
void cgt_run_wake_parked(struct cgt_run *run);
void cgt_run_wake_thread(struct cgt_thread *t);
static inline bool cgt_run_stopping(struct cgt_run *run)
{
	return __atomic_load_n(&run->stop, __ATOMIC_ACQUIRE);
}

/*
 * Free running, the driver wants the model still (a check, or the end): a reader between
 * two read() calls may stop there, as a process closing cgroup.procs halfway does. A
 * controlled run's pause is the scheduler's, and its readers do not look.
 */
static inline bool cgt_run_wants_rest(struct cgt_run *run)
{
	return !cgt_sched_on() && (__atomic_load_n(&run->pause, __ATOMIC_ACQUIRE) ||
				   cgt_run_stopping(run));
}

/*
 * The ramp ends, @now_s into the run: by the driver, or by a fork refused at the cap; its
 * time is kept if the population was @reached (once, by whoever ends it).
 */
static inline void cgt_run_ramp_end(struct cgt_run *run, double now_s, bool reached)
{
	if (__atomic_exchange_n(&run->ramping, 0, __ATOMIC_RELAXED) && reached)
		WRITE_ONCE(run->stats.ramp_ms, (long)(now_s * 1000));
}

#endif
