// SPDX-License-Identifier: GPL-2.0
/* de_thread (fs/exec.c): an exec kills the rest of the group and takes over its leader. */
#include <errno.h>

#include "model.h"

/*
 * de_thread: called by the exec-er @tsk. Returns 0 once @tsk is alone in its group (and its
 * leader), or -EAGAIN if another exec or group exit got there first: then @tsk has SIGKILL
 * pending and must exit.
 */
int de_thread(struct task *tsk)
{
	struct signal_struct *sig = tsk->signal;

	if (thread_group_empty(tsk))
		return 0;	/* no_thread_group: the check is lockless in the kernel too */
	/*
	 * Kill all other threads in the thread group, under siglock alone (3.14 and later
	 * take no tasklist_lock here): fork adds a thread and __exit_signal removes one
	 * under siglock, so the list zap_other_threads walks stays still.
	 */
	cgt_mutex_lock(&sig->siglock);
	if (signal_group_exit(sig)) {
		cgt_mutex_unlock(&sig->siglock);
		cgt_cover(CGT_PATH_EXEC_LOST);
		return -EAGAIN;
	}
	sig->group_exit_task = tsk;
	sig->notify_count = zap_other_threads(tsk);
	if (!thread_group_leader(tsk))
		sig->notify_count--;	/* the leader turns zombie, it is not released */
	cgt_point(CGT_PT_EXEC_ZAP, tsk);

	while (sig->notify_count) {
		cgt_cover(CGT_PATH_EXEC_WAITS_GROUP);
		cgt_point(CGT_PT_EXEC_WAIT, tsk);
		cgt_wait_begin(sig, "the other threads of the group to exit", CGT_WAIT_GROUP_EXIT);
		cgt_cond_wait(&sig->group_exit_wait, &sig->siglock);
		cgt_wait_end();
	}
	cgt_mutex_unlock(&sig->siglock);

	/*
	 * At this point all other threads have exited, all we have to do is to wait for the
	 * thread group leader to become inactive, and to assume its identity.
	 */
	if (!thread_group_leader(tsk)) {
		struct task *leader = tsk->group_leader;

		cgt_mutex_lock(&sig->siglock);
		sig->notify_count = -1;		/* for exit_notify() */
		cgt_mutex_unlock(&sig->siglock);
		for (;;) {
			threadgroup_change_begin(tsk);
			cgt_write_lock(&tasklist_lock);
			if (leader->exit_state)
				break;
			/* set_current_state before unlocking: exit_notify wakes under siglock */
			cgt_mutex_lock(&sig->siglock);
			cgt_write_unlock(&tasklist_lock);
			threadgroup_change_end(tsk);
			cgt_cover(CGT_PATH_EXEC_WAITS_LEADER);
			cgt_point(CGT_PT_EXEC_WAIT, tsk);
			cgt_wait_begin(sig, "the group leader to turn zombie", CGT_WAIT_GROUP_EXIT);
			cgt_cond_wait(&sig->group_exit_wait, &sig->siglock);
			cgt_wait_end();
			cgt_mutex_unlock(&sig->siglock);
		}

		/* Become a process group leader with the old leader's pid. */
		WRITE_ONCE(leader->exec_successor, tsk->pid);
		WRITE_ONCE(tsk->pid, leader->pid);
		change_pid(tsk, PIDTYPE_PID, leader->pids[PIDTYPE_PID].pid);
		transfer_pid(leader, tsk, PIDTYPE_PGID);
		transfer_pid(leader, tsk, PIDTYPE_SID);
		cds_list_replace_rcu(&leader->tasks, &tsk->tasks);
		/*
		 * Published: a lockless reader follows group_leader to tsk and takes a reference
		 * (the kernel relies on the address dependency; C11 and TSan need release/acquire).
		 */
		rcu_assign_pointer(tsk->group_leader, tsk);
		rcu_assign_pointer(leader->group_leader, tsk);
		WRITE_ONCE(leader->exit_state, EXIT_DEAD);
		cgt_write_unlock(&tasklist_lock);
		threadgroup_change_end(tsk);
		cgt_cover(CGT_PATH_EXEC_BY_THREAD);
		cgt_point(CGT_PT_EXEC_SWITCH, tsk);

		release_task(leader);
	} else {
		cgt_cover(CGT_PATH_EXEC_BY_LEADER);
	}

	cgt_mutex_lock(&sig->siglock);
	sig->group_exit_task = NULL;
	sig->notify_count = 0;
	cgt_mutex_unlock(&sig->siglock);
	return 0;
}
