/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Coverage: what a run exercised. Each thread counts the marked points it passes
 * (cgt_point) and the kernel paths it takes (cgt_cover), the rare and race-dependent
 * branches of fork, exec, exit, migration and the walks, in its own struct cgt_thread; the
 * registry folds a thread's counts into the run's totals as it unregisters (core/thread.c).
 * A count is written by its own thread only, so it costs a load and a store, no locked
 * instruction; both are relaxed atomics so that a reader summing live threads is no race.
 */
#ifndef CGT_COVERAGE_H
#define CGT_COVERAGE_H

#include "point.h"

#define CGT_PATHS(X)								\
	X(EXEC_BY_THREAD,	"exec-by-thread",					\
	  "de_thread: a non-leader execs and takes the leader's pid")			\
	X(EXEC_BY_LEADER,	"exec-by-leader",					\
	  "de_thread: the leader execs and kills the rest of its group")		\
	X(EXEC_WAITS_GROUP,	"exec-waits-group",					\
	  "de_thread: waits for killed threads to exit")				\
	X(EXEC_WAITS_LEADER,	"exec-waits-leader",					\
	  "de_thread: waits for the old leader to turn zombie")			\
	X(EXEC_LOST,		"exec-lost-race",					\
	  "de_thread: another exec or group exit got there first (-EAGAIN)")		\
	X(GROUP_EXIT,		"group-exit",						\
	  "do_group_exit: SIGNAL_GROUP_EXIT and SIGKILL to the rest of the group")	\
	X(FORK_KILLED,		"fork-killed",						\
	  "copy_process: the parent got SIGKILL mid-fork (-EINTR)")			\
	X(LEADER_ZOMBIE,	"leader-zombie",					\
	  "exit_notify: a leader exits before its threads and stays a zombie")		\
	X(LEADER_REAPED,	"leader-reaped",					\
	  "release_task: the last thread's exit reaps its zombie leader")		\
	X(ZOMBIE_WAITS,		"zombie-waits",						\
	  "do_notify_parent: a dead process stays a zombie until its parent's wait()")	\
	X(MIGRATE_UNLINKED,	"migrate-unlinked",					\
	  "cgroup_attach_task: a thread not yet linked by cgroup_post_fork stays")	\
	X(MIGRATE_EXITING,	"migrate-exiting",					\
	  "cgroup_attach_task: a PF_EXITING thread is left to cgroup_exit")		\
	X(MIGRATE_RETRY,	"migrate-retry",					\
	  "cgroup_procs_write: an exec took the leadership, look again")		\
	X(MIGRATE_VANISHED,	"migrate-vanished",					\
	  "cgroup_procs_write: no task has the pid (-ESRCH)")				\
	X(WALK_EXITING,		"walk-exiting",						\
	  "a walk steps onto a thread that is exiting, still hashed")			\
	X(WALK_UNHASHED,	"walk-unhashed",					\
	  "a walk steps onto an unhashed thread: only RCU keeps it from being freed")	\
	X(WALK_START_GONE,	"walk-start-gone",					\
	  "a walk ends with its start thread unhashed under it")			\
	X(READDIR_UNHASHED,	"readdir-unhashed",					\
	  "next_tid: the thread held by reference was unhashed, the listing ends")	\
	X(PID_WRAP,		"pid-wrap",						\
	  "alloc_pidmap: past pid_max, numbers are handed out again (--pid-max)")	\
	X(LOCK_BREAK,		"rcu-lock-break",					\
	  "check_hung_uninterruptible_tasks: 1,024 threads into a scan, a grace period")	\
	X(HUNG_SCAN_CUT,	"hung-scan-cut",					\
	  "rcu_lock_break: a thread unhashed under khungtaskd's scan ends it early")	\
	X(OFF_CPU,		"holder-off-cpu",					\
	  "threadgroup_change_begin: a reader leaves the CPU holding the lock (--off-cpu)") \
	X(CSET_FOUND,		"css-set-found",					\
	  "find_css_set: the css_set was in the table")				\
	X(CSET_CREATED,		"css-set-created",					\
	  "find_css_set: a new css_set and its links")					\
	X(CSET_FREED,		"css-set-freed",					\
	  "put_css_set: the last reference unlinks it")				\
	X(CSET_REVIVED,		"css-set-revived",					\
	  "put_css_set: another reference came before css_set_lock")

enum cgt_path_id {
#define X(id, name, desc) CGT_PATH_##id,
	CGT_PATHS(X)
#undef X
	CGT_NR_PATHS
};

extern const char *const cgt_path_names[CGT_NR_PATHS];
extern const char *const cgt_path_descs[CGT_NR_PATHS];

/* The counts of one thread, or of a run: the marked points first, then the paths. */
struct cgt_cover {
	long n[CGT_NR_POINTS + CGT_NR_PATHS];
};

static inline long cgt_cover_point(const struct cgt_cover *c, int id)
{
	return c->n[id];
}

static inline long cgt_cover_path(const struct cgt_cover *c, int id)
{
	return c->n[CGT_NR_POINTS + id];
}

/* This thread took kernel path @id. */
static inline void cgt_cover(enum cgt_path_id id)
{
	long *count = cgt_cover_counts;

	if (count)
		cgt_count_bump(&count[CGT_NR_POINTS + id]);
}

/*
 * The model stands where path @id's window opens (the few instructions in which another
 * thread must act for the path to be taken). A free-running run may hold it there a while
 * until the path has been taken often enough (run/steer.c): rare paths tried on purpose.
 */
typedef void (*cgt_window_hook_t)(enum cgt_path_id id);
extern cgt_window_hook_t cgt_window_hook;

static inline void cgt_window(enum cgt_path_id id)
{
	cgt_window_hook_t hook = __atomic_load_n(&cgt_window_hook, __ATOMIC_RELAXED);

	if (hook)
		hook(id);
}

/* @sum += @c, read with relaxed loads: @c's thread may still be counting. */
void cgt_cover_add(struct cgt_cover *sum, const struct cgt_cover *c);
/* How many paths @c reached. */
int cgt_cover_paths_reached(const struct cgt_cover *c);
/* How many marked points @c passed. */
int cgt_cover_points_passed(const struct cgt_cover *c);

#endif
