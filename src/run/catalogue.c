// SPDX-License-Identifier: GPL-2.0
/*
 * The catalogue of known bugs: for each switch in src/model/bugs.h, the kernel's story, the
 * detector that must catch it, the build it needs, what its fixed twin does instead, and the
 * options that make it show quickly. ../shared/BUGS.md tells each step by step.
 */
#include <stdio.h>

#include "catalogue.h"

const struct cgt_bug_info cgt_bug_catalogue[CGT_NR_BUGS] = {
	[CGT_BUG_WALK_FROM_EXITING] = {
		.name = "walk-from-exiting",
		.history = "fill_stats_for_tgid (kernel/taskstats.c) walked while_each_thread from "
			   "the thread it was given; when that thread exited mid-walk the ring no "
			   "longer held it and the walk never ended (0c740d0afc3b, Linux 3.14)",
		.detector = CGT_DET_LIVELOCK, .build = "plain",
		.twin = "for_each_thread from the same thread: the head lives in signal_struct",
		.options = "--perturb 100 --threads 64",
		.explore = "--sched random --threads 8 --steps 5000",
	},
	[CGT_BUG_WALK_LEADER_EXEC] = {
		.name = "walk-leader-exec",
		.history = "while_each_thread from the group leader survives exits (the leader "
			   "stays a zombie) but not an exec: de_thread makes another thread leader "
			   "and releases the old one (0c740d0afc3b: \"it can exec\")",
		.detector = CGT_DET_LIVELOCK, .build = "plain",
		.twin = "for_each_thread from the leader",
		.options = "--perturb 100 --threads 64 --mix fork=35,exec=10,exit=15,migrate=5,observe=35",
		.explore = "--sched pct --depth 3 --threads 8 --steps 5000 --mix fork=35,exec=10,exit=15,migrate=5,observe=35",
	},
	[CGT_BUG_NO_PID_ALIVE] = {
		.name = "no-pid-alive",
		.history = "next_tid (fs/proc/base.c) steps from a thread held only by reference; "
			   "without the pid_alive() check under rcu_read_lock, an unhashed thread's "
			   "->thread_group.next can name a thread freed since",
		.detector = CGT_DET_ASAN, .build = "asan",
		.twin = "pid_alive() checked under rcu_read_lock before next_thread()",
		.options = "--perturb 100 --threads 64",
		.explore = "--sched pct --depth 3 --threads 8 --steps 5000",
	},
	[CGT_BUG_ATTACH_NO_THREADGROUP_LOCK] = {
		.name = "attach-no-threadgroup-lock",
		.history = "cgroup_attach_task of a whole process needs threadgroup_lock "
			   "(signal->group_rwsem); without it a thread forked during the move is "
			   "linked to the old css_set and the process is split across cgroups",
		.detector = CGT_DET_INVARIANT, .build = "plain",
		.twin = "threadgroup_lock held across the snapshot and the move",
		.options = "--perturb 50 --mix fork=35,exec=2,exit=20,migrate=30,observe=13",
		.explore = "--sched random --threads 8 --steps 5000 --mix fork=35,exec=2,exit=20,migrate=30,observe=13",
	},
	[CGT_BUG_RWSEM_INSIDE_RCU] = {
		.name = "rwsem-inside-rcu",
		.history = "96d365e0b86e made css_set_lock an rwsem: a reader taking it inside "
			   "rcu_read_lock while a writer holding it waits for a grace period is a "
			   "deadlock (task_cgroup_path had to take the rwsem first)",
		.detector = CGT_DET_HANG, .build = "plain",
		.twin = "the rwsem taken before rcu_read_lock; css_sets freed with call_rcu",
		.options = "--css-lock rwsem --stall 0.5",
		.explore = "--sched pct --depth 3 --threads 8 --steps 5000 --css-lock rwsem",
	},
	[CGT_BUG_READER_PREF_RWLOCK] = {
		.name = "reader-pref-rwlock",
		.history = "a reader-preferring tasklist_lock lets overlapping readers starve a "
			   "writer (the article's tasklist_lock concern; the 2012 memcg id_lock "
			   "softlockup in cgroup_mkdir behind 19 readers)",
		.detector = CGT_DET_STARVATION, .build = "plain",
		.twin = "a writer-preferring rwlock (queued rwlock) for tasklist_lock",
		.options = "--perturb 300 --walkers 12 --starve 0.5",
		.explore = "--sched random --threads 8 --steps 5000 --walkers 12",
	},
	[CGT_BUG_CSET_WALK_UNLOCKED] = {
		.name = "cset-walk-unlocked",
		.history = "a css_set's task list (cg_list) walked without css_set_lock races with "
			   "a migration's list_move and can wander into another css_set "
			   "(css_task_iter_start takes the lock for reading)",
		.detector = CGT_DET_TSAN, .build = "tsan",
		.twin = "css_task_iter holds css_set_lock for reading",
		.options = "",
		.explore = "--sched random --threads 8 --steps 5000",
	},
	[CGT_BUG_CSS_TASK_ITER_BLOCK] = {
		.name = "css-task-iter-block",
		.history = "the deadlock risk 96d365e0b86e accepted: a css_task_iter callback that "
			   "sleeps on a mutex while holding css_set_rwsem for reading, while the "
			   "mutex's holder wants the rwsem for writing",
		.detector = CGT_DET_HANG, .build = "plain",
		.twin = "the callback does not block inside the iteration",
		.options = "--stall 0.5 --mix fork=35,exec=2,exit=20,migrate=20,observe=23",
		.explore = "--sched random --threads 8 --steps 5000 --mix fork=35,exec=2,exit=20,migrate=20,observe=23",
	},
};

/*
 * Human-readable, or one tab-separated line per bug for scripts: name, detector, build,
 * options of a free-running run, options of cgtorture explore.
 */
void cgt_bugs_print(FILE *f, bool tsv)
{
	for (int i = 0; i < CGT_NR_BUGS; i++) {
		const struct cgt_bug_info *b = &cgt_bug_catalogue[i];

		if (tsv) {
			fprintf(f, "%s\t%s\t%s\t%s\t%s\n", b->name, cgt_detector_names[b->detector],
				b->build, b->options, b->explore);
			continue;
		}
		fprintf(f, "%s\n  caught by: %s (%s build)\n  kernel:    %s\n  twin:      %s\n"
			"  try:       cgtorture run --bug %s%s%s --stop-on %s --expect fail\n"
			"  explore:   cgtorture explore --bug %s %s\n\n",
			b->name, cgt_detector_names[b->detector], b->build, b->history, b->twin,
			b->name, b->options[0] ? " " : "", b->options,
			cgt_detector_names[b->detector], b->name, b->explore);
	}
}

void cgt_locks_print(FILE *f)
{
	for (size_t i = 0; i < cgt_nr_lock_variants; i++) {
		const struct cgt_lock_ops *ops = cgt_lock_variants[i];

		/* the variants a stress run can take; cgtorture compare --help lists them all */
		if (ops->rcu_readers)
			continue;
		fprintf(f, "%-14s %-9s %-9s %s%s%s\n", ops->name,
			ops->sleeps ? "sleeping" : "spinning", ops->shared ? "shared" : "exclusive",
			ops->desc, ops->bug ? "; known bug: " : "", ops->bug ? ops->bug : "");
	}
}
