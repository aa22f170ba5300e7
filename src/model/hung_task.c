// SPDX-License-Identifier: GPL-2.0
/* khungtaskd's walk over every thread (kernel/hung_task.c). */
#include <errno.h>
#include <string.h>

#include "model.h"

#define HUNG_TASK_BATCHING	1024

/*
 * rcu_lock_break (kernel/hung_task.c @ v3.14.1, v3.15.5, v4.4.1; its pid_alive() test since
 * 6027ce497d44 "hung_task: fix the broken rcu_lock_break() logic", 3.4): let a grace period
 * pass in the middle of the scan, holding references to @g and @t; go on only if both are
 * still hashed, and then the walk @w goes on in the new read-side section.
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
 * process under rcu_read_lock alone, with the walk the era's kernel used (era.c): v3.14.1
 * and v3.15.5 do_each_thread(g, t) / while_each_thread(g, t), v4.4.1 for_each_process_thread.
 * An exec by another thread releases the leader g mid-walk, and a while_each walk from it
 * goes round the ring for ever; but every HUNG_TASK_BATCHING threads of the scan,
 * rcu_lock_break finds g unhashed and the scan ends there ("goto unlock"). 6027ce497d44's
 * own note: "while_each_thread() under rcu_read_lock() is not really safe, it can livelock
 * ... but fortunately in this case the max_count logic saves us anyway" -- the batch ends it
 * sooner. So the outcome is a scan cut short, the threads after g unchecked that round,
 * never an endless walk: each group's walk is bounded (struct cgt_walk.bounded), and the
 * livelock detector leaves it alone. @w holds the last group's walk. Returns the threads
 * seen.
 */
long check_hung_uninterruptible_tasks(struct cgt_walk *w)
{
	enum cgt_iter iter = cgt_model_cfg()->era->hung_task_iter;
	int batch_count = HUNG_TASK_BATCHING;
	long seen = 0;
	struct task *g, *t;

	memset(w, 0, sizeof(*w));
	rcu_read_lock();
	cgt_point(CGT_PT_RCU_ENTER, NULL);
	cds_list_for_each_entry_rcu(g, &init_task.tasks, tasks) {
		cgt_walk_for_each_bounded(w, g, iter, "check_hung_uninterruptible_tasks", t) {
			seen++;
			if (!--batch_count) {
				batch_count = HUNG_TASK_BATCHING;
				if (!rcu_lock_break(w, g, t)) {
					w->cut_short = true;
					cgt_cover(CGT_PATH_HUNG_SCAN_CUT);
					goto unlock;
				}
			}
		}
	}
unlock:
	rcu_read_unlock();
	return seen;
}
