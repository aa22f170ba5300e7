// SPDX-License-Identifier: GPL-2.0
/* taskstats' walk over a thread group (kernel/taskstats.c). */
#include <errno.h>
#include <string.h>

#include "model.h"

/*
 * fill_stats_for_tgid (kernel/taskstats.c, 3.14): sum a statistic over every thread of the
 * group found by @tgid, with lock_task_sighand(first) held across the walk. Under siglock no
 * thread of the group can be unhashed (__exit_signal runs under it), so even the 3.14
 * while_each_thread walk from a thread that is exiting always ends. lock_task_sighand()
 * fails once the task has been released: pid_alive() under siglock is that check here.
 * Returns -ESRCH if there is no such task, -ELOOP if the walk was cut short.
 */
int fill_stats_for_tgid(int tgid, enum cgt_iter iter, struct cgt_walk *w)
{
	struct signal_struct *sig;
	struct task *first, *t;
	int ret = 0;

	memset(w, 0, sizeof(*w));
	rcu_read_lock();
	cgt_point(CGT_PT_RCU_ENTER, NULL);
	first = find_task_by_vpid(tgid);
	if (!first) {
		ret = -ESRCH;
		goto out;
	}
	sig = first->signal;		/* first's memory, and its signal, outlive our RCU section */
	cgt_mutex_lock(&sig->siglock);	/* lock_task_sighand */
	if (!pid_alive(first)) {
		cgt_mutex_unlock(&sig->siglock);
		ret = -ESRCH;
		goto out;
	}
	cgt_walk_for_each(w, first, iter, "fill_stats_for_tgid", t) {
		/* walk_visit() reads each thread's exit_state, the statistic we sum */
	}
	cgt_mutex_unlock(&sig->siglock);	/* unlock_task_sighand */
	if (w->overran)
		ret = -ELOOP;
out:
	rcu_read_unlock();
	return ret;
}
