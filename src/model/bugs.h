/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The catalogue of known bugs, as switches in the model: each puts one historical mistake
 * back (docs/detectors.md tells them step by step). The model checks cgt_bug() where the
 * fixed code and the mistake part ways; CGT_BUGS says, once, what each is: its name, the
 * detector that must catch it and the build it needs, the kernel's story, what its fixed
 * twin does instead, the options that make a free-running run show it quickly, and those
 * that let cgtorture explore find it. A new bug is an entry here and its cgt_bug() check.
 */
#ifndef CGT_BUGS_H
#define CGT_BUGS_H

#include <stdbool.h>

#include "../core/failure.h"

#define CGT_BUGS(X)	\
	X(WALK_FROM_EXITING, "walk-from-exiting", LIVELOCK, "plain",	\
	  "the OOM killer's find_lock_task_mm (mm/oom_kill.c), called by oom_badness on "	\
	  "each thread select_bad_process met under rcu_read_lock alone (6b0c81b3be11), "	\
	  "walked while_each_thread from that thread; when it exited mid-walk the ring no "	\
	  "longer held it and the walk never ended (3.13; \"oom_kill: change oom_kill.c "	\
	  "to use for_each_thread()\", merged with 0c740d0afc3b in 3.14). Not "	\
	  "fill_stats_for_tgid: it walks under lock_task_sighand",	\
	  "for_each_thread from the same thread: the head lives in signal_struct",	\
	  "--swarm off --perturb 100 --threads 64",	\
	  "--swarm off --sched random --threads 8 --steps 5000")	\
	X(WALK_LEADER_EXEC, "walk-leader-exec", LIVELOCK, "plain",	\
	  "khungtaskd's check_hung_uninterruptible_tasks (kernel/hung_task.c) walked "	\
	  "do_each_thread/while_each_thread under rcu_read_lock alone (3.14, 3.15): from a "	\
	  "group leader, which survives exits as a zombie but not an exec by another "	\
	  "thread, which releases it (0c740d0afc3b: \"it can exec\"); 6027ce497d44 says "	\
	  "the walk can livelock and only max_count bounds it; later for_each_process_thread",	\
	  "for_each_thread from the leader (for_each_process_thread)",	\
	  "--swarm off --perturb 100 --threads 64 --mix fork=35,exec=10,exit=15,migrate=5,observe=35",	\
	  "--swarm off --sched random --threads 8 --steps 10000 --mix "	\
	  "fork=35,exec=10,exit=15,migrate=5,observe=35")	\
	X(NO_PID_ALIVE, "no-pid-alive", ASAN, "asan",	\
	  "next_tid (fs/proc/base.c) steps from a thread held only by reference; without "	\
	  "the pid_alive() check under rcu_read_lock, an unhashed thread's "	\
	  "->thread_group.next can name a thread freed since",	\
	  "pid_alive() checked under rcu_read_lock before next_thread()",	\
	  "--swarm off --perturb 100 --threads 64 --mix "	\
	  "fork=35,exec=2,exit=30,migrate=0,observe=33",	\
	  "--swarm off --sched pct --depth 3 --threads 8 --steps 5000 --reap-delay 0 --mix "	\
	  "fork=35,exec=2,exit=30,migrate=0,observe=33")	\
	X(ATTACH_NO_THREADGROUP_LOCK, "attach-no-threadgroup-lock", INVARIANT, "plain",	\
	  "cgroup_attach_task of a whole process needs threadgroup_lock "	\
	  "(signal->group_rwsem); without it a thread forked during the move is linked to"	\
	  " the old css_set and the process is split across cgroups",	\
	  "threadgroup_lock held across the snapshot and the move",	\
	  "--swarm off --perturb 50 --mix fork=35,exec=2,exit=20,migrate=30,observe=13",	\
	  "--swarm off --sched random --threads 8 --steps 5000 --mix "	\
	  "fork=35,exec=2,exit=20,migrate=30,observe=13")	\
	X(RWSEM_INSIDE_RCU, "rwsem-inside-rcu", HANG, "plain",	\
	  "96d365e0b86e made css_set_lock an rwsem: a reader taking it inside "	\
	  "rcu_read_lock while a writer holding it waits for a grace period is a deadlock"	\
	  " (task_cgroup_path had to take the rwsem first)",	\
	  "the rwsem taken before rcu_read_lock; css_sets freed with call_rcu",	\
	  "--swarm off --css-lock rwsem",	\
	  "--swarm off --sched pct --depth 3 --threads 8 --steps 5000 --css-lock rwsem")	\
	X(READER_PREF_RWLOCK, "reader-pref-rwlock", STARVATION, "plain",	\
	  "not a mistake but 3.14/3.15's normal tasklist_lock: x86's rwlock_t let new "	\
	  "readers pass a waiting writer until the queued rwlock (70af2f8a4f48, x86 in "	\
	  "3.16); overlapping readers starve a writer (the 2012 memcg id_lock softlockup "	\
	  "in cgroup_mkdir behind 19 readers). --kernel 3.14 and 3.15 run with it",	\
	  "the queued rwlock (qrwlock) for tasklist_lock, as from 3.16",	\
	  "--swarm off --perturb 300 --walkers 32 --starve 0.5 --mix migrate=0,observe=0",	\
	  "--swarm off --sched random --threads 8 --steps 5000 --walkers 12")	\
	X(CSET_WALK_UNLOCKED, "cset-walk-unlocked", TSAN, "tsan",	\
	  "a css_set's task list (cg_list) walked without css_set_lock races with a "	\
	  "migration's list_move and can wander into another css_set (css_task_iter_start"	\
	  " takes the lock for reading)",	\
	  "css_task_iter holds css_set_lock for reading",	\
	  "--swarm off",	\
	  "--swarm off --sched random --threads 8 --steps 5000")	\
	X(CSS_TASK_ITER_BLOCK, "css-task-iter-block", HANG, "plain",	\
	  "the deadlock risk 96d365e0b86e accepted: a css_task_iter callback that sleeps "	\
	  "on a mutex while holding css_set_rwsem for reading, while the mutex's holder "	\
	  "wants the rwsem for writing",	\
	  "the callback does not block inside the iteration",	\
	  "--swarm off --mix fork=35,exec=2,exit=20,migrate=20,observe=23",	\
	  "--swarm off --sched random --threads 8 --steps 5000 --mix "	\
	  "fork=35,exec=2,exit=20,migrate=20,observe=23")

enum cgt_bug {
#define X(id, name, det, build, history, twin, options, explore) CGT_BUG_##id,
	CGT_BUGS(X)
#undef X
	CGT_NR_BUGS
};

struct cgt_bug_info {
	const char *name;
	enum cgt_detector detector;	/* what must catch it */
	const char *build;		/* plain, tsan or asan */
	const char *history;		/* the kernel's story */
	const char *twin;		/* what the fixed twin does instead */
	const char *options;		/* options that make it show quickly */
	const char *explore;		/* options that let cgtorture explore find it */
};

extern const struct cgt_bug_info cgt_bug_catalogue[CGT_NR_BUGS];
extern const char *const cgt_bug_names[CGT_NR_BUGS];
extern unsigned long cgt_bugs_enabled;

static inline bool cgt_bug(enum cgt_bug bug)
{
	return __atomic_load_n(&cgt_bugs_enabled, __ATOMIC_RELAXED) & (1UL << bug);
}

int cgt_bug_parse(const char *name, enum cgt_bug *bug);

#endif
