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

/*
 * Counters a run keeps, beside the operations done: the field, its key in report.json's
 * stats (NULL: not there), and what it counts. One list makes the struct and the JSON (in
 * this order); the summary tells them in sentences (report/output.c).
 */
#define CGT_STATS(X)								\
	X(peak,			"peak_live_threads", "most live model threads at once")	\
	X(fork_thread,		"fork_threads",	"of the forks, CLONE_THREAD")	\
	X(fork_at_cap,		"fork_at_cap",	"refused: --threads live already") \
	X(fork_eagain,		"fork_eagain",	"pthread_create failed: a failed fork") \
	X(fork_eintr,		"fork_eintr",	"parent killed mid-fork (an exec)") \
	X(exec_eagain,		"exec_eagain",	"lost the race to another exec") \
	X(killed,		"killed",	"threads that exited on SIGKILL (an exec)") \
	X(migrate_esrch,	"migrate_esrch", "target gone")			\
	X(walks,		"walks",	"thread-group walks")		\
	X(walk_steps,		"walk_steps",	"threads the walks visited")	\
	X(livelocks,		"livelocked_walks", "walks cut short past the walk limit") \
	X(iters,		"task_iters",	"css_task_iter runs")		\
	X(readdirs,		"readdirs",	"proc_task_readdir runs")	\
	X(readdir_missed,	"readdir_missed", "threads alive through a listing that it missed") \
	X(pgrp_walks,		"pgrp_walks",	"do_each_pid_task over a process group") \
	X(checks,		"checks",	"invariant checks made while running") \
	X(checks_skipped,	"checks_skipped", "the model did not come to rest within --stall") \
	X(iter_tasks,		NULL,		"the tasks the css_task_iter runs met") \
	X(counts,		NULL,		"cgroup_task_count runs")	\
	X(shows,		NULL,		"proc_cgroup_show runs")	\
	X(readdir_tasks,	NULL,		"the threads the listings listed") \
	X(live,			NULL,		"live model threads (pthreads) now") \
	X(ramp_target,		NULL,		"the population a free run's start grows to...") \
	X(ramp_ms,		NULL,		"...reached this far into the run; -1 not (yet)") \
	X(actors,		NULL,		"actor pthreads not yet finished")

/* relaxed atomics, summed as they go */
struct cgt_stats {
	long ops[CGT_NR_OPS];		/* operations completed */
#define X(field, key, what) long field;
	CGT_STATS(X)
#undef X
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
		     long known, const struct cgt_phase *phase);
void cgt_print_progress(FILE *f, const struct cgt_stats *s, double elapsed, double duration,
			long failures);

#endif
