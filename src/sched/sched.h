/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Controlled schedules. The model's pthreads run one at a time: the one that holds the baton
 * runs until its next marked point, where the scheduler picks who runs next from those that
 * can (a thread blocked on a model lock, a grace period, siglock or a group exit cannot) and
 * records the choice. Same seed and configuration, same choices; a recorded schedule can be
 * followed again, exactly (replay) or as far as it still fits (shrinking).
 *
 * The baton is passed through futexes and relaxed atomics with standalone fences, which
 * ThreadSanitizer does not model: it sees no order between the threads but what the model's
 * own locks, RCU and atomics give, so a data race stays a data race in a controlled run.
 * The scheduler's own state is touched only by the baton holder (or by the driver while no
 * one holds it), and TSan is told not to look at it (CGT_UNSEEN).
 */
#ifndef CGT_SCHED_H
#define CGT_SCHED_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "schedule.h"
#include "../base/compiler.h"

struct cgt_thread;
struct rcu_head;
struct cgt_sched_ent;

/*
 * What a scheduler is started with: its seed and its parameters, one struct, so that a
 * scheduler with a parameter of its own adds a field here and reads it where it starts.
 */
/*
 * A scheduler's own parameters, each an option of the run: a line of the run's table
 * (run/options.c) that points into struct cgt_run_config's copy of this struct, which the
 * scheduler is started with. A new one is a field here and that line.
 */
struct cgt_sched_tunables {
	int depth;			/* PCT's bug depth d */
	int preemptions;		/* bounded's K: preemptions at most */
};

struct cgt_sched_params {
	uint64_t seed;
	long steps;			/* the run's length in decisions: PCT's k */
	struct cgt_sched_tunables tunables;
};

/* A scheduler, as a lock variant is a lock: one ops table per policy (sched_registry.c). */
struct cgt_sched_ops {
	const char *name;
	const char *desc;
	void (*start)(const struct cgt_sched_params *p);
	void (*new_thread)(struct cgt_sched_ent *e);
	/* @e finished an operation (its loop's marked point): a scheduler may let others go */
	void (*yielded)(struct cgt_sched_ent *e);
	/* the next to run among @n runnable (n >= 1), ordered by thread number */
	struct cgt_sched_ent *(*pick)(struct cgt_sched_ent **runnable, int n,
				      struct cgt_sched_ent *cur, long step);
	/* the least chance that one run of @threads finds a bug of depth d, or 0 */
	double (*bound)(const struct cgt_sched_params *p, int threads);
};

extern const struct cgt_sched_ops *const cgt_schedulers[];
extern const int cgt_nr_schedulers;
const struct cgt_sched_ops *cgt_sched_find(const char *name);
const char *cgt_sched_names(void);

enum cgt_ent_state { CGT_ENT_RUNNABLE, CGT_ENT_BLOCKED, CGT_ENT_DEAD };

/* One schedulable thread: an actor, a walker, or init. */
struct cgt_sched_ent {
	int id;				/* T<id>: the order the scheduler met it in */
	int state;			/* enum cgt_ent_state */
	const void *blocked_on;
	int gate;			/* futex: 1 when it holds the baton */
	int slot;			/* in the table of live threads */
	long last_ran;			/* the decision it last ran at (or was added at) */
	uint64_t prio;			/* PCT's priority */
	long resume_at;			/* bounded: preempted, it sits out until this decision */
	int rcu_depth;			/* read-side nesting */
	unsigned long rcu_qs;		/* outermost rcu_read_unlock()s so far */
	const void *lock_wait;		/* the model lock it queues for, and how */
	int lock_side;
	long lock_ticket;
	struct cgt_thread *thread;	/* what the detectors see of it, once it runs */
};

struct cgt_sched_config {
	const struct cgt_sched_ops *ops;
	struct cgt_sched_params params;
	const struct cgt_schedule *follow;	/* choices to follow, or NULL */
	bool lenient;			/* where @follow no longer fits, go on as best we can */
	bool lock_code;			/* run the variants' own code where they can be stepped */
	const void *park;		/* what parked threads block on */
	/*
	 * called by the baton holder at every decision, once grace periods have advanced: the
	 * run's clock, and its detectors' look at each decision
	 */
	void (*tick)(long step);
};

/*
 * The scheduler's state is handed from thread to thread with the baton, which TSan cannot
 * see: every entry point hides its accesses (its callees' and libc's included) with CGT_UNSEEN.
 */
