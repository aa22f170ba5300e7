/* SPDX-License-Identifier: GPL-2.0 */
/* The stress run (run.c): its configuration, its result, and the call that runs it. */
#ifndef CGT_RUN_H
#define CGT_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../base/clock.h"
#include "../base/exit_status.h"
#include "../model/model.h"
#include "../sched/sched.h"
#include "ops.h"
#include "press.h"
#include "stats.h"
#include "swarm.h"

struct cgt_run_config {
	double duration;		/* seconds */
	uint64_t seed;
	int threads;			/* cap on live model threads */
	bool threads_drawn;		/* the swarm drew it for the whole run (swarm.c) */
	int walkers;			/* dedicated observer pthreads */
	enum cgt_iter iter;
	const struct cgt_kernel_era *era;	/* --kernel */
	bool kernel_given;		/* --kernel named: its catalogued behaviour is known */
	const struct cgt_lock_ops *css_lock;
	const struct cgt_lock_ops *tasklist_lock;
	unsigned int mix[CGT_NR_OPS];	/* weights of the operations */
	int clone_thread_pct;		/* share of forks that are CLONE_THREAD */
	int reap_delay;			/* model operations a zombie waits for its parent */
	int pid_max;			/* numbers reused past it; 0: never */
	double stats_interval;		/* seconds between stats lines; 0: none */
	int stack_kib;			/* pthread stack of a model thread */
	bool quiet;			/* no banner, stats or progress: summary only */
	/* detectors */
	double stall;			/* a walk older, a wait longer, is reported */
	double off_cpu;			/* one threadgroup reader off the CPU this long; 0: none */
	double starve;			/* a writer passed over this long is starved */
	double check_interval;		/* seconds between invariant checks; 0: at the end only */
	int perturb;			/* per mille of marked points that delay or yield */
	unsigned int swarm;		/* 1 << enum cgt_swarm_dim: the dimensions phases draw */
	unsigned long bugs;		/* 1 << enum cgt_bug */
	int stop_on;			/* end the run when this detector reports (see below) */
	int expect;			/* enum cgt_expect */
	const char *out;		/* results folder */
	/* controlled schedules (src/sched): none for a free-running run */
	const struct cgt_sched_ops *sched;
	struct cgt_sched_tunables sched_tunables;	/* the scheduler's own: --depth, ... */
	int steps;			/* the controlled run's length, in decisions */
	int lock_mode;			/* enum cgt_lock_mode: --locks */
	bool check_determinism;		/* run twice, compare the schedules */
	const struct cgt_schedule *follow;	/* replay: the choices to make */
	bool lenient;			/* shrink: follow as far as it fits */
	long follow_stop_step;		/* replay: the decision the recorded run stopped at */
	bool no_report;			/* shrink's trial runs: a failure writes no report */
	const char *banner;		/* every setting, as the start banner shows them */
	const char *command;		/* the command line that repeats this run */
};

/*
 * How a controlled run takes the model's locks: the scheduler keeps each by its variant's
 * policy (model: few decisions, fast), or each variant that can be stepped through runs its
 * own code with a decision at each atomic operation (code: finds a variant's own bugs), or
 * one of the two by the seed's parity (both).
 */
enum cgt_lock_mode { CGT_LOCKS_BOTH, CGT_LOCKS_MODEL, CGT_LOCKS_CODE };
bool cgt_run_lock_code(const struct cgt_run_config *cfg);

/* known: a pass on which the era's catalogued behaviour showed (cgt_run_result.known) */
enum cgt_expect { CGT_EXPECT_NONE, CGT_EXPECT_PASS, CGT_EXPECT_FAIL, CGT_EXPECT_KNOWN };
#define CGT_STOP_ON_NONE	(-1)
#define CGT_STOP_ON_ANY		CGT_NR_DETECTORS

struct cgt_run_result {
	struct cgt_stats stats;
	struct cgt_cover cover;		/* marked points passed and kernel paths taken */
	double elapsed;
	bool quiesced;			/* every model thread came to rest for the last check */
	bool finished;			/* every model thread gone in time */
	long failures;			/* reports of every detector */
	long known;			/* of them, the era's known behaviour (not a FAIL) */
	double first_failure;		/* seconds into the run, or -1 */
	char run_id[64];
	char report_dir[512];		/* where report.json went, if anywhere */
	char pictures_note[192];	/* what of the report's pictures could not be made */
	int interrupted;		/* the signal (SIGINT, SIGTERM, SIGPIPE) that ended it early,
					 * or 0 */
	bool unwritten;			/* its report was due and could not be written */
	struct cgt_press presses[CGT_PRESS_LOG];	/* reader pressure the driver applied */
	int npresses;
	bool pass;
	/* a controlled run */
	long steps;			/* decisions made */
	long stop_step;			/* the decision at which it was told to stop, or -1 */
	long diverged;			/* where a followed schedule stopped fitting, or -1 */
	char diverged_why[160];
};


/* A controlled run holds the model still for a check this often, in decisions. */
#define CGT_CHECK_DECISIONS	2000
/*
 * A run's hard deadline, in seconds from its start: its duration, a stall for the final check,
 * 4 s for the rest of its end, and a second for each 2,000 threads it may hold, all of which
 * its end drains (7,000 exits a second here idle, nearer 2,000 beside two CPU burners).
 */
double cgt_run_deadline_s(const struct cgt_run_config *cfg);
/* What a controlled run's scheduler is started with, from @cfg's options. */
struct cgt_sched_params cgt_run_sched_params(const struct cgt_run_config *cfg);

/*
 * What the caller of a run has done at its moments, so the run never calls the layers above
 * it; any may be NULL. begin: before the first model thread starts. failure: as each failure
 * is recorded (@nth: how many so far), on the thread that saw it, while the other threads
 * are still where they were. abort: the run must end at once (its hard deadline passed, or
 * a sanitizer is about to abort): write what there is and return the exit status.
 */
struct cgt_run_hooks {
	void (*begin)(const struct cgt_run_config *cfg);
	void (*failure)(const struct cgt_run_config *cfg, enum cgt_detector det, long nth);
	int (*abort)(const struct cgt_run_config *cfg, struct cgt_run_result *res);
};

int cgt_run(const struct cgt_run_config *cfg, const struct cgt_run_hooks *hooks,
	    struct cgt_run_result *res);
void cgt_run_interrupt(int sig);
int cgt_run_interrupted(void);		/* the signal that asked for the end, or 0 */

#endif
