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

#define CGT_POINTS(X)							\
	X(LOCK_WAIT,		"about to take a lock")			\
	X(LOCK_HELD,		"took a lock")				\
	X(LOCK_RELEASE,		"released a lock")			\
	X(RCU_ENTER,		"entered an RCU read-side section")	\
	X(RCU_EXIT,		"left its RCU read-side section")	\
	X(WALK_START,		"starts a thread-group walk")		\
	X(WALK_STEP,		"steps to the next thread")		\
	X(FORK_ALLOC,		"copy_process: task allocated")		\
	X(FORK_LINKED,		"copy_process: child hashed")		\
	X(EXIT_SIGNALS,		"do_exit: PF_EXITING set")		\
	X(EXIT_CGROUP,		"do_exit: left its css_set")		\
	X(EXIT_NOTIFY,		"exit_notify: zombie or dead")		\
	X(RELEASE,		"release_task: unhashed")		\
	X(EXEC_ZAP,		"de_thread: other threads killed")	\
	X(EXEC_WAIT,		"de_thread: waiting for the group")	\
	X(EXEC_SWITCH,		"de_thread: took the leader's pid")	\
	X(ATTACH_SNAPSHOT,	"cgroup_attach_task: group collected")	\
	X(ATTACH_MOVE,		"cgroup_attach_task: thread moved")	\
	X(ITER_STEP,		"css_task_iter_next")			\
	X(READDIR_STEP,		"proc_task_readdir: between two threads") \
	X(PGRP_STEP,		"do_each_pid_task: next process")	\
	X(GP_WAIT,		"synchronize_rcu: waiting")		\
	X(SIGLOCK,		"about to take siglock")		\
	X(LOOP,			"between two operations")

enum cgt_point_id {
#define X(id, desc) CGT_PT_##id,
	CGT_POINTS(X)
#undef X
	CGT_NR_POINTS
};

/* A ring slot a copy could not trust (thread.c): no point, skipped by every reader. */
#define CGT_PT_LOST	CGT_NR_POINTS

typedef void (*cgt_point_hook_t)(enum cgt_point_id id, const void *obj);

extern cgt_point_hook_t cgt_point_hook;
extern const char *const cgt_point_names[CGT_NR_POINTS];

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
