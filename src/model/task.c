// SPDX-License-Identifier: GPL-2.0
/* task_struct and signal_struct lifetimes (kernel/fork.c: __put_task_struct, free_signal_struct). */
#include <stdlib.h>

#include "model.h"
#include "cgroup_internal.h"
#include "refcount.h"

/*
 * As refcount_t (4.11) checks every task_struct reference: taking one on a task whose last
 * reference is gone is a use after free, seen before the freed memory is touched further
 * (in the plain build the memory is still poisoned and held back, base/quarantine.h).
 */
void get_task_struct(struct task *t)
{
	refcount_inc(&t->usage, "get_task_struct on a task whose last reference is gone");
}

/* free_signal_struct: the last task of the group is gone. */
void free_signal_struct(struct signal_struct *sig)
{
	cgt_lock_destroy(&sig->group_rwsem);
	pthread_mutex_destroy(&sig->siglock);
	pthread_cond_destroy(&sig->group_exit_wait);
	cgt_free_poisoned(sig, sizeof(*sig));
	cgt_model_count(&cgt_live.signals, -1);
}

/* __put_task_struct: memory goes back (poisoned first in the plain build). */
static void __put_task_struct(struct task *t)
{
	struct signal_struct *sig = t->signal;

	if (sig && refcount_dec_and_test(&sig->sigcnt, "put_signal_struct on a freed signal"))
		free_signal_struct(sig);
	cgt_free_poisoned(t, sizeof(*t));
	cgt_model_count(&cgt_live.tasks, -1);
}

void put_task_struct(struct task *t)
{
	if (refcount_dec_and_test(&t->usage, "put_task_struct on a task whose last reference "
				  "is gone"))
		__put_task_struct(t);
}

/* thread_group_empty: the ring holds the task alone (3.14: list_empty(&p->thread_group)). */
bool thread_group_empty(struct task *p)
{
	return rcu_dereference(p->thread_group.next) == &p->thread_group;
}
