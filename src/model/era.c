// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's eras (--kernel): which lock each model lock was, and which code paths
 * changed with them. Each cut point is a commit:
 *
 *   tasklist_lock  x86's rwlock_t let new readers pass a waiting writer (rwlock-rpref) until
 *                  the queued rwlock, 70af2f8a4f48 "locking/rwlocks: Introduce 'qrwlocks' -
 *                  fair, queued rwlocks", which x86 took in 3.16 (rwlock).
 *   css_set lock   rwlock_t (rwlock-rpref) until 96d365e0b86e made it css_set_rwsem (3.15,
 *                  rwsem); a spinlock again from f0d9a5f17575 "cgroup: make css_set_rwsem a
 *                  spinlock and rename it to css_set_lock" (v4.2; kernel/cgroup.c @ v4.4.1
 *                  DEFINE_SPINLOCK(css_set_lock), spin_lock_bh in every user).
 *   threadgroup    signal->group_rwsem, one rw_semaphore per process, until d59cfc09c32a
 *                  (reverted by 0c986253b939, re-applied as 1ed1328792ff for 4.4) made it
 *                  one global percpu_rw_semaphore, cgroup_threadgroup_rwsem, which every
 *                  fork takes for reading, not only CLONE_THREAD.
 *   /proc/PID/cgroup  proc_cgroup_show took cgroup_mutex, then the css_set lock, until
 *                  9067d90006df "cgroup: Eliminate the need for cgroup_mutex in
 *                  proc_cgroup_show()" (6.8): rcu_read_lock, then spin_lock_irq(&css_set_lock)
 *                  alone (kernel/cgroup/cgroup.c @ v6.18.2). The era 6.x is 6.8 and later.
 *   OOM kill       oom_kill_process walked the victim's threads and their children under
 *                  read_lock(&tasklist_lock) until "mm, oom: remove 'prefer children over
 *                  parent' heuristic" (5.1).
 *   css_task_iter  held css_set_lock from start to end until "cgroup: don't hold
 *                  css_set_rwsem across css task iteration" (4.2, in the pull with
 *                  f0d9a5f17575; its id not read here): each call locks alone,
 *                  the iterator pins its css_set and references its task, and
 *                  css_set_move_task advances iterators whose next task leaves (v4.4.1);
 *                  b636fd38dc40 "cgroup: Implement css_task_iter_skip()" (5.2) made that a
 *                  skip the next call completes (v6.18.2).
 *   attach         cgroup_attach_task collects the group's css_sets under css_set_rwsem
 *                  held for reading, outside RCU, from 3.15; 3.14 walked it under RCU alone.
 */
#include <stdio.h>
#include <string.h>

#include "model.h"
#include "../base/registry.h"

const char *const cgt_era_behaviour_names[CGT_NR_ERA_BEHAVIOURS] = {
	[CGT_ERA_TASKLIST_LOCK]	= "tasklist_lock",
	[CGT_ERA_CSS_SET_LOCK]	= "css_set lock",
	[CGT_ERA_THREADGROUP]	= "threadgroup lock",
	[CGT_ERA_ITER]		= "css_task_iter",
	[CGT_ERA_ATTACH]	= "attach's collection",
	[CGT_ERA_FORK_EXIT]	= "css_set at fork and exit",
	[CGT_ERA_HUNG_TASK]	= "khungtaskd's walk",
	[CGT_ERA_PROC_CGROUP]	= "/proc/PID/cgroup",
	[CGT_ERA_OOM_KILL]	= "the OOM killer's victim walk",
};

/* The sources all four eras share, row by row. */
#define QRWLOCK		"queued rwlock: kernel/locking/qrwlock.c (70af2f8a4f48, x86 from 3.16)"
#define RWLOCK_RPREF	"x86 arch_rwlock_t (arch/x86/include/asm/spinlock.h, to 3.15): a " \
			"reader passes a waiting writer"
#define GROUP_RWSEM	"threadgroup_change_begin: down_read(&tsk->signal->group_rwsem) " \
			"(include/linux/sched.h @ v3.14.1); copy_process takes it for " \
			"CLONE_THREAD only (kernel/fork.c)"
#define GLOBAL_RWSEM	"cgroup_threadgroup_change_begin: percpu_down_read(&" \
			"cgroup_threadgroup_rwsem) in every copy_process (kernel/fork.c @ " \
			"v4.4.1; 1ed1328792ff)"