#ifdef CGT_TSAN
void AnnotateIgnoreReadsBegin(const char *file, int line);
void AnnotateIgnoreReadsEnd(const char *file, int line);
void AnnotateIgnoreWritesBegin(const char *file, int line);
void AnnotateIgnoreWritesEnd(const char *file, int line);

static inline int cgt_unseen_begin(void)
{
	AnnotateIgnoreReadsBegin(__FILE__, __LINE__);
	AnnotateIgnoreWritesBegin(__FILE__, __LINE__);
	return 0;
}

static inline void cgt_unseen_end(int *unused)
{
	(void)unused;
	AnnotateIgnoreWritesEnd(__FILE__, __LINE__);
	AnnotateIgnoreReadsEnd(__FILE__, __LINE__);
}
#define CGT_UNSEEN() \
	int cgt_unseen_ __attribute__((cleanup(cgt_unseen_end), unused)) = cgt_unseen_begin()
#else
#define CGT_UNSEEN() do { } while (0)
#endif

extern bool cgt_sched_enabled;		/* set for the whole of a controlled run */
extern __thread struct cgt_sched_ent *cgt_sched_self;

static inline bool cgt_sched_on(void)
{
	return unlikely(cgt_sched_enabled);
}

/* The driver: intercept.c starts and ends a controlled run, sched.c's baton with its hooks. */
int cgt_sched_init(const struct cgt_sched_config *cfg);
int cgt_sched_baton_init(const struct cgt_sched_config *cfg);
void cgt_sched_baton_finish(void);
void cgt_sched_add(struct cgt_sched_ent *e);	/* before its pthread runs, by its creator */
void cgt_sched_kick(void);			/* the driver hands out the baton */
enum cgt_sched_idle { CGT_IDLE_BUSY, CGT_IDLE_DONE, CGT_IDLE_PARKED, CGT_IDLE_DEADLOCK };
/* Wait up to @timeout s for no thread to hold the baton, and say why none does. */
enum cgt_sched_idle cgt_sched_wait_idle(double timeout);
void cgt_sched_request_stop(void);		/* the wall-clock cap: tick sees it next */
bool cgt_sched_stop_requested(void);
void cgt_sched_finish(void);
long cgt_sched_steps(void);
const struct cgt_schedule *cgt_sched_recorded(void);
/* A preemption: at @step, T@from could go on but T@to ran instead. */
struct cgt_preemption {
	long step;
	int from, to;
};
/* The run's preemptions so far, in order (@at: where they are; may be NULL). */
long cgt_sched_preemptions(const struct cgt_preemption **at);
/* Where a followed schedule stopped fitting (-1: it fitted), and why. */
long cgt_sched_diverged(char *why, size_t len);
int cgt_sched_max_id(void);
/* The threads blocked on something other than parking, for a deadlock's report. */
int cgt_sched_blocked(struct cgt_sched_ent **out, int max);

/* The model's threads. */
void cgt_sched_enter(struct cgt_sched_ent *e);	/* first thing its pthread does: wait its turn */
void cgt_sched_exit(void);			/* last: pass the baton on for good */
void cgt_sched_point(int point);		/* a marked point: a decision */
void cgt_sched_step(void);			/* a decision inside a lock variant's code */
void cgt_sched_block(const void *obj);		/* wait until cgt_sched_wake(@obj) */
void cgt_sched_wake(const void *obj);
void cgt_sched_wake_ent(struct cgt_sched_ent *e, const void *obj);
/* Wake only the threads blocked on @obj that @can says may now go on. */
void cgt_sched_wake_if(const void *obj, bool (*can)(struct cgt_sched_ent *e));

/* RCU under the scheduler: grace periods end, and callbacks run, at decisions. */
void cgt_sched_rcu_lock(void);
void cgt_sched_rcu_unlock(void);
void cgt_sched_call_rcu(struct rcu_head *head, void (*func)(struct rcu_head *head));
void cgt_sched_synchronize_rcu(void);
void cgt_sched_rcu_barrier(void);

/*
 * Model locks under the scheduler: the variant's fairness, kept by the scheduler
 * (coop_lock.c). RCU, siglock and these reach the scheduler through core/sync.h's hooks,
 * which cgt_sched_init() installs (intercept.c).
 */
struct cgt_lock;
void cgt_coop_lock(struct cgt_lock *lock, int side);
void cgt_coop_unlock(struct cgt_lock *lock, int side);
void cgt_coop_init(struct cgt_lock *lock);
void cgt_coop_reset(void);

#endif
