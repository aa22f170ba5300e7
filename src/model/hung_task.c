// SPDX-License-Identifier: GPL-2.0
/* khungtaskd's walk over every thread (kernel/hung_task.c). */
#include <errno.h>
#include <string.h>

#include "model.h"

#define HUNG_TASK_BATCHING	1024

/*
 * rcu_lock_break (kernel/hung_task.c, since 6027ce497d44): let a grace period pass in the
 * middle of the scan, holding references to @g and @t; go on only if both are still hashed,
 * and then the walk @w goes on in the new read-side section.
 */
static bool rcu_lock_break(struct cgt_walk *w, struct task *g, struct task *t)
{
	bool can_cont;

	cgt_cover(CGT_PATH_LOCK_BREAK);
	get_task_struct(g);
	get_task_struct(t);
	rcu_read_unlock();
	cgt_point(CGT_PT_RCU_ENTER, t);		/* cond_resched() */
	rcu_read_lock();
	can_cont = pid_alive(g) && pid_alive(t);
	if (can_cont)
		w->section = cgt_rcu_section();
	put_task_struct(t);
	put_task_struct(g);
	return can_cont;
}

/*
 * check_hung_uninterruptible_tasks (kernel/hung_task.c, khungtaskd): every thread of every
 * process under rcu_read_lock alone. 3.14 and 3.15 still walked do_each_thread(g, t) /
 * while_each_thread(g, t): g is a group leader, which survives its threads' exits as a
 * zombie but not an exec by another thread, which releases it (0c740d0afc3b: "it can
 * exec"); 6027ce497d44 says the walk can livelock and that only max_count bounds it. The
 * later for_each_process_thread() cannot. walk-leader-exec puts the old walk back. Each
 * group's walk is one struct cgt_walk, so the livelock detector sees it; @w holds the
 * last. Returns the threads seen, or -ELOOP if a walk was cut short.
 */
long check_hung_uninterruptible_tasks(enum cgt_iter iter, struct cgt_walk *w)
{
	int batch_count = HUNG_TASK_BATCHING;
	long seen = 0;
	struct task *g, *t;

	if (cgt_bug(CGT_BUG_WALK_LEADER_EXEC))
		iter = CGT_ITER_WHILE_EACH;
	memset(w, 0, sizeof(*w));
	rcu_read_lock();
	cgt_point(CGT_PT_RCU_ENTER, NULL);
	cds_list_for_each_entry_rcu(g, &init_task.tasks, tasks) {
		cgt_walk_for_each(w, g, iter, "check_hung_uninterruptible_tasks", t) {
			seen++;
			if (!--batch_count) {
				batch_count = HUNG_TASK_BATCHING;
				if (!rcu_lock_break(w, g, t))
					goto unlock;
			}
		}
		if (w->overran) {
			seen = -ELOOP;
			goto unlock;
		}
	}
unlock:
	rcu_read_unlock();
	return seen;
}