#define ATTACH_LOCKED	"cgroup_attach_task collects the group under the css_set lock, " \
			"outside RCU (kernel/cgroup.c @ v3.15.5; 96d365e0b86e)"
#define FORK_EXIT_3_15	"cgroup_fork points at init_css_set; cgroup_post_fork links the " \
			"parent's css_set as it is then; cgroup_exit unlinks and puts it " \
			"(kernel/cgroup.c @ v3.15.5)"
#define MUTEX_FIRST	"proc_cgroup_show: cgroup_mutex, then the css_set lock"
#define OOM_CHILDREN	"oom_kill_process: for_each_thread(p, t) over each thread's children " \
			"under read_lock(&tasklist_lock), after the victim was picked under RCU " \
			"(6b0c81b3be11); before 3.14 do { } while_each_thread(p, t)"
#define HUNG_WHILE_EACH	"check_hung_uninterruptible_tasks: do_each_thread/while_each_thread; " \
			"rcu_lock_break every 1,024 threads ends the scan once g or t is " \
			"unhashed (6027ce497d44)"

const struct cgt_kernel_era cgt_kernel_eras[] = {
	{
		.name = "3.14", .kernels = "3.14 (v3.14.1)",
		.tasklist_lock = "rwlock-rpref", .css_set_lock = "rwlock-rpref",
		.threadgroup_lock = "rwsem", .threadgroup_global = false,
		.attach_locks_csets = false, .hung_task_iter = CGT_ITER_WHILE_EACH,
		.proc_cgroup_mutex = true, .fork_copies_cset = true, .oom_kill_children = true,
		.desc = "tasklist_lock and css_set_lock x86 rwlock_t (readers pass a waiting "
			"writer); signal->group_rwsem per process; cgroup_attach_task collects "
			"the group under RCU alone",
		.kernel = {
			[CGT_ERA_TASKLIST_LOCK] = RWLOCK_RPREF,
			[CGT_ERA_CSS_SET_LOCK] = "DEFINE_RWLOCK(css_set_lock) (kernel/cgroup.c @ "
				"v3.14.1)",
			[CGT_ERA_THREADGROUP] = GROUP_RWSEM,
			[CGT_ERA_ITER] = "css_task_iter_start: read_lock(&css_set_lock) until "
				"css_task_iter_end (kernel/cgroup.c @ v3.14.1)",
			[CGT_ERA_ATTACH] = "cgroup_attach_task walks the group under RCU alone "
				"(kernel/cgroup.c @ v3.14.1)",
			[CGT_ERA_FORK_EXIT] = "cgroup_fork takes a reference to the parent's "
				"css_set under task_lock and copies it, cgroup_post_fork links that "
				"copy, cgroup_exit puts it (kernel/cgroup.c @ v3.14.1)",
			[CGT_ERA_HUNG_TASK] = HUNG_WHILE_EACH " (kernel/hung_task.c @ v3.14.1)",
			[CGT_ERA_PROC_CGROUP] = MUTEX_FIRST " (kernel/cgroup.c @ v3.14.1)",
			[CGT_ERA_OOM_KILL] = OOM_CHILDREN " (mm/oom_kill.c @ v3.14.1)",
		},
	},
	{
		.name = "3.15", .kernels = "3.15 (v3.15.5)",
		.tasklist_lock = "rwlock-rpref", .css_set_lock = "rwsem",
		.threadgroup_lock = "rwsem", .threadgroup_global = false,
		.attach_locks_csets = true, .hung_task_iter = CGT_ITER_WHILE_EACH,
		.proc_cgroup_mutex = true, .oom_kill_children = true,
		.desc = "css_set_rwsem (96d365e0b86e), taken for reading by cgroup_attach_task's "
			"collection; tasklist_lock still x86 rwlock_t; signal->group_rwsem",
		.kernel = {
			[CGT_ERA_TASKLIST_LOCK] = RWLOCK_RPREF,
			[CGT_ERA_CSS_SET_LOCK] = "DECLARE_RWSEM(css_set_rwsem) (kernel/cgroup.c @ "
				"v3.15.5; 96d365e0b86e)",
			[CGT_ERA_THREADGROUP] = GROUP_RWSEM,
			[CGT_ERA_ITER] = "css_task_iter_start: down_read(&css_set_rwsem) until "
				"css_task_iter_end (kernel/cgroup.c @ v3.15.5)",
			[CGT_ERA_ATTACH] = ATTACH_LOCKED,
			[CGT_ERA_FORK_EXIT] = FORK_EXIT_3_15,
			[CGT_ERA_HUNG_TASK] = HUNG_WHILE_EACH " (kernel/hung_task.c @ v3.15.5)",
			[CGT_ERA_PROC_CGROUP] = MUTEX_FIRST " (kernel/cgroup.c @ v3.15.5)",
			[CGT_ERA_OOM_KILL] = OOM_CHILDREN " (mm/oom_kill.c @ v3.15.5)",
		},
	},
	{
		.name = "4.4", .kernels = "4.4 (v4.4.1)",
		.tasklist_lock = "rwlock", .css_set_lock = "spinlock",
		.threadgroup_lock = CGT_THREADGROUP_GLOBAL_LOCK, .threadgroup_global = true,
		.attach_locks_csets = true, .hung_task_iter = CGT_ITER_FOR_EACH,
		.proc_cgroup_mutex = true, .oom_kill_children = true,
		.css_task_iter = CGT_CSS_ITER_ADVANCE,
		.desc = "queued rwlock tasklist_lock (70af2f8a4f48, 3.16); css_set_lock a "
			"spinlock again (f0d9a5f17575, 4.2); one global cgroup_threadgroup_rwsem "
			"taken by every fork (1ed1328792ff)",
		.kernel = {
			[CGT_ERA_TASKLIST_LOCK] = QRWLOCK,
			[CGT_ERA_CSS_SET_LOCK] = "DEFINE_SPINLOCK(css_set_lock), spin_lock_bh "
				"(kernel/cgroup.c @ v4.4.1; f0d9a5f17575, 4.2)",
			[CGT_ERA_THREADGROUP] = GLOBAL_RWSEM,
			[CGT_ERA_ITER] = "css_task_iter_start/_next/_end: spin_lock_bh per call, "
				"cur_cset pinned on its task_iters, cur_task referenced; "
				"css_set_move_task advances an iterator whose next task leaves "
				"(kernel/cgroup.c @ v4.4.1; \"cgroup: don't hold css_set_rwsem "
				"across css task iteration\", 4.2)",
			[CGT_ERA_ATTACH] = ATTACH_LOCKED,
			[CGT_ERA_FORK_EXIT] = "not modelled: cgroup_exit unlinks but keeps the "
				"css_set until cgroup_free (kernel/cgroup.c @ v4.4.1); the model "
				"runs 3.15's",
			[CGT_ERA_HUNG_TASK] = "check_hung_uninterruptible_tasks: "
				"for_each_process_thread, rcu_lock_break every 1,024 threads "
				"(kernel/hung_task.c @ v4.4.1)",
			[CGT_ERA_PROC_CGROUP] = MUTEX_FIRST " (kernel/cgroup.c @ v4.4.1)",
			[CGT_ERA_OOM_KILL] = OOM_CHILDREN " (mm/oom_kill.c @ v4.4.1)",
		},
	},
	{
		.name = "6.x", .kernels = "6.8 and later (v6.18.2; this machine's 6.18)",
		.tasklist_lock = "rwlock", .css_set_lock = "spinlock",
		.threadgroup_lock = CGT_THREADGROUP_GLOBAL_LOCK, .threadgroup_global = true,
		.attach_locks_csets = true, .hung_task_iter = CGT_ITER_FOR_EACH,
		.css_task_iter = CGT_CSS_ITER_SKIP,
		.desc = "queued rwlock tasklist_lock; css_set_lock a spinlock; global "
			"cgroup_threadgroup_rwsem; /proc/PID/cgroup without cgroup_mutex "
			"(9067d90006df, 6.8)",
		.kernel = {
			[CGT_ERA_TASKLIST_LOCK] = QRWLOCK,
			[CGT_ERA_CSS_SET_LOCK] = "DEFINE_SPINLOCK(css_set_lock), spin_lock_irq "
				"(kernel/cgroup/cgroup.c @ v6.18.2)",
			[CGT_ERA_THREADGROUP] = "cgroup_css_set_fork -> "
				"cgroup_threadgroup_change_begin in every fork "
				"(kernel/cgroup/cgroup.c @ v6.18.2)",
			[CGT_ERA_ITER] = "css_task_iter_next: spin_lock_irqsave per call; "
				"css_set_skip_task_iters moves an iterator past a leaving task, "
				"CSS_TASK_ITER_SKIPPED, the next call completes the advance "
				"(kernel/cgroup/cgroup.c @ v6.18.2; b636fd38dc40, 5.2); not modelled: "
				"mg_tasks, dying_tasks, CSS_TASK_ITER_PROCS/THREADED",
			[CGT_ERA_ATTACH] = "cgroup_migrate_add_src under css_set_lock "
				"(kernel/cgroup/cgroup.c @ v6.18.2)",
			[CGT_ERA_FORK_EXIT] = "not modelled: cgroup_exit moves the task to "
				"dying_tasks, cgroup_release unlinks it, cgroup_free puts the css_set "
				"(kernel/cgroup/cgroup.c @ v6.18.2); the model runs 3.15's",
			[CGT_ERA_HUNG_TASK] = "check_hung_uninterruptible_tasks: "
				"for_each_process_thread, rcu_lock_break every HUNG_TASK_LOCK_BREAK "
				"(HZ/10) of time (kernel/hung_task.c @ v6.18.2); the model breaks "
				"every 1,024 threads",
			[CGT_ERA_PROC_CGROUP] = "proc_cgroup_show: rcu_read_lock, spin_lock_irq("
				"&css_set_lock), no cgroup_mutex (kernel/cgroup/cgroup.c @ v6.18.2; "
				"9067d90006df, 6.8)",
			[CGT_ERA_OOM_KILL] = "no walk of the victim's threads: \"mm, oom: "
				"remove 'prefer children over parent' heuristic\" (5.1); "
				"__oom_kill_process walks for_each_process under RCU for other users "
				"of the mm (mm/oom_kill.c @ v6.18.2), which the model has not",
		},
	},
};

