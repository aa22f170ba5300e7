// SPDX-License-Identifier: GPL-2.0
/* copy_process (kernel/fork.c), for CLONE_THREAD and for a new process. */
#include <errno.h>
#include <stdlib.h>

#include "model.h"
#include "refcount.h"
#include "cgroup_internal.h"

unsigned long cgt_fork_seq;

/* copy_signal: a new process gets its own signal_struct. */
static struct signal_struct *copy_signal(void)
{
	struct signal_struct *sig = malloc(sizeof(*sig));

	if (!sig)
		return NULL;
	cgt_signal_init(sig);
	cgt_model_count(&cgt_live.signals, 1);
	return sig;
}

/*
 * copy_process: a new thread in @parent's group (CLONE_THREAD) or a new process. The child
 * inherits the css_set (cgroup_post_fork). A new process forked by init becomes a session
 * and group leader, as a login would (setsid), so the pgid and sid lists get real members.
 */
int copy_process(struct task *parent, unsigned long clone_flags, struct task **childp)
{
	const struct cgt_model_hooks *hooks = cgt_model_cfg()->hooks;
	bool thread = clone_flags & CLONE_THREAD;
	/* from 4.4 every fork holds the global threadgroup lock, not only CLONE_THREAD */
	bool tg = thread || cgt_model_cfg()->era->threadgroup_global;
	struct signal_struct *sig;
	struct task *p;
	struct pid *pid;
	int err = -ENOMEM;

	p = malloc(sizeof(*p));		/* dup_task_struct */
	if (!p)
		return -ENOMEM;
	cgt_task_init(p);
	p->fork_seq = __atomic_add_fetch(&cgt_fork_seq, 1, __ATOMIC_RELAXED);
	cgt_model_count(&cgt_live.tasks, 1);
	cgt_point(CGT_PT_FORK_ALLOC, p);

	if (hooks && hooks->spawn) {
		err = hooks->spawn(p);	/* the kernel stack, here a pthread */
		if (err)
			goto bad_fork_free;
	}

	if (tg)
		threadgroup_change_begin(parent);
	if (thread) {
		sig = parent->signal;
		refcount_inc(&sig->sigcnt, "copy_process: a thread of a freed signal_struct");
		atomic_inc(&sig->live);
	} else {
		sig = copy_signal();
		if (!sig) {
			err = -ENOMEM;
			goto bad_fork_abandon;
		}
	}
	p->signal = sig;
	cgroup_fork(p, parent);

	pid = alloc_pid();
	if (!pid) {
		err = -ENOMEM;
		goto bad_fork_cleanup_signal;
	}
	WRITE_ONCE(p->pid, pid->nr);

	cgt_write_lock(&tasklist_lock);
	cgt_mutex_lock(&parent->signal->siglock);
	/*
	 * "Process group and session signals need to be delivered to just the parent before
	 * the fork or both the parent and the child after the fork": a killed parent, or a
	 * group that an exec is tearing down, gets no new thread.
	 */
	if (fatal_signal_pending(parent) ||
	    (thread && signal_group_exit(sig))) {
		cgt_mutex_unlock(&parent->signal->siglock);
		cgt_write_unlock(&tasklist_lock);
		cgt_cover(CGT_PATH_FORK_KILLED);
		err = -EINTR;
		goto bad_fork_free_pid;
	}
	if (thread) {
		struct task *leader = parent->group_leader;

		WRITE_ONCE(p->group_leader, leader);
		cds_list_add_tail_rcu(&p->thread_group, &leader->thread_group);
		cds_list_add_tail_rcu(&p->thread_node, &sig->thread_head);
	} else {
		WRITE_ONCE(p->group_leader, p);
		cds_list_add_tail_rcu(&p->thread_node, &sig->thread_head);
		if (parent == &init_task) {
			attach_pid(p, PIDTYPE_PGID, pid);
			attach_pid(p, PIDTYPE_SID, pid);
		} else {
			struct task *pl = parent->group_leader;

			attach_pid(p, PIDTYPE_PGID, pl->pids[PIDTYPE_PGID].pid);
			attach_pid(p, PIDTYPE_SID, pl->pids[PIDTYPE_SID].pid);
		}
		cds_list_add_tail_rcu(&p->tasks, &init_task.tasks);
	}
	attach_pid(p, PIDTYPE_PID, pid);
	sig->nr_threads++;
	cgt_mutex_unlock(&parent->signal->siglock);
	cgt_write_unlock(&tasklist_lock);
	/* an exec's zap counts the child from here, and it runs only once we wake it */
	cgt_thread_set_releasing(sig);
	cgt_point(CGT_PT_FORK_LINKED, p);
	/* hashed, not yet on a css_set: a migration that finds it now leaves it alone */
	cgt_window(CGT_PATH_MIGRATE_UNLINKED);

	cgroup_post_fork(p, parent);
	if (tg)
		threadgroup_change_end(parent);
	if (hooks && hooks->start)
		hooks->start(p);	/* wake_up_new_task */
	cgt_thread_set_releasing(NULL);
	*childp = p;
	return 0;

bad_fork_free_pid:
	free_pid(pid);
bad_fork_cleanup_signal:
	cgroup_cancel_fork(p);
	if (thread) {
		atomic_dec(&sig->live);
		refcount_dec(&sig->sigcnt, "copy_process's unwinding: a signal_struct's sigcnt");
	} else {
		free_signal_struct(sig);
	}
bad_fork_abandon:
	if (tg)
		threadgroup_change_end(parent);
	if (hooks && hooks->abandon)
		hooks->abandon(p);
bad_fork_free:
	free(p);
	cgt_model_count(&cgt_live.tasks, -1);
	return err;
}
