/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The catalogue of known bugs, as switches in the model: each puts one historical mistake
 * back (docs/detectors.md tells them step by step). The model checks cgt_bug() where the
 * fixed code and the mistake part ways; CGT_BUGS says, once, what each is, field by field
 * (struct cgt_bug_info): its name, the detector that must catch it and the build it needs,
 * the kernel's story, what its fixed twin does instead, the options that make a free-running
 * run show it quickly, those that let cgtorture explore find it, and a lock variant it puts
 * in place of the model's own. A new bug is an entry here and its cgt_bug() check.
 */
#ifndef CGT_BUGS_H
#define CGT_BUGS_H

#include <stdbool.h>

#include "../core/failure.h"

#define CGT_BUGS(X)	\
	X(WALK_FROM_EXITING,	\
	  .name = "walk-from-exiting", .detector = CGT_DET_LIVELOCK, .build = "plain",	\
	  .history = "the OOM killer's two walks from one thread (mm/oom_kill.c, to 3.13) were "	\
		"while_each_thread: find_lock_task_mm, from each thread select_bad_process met "	\
		"under rcu_read_lock alone (6b0c81b3be11), and oom_kill_process's walk of its "	\
		"victim's threads under read_lock(&tasklist_lock), after dump_header; a thread "	\
		"released mid-walk, or the victim released before the lock, is no longer on the "	\
		"ring and the walk never ends; under tasklist_lock every exit spins behind it "	\
		"(\"oom_kill: change oom_kill.c to use for_each_thread()\", merged with "	\
		"0c740d0afc3b in 3.14). Not fill_stats_for_tgid: it walks under lock_task_sighand",	\
	  .twin = "for_each_thread from the same thread: the head lives in signal_struct",	\
	  .options = "--swarm off --perturb 100 --threads 64",	\
	  .explore = "--swarm off --sched random --threads 8 --steps 5000")	\
	X(WALK_LEADER_EXEC,	\
	  .name = "walk-leader-exec", .detector = CGT_DET_LIVELOCK, .build = "plain",	\
	  .history = "the OOM killer's select_bad_process (mm/oom_kill.c) walked every thread "	\
		"with do_each_thread/while_each_thread under rcu_read_lock alone, with no batch "	\
		"and no max_count (6b0c81b3be11, 3.6, to 3.13): an exec by another thread "	\
		"releases the leader g, which survives its threads' exits as a zombie but not "	\
		"that, and the walk never ends. Not khungtaskd: its 3.14/3.15 walk is the same, "	\
		"but rcu_lock_break finds g unhashed within 1,024 threads and ends the scan",	\
	  .twin = "for_each_process_thread, as from 3.14 (\"oom_kill: change oom_kill.c to use "	\
		"for_each_thread()\")",	\
	  .options = "--swarm off --perturb 100 --threads 64 --mix fork=35,exec=10,exit=15,migrate=5,observe=35",	\
	  .explore = "--swarm off --sched random --threads 8 --steps 60000 --mix "	\
		"fork=30,exec=15,exit=10,migrate=0,observe=45")	\
	X(NO_PID_ALIVE,	\
	  .name = "no-pid-alive", .detector = CGT_DET_ASAN, .build = "asan",	\
	  .history = "next_tid (fs/proc/base.c) steps from a thread held only by reference; without "	\
		"the pid_alive() check under rcu_read_lock, an unhashed thread's "	\
		"->thread_group.next can name a thread freed since",	\
	  .twin = "pid_alive() checked under rcu_read_lock before next_thread()",	\
	  .options = "--swarm off --perturb 100 --threads 64 --mix "	\
		"fork=35,exec=2,exit=30,migrate=0,observe=33",	\
	  .explore = "--swarm off --sched pct --depth 3 --threads 8 --steps 5000 --reap-delay 0 --mix "	\
		"fork=35,exec=2,exit=30,migrate=0,observe=33")	\
	X(ATTACH_NO_THREADGROUP_LOCK,	\
	  .name = "attach-no-threadgroup-lock", .detector = CGT_DET_INVARIANT, .build = "plain",	\
	  .history = "cgroup_attach_task of a whole process needs threadgroup_lock "	\
		"(signal->group_rwsem); without it a thread forked during the move is linked to"	\
		" the old css_set and the process is split across cgroups",	\
	  .twin = "threadgroup_lock held across the snapshot and the move",	\
	  .options = "--swarm off --perturb 50 --mix fork=35,exec=2,exit=20,migrate=30,observe=13",	\
	  .explore = "--swarm off --sched random --threads 8 --steps 5000 --mix "	\
		"fork=35,exec=2,exit=20,migrate=30,observe=13")	\
	X(RWSEM_INSIDE_RCU,	\
	  .name = "rwsem-inside-rcu", .detector = CGT_DET_HANG, .build = "plain",	\
	  .history = "96d365e0b86e made css_set_lock an rwsem: a reader taking it inside "	\
		"rcu_read_lock while a writer holding it waits for a grace period is a deadlock"	\
		" (task_cgroup_path had to take the rwsem first)",	\
	  .twin = "the rwsem taken before rcu_read_lock; css_sets freed with call_rcu",	\
	  .eras = "3.15",	\
	  .options = "--swarm off --css-lock rwsem",	\
	  .explore = "--swarm off --sched pct --depth 3 --threads 8 --steps 5000 --css-lock rwsem")	\
	X(READER_PREF_RWLOCK,	\
	  .name = "reader-pref-rwlock", .detector = CGT_DET_STARVATION, .build = "plain",	\
	  .history = "not a mistake but 3.14/3.15's normal tasklist_lock: x86's rwlock_t let new "	\
		"readers pass a waiting writer until the queued rwlock (70af2f8a4f48, x86 in "	\
		"3.16); overlapping readers starve a writer (the 2012 memcg id_lock softlockup "	\
		"in cgroup_mkdir behind 19 readers). --kernel 3.14 and 3.15 run with it",	\
	  .twin = "the queued rwlock (qrwlock) for tasklist_lock, as from 3.16",	\
	  .options = "--swarm off --perturb 300 --walkers 32 --starve 0.5 --mix migrate=0,observe=0",	\
	  .explore = "--swarm off --sched random --threads 8 --steps 5000 --walkers 12",	\
	  .tasklist_lock = "rwlock-rpref")	\
	X(CSET_WALK_UNLOCKED,	\
	  .name = "cset-walk-unlocked", .detector = CGT_DET_TSAN, .build = "tsan",	\
	  .history = "a css_set's task list (cg_list) walked without css_set_lock races with a "	\
		"migration's list_move and can wander into another css_set (css_task_iter_start"	\
		" takes the lock for reading)",	\
	  .twin = "css_task_iter holds css_set_lock for reading",	\
	  .eras = "3.14,3.15",	\
	  .options = "--swarm off",	\
	  .explore = "--swarm off --sched random --threads 8 --steps 5000")	\
	X(CSS_TASK_ITER_BLOCK,	\
	  .name = "css-task-iter-block", .detector = CGT_DET_HANG, .build = "plain",	\
	  .history = "the deadlock risk 96d365e0b86e accepted: a css_task_iter callback that sleeps "	\
		"on a mutex while holding css_set_rwsem for reading, while the mutex's holder "	\
		"wants the rwsem for writing",	\
	  .twin = "the callback does not block inside the iteration",	\
	  .eras = "3.15",	\
	  .options = "--swarm off --mix fork=35,exec=2,exit=20,migrate=20,observe=23",	\
	  .explore = "--swarm off --sched random --threads 8 --steps 5000 --mix "	\
		"fork=35,exec=2,exit=20,migrate=20,observe=23")	\
	X(CSS_ITER_STALE_POS,	\
	  .name = "css-iter-stale-pos", .detector = CGT_DET_INVARIANT, .build = "plain",	\
	  .history = "the per-step css_task_iter (4.2, \"cgroup: don't hold css_set_rwsem across "	\
		"css task iteration\") keeps task_pos on its next task between calls, safe only "	\
		"because css_set_move_task moves on every iterator pointing at a leaving task "	\
		"(css_task_iter_advance; css_task_iter_skip from b636fd38dc40). Without it the "	\
		"iterator resumes from a task that left: an exited one, unlinked, is returned "	\
		"again and again until it is freed, then get_task_struct touches freed memory; "	\
		"a migrated one leads the walk into another css_set's list, \"up to and "	\
		"including crashes or infinite loops\" (5ee01f1a7343, which added the same "	\
		"skip to cgroup_migrate_add_task for 6.x's mg_tasks; syzbot's 2019 KASAN "	\
		"reports in css_task_iter_advance, cee0c33c546a, are this class)",	\
	  .twin = "css_set_move_task advances (4.4) or skips (6.x) the iterators first",	\
	  .eras = "4.4,6.x",	\
	  .options = "--swarm off --kernel 6.x",	\
	  .explore = "--swarm off --kernel 6.x --sched random --threads 8 --steps 5000")

enum cgt_bug {
#define X(id, ...) CGT_BUG_##id,
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
	const char *tasklist_lock;	/* the lock variant it puts in tasklist_lock's place */
	/*
	 * the eras (--kernel) whose kernels had the code it breaks, comma-separated; NULL,
	 * any: css_set_rwsem's mistakes are 3.15's (96d365e0b86e to f0d9a5f17575, 3.15-4.1)
	 */
	const char *eras;
};

extern const struct cgt_bug_info cgt_bug_catalogue[CGT_NR_BUGS];
extern unsigned long cgt_bugs_enabled;

static inline bool cgt_bug(enum cgt_bug bug)
{
	return __atomic_load_n(&cgt_bugs_enabled, __ATOMIC_RELAXED) & (1UL << bug);
}

int cgt_bug_parse(const char *name, enum cgt_bug *bug);
/* Whether era @era's kernel had the code @bug breaks. */
bool cgt_bug_in_era(enum cgt_bug bug, const char *era);

#endif