const size_t cgt_nr_kernel_eras = ARRAY_SIZE(cgt_kernel_eras);

static const char *era_name(size_t i)
{
	return cgt_kernel_eras[i].name;
}

const struct cgt_kernel_era *cgt_era_find(const char *name)
{
	long i = cgt_registry_index(cgt_nr_kernel_eras, era_name, name);

	return i < 0 ? NULL : &cgt_kernel_eras[i];
}

/* "3.14, 3.15, 4.4, 6.x": what --kernel takes, for its help and its errors */
const char *cgt_era_names(void)
{
	static char buf[64];

	return cgt_registry_names(buf, sizeof(buf), cgt_nr_kernel_eras, era_name);
}

const char *cgt_era_value(const struct cgt_kernel_era *e, enum cgt_era_behaviour b, char *buf,
			  size_t len)
{
	switch (b) {
	case CGT_ERA_TASKLIST_LOCK:
		return e->tasklist_lock;
	case CGT_ERA_CSS_SET_LOCK:
		return e->css_set_lock;
	case CGT_ERA_THREADGROUP:
		snprintf(buf, len, "%s, %s", e->threadgroup_lock, e->threadgroup_global ?
			 "one for all, every fork" : "one per process, CLONE_THREAD forks");
		return buf;
	case CGT_ERA_ITER:
		switch (e->css_task_iter) {
		case CGT_CSS_ITER_WHOLE:
			return "the css_set lock from start to end";
		case CGT_CSS_ITER_ADVANCE:
			return "the css_set lock per step; a leaving task advances it";
		case CGT_CSS_ITER_SKIP:
			return "the css_set lock per step; a leaving task skips it";
		}
		break;
	case CGT_ERA_ATTACH:
		return e->attach_locks_csets ? "under the css_set lock" : "under RCU alone";
	case CGT_ERA_FORK_EXIT:
		return e->fork_copies_cset ? "the parent's copied at fork, put at exit" :
		       "the parent's at post-fork, put at exit";
	case CGT_ERA_HUNG_TASK:
		snprintf(buf, len, "%s, a lock break every 1,024 threads",
			 cgt_iter_name(e->hung_task_iter));
		return buf;
	case CGT_ERA_PROC_CGROUP:
		return e->proc_cgroup_mutex ? "cgroup_mutex, then the css_set lock" :
		       "the css_set lock alone";
	case CGT_ERA_OOM_KILL:
		return e->oom_kill_children ? "the victim's threads under tasklist_lock (read)" :
		       "none";
	case CGT_NR_ERA_BEHAVIOURS:
		break;
	}
	return "";
}
