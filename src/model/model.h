/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel model: thread groups, pids and cgroups as Linux 3.14/3.15 links them, in user
 * space. Structures and fields keep their kernel names; each says what it mirrors.
 *
 * Operations take the acting task explicitly (the kernel's `current`), so a test can drive
 * the model from one thread and the stress driver from a pthread per model thread. The model
 * knows nothing of pthreads: copy_process() asks the driver, through struct cgt_model_hooks,
 * to make an execution context for the child and to start it.
 */
#ifndef CGT_MODEL_H
#define CGT_MODEL_H

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include <urcu/rculfhash.h>

#include "../core/failure.h"
#include "../core/rcu.h"
#include "../core/thread.h"
#include "../locks/lock.h"
#include "../core/sync.h"
#include "bugs.h"

#define CGT_NR_HIERARCHIES	2	/* cgroupfs roots, e.g. "cpu" and "memory" */
#define CGT_CGROUPS_PER_ROOT	4	/* children of each root */
#define CGT_PID_HASH_BITS	12

enum pid_type {			/* enum pid_type */
	PIDTYPE_PID,
	PIDTYPE_PGID,
	PIDTYPE_SID,
	PIDTYPE_MAX
};

struct pid {			/* struct pid (kernel/pid.c) */
	int nr;				/* upid.nr */
	int count;			/* pid->count: attached tasks + get_pid() */
	struct cds_hlist_head tasks[PIDTYPE_MAX];
	struct cds_hlist_node pid_chain;	/* on pid_hash[] */
	struct rcu_head rcu;		/* delayed_put_pid */
};

struct pid_link {		/* struct pid_link */
	struct cds_hlist_node node;
	struct pid *pid;
};

enum task_exit_state {		/* task->exit_state */
	TASK_ALIVE = 0,
	EXIT_ZOMBIE = 16,
	EXIT_DEAD = 32,
};

#define PF_EXITING	0x4	/* task->flags: getting shut down (exit_signals) */

struct signal_struct;
struct css_set;

struct task {			/* struct task_struct */
	int pid;			/* task->pid: the thread id; exec may change it */
	unsigned long fork_seq;		/* the model's count of forks when it was made */
	int flags;			/* PF_* */
	int exit_state;			/* EXIT_ZOMBIE, EXIT_DEAD */
	int usage;			/* get_task_struct/put_task_struct */
	int sigkill;			/* SIGKILL pending (fatal_signal_pending) */
	int exec_successor;		/* released by de_thread: the tid that took its pid */
	struct task *group_leader;	/* task->group_leader */
	struct signal_struct *signal;	/* task->signal */
	struct cds_list_head tasks;	/* init_task.tasks: leaders only */
	struct cds_list_head thread_group;	/* the old headless ring (next_thread) */
	struct cds_list_head thread_node;	/* on signal->thread_head (for_each_thread) */
	struct pid_link pids[PIDTYPE_MAX];	/* task->pids[] */
	struct css_set *cgroups;	/* task->cgroups: RCU-published */
	struct cds_list_head cg_list;	/* on cgroups->tasks, under css_set_lock */
	struct rcu_head rcu;		/* delayed_put_task_struct */
	uint64_t rcu_retired;		/* unhashed at (cgt_rcu_retire), or 0 */
	int rcu_retired_by;		/* the harness thread that unhashed it */
	struct cds_list_head zombie;	/* waiting for the parent's wait() (exit.c) */
	long zombie_since;		/* the model's operation count when it got there */
	void *ctx;			/* the driver's execution context for this task */
};

#define SIGNAL_GROUP_EXIT	0x4	/* signal->flags: a group exit (or exec) is under way */

struct signal_struct {		/* struct signal_struct (with sighand's siglock) */
	int sigcnt;			/* tasks referring to it; freed with the last */
	int live;			/* threads not yet past exit_signals */
	int nr_threads;			/* hashed threads, under tasklist_lock */
	int flags;			/* SIGNAL_GROUP_EXIT */
	int notify_count;		/* de_thread: threads still to go, or -1 */
	struct task *group_exit_task;	/* the exec-er that de_thread wakes */
	struct cds_list_head thread_head;	/* head of thread_node (3.14) */
	struct cgt_lock group_rwsem;	/* threadgroup_lock (cgroup migration) */
	pthread_mutex_t siglock;	/* sighand->siglock */
	pthread_cond_t group_exit_wait;	/* wake_up_process(sig->group_exit_task) */
};

struct cgroup {			/* struct cgroup */
	int id;
	int hierarchy;			/* which cgroupfs root */
	char name[24];			/* "cpu:/g2" */
	struct cgroup *parent;
	struct cds_list_head cset_links;	/* cgrp_cset_link.cset_link */
	bool dead;			/* CGRP_DEAD: removed; cgroup_lock_live_group refuses it */
};

struct css_set {		/* struct css_set */
	int refcount;			/* tasks pointing at it + transient references */
	struct cds_lfht_node hlist;	/* on css_set_table */
	struct cds_list_head tasks;	/* task->cg_list */
	struct cds_list_head cgrp_links;	/* cgrp_cset_link.cgrp_link */
	struct cds_list_head task_iters;	/* css_task_iter.iters_node: iterators on it (4.4 on) */
	struct cgroup *subsys[CGT_NR_HIERARCHIES];	/* one cgroup per hierarchy */
	struct rcu_head rcu_head;	/* kfree_rcu */
	uint64_t rcu_retired;		/* unlinked by its last put (cgt_rcu_retire), or 0 */
	int rcu_retired_by;		/* the harness thread that did */
};

struct cgrp_cset_link {		/* struct cgrp_cset_link */
	struct cgroup *cgrp;
	struct css_set *cset;
	struct cds_list_head cset_link;	/* on cgrp->cset_links */
	struct cds_list_head cgrp_link;	/* on cset->cgrp_links */
};

/* How css_task_iter holds the css_set lock (era.c): its kernel tree and function in each. */
enum cgt_css_iter {
	CGT_CSS_ITER_WHOLE,		/* from css_task_iter_start to _end (3.14, 3.15) */
	CGT_CSS_ITER_ADVANCE,		/* per step; css_set_move_task advances iterators (4.4) */
	CGT_CSS_ITER_SKIP,		/* per step; css_set_skip_task_iters skips them (6.x) */
};

enum cgt_iter {			/* which thread-group walk */
	CGT_ITER_WHILE_EACH,		/* do { } while_each_thread(g, t) */
	CGT_ITER_FOR_EACH,		/* for_each_thread(p, t) */
};

struct cgt_model_hooks {
	/* dup_task_struct: make an execution context for the child (0 or -errno) */
	int (*spawn)(struct task *child);
	/* wake_up_new_task: let the child run */
	void (*start)(struct task *child);
	/* copy_process failed after spawn: the context must go without running the task */
	void (*abandon)(struct task *child);
	/* signal_wake_up: SIGKILL is pending; a thread held still must go and see it */
	void (*kill)(struct task *t);
	/* direct reclaim, CFS throttling: the caller, holding a lock, leaves the CPU */
	void (*off_cpu)(double seconds);
};

/*
 * era.c: a kernel era (--kernel), a table of behaviours: its locks and the code paths that
 * changed with them, each with the kernel function, tree and commit it follows.
 */
enum cgt_era_behaviour {
	CGT_ERA_TASKLIST_LOCK,
	CGT_ERA_CSS_SET_LOCK,
	CGT_ERA_THREADGROUP,		/* the threadgroup lock, and which forks take it */
	CGT_ERA_ITER,			/* css_task_iter */
	CGT_ERA_ATTACH,			/* cgroup_attach_task's collection of the group */
	CGT_ERA_FORK_EXIT,		/* a task's css_set across fork and exit */
	CGT_ERA_HUNG_TASK,		/* khungtaskd's walk and its break */
	CGT_ERA_PROC_CGROUP,		/* proc_cgroup_show's locks */
	CGT_ERA_OOM_KILL,		/* oom_kill_process's walk of its victim */
	CGT_NR_ERA_BEHAVIOURS
};
extern const char *const cgt_era_behaviour_names[CGT_NR_ERA_BEHAVIOURS];

struct cgt_kernel_era {
	const char *name;		/* "3.15" */
	const char *kernels;		/* the releases it stands for, and the tree read */
	const char *tasklist_lock;	/* lock variants, by name */
	const char *css_set_lock;
	const char *threadgroup_lock;
	bool threadgroup_global;	/* cgroup_threadgroup_rwsem, not signal->group_rwsem */
	bool attach_locks_csets;	/* cgroup_attach_task collects under the css_set lock */
	enum cgt_iter hung_task_iter;	/* khungtaskd's walk of each group */
	bool proc_cgroup_mutex;		/* proc_cgroup_show takes cgroup_mutex (before 6.8) */
	bool fork_copies_cset;		/* cgroup_fork references the parent's css_set (3.14) */
	bool oom_kill_children;		/* oom_kill_process walks its victim's threads (to 5.0) */
	enum cgt_css_iter css_task_iter;	/* whole walk, or per step (4.4 on) */
	const char *desc;		/* what it sets, with the commits */
	/* per behaviour: the kernel's function, tree and commit, and whether the model follows */
	const char *kernel[CGT_NR_ERA_BEHAVIOURS];
};
/* The global threadgroup lock's variant (the kernel's percpu_rw_semaphore). */
#define CGT_THREADGROUP_GLOBAL_LOCK	"percpu-rwsem"
#define CGT_DEFAULT_ERA			"3.15"
extern const struct cgt_kernel_era cgt_kernel_eras[];
extern const size_t cgt_nr_kernel_eras;
const struct cgt_kernel_era *cgt_era_find(const char *name);
const char *cgt_era_names(void);
/* What the model does for behaviour @b in era @e, in words, from the fields it runs on. */
const char *cgt_era_value(const struct cgt_kernel_era *e, enum cgt_era_behaviour b, char *buf,
			  size_t len);

/* What the model must know of a run. */
struct cgt_model_config {
	const struct cgt_kernel_era *era;	/* NULL: the default era */
	const struct cgt_lock_ops *css_set_lock_ops;
	const struct cgt_lock_ops *tasklist_lock_ops;
	const struct cgt_model_hooks *hooks;
	enum cgt_iter iter;		/* the walk used by the model's own walkers */
	long walk_limit;		/* a walk longer than this is reported as a livelock */
	unsigned long bugs;		/* 1 << enum cgt_bug: mistakes put back */
	/*
	 * The parent's wait(): a dead process stays a zombie (hashed, one task) for this many
	 * of the model's operations before its parent reaps it; 0, at once (the parent
	 * ignores SIGCHLD).
	 */
	long reap_delay;
	/*
	 * pid_max: numbers are handed out again past it, from RESERVED_PIDS on, as the
	 * kernel's alloc_pidmap does; 0, never (numbers only grow).
	 */
	int pid_max;
	/*
	 * --off-cpu: the 16th reader of the threadgroup lock stays off the CPU this long holding
	 * it (hooks->off_cpu); 0, never.
	 */
	double off_cpu;
};

/* Live objects of each kind, for the leak check. */
struct cgt_model_counts {
	long tasks, signals, pids, csets, links;
};

/* The model's globals, named as in the kernel. */
extern struct task init_task;
extern struct css_set init_css_set;
extern struct cgt_lock tasklist_lock;
extern struct cgt_lock css_set_lock;
extern struct cgt_lock cgroup_mutex;
extern struct cgt_lock cgroup_threadgroup_rwsem;
extern struct cgroup cgroups[CGT_NR_HIERARCHIES][CGT_CGROUPS_PER_ROOT + 1];

/* model.c */
int cgt_model_init(const struct cgt_model_config *cfg);
int cgt_model_exit(char *why, size_t len);
/* cgt_model_exit() in its steps, for a caller that checks for leaks itself in between. */
void cgt_model_release_init(void);
void cgt_model_free(void);
const struct cgt_model_config *cgt_model_cfg(void);
void cgt_model_counts(struct cgt_model_counts *out);
void cgt_model_count(long *counter, long delta);
extern struct cgt_model_counts cgt_live;

/* task.c */
void get_task_struct(struct task *t);
void put_task_struct(struct task *t);
static inline bool thread_group_leader(struct task *p)
{
	return READ_ONCE(p->group_leader) == p;
}
static inline bool fatal_signal_pending(struct task *p)
{
	return READ_ONCE(p->sigkill) != 0;
}
static inline bool pid_alive(struct task *p)
{
	return READ_ONCE(p->pids[PIDTYPE_PID].pid) != NULL;
}
static inline int task_tgid_nr(struct task *p)
{
	return READ_ONCE(rcu_dereference(p->group_leader)->pid);
}
bool thread_group_empty(struct task *p);
/* signal_group_exit: a group exit or an exec is tearing the group down; under siglock. */
static inline bool signal_group_exit(const struct signal_struct *sig)
{
	return (sig->flags & SIGNAL_GROUP_EXIT) || sig->group_exit_task;
}

/* pid.c */
struct pid *alloc_pid(void);
void put_pid(struct pid *pid);
void free_pid(struct pid *pid);
struct pid *find_vpid(int nr);
void get_pid(struct pid *pid);
struct task *pid_task(struct pid *pid, enum pid_type type);
struct task *find_task_by_vpid(int nr);
void attach_pid(struct task *task, enum pid_type type, struct pid *pid);
void detach_pid(struct task *task, enum pid_type type);
void change_pid(struct task *task, enum pid_type type, struct pid *pid);
void transfer_pid(struct task *old, struct task *new, enum pid_type type);
#define RESERVED_PIDS	300		/* kernel/pid.c: where the numbers wrap to */
#define PID_MAX_LIMIT	4194304		/* include/linux/threads.h, 64-bit */
/* The number handed out @back allocations before the last, as far as the pid space allows. */
int cgt_pid_back(int back);
int cgt_last_pid(void);
int cgt_pid_space_init(int pid_max);
void cgt_ns_last_pid_write(int nr);
void cgt_pid_space_free(void);

/* fork.c */
#define CLONE_THREAD	0x00010000
int copy_process(struct task *parent, unsigned long clone_flags, struct task **child);

/* exit.c */
void do_exit(struct task *tsk);
void do_group_exit(struct task *tsk);
void release_task(struct task *p);
/* The parent's wait() for zombies due (every one with @all); each model operation ticks. */
void cgt_reap_zombies(bool all);
/* A new reap delay (see cgt_model_config) from now on: zombies queued wait out the new one. */
void cgt_set_reap_delay(long delay);

/* exec.c */
int de_thread(struct task *tsk);

/* cgroup.c */
/*
 * The @nth reader of the threadgroup lock from now (1: the next) leaves the CPU for @seconds
 * holding it (hooks->off_cpu), as --off-cpu and its swarm dimension ask.
 */
void cgt_model_off_cpu_arm(double seconds, long nth);
void cgroup_fork(struct task *child, struct task *parent);
void cgroup_cancel_fork(struct task *child);
void cgroup_post_fork(struct task *child, struct task *parent);
void cgroup_exit(struct task *tsk);
struct css_set *task_css_set(struct task *t);
void get_css_set(struct css_set *cset);
void put_css_set(struct css_set *cset);
int cgroup_attach_task(struct cgroup *cgrp, struct task *leader, bool threadgroup);
int cgroup_procs_write(struct cgroup *cgrp, int pid);
int cgroup_tasks_write(struct cgroup *cgrp, int pid);
int cgroup_task_count(const struct cgroup *cgrp);
/* The run's end: every cgroup goes offline, so writes still queued on cgroup_mutex leave. */
void cgroup_offline_all(void);
int proc_cgroup_show(struct task *t, char *buf, size_t len);
struct cgroup *task_cgroup(struct task *t, int hierarchy);
void threadgroup_lock(struct task *tsk);
void threadgroup_unlock(struct task *tsk);
void threadgroup_change_begin(struct task *tsk);
void threadgroup_change_end(struct task *tsk);

/*
 * css_task_iter: the tasks of a cgroup. 3.14/3.15 hold css_set_lock for reading from start to
 * end; from 4.4 (4.2, "cgroup: don't hold css_set_rwsem across css task iteration") each call
 * takes it alone, and what keeps the walk valid between calls is in the iterator: the css_set
 * pinned and registered on its task_iters, the last task returned referenced.
 */
struct css_task_iter {
	const struct cgroup *cgrp;
	struct cds_list_head *cset_pos;	/* position among cgrp->cset_links */
	struct cds_list_head *task_pos;	/* whole walk: the task returned; per step: the next */
	long steps;
	bool locked;			/* whole walk: css_set_lock held until css_task_iter_end */
	enum cgt_css_iter mode;
	/* per step */
	struct css_set *cur_cset;	/* pinned (get_css_set), with the iterator on task_iters */
	struct task *cur_task;		/* the task returned last, referenced (get_task_struct) */
	struct cds_list_head iters_node;	/* on cur_cset->task_iters */
	bool skipped;			/* CSS_TASK_ITER_SKIPPED: task_pos already moved on (6.x) */
};
void css_task_iter_start(const struct cgroup *cgrp, struct css_task_iter *it);
struct task *css_task_iter_next(struct css_task_iter *it);
void css_task_iter_end(struct css_task_iter *it);

/* fork.c: forks so far, each task stamped with it (task.fork_seq) */
extern unsigned long cgt_fork_seq;

/* walk.c: the two thread-group walks, one step at a time, under rcu_read_lock. */
struct cgt_walk {
	enum cgt_iter iter;
	const char *fn;			/* the kernel function that walks */
	struct task *start;		/* g in while_each_thread(g, t), p in for_each_thread(p, t) */
	struct task *cur;
	int start_pid;
	long steps;			/* threads visited */
	/*
	 * of which made before the walk began: a group that keeps forking lengthens a walk
	 * without bound, and only these say it went further than its group could hold
	 */
	long old_steps;
	unsigned long fork_seq;		/* the model's count of forks when it began */
	long live;			/* of which not yet exiting */
	bool overran;			/* cut short as a livelock (too long, or told to stop) */
	/* Brent's cycle finding: a thread met twice, the walk went round without its end */
	const struct task *anchor;
	long power, lap;
	bool looped;
	const char *why;		/* then: why it was stopped */
	uint64_t section;		/* the RCU read-side section it runs in (0: none) */
	bool rcu_reported;		/* an RCU lifetime broken: reported once a walk */
	/*
	 * The walker ends the walk itself: khungtaskd's rcu_lock_break ends its scan once the
	 * start or the current thread is unhashed, at most HUNG_TASK_BATCHING steps after any
	 * step, so neither a second meeting nor the walk's length is a livelock there.
	 */
	bool bounded;
	bool cut_short;			/* and it did: a lock break found a thread unhashed */
	/* a lock its walker holds across it (oom_kill_process's tasklist_lock), or NULL */
	const struct cgt_lock *held;
	char fate[96];			/* and what became of the start thread */
};

/* Why a walk stopped at walk_limit. */
#define CGT_WALK_TOO_LONG	"more steps among the threads it began with than the group could ever hold"
/* Why a walk stopped on meeting a thread a second time. */
#define CGT_WALK_LOOPED		"it met a thread a second time: round the ring without its end"

/* next_thread: p->thread_group.next, the old headless ring. */
static inline struct task *next_thread(const struct task *p)
{
	return container_of(rcu_dereference(p->thread_group.next), struct task, thread_group);
}

/* @fn: the kernel function that walks (find_lock_task_mm, ...), named in reports */
struct task *cgt_walk_first(struct cgt_walk *w, struct task *start, enum cgt_iter iter,
			    const char *fn);
struct task *cgt_walk_next(struct cgt_walk *w);
/* Stop @w at its next step (from its own thread, inside the walk): a livelock. */
void cgt_walk_stop(struct cgt_walk *w, const char *why);

/* Visit every thread of @start's group with walk @iter; `break` and `continue` work. */
#define cgt_walk_for_each(w, start, iter, fn, t)				\
	for ((t) = cgt_walk_first((w), (start), (iter), (fn)); (t); (t) = cgt_walk_next(w))

/* The same, for a walk that @w's walker bounds itself (struct cgt_walk.bounded). */
#define cgt_walk_for_each_bounded(w, start, iter, fn, t)			\
	for ((t) = cgt_walk_first((w), (start), (iter), (fn)), (w)->bounded = true; (t);	\
	     (t) = cgt_walk_next(w))

/* The same, for a walk its walker makes holding @lock (struct cgt_walk.held). */
#define cgt_walk_for_each_held(w, start, iter, fn, lock, t)			\
	for ((t) = cgt_walk_first((w), (start), (iter), (fn)), (w)->held = (lock); (t);	\
	     (t) = cgt_walk_next(w))
/*
 * A walk gone round a ring without its end while its walker holds a lock (struct
 * cgt_walk.held) that no writer waits for yet: the kernel's would spin on, keeping that
 * lock's writers out, so the model's goes on (to the walk limit) until one waits, and its
 * report can say whom the loop keeps out.
 */
bool cgt_walk_holds_on(const struct cgt_walk *w);

/* The walkers, each in the file named after its kernel file. */
int fill_stats_for_tgid(int tgid, enum cgt_iter iter, struct cgt_walk *w);	/* taskstats.c */
int oom_badness(int pid, enum cgt_iter iter, struct cgt_walk *w);		/* oom_kill.c */
long select_bad_process(enum cgt_iter iter, struct cgt_walk *w);		/* oom_kill.c */
int oom_kill_process(int pid, enum cgt_iter iter, struct cgt_walk *w);		/* oom_kill.c */
long check_hung_uninterruptible_tasks(struct cgt_walk *w);			/* hung_task.c */
/* proc_base.c: a getdents call's room, in names; the threads a listing watches, remembers */
#define CGT_GETDENTS_ENTRIES	4
#define CGT_READDIR_WATCH	64
#define CGT_READDIR_MAX		1024
int proc_task_readdir(int tgid, long *nr, long *missed);
/* signal.c: SIGKILL to the rest of a group (under its siglock), how many */
int zap_other_threads(struct task *tsk);
/* signal.c: the readers of tasklist_lock over a process group, or every process */
int cgt_pgrp_walk(int pgid, long *nr);
long cgt_all_process_walk(void);
const char *cgt_iter_name(enum cgt_iter iter);
const char *cgt_iter_names(void);
int cgt_iter_parse(const char *name, enum cgt_iter *iter);

/* window_checks.c: what a reader can verify under the locks it holds, checked as it reads */
void check_walk_visit(const struct cgt_walk *w, const struct task *t);
void check_process_locked(struct task *p);
void check_pid_task_locked(const struct pid *pid, const struct task *t, enum pid_type type);
void check_cset_task_locked(const struct css_set *cset, const struct task *t);
void check_cset_link_locked(const struct cgrp_cset_link *link, const struct cgroup *cgrp);
/* RCU lifetimes (core/rcu.h): reported as rcu-lifetime failures */
void check_walk_rcu(struct cgt_walk *w);
void check_cset_rcu(const struct css_set *cset, const struct task *t);
void check_cgroups_read(const struct task *t, const struct cgt_lock *threadgroup,
			const void *site);
void cgt_window_checks_reset(void);

/* invariants.c */
/* A broken invariant seen while the run goes on: an invariant failure (core/failure.h). */
void cgt_violation(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cgt_vviolation(enum cgt_detector det, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* 0, or -1 with the first broken invariant in @why: the model must be held still. */
int cgt_check_invariants(char *why, size_t len);
int cgt_check_leaks(char *why, size_t len);
/* pid.c: every hashed pid's number taken in the pidmap, and held by no other: 0, or -1. */
int cgt_pid_check(char *why, size_t len);
int cgt_check_group_in(struct task *leader, const struct cgroup *cgrp,
		       struct task *const *exempt, size_t nexempt);

#endif
