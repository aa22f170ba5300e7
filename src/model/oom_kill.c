// SPDX-License-Identifier: GPL-2.0
/* The OOM killer's walk of a thread group (mm/oom_kill.c). */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "model.h"

/*
 * find_lock_task_mm (mm/oom_kill.c): the first thread of @p's group with an mm. Until the
 * 3.14 cycle it walked while_each_thread(p, t) from that thread, which may exit mid-walk:
 * walk-from-exiting puts that back. Oleg Nesterov's "oom_kill: change oom_kill.c to use
 * for_each_thread()", merged with 0c740d0afc3b, made it for_each_thread(p, t). Under
 * rcu_read_lock (its own from "oom_kill: add rcu_read_lock() into find_lock_task_mm()").
 */
static void find_lock_task_mm(struct task *p, enum cgt_iter iter, struct cgt_walk *w)
{
	struct task *t;

	cgt_walk_for_each(w, p, iter, "find_lock_task_mm", t) {
		/* task_lock(t); if (t->mm) return t; -- the model looks at every thread */
	}
}

/*
 * oom_badness (mm/oom_kill.c) on thread @pid, as select_bad_process() met it in its
 * do_each_thread() walk under rcu_read_lock alone (6b0c81b3be11 dropped tasklist_lock
 * there): find_lock_task_mm from it. The model finds it by @pid, as the scan would meet it.
 * Returns -ESRCH, -ELOOP, or 0.
 */
/*
 * What both OOM walks begin with: the walk 3.13 had (walk-from-exiting) in @iter, @w
 * cleared, and under rcu_read_lock, which the caller drops, the thread @pid as the scan met
 * it, or NULL if it is gone or already exiting (oom_scan_process_thread passes it by).
 */
static struct task *oom_scan_lookup(int pid, enum cgt_iter *iter, struct cgt_walk *w)
{
	struct task *p;

	if (cgt_bug(CGT_BUG_WALK_FROM_EXITING))
		*iter = CGT_ITER_WHILE_EACH;
	memset(w, 0, sizeof(*w));
	rcu_read_lock();
	cgt_point(CGT_PT_RCU_ENTER, NULL);
	p = find_task_by_vpid(pid);
	return p && !READ_ONCE(p->exit_state) ? p : NULL;
}

int oom_badness(int pid, enum cgt_iter iter, struct cgt_walk *w)
{
	struct task *p = oom_scan_lookup(pid, &iter, w);
	int ret = -ESRCH;

	if (p) {
		find_lock_task_mm(p, iter, w);
		ret = w->overran ? -ELOOP : 0;
	}
	rcu_read_unlock();
	return ret;
}

/*
 * A line printk'd to the console: the caller's CPU writes it out (a serial console takes
 * most of a millisecond a line) while the rest of the system runs. A marked point, where a
 * scheduler may run others; free-running, 20 us of the clock.
 */
static void printk_line(void)
{
	static const struct timespec line = { .tv_nsec = 20000 };

	cgt_point(CGT_PT_PRINTK, NULL);
	if (!cgt_sync())
		nanosleep(&line, NULL);
}

/* dump_header's lines before the task list: dump_stack's trace and show_mem's, at least. */
#define DUMP_HEADER_LINES	16

/*
 * dump_header (mm/oom_kill.c): dump_stack, show_mem, then dump_tasks with oom_dump_tasks set
 * (the default): for_each_process under rcu_read_lock, a line printed for each. Long with
 * many processes and a slow console: the window in which the victim may exit.
 */
static void dump_header(void)
{
	struct task *p;

	for (int i = 0; i < DUMP_HEADER_LINES; i++)
		printk_line();
	rcu_read_lock();
	cds_list_for_each_entry_rcu(p, &init_task.tasks, tasks) {
		cgt_point(CGT_PT_PGRP_STEP, p);
		printk_line();
	}
	rcu_read_unlock();
}

/*
 * oom_kill_process (mm/oom_kill.c) on the victim @pid that select_bad_process chose under
 * RCU and holds by reference. Not PF_EXITING, so dump_header prints the task list and the
 * "Kill process ... or sacrifice child" line; only then, in the eras that looked for a child
 * to sacrifice (to 5.0), read_lock(&tasklist_lock) and a walk of the victim's threads, each
 * thread's children looked at (the model keeps no children lists: the walk is the
 * threads'). The victim may exit and be released in that window; for_each_thread starts
 * from signal->thread_head and ends, but before 3.14 it was do { } while_each_thread(p, t)
 * from the released victim: the ring no longer holds it, the walk never ends, and every
 * exit spins in write_lock_irq(&tasklist_lock) behind it (Oleg Nesterov, linux-mm, Nov
 * 2013: "It does check PF_EXITING before while_each_thread(), but this is racy";
 * walk-from-exiting puts it back). Then find_lock_task_mm(victim) under RCU. Returns
 * -ESRCH, -ELOOP, or 0.
 */
int oom_kill_process(int pid, enum cgt_iter iter, struct cgt_walk *w)
{
	struct task *p = oom_scan_lookup(pid, &iter, w), *t;
	int ret = 0;

	if (p)
		get_task_struct(p);	/* select_bad_process's reference on its choice */
	rcu_read_unlock();
	if (!p)
		return -ESRCH;
	if (READ_ONCE(p->flags) & PF_EXITING) {
		put_task_struct(p);
		return -ESRCH;
	}
	dump_header();
	if (cgt_model_cfg()->era->oom_kill_children) {
		cgt_read_lock(&tasklist_lock);
		cgt_walk_for_each_held(w, p, iter, "oom_kill_process", &tasklist_lock, t) {
			/* list_for_each_entry(child, &t->children, sibling): none kept */
		}
		cgt_read_unlock(&tasklist_lock);
	}
	if (!w->overran) {
		long steps = w->steps;

		rcu_read_lock();
		find_lock_task_mm(p, iter, w);
		rcu_read_unlock();
		w->steps += steps;
	}
	if (w->overran)
		ret = -ELOOP;
	put_task_struct(p);
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
