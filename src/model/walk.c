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
 * Both need rcu_read_lock. Every walk publishes its progress in its thread's state and
 * passes a marked point at every step, where the livelock detector (src/detect/livelock.c)
 * may stop it (cgt_walk_stop) and report it with what became of its start thread, so that
 * the run goes on. A walk longer than the model's walk_limit stops by itself. The kernel's
 * walkers live beside this file, each in one named after its kernel file.
 */
#include <errno.h>
#include <stdio.h>
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

/* "while_each, for_each": what --iter takes, for its help and its errors */
const char *cgt_iter_names(void)
{
	static char buf[64];

	if (!buf[0])
		for (size_t i = 0; i < ARRAY_SIZE(iter_names); i++)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s",
				 i ? ", " : "", iter_names[i]);
	return buf;
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

/* What became of the start thread; the walker is still inside rcu_read_lock. */
static void walk_fate(struct cgt_walk *w)
{
	struct task *g = w->start;
	int successor = READ_ONCE(g->exec_successor);
	int state = READ_ONCE(g->exit_state);

	if (successor)
		snprintf(w->fate, sizeof(w->fate),
			 "released by an exec: tid %d took over its pid", successor);
	else if (!pid_alive(g))
		snprintf(w->fate, sizeof(w->fate), "exited and was unhashed (release_task)");
	else if (state == EXIT_ZOMBIE)
		snprintf(w->fate, sizeof(w->fate), "a zombie leader, still hashed");
	else if (READ_ONCE(g->flags) & PF_EXITING)
		snprintf(w->fate, sizeof(w->fate), "exiting, still hashed");
	else
		snprintf(w->fate, sizeof(w->fate), "alive and hashed");
}

/*
 * End the walk at its next step, as the livelock detector asks or the walk limit demands;
 * the walker is still inside rcu_read_lock, so what became of the start thread can be read.
 */
void cgt_walk_stop(struct cgt_walk *w, const char *why)
{
	if (w->overran)
		return;
	w->overran = true;
	w->why = why;
	walk_fate(w);
}

static struct task *walk_visit(struct cgt_walk *w, struct task *t)
{
	struct cgt_thread *self = cgt_self;

	w->cur = t;
	if (!t) {
		if (self)
			WRITE_ONCE(self->walk_active, 0);
		if (!pid_alive(w->start))
			cgt_cover(CGT_PATH_WALK_START_GONE);
		return NULL;
	}
	check_walk_visit(w, t);
	/*
	 * A walk meets each thread once; one met again has gone round a ring its end is no
	 * longer on (while_each from an unhashed thread). Brent's method: compare with a
	 * thread kept at steps 1, 2, 4, 8, ...; a loop of n threads shows within 2n steps,
	 * whatever the walk limit.
	 */
	if (t == w->anchor) {
		w->looped = true;
	} else if (++w->lap >= w->power) {
		w->anchor = t;
		w->power = w->power ? 2 * w->power : 1;
		w->lap = 0;
	}
	w->steps++;
	if (READ_ONCE(t->fork_seq) <= w->fork_seq)
		w->old_steps++;
	if (self)
		WRITE_ONCE(self->walk_steps, w->steps);
	if (!READ_ONCE(t->exit_state))
		w->live++;
	/* what an exit has done to the thread under the walk */
	if (!pid_alive(t))
		cgt_cover(CGT_PATH_WALK_UNHASHED);
	else if (READ_ONCE(t->flags) & PF_EXITING)
		cgt_cover(CGT_PATH_WALK_EXITING);
	return t;
}

struct task *cgt_walk_first(struct cgt_walk *w, struct task *start, enum cgt_iter iter,
			    const char *fn)
{
	struct cgt_thread *self = cgt_self;
	struct cds_list_head *head, *first;

	memset(w, 0, sizeof(*w));
	w->iter = iter;
	w->fn = fn;
	w->start = start;
	w->start_pid = READ_ONCE(start->pid);
	w->fork_seq = __atomic_load_n(&cgt_fork_seq, __ATOMIC_RELAXED);
	w->section = cgt_rcu_section();
	if (self) {
		WRITE_ONCE(self->walk_abort, 0);
		WRITE_ONCE(self->walk_start_pid, w->start_pid);
		WRITE_ONCE(self->walk_fn, fn);
		WRITE_ONCE(self->walk_steps, 0);
		WRITE_ONCE(self->walk_since_ns, cgt_clock_ns());
		WRITE_ONCE(self->walk_active, 1);
	}
	cgt_point(CGT_PT_WALK_START, w);
	if (iter == CGT_ITER_WHILE_EACH)
		return walk_visit(w, start);	/* it always visits g itself */
	head = &start->signal->thread_head;
	first = rcu_dereference(head->next);
	return walk_visit(w, first == head ? NULL : container_of(first, struct task, thread_node));
}

bool cgt_walk_holds_on(const struct cgt_walk *w)
{
	return w->looped && w->held && w->old_steps < cgt_model_cfg()->walk_limit &&
	       !__atomic_load_n(&w->held->writers_waiting, __ATOMIC_RELAXED);
}

struct task *cgt_walk_next(struct cgt_walk *w)
{
	struct cds_list_head *head, *next;
	struct task *t;

	cgt_point(CGT_PT_WALK_STEP, w);
	/*
	 * the model's own bounds, for a walk that no detector watches and no walker bounds;
	 * one that holds a lock goes round to the walk limit (a detector ends it sooner)
	 */
	if (!w->bounded && w->looped && !w->held)
		cgt_walk_stop(w, CGT_WALK_LOOPED);
	else if (!w->bounded && w->old_steps >= cgt_model_cfg()->walk_limit)
		cgt_walk_stop(w, CGT_WALK_TOO_LONG);
	if (w->overran)
		return walk_visit(w, NULL);
	check_walk_rcu(w);
	if (w->iter == CGT_ITER_WHILE_EACH) {
		t = next_thread(w->cur);
		return walk_visit(w, t == w->start ? NULL : t);
	}
	head = &w->start->signal->thread_head;
	next = rcu_dereference(w->cur->thread_node.next);
	return walk_visit(w, next == head ? NULL : container_of(next, struct task, thread_node));
}
