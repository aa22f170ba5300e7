// SPDX-License-Identifier: GPL-2.0
/*
 * The two thread-group walks (include/linux/sched.h, 3.14):
 *
 *   while_each: t = g; do { ... } while_each_thread(g, t);  -- next_thread() round the
 *               headless thread_group ring until it meets g again; if g is unhashed while
 *               the walk is under way, the ring no longer holds g and the walk never ends.
 *   for_each:   for_each_thread(p, t)  -- thread_node from p->signal->thread_head; the head
 *               lives in signal_struct, so the walk always ends under RCU.
 *
 * Both need rcu_read_lock. A walk longer than the model's walk_limit is a livelock: it is
 * cut short and flagged, so that the run goes on.
 */
#include <errno.h>
#include <string.h>

#include "model.h"

static const char *const iter_names[] = {
	[CGT_ITER_WHILE_EACH]	= "while_each",
	[CGT_ITER_FOR_EACH]	= "for_each",
};

const char *cgt_iter_name(enum cgt_iter iter)
{
	return iter_names[iter];
}

int cgt_iter_parse(const char *name, enum cgt_iter *iter)
{
	for (size_t i = 0; i < ARRAY_SIZE(iter_names); i++) {
		if (!strcmp(name, iter_names[i])) {
			*iter = (enum cgt_iter)i;
			return 0;
		}
	}
	return -EINVAL;
}

static struct task *walk_visit(struct cgt_walk *w, struct task *t)
{
	w->cur = t;
	if (!t)
		return NULL;
	w->steps++;
	if (!READ_ONCE(t->exit_state))
		w->live++;
	return t;
}

struct task *cgt_walk_first(struct cgt_walk *w, struct task *start, enum cgt_iter iter)
{
	struct cds_list_head *head, *first;

	memset(w, 0, sizeof(*w));
	w->iter = iter;
	w->start = start;
	cgt_point(CGT_PT_WALK_START, w);
	if (iter == CGT_ITER_WHILE_EACH)
		return walk_visit(w, start);	/* it always visits g itself */
	head = &start->signal->thread_head;
	first = rcu_dereference(head->next);
	return walk_visit(w, first == head ? NULL : container_of(first, struct task, thread_node));
}

struct task *cgt_walk_next(struct cgt_walk *w)
{
	struct cds_list_head *head, *next;
	struct task *t;

	cgt_point(CGT_PT_WALK_STEP, w);
	if (w->steps >= cgt_model_cfg()->walk_limit) {
		w->overran = true;
		return walk_visit(w, NULL);
	}
	if (w->iter == CGT_ITER_WHILE_EACH) {
		t = next_thread(w->cur);
		return walk_visit(w, t == w->start ? NULL : t);
	}
	head = &w->start->signal->thread_head;
	next = rcu_dereference(w->cur->thread_node.next);
	return walk_visit(w, next == head ? NULL : container_of(next, struct task, thread_node));
}

/*
 * fill_stats_for_tgid (kernel/taskstats.c): sum a statistic over every thread of the group
 * found by @tgid. lock_task_sighand() there fails once the task is released; pid_alive()
 * is that check here. Returns -ESRCH if there is no such task, -ELOOP on a livelock.
 */
int fill_stats_for_tgid(int tgid, enum cgt_iter iter, struct cgt_walk *w)
{
	struct task *first, *t;
	int ret = 0;

	rcu_read_lock();
	cgt_point(CGT_PT_RCU_ENTER, NULL);
	first = find_task_by_vpid(tgid);
	if (!first || !pid_alive(first)) {
		memset(w, 0, sizeof(*w));
		ret = -ESRCH;
		goto out;
	}
	cgt_walk_for_each(w, first, iter, t) {
		/* walk_visit() reads each thread's exit_state, the statistic we sum */
	}
	if (w->overran)
		ret = -ELOOP;
out:
	rcu_read_unlock();
	return ret;
}
