/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Marked points: the places where control may pass between model threads. Every lock
 * acquisition and release, every walk step and every step of fork, exec, exit and migration
 * calls cgt_point(). A free-running build pays one relaxed load, and a count in the passing
 * thread's coverage (core/coverage.h); a perturbation policy, a controlled scheduler or
 * fault injection installs a hook and decides what happens there.
 */
#ifndef CGT_POINT_H
#define CGT_POINT_H

#include "../base/compiler.h"

/*
 * Each point: what it is, the object it passes (a lock operation, a walk, a task, or a
 * task looked up under RCU, maybe NULL), what it does to that task's thread group (reads
 * it, changes it, or neither: where threads meet, run/meet.h), and the name its event
 * carries when the object gives none. A step of a walk or iteration is too frequent to
 * keep as an event: a heartbeat only.
 */
enum cgt_point_obj {
	CGT_PO_NONE,
	CGT_PO_LOCK,		/* struct cgt_lock_op */
	CGT_PO_WALK,		/* struct cgt_walk, at its start */
	CGT_PO_WALK_STEP,	/* struct cgt_walk, at each step */
	CGT_PO_TASK,		/* struct task (NULL between two getdents calls) */
	CGT_PO_TASK_STEP,	/* struct task, at each step */
	CGT_PO_LOOKUP,		/* struct task found under RCU, or NULL */
};

enum cgt_point_group { CGT_PG_NONE, CGT_PG_READS, CGT_PG_CHANGES };

#define CGT_POINTS(X)											\
	X(LOCK_WAIT,	   "about to take a lock",			 LOCK,	    NONE,    NULL)	\
	X(LOCK_HELD,	   "took a lock",				 LOCK,	    NONE,    NULL)	\
	X(LOCK_RELEASE,	   "released a lock",				 LOCK,	    NONE,    NULL)	\
	X(RCU_ENTER,	   "entered an RCU read-side section",		 LOOKUP,    READS,   NULL)	\
	X(RCU_EXIT,	   "left its RCU read-side section",		 NONE,	    NONE,    NULL)	\
	X(WALK_START,	   "starts a thread-group walk",		 WALK,	    READS,   NULL)	\
	X(WALK_STEP,	   "steps to the next thread",			 WALK_STEP, READS,   NULL)	\
	X(FORK_ALLOC,	   "copy_process: task allocated",		 TASK,	    NONE,    NULL)	\
	X(FORK_LINKED,	   "copy_process: child hashed",		 TASK,	    CHANGES, NULL)	\
	X(EXIT_SIGNALS,	   "do_exit: PF_EXITING set",			 TASK,	    CHANGES, NULL)	\
	X(EXIT_CGROUP,	   "do_exit: left its css_set",			 TASK,	    CHANGES, NULL)	\
	X(EXIT_NOTIFY,	   "exit_notify: zombie or dead",		 TASK,	    CHANGES, NULL)	\
	X(RELEASE,	   "release_task: unhashed",			 TASK,	    CHANGES, NULL)	\
	X(EXEC_ZAP,	   "de_thread: other threads killed",		 TASK,	    CHANGES, NULL)	\
	X(EXEC_WAIT,	   "de_thread: waiting for the group",		 TASK,	    CHANGES, NULL)	\
	X(EXEC_SWITCH,	   "de_thread: took the leader's pid",		 TASK,	    CHANGES, NULL)	\
	X(ATTACH_SNAPSHOT, "cgroup_attach_task: group collected",	 TASK,	    READS,   NULL)	\
	X(ATTACH_MOVE,	   "cgroup_attach_task: thread moved",		 TASK,	    CHANGES, NULL)	\
	X(ITER_STEP,	   "css_task_iter_next",			 TASK_STEP, READS,   NULL)	\
	X(READDIR_STEP,	   "proc_task_readdir: between two threads",	 TASK,	    READS,   NULL)	\
	X(PGRP_STEP,	   "a walk of processes: the next one",	 TASK_STEP, READS,   NULL)	\
	X(GP_WAIT,	   "synchronize_rcu: waiting",			 NONE,	    NONE,    "rcu grace period") \
	X(PRINTK,	   "printk: a line to the console",		 NONE,	    NONE,    NULL)	\
	X(SIGLOCK,	   "about to take siglock",			 NONE,	    NONE,    "siglock")	\
	X(LOOP,		   "between two operations",			 NONE,	    NONE,    NULL)

enum cgt_point_id {
#define X(id, desc, obj, group, name) CGT_PT_##id,
	CGT_POINTS(X)
#undef X
	CGT_NR_POINTS
};

/* A ring slot a copy could not trust (thread.c): no point, skipped by every reader. */
#define CGT_PT_LOST	CGT_NR_POINTS

typedef void (*cgt_point_hook_t)(enum cgt_point_id id, const void *obj);

extern cgt_point_hook_t cgt_point_hook;
extern const char *const cgt_point_names[CGT_NR_POINTS];

struct cgt_point_info {
	const char *desc;		/* what happens there, for stories and timelines */
	enum cgt_point_obj obj;
	enum cgt_point_group group;
	const char *name;		/* its event's name, or NULL */
};
extern const struct cgt_point_info cgt_point_info[CGT_NR_POINTS];

/*
 * This thread's coverage counts (struct cgt_cover, core/coverage.h), set while it is
 * registered (core/thread.c); NULL on a thread the registry does not know.
 */
extern __thread long *cgt_cover_counts;

/* Only its own thread writes a count: a load and a store, no locked instruction. */
static inline void cgt_count_bump(long *count)
{
	__atomic_store_n(count, __atomic_load_n(count, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
}

static inline void cgt_point(enum cgt_point_id id, const void *obj)
{
	cgt_point_hook_t hook = __atomic_load_n(&cgt_point_hook, __ATOMIC_RELAXED);
	long *count = cgt_cover_counts;

	if (count)
		cgt_count_bump(&count[id]);
	if (unlikely(hook))
		hook(id, obj);
}

void cgt_point_set_hook(cgt_point_hook_t hook);

#endif
