/* SPDX-License-Identifier: GPL-2.0 */
/* The stress run: its configuration, its statistics, and the actors that drive the model. */
#ifndef CGT_RUN_H
#define CGT_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../base/clock.h"
#include "../base/prng.h"
#include "../model/model.h"
#include "../sched/sched.h"

#define CGT_OPS(X)				\
	X(FORK,		"fork")			\
	X(EXEC,		"exec")			\
	X(EXIT,		"exit")			\
	X(MIGRATE,	"migrate")		\
	X(OBSERVE,	"observe")

enum cgt_op {
#define X(id, name) CGT_OP_##id,
	CGT_OPS(X)
#undef X
	CGT_NR_OPS
};

extern const char *const cgt_op_names[CGT_NR_OPS];

struct cgt_run_config {
	double duration;		/* seconds */
	uint64_t seed;
	int threads;			/* cap on live model threads */
	int walkers;			/* dedicated observer pthreads */
	enum cgt_iter iter;
	const struct cgt_lock_ops *css_lock;
	const struct cgt_lock_ops *tasklist_lock;
	unsigned int mix[CGT_NR_OPS];	/* weights of the operations */
	int clone_thread_pct;		/* share of forks that are CLONE_THREAD */
	double stats_interval;		/* seconds between stats lines; 0: none */
	int stack_kib;			/* pthread stack of a model thread */
	bool quiet;			/* no banner, stats or progress: summary only */
	/* detectors */
	double stall;			/* a walk older, a wait longer, is reported */
	double starve;			/* a writer passed over this long is starved */
	double check_interval;		/* seconds between invariant checks; 0: at the end only */
	int perturb;			/* per mille of marked points that delay or yield */
	unsigned long bugs;		/* 1 << enum cgt_bug */
	int stop_on;			/* end the run when this detector reports (see below) */
	int expect;			/* enum cgt_expect */
	const char *out;		/* results folder */
	/* controlled schedules (src/sched): none for a free-running run */
	const struct cgt_sched_ops *sched;
	int depth;			/* PCT's bug depth */
	int steps;			/* the controlled run's length, in decisions */
	bool check_determinism;		/* run twice, compare the schedules */
	const struct cgt_schedule *follow;	/* replay: the choices to make */
	bool lenient;			/* shrink: follow as far as it fits */
	long follow_stop_step;		/* replay: the decision the recorded run stopped at */
	bool no_report;			/* shrink's trial runs: a failure writes no report */
	const char *banner;		/* every setting, as the start banner shows them */
	const char *command;		/* the command line that repeats this run */
};

enum cgt_expect { CGT_EXPECT_NONE, CGT_EXPECT_PASS, CGT_EXPECT_FAIL };
#define CGT_STOP_ON_NONE	(-1)
#define CGT_STOP_ON_ANY		CGT_NR_DETECTORS

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
	long pgrp_walks;		/* do_each_pid_task over a process group */
	long checks;			/* invariant checks made while running */
	long live;			/* live model threads (pthreads) now */
	long peak;			/* most at once */
	long actors;			/* actor pthreads not yet finished */
};

struct cgt_run_result {
	struct cgt_stats stats;
	double elapsed;
	bool quiesced;			/* every model thread came to rest for the last check */
	bool finished;			/* every model thread gone in time */
	long failures;			/* reports of every detector */
	double first_failure;		/* seconds into the run, or -1 */
	char run_id[64];
	char report_dir[512];		/* where report.json went, if anywhere */
	int interrupted;		/* the signal (SIGINT, SIGTERM) that ended it early, or 0 */
	bool pass;
	/* a controlled run */
	long steps;			/* decisions made */
	long stop_step;			/* the decision at which it was told to stop, or -1 */
	long diverged;			/* where a followed schedule stopped fitting, or -1 */
	char diverged_why[160];
};

/* Exit statuses of a run: 0 as expected, 1 unexpected failure, 2 bad usage, 3 missed. */
#define CGT_RUN_EXIT_OK		0
#define CGT_RUN_EXIT_FAIL	1
#define CGT_RUN_EXIT_USAGE	2
#define CGT_RUN_EXIT_MISSED	3

