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
 *   attach         cgroup_attach_task collects the group's css_sets under css_set_rwsem
 *                  held for reading, outside RCU, from 3.15; 3.14 walked it under RCU alone.
 */
#include <string.h>

#include "model.h"
#include "../base/registry.h"

const struct cgt_kernel_era cgt_kernel_eras[] = {
	{
		.name = "3.14", .kernels = "3.14 (v3.14.1)",
		.tasklist_lock = "rwlock-rpref", .css_set_lock = "rwlock-rpref",
		.threadgroup_lock = "rwsem", .threadgroup_global = false,
		.attach_locks_csets = false, .hung_task_iter = CGT_ITER_WHILE_EACH,
		.proc_cgroup_mutex = true,
		.desc = "tasklist_lock and css_set_lock x86 rwlock_t (readers pass a waiting "
			"writer); signal->group_rwsem per process; cgroup_attach_task collects "
			"the group under RCU alone",
	},
	{
		.name = "3.15", .kernels = "3.15 (v3.15.5)",
		.tasklist_lock = "rwlock-rpref", .css_set_lock = "rwsem",
		.threadgroup_lock = "rwsem", .threadgroup_global = false,
		.attach_locks_csets = true, .hung_task_iter = CGT_ITER_WHILE_EACH,
		.proc_cgroup_mutex = true,
		.desc = "css_set_rwsem (96d365e0b86e), taken for reading by cgroup_attach_task's "
			"collection; tasklist_lock still x86 rwlock_t; signal->group_rwsem",
	},
	{
		.name = "4.4", .kernels = "4.4 (v4.4.1)",
		.tasklist_lock = "rwlock", .css_set_lock = "spinlock",
		.threadgroup_lock = CGT_THREADGROUP_GLOBAL_LOCK, .threadgroup_global = true,
		.attach_locks_csets = true, .hung_task_iter = CGT_ITER_FOR_EACH,
		.proc_cgroup_mutex = true,
		.desc = "queued rwlock tasklist_lock (70af2f8a4f48, 3.16); css_set_lock a "
			"spinlock again (f0d9a5f17575, 4.2); one global cgroup_threadgroup_rwsem "
			"taken by every fork (1ed1328792ff)",
	},
	{
		.name = "6.x", .kernels = "6.8 and later (v6.18.2; this machine's 6.18)",
		.tasklist_lock = "rwlock", .css_set_lock = "spinlock",
		.threadgroup_lock = CGT_THREADGROUP_GLOBAL_LOCK, .threadgroup_global = true,
		.attach_locks_csets = true, .hung_task_iter = CGT_ITER_FOR_EACH,
		.desc = "queued rwlock tasklist_lock; css_set_lock a spinlock; global "
			"cgroup_threadgroup_rwsem; /proc/PID/cgroup without cgroup_mutex "
			"(9067d90006df, 6.8)",
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
