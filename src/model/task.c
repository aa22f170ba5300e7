// SPDX-License-Identifier: GPL-2.0
/* task_struct and signal_struct lifetimes (kernel/fork.c: __put_task_struct, free_signal_struct). */
#include <stdlib.h>

#include "model.h"
#include "cgroup_internal.h"

void get_task_struct(struct task *t)
{
	atomic_inc(&t->usage);
}

/* free_signal_struct: the last task of the group is gone. */
void free_signal_struct(struct signal_struct *sig)
{
	cgt_lock_destroy(&sig->group_rwsem);
	pthread_mutex_destroy(&sig->siglock);
	pthread_cond_destroy(&sig->group_exit_wait);
	free(sig);
	cgt_model_count(&cgt_live.signals, -1);
}

/* __put_task_struct: memory goes back for real, so the ASan build sees a late access. */
static void __put_task_struct(struct task *t)
{
	struct signal_struct *sig = t->signal;

	if (sig && atomic_dec_and_test(&sig->sigcnt))
		free_signal_struct(sig);
	free(t);
	cgt_model_count(&cgt_live.tasks, -1);
}

void put_task_struct(struct task *t)
{
	if (atomic_dec_and_test(&t->usage))
		__put_task_struct(t);
}

/* thread_group_empty: the ring holds the task alone (3.14: list_empty(&p->thread_group)). */
bool thread_group_empty(struct task *p)
{
	return rcu_dereference(p->thread_group.next) == &p->thread_group;
}
