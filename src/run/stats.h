/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The counters a run keeps (stats.c), read while the model threads run, and the run's own
 * live display: the periodic stats line and the progress line.
 */
#ifndef CGT_RUN_STATS_H
#define CGT_RUN_STATS_H

#include <stdio.h>

#include "ops.h"
#include "swarm.h"

/* Counters a run keeps; relaxed atomics, summed as they go. */
struct cgt_stats {
	long ops[CGT_NR_OPS];		/* operations completed */
	long fork_thread;		/* of the forks, CLONE_THREAD */
	long fork_at_cap;		/* refused: --threads live already */
	long fork_eagain;		/* pthread_create failed: a failed fork */
	long fork_eintr;		/* parent killed mid-fork (an exec) */
	long exec_eagain;		/* lost the race to another exec */
	long migrate_esrch;		/* target gone */
	long walks, walk_steps;		/* thread-group walks and threads visited */
	long livelocks;			/* walks cut short past the walk limit */
	long iters, iter_tasks;		/* css_task_iter runs and the tasks they met */
	long counts, shows;		/* cgroup_task_count, proc_cgroup_show */
	long killed;			/* threads that exited on SIGKILL (an exec) */
	long readdirs, readdir_tasks;	/* proc_task_readdir runs and the threads they listed */
	long readdir_missed;		/* threads alive through a listing that it missed */
	long pgrp_walks;		/* do_each_pid_task over a process group */
	long checks;			/* invariant checks made while running */
	long checks_skipped;		/* the model did not come to rest within --stall */
	long live;			/* live model threads (pthreads) now */
	long peak;			/* most at once */
	long ramp_target;		/* the population a free run's start grows to... */
	long ramp_ms;			/* ...reached this far into the run; -1 not (yet) */
	long actors;			/* actor pthreads not yet finished */
};

#define stat_inc(run, field)	__atomic_fetch_add(&(run)->stats.field, 1, __ATOMIC_RELAXED)
#define stat_add(run, field, n)	__atomic_fetch_add(&(run)->stats.field, (n), __ATOMIC_RELAXED)

void cgt_stats_snapshot(const struct cgt_stats *live, struct cgt_stats *out);
/* Seconds into the run at which the ramp reached its target, or -1. */
static inline double cgt_stats_ramp_s(const struct cgt_stats *s)
{
	return s->ramp_ms >= 0 ? (double)s->ramp_ms / 1000 : -1.0;
}
void cgt_print_stats(FILE *f, const struct cgt_stats *s, double elapsed, long failures,
		     const struct cgt_phase *phase);
void cgt_print_progress(FILE *f, const struct cgt_stats *s, double elapsed, double duration,
			long failures);

#endif
