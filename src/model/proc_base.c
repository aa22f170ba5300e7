// SPDX-License-Identifier: GPL-2.0
/* /proc/<tgid>/task, listed as a getdents reader sees it (fs/proc/base.c). */
#include <errno.h>

#include "model.h"

/*
 * next_tid (fs/proc/base.c): the thread after @start, with a reference, or NULL after the
 * last. @start is held by reference only, outside any RCU section: if it has been unhashed,
 * its ->thread_group.next may point at a thread that has since been freed, which is why the
 * kernel checks pid_alive() first (no-pid-alive leaves the check out).
 */
static struct task *next_tid(struct task *start)
{
	struct task *pos = NULL;

	rcu_read_lock();
	cgt_point(CGT_PT_RCU_ENTER, start);
	if (cgt_bug(CGT_BUG_NO_PID_ALIVE) || pid_alive(start)) {
		pos = next_thread(start);
		if (thread_group_leader(pos))
			pos = NULL;
		else
			get_task_struct(pos);
	} else {
		cgt_cover(CGT_PATH_READDIR_UNHASHED);
	}
	rcu_read_unlock();
	put_task_struct(start);
	return pos;
}

/*
 * first_tid (fs/proc/base.c, 3.14): where a getdents call resumes, with a reference: the
 * thread whose tid the last call could not return (f_version), if it is still in the group,
 * else the @nr-th thread from the leader (the position), walked under RCU. NULL past the end.
 */
static struct task *first_tid(struct pid *pid, int tid, long nr)
{
	struct task *pos = NULL, *task;

	rcu_read_lock();
	task = pid_task(pid, PIDTYPE_PID);
	cgt_point(CGT_PT_RCU_ENTER, task);	/* the group it lists, for perturbation's aim */
	if (!task)
		goto out;
	if (tid && nr) {	/* attempt to start with the tid of a thread */
		pos = find_task_by_vpid(tid);
		if (pos && READ_ONCE(pos->signal) == task->signal)
			goto found;
	}
	/*
	 * Walk nr threads forward from the leader (3.14's do/while_each_thread), or find
	 * nothing: the kernel first compares nr with get_nr_threads(), a lockless read that
	 * the ring's own end stands in for here.
	 */
	task = rcu_dereference(task->group_leader);
	pos = task;
	do {
		if (!nr--)
			goto found;
		pos = next_thread(pos);
	} while (pos != task);
	pos = NULL;
	goto out;
found:
	get_task_struct(pos);
out:
	rcu_read_unlock();
	return pos;
}

static bool listed(const int *tids, long n, int tid)
{
	for (long i = 0; i < n; i++)
		if (tids[i] == tid)
			return true;
	return false;
}

/*
 * proc_task_readdir (fs/proc/base.c): list /proc/<tgid>/task as a reader with a small
 * getdents buffer does, CGT_GETDENTS_ENTRIES names per call. Each call resumes with
 * first_tid() from the tid the last one could not return and the position (f_pos), then
 * steps with next_tid() holding only a reference between threads; the reader is back in
 * user space between calls. Threads exiting meanwhile shift the positions, so a thread alive
 * through the whole listing can be missed, as on the running kernel: *@missed counts those
 * (threads of the group at the start, still hashed at the end, never listed; watched by
 * tid, as a reference would keep their memory, and the listing's neighbours', alive).
 * Returns -ESRCH if there is no such process; *@nr is the number of names listed.
 */
int proc_task_readdir(int tgid, long *nr, long *missed)
{
	int start[CGT_READDIR_WATCH], tids[CGT_READDIR_MAX];
	struct pid *start_pid[CGT_READDIR_WATCH];
	struct cds_list_head *head;
	long nstart = 0, pos = 0;
	struct pid *pid;
	struct task *t;
	int resume = 0;

	*nr = *missed = 0;
	rcu_read_lock();
	pid = find_vpid(tgid);
	t = pid_task(pid, PIDTYPE_PID);
	head = t ? &t->signal->thread_head : NULL;
	/* the threads to list if they live through it, by tid: no reference keeps them */
	if (head)
		cds_list_for_each_entry_rcu(t, head, thread_node) {
			if (nstart == CGT_READDIR_WATCH)
				break;
			start_pid[nstart] = READ_ONCE(t->pids[PIDTYPE_PID].pid);
			if (!start_pid[nstart])
				continue;	/* unhashed since the walk met it */
			get_pid(start_pid[nstart]);
			start[nstart++] = READ_ONCE(t->pid);
		}
	if (pid)
		get_pid(pid);
	rcu_read_unlock();
	if (!pid)
		return -ESRCH;

	for (;;) {		/* one getdents call */
		int room = CGT_GETDENTS_ENTRIES;

		t = first_tid(pid, resume, pos);
		resume = 0;
		if (!t)
			break;
		while (t) {
			int tid = READ_ONCE(t->pid);

			if (!room--) {	/* no room left: the next call starts here */
				resume = tid;
				put_task_struct(t);
				break;
			}
			cgt_point(CGT_PT_READDIR_STEP, t);	/* filldir: the reader may sleep */
			if (*nr < CGT_READDIR_MAX)
				tids[*nr] = tid;
			++*nr;
			pos++;
			if (*nr > cgt_model_cfg()->walk_limit) {
				put_task_struct(t);
				goto out;
			}
			t = next_tid(t);
		}
		if (!resume)
			break;
		cgt_point(CGT_PT_READDIR_STEP, NULL);	/* back in user space between calls */
	}
out:
	/* by struct pid, not number: with --pid-max a number may name another task by now */
	rcu_read_lock();
	for (long i = 0; i < nstart; i++) {
		if (pid_task(start_pid[i], PIDTYPE_PID) &&
		    !listed(tids, *nr < CGT_READDIR_MAX ? *nr : CGT_READDIR_MAX, start[i]))
			++*missed;
	}
	rcu_read_unlock();
	for (long i = 0; i < nstart; i++)
		put_pid(start_pid[i]);
	put_pid(pid);
	return 0;
}