/* report.c: print the summary, write the report of a failure, and say how to exit. */
int cgt_run_finish(const struct cgt_run_config *cfg, struct cgt_run_result *res);
int cgt_report_write(const struct cgt_run_config *cfg, struct cgt_run_result *res);
/* 0 if @dir can be made and written, else -errno (checked before a run starts). */
int cgt_report_check_dir(const char *dir);
/* @dir/@name written through a temporary file and a rename: never seen half-written. */
int cgt_write_atomic(const char *dir, const char *name, const char *buf, size_t len);
/* catalogue.c */
struct cgt_bug_info {
	const char *name;
	const char *history;		/* the kernel's story */
	enum cgt_detector detector;	/* what must catch it */
	const char *build;		/* plain, tsan or asan */
	const char *twin;		/* what the fixed twin does instead */
	const char *options;		/* options that make it show quickly */
	const char *explore;		/* options that let cgtorture explore find it */
};
extern const struct cgt_bug_info cgt_bug_catalogue[CGT_NR_BUGS];
void cgt_bugs_print(FILE *f, bool tsv);
void cgt_locks_print(FILE *f);

/* actor.c: one pthread per model thread */
struct cgt_run;
int cgt_actors_init(struct cgt_run *run);
extern const struct cgt_model_hooks cgt_actor_hooks;
int cgt_fork_from(struct cgt_run *run, struct task *parent, bool thread);

/* ops.c: what a model thread does */
enum cgt_op_result { CGT_OP_DONE, CGT_OP_EXITED };
enum cgt_op cgt_pick_op(const struct cgt_run_config *cfg, struct prng *rng);
enum cgt_op_result cgt_do_op(struct cgt_run *run, struct task *me, enum cgt_op op,
			     struct prng *rng);
/* A reader that keeps watching one process for a while, as a monitor polling taskstats. */
struct cgt_watch {
	int tgid;
	int left;			/* walks of it still to do */
};
void cgt_observe(struct cgt_run *run, struct prng *rng, struct cgt_watch *watch);

/* run.c */
struct cgt_run {
	const struct cgt_run_config *cfg;
	struct cgt_stats stats;
	int stop;			/* every model thread exits at its next loop top */
	int pause;			/* every model thread parks at its next loop top */
	int parked;
	pthread_mutex_t park_lock;
	pthread_cond_t park_cond;
	int failed;			/* the --stop-on detector reported: end now */
	double start;
	/* a controlled run */
	bool final;			/* the pause under way is the last one */
	bool story_of_target;		/* the story told is of the --stop-on detector's failure */
	long stop_step;
	long next_check_step;
};

/* A controlled run holds the model still for a check this often, in decisions. */
#define CGT_CHECK_DECISIONS	2000
int cgt_run(const struct cgt_run_config *cfg, struct cgt_run_result *res);
void cgt_run_interrupt(int sig);
int cgt_run_interrupted(void);		/* the signal that asked for the end, or 0 */
void cgt_run_park(struct cgt_run *run, struct task *me);
static inline bool cgt_run_stopping(struct cgt_run *run)
{
	return __atomic_load_n(&run->stop, __ATOMIC_ACQUIRE);
}

/* output.c */
void cgt_print_stats(FILE *f, const struct cgt_stats *s, double elapsed, long failures);
void cgt_print_progress(FILE *f, const struct cgt_stats *s, double elapsed, double duration,
			long failures);
void cgt_print_summary(FILE *f, const struct cgt_run_config *cfg, const struct cgt_run_result *r);
void cgt_stats_snapshot(const struct cgt_stats *live, struct cgt_stats *out);

#define stat_inc(run, field)	__atomic_fetch_add(&(run)->stats.field, 1, __ATOMIC_RELAXED)
#define stat_add(run, field, n)	__atomic_fetch_add(&(run)->stats.field, (n), __ATOMIC_RELAXED)


#endif
