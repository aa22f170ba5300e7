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

/*
 * select_bad_process (mm/oom_kill.c): every thread of every process, under rcu_read_lock
 * alone from 6b0c81b3be11 ("mm, oom: reduce dependency on tasklist_lock", 3.6), with no batch
 * and no max_count; the model's oom_scan_process_thread looks at each thread and goes on.
 * Through 3.13 the walk was do_each_thread(g, p) / while_each_thread(g, p): an exec by
 * another thread releases the leader g mid-walk, the ring no longer holds it and the walk
 * never ends, inside one RCU read-side section (walk-leader-exec puts it back). "oom_kill:
 * change oom_kill.c to use for_each_thread()", merged with 0c740d0afc3b for 3.14, made it
 * for_each_process_thread (mm/oom_kill.c @ v3.14.1). Returns the threads seen, or -ELOOP.
 */
long select_bad_process(enum cgt_iter iter, struct cgt_walk *w)
{
	long seen = 0;
	struct task *g, *p;

	if (cgt_bug(CGT_BUG_WALK_LEADER_EXEC))
		iter = CGT_ITER_WHILE_EACH;
	memset(w, 0, sizeof(*w));
	rcu_read_lock();
	cgt_point(CGT_PT_RCU_ENTER, NULL);
	cds_list_for_each_entry_rcu(g, &init_task.tasks, tasks) {
		cgt_walk_for_each(w, g, iter, "select_bad_process", p)
			seen++;
		if (w->overran) {
			seen = -ELOOP;
			break;
		}
	}
	rcu_read_unlock();
	return seen;
}
