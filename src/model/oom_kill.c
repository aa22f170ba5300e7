// SPDX-License-Identifier: GPL-2.0
/* The OOM killer's walk of a thread group (mm/oom_kill.c). */
#include <errno.h>
#include <string.h>

#include "model.h"

/*
 * find_lock_task_mm (mm/oom_kill.c), as oom_badness() called it on each thread @p that
 * select_bad_process() found in its do_each_thread() walk under rcu_read_lock alone
 * (6b0c81b3be11 dropped tasklist_lock there). Until the 3.14 cycle it walked
 * while_each_thread(p, t) from that thread, which may exit mid-walk: walk-from-exiting puts
 * that back. Oleg Nesterov's "oom_kill: change oom_kill.c to use for_each_thread()", merged
 * with 0c740d0afc3b, made it for_each_thread(p, t). The model finds @p by @pid, as the scan
 * would meet it. Returns -ESRCH, -ELOOP, or 0.
 */
int oom_badness(int pid, enum cgt_iter iter, struct cgt_walk *w)
{
	struct task *p, *t;
	int ret = 0;

	if (cgt_bug(CGT_BUG_WALK_FROM_EXITING))
		iter = CGT_ITER_WHILE_EACH;
	memset(w, 0, sizeof(*w));
	rcu_read_lock();
	cgt_point(CGT_PT_RCU_ENTER, NULL);
	p = find_task_by_vpid(pid);
	/* oom_scan_process_thread: a thread already exiting is skipped */
	if (!p || READ_ONCE(p->exit_state)) {
		ret = -ESRCH;
		goto out;
	}
	cgt_walk_for_each(w, p, iter, "find_lock_task_mm", t) {
		/* task_lock(t); if (t->mm) return t; -- the model looks at every thread */
	}
	if (w->overran)
		ret = -ELOOP;
out:
	rcu_read_unlock();
	return ret;
}
