// SPDX-License-Identifier: GPL-2.0
/* Signals: to many processes under tasklist_lock, and to a whole group (kernel/signal.c). */
#include <errno.h>

#include "model.h"

/*
 * do_each_pid_task(pgrp, PIDTYPE_PGID, p) under read_lock(&tasklist_lock), as kill_pgrp()
 * and getpriority(PRIO_PGRP) walk a process group: the readers that keep tasklist_lock busy.
 */
int cgt_pgrp_walk(int pgid, long *nr)
{
	struct cds_hlist_node *pos;
	struct pid *pid;

	*nr = 0;
	cgt_read_lock(&tasklist_lock);
	rcu_read_lock();
	pid = find_vpid(pgid);
	if (pid) {
		cds_hlist_for_each_rcu(pos, &pid->tasks[PIDTYPE_PGID]) {
			struct task *p = container_of(pos, struct task, pids[PIDTYPE_PGID].node);

			cgt_point(CGT_PT_PGRP_STEP, p);
			check_pid_task_locked(pid, p, PIDTYPE_PGID);
			++*nr;
		}
	}
	rcu_read_unlock();
	cgt_read_unlock(&tasklist_lock);
	return pid ? 0 : -ESRCH;
}

/*
 * for_each_process under read_lock(&tasklist_lock), as kill(-1, sig) (kill_something_info)
 * and getpriority(PRIO_USER) go over every process: long read sections, so readers overlap.
 */
long cgt_all_process_walk(void)
{
	struct task *p;
	long nr = 0;

	cgt_read_lock(&tasklist_lock);
	rcu_read_lock();
	cds_list_for_each_entry_rcu(p, &init_task.tasks, tasks) {
		cgt_point(CGT_PT_PGRP_STEP, p);
		check_process_locked(p);
		nr++;
	}
	rcu_read_unlock();
	cgt_read_unlock(&tasklist_lock);
	return nr;
}

/*
 * zap_other_threads (kernel/signal.c): SIGKILL to every other thread of @tsk's group, under
 * its siglock (the caller's); returns how many.
 */
int zap_other_threads(struct task *tsk)
{
	struct task *t;
	int count = 0;

	cds_list_for_each_entry(t, &tsk->signal->thread_head, thread_node) {
		if (t == tsk)
			continue;
		count++;
		WRITE_ONCE(t->sigkill, 1);
		if (cgt_model_cfg()->hooks && cgt_model_cfg()->hooks->kill)
			cgt_model_cfg()->hooks->kill(t);
	}
	return count;
}
