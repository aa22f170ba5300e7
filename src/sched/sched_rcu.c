// SPDX-License-Identifier: GPL-2.0
/*
 * RCU under the controlled scheduler: grace periods counted in decisions rather than time,
 * so that even the freeing of memory happens at the same step every time. A grace period
 * starts with the readers then in a read-side section and ends, at a decision, once each
 * has left it; its callbacks run in the order they were queued. Runs in the baton holder,
 * or in the driver while no thread holds the baton (sched.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched.h"
#include "sched_internal.h"
#include "../core/rcu.h"

struct rcu_cb {
	struct rcu_head *head;
	void (*func)(struct rcu_head *head);
};

struct rcu_cbs {
	struct rcu_cb *cb;
	int n, cap;
};

/* A reader the running grace period waits for, and its count of outermost unlocks then. */
struct gp_reader {
	struct cgt_sched_ent *e;
	unsigned long qs;
};

/* The grace periods' state: callbacks queued and running, and the readers waited for. */
static struct {
	struct rcu_cbs pending;		/* queued for the next grace period */
	struct rcu_cbs gp_cbs;		/* ending with the running one */
	struct gp_reader *gp_readers;
	int gp_nreaders, gp_cap;
	bool gp_active;
	bool calling_back;		/* callbacks are running, inside a decision */
} rcu_state;

void sched_rcu_reset(void)
{
	free(rcu_state.pending.cb);
	free(rcu_state.gp_cbs.cb);
	free(rcu_state.gp_readers);
	memset(&rcu_state, 0, sizeof(rcu_state));
}

/* @e has exited: a grace period no longer waits for it. */
void sched_rcu_forget(struct cgt_sched_ent *e)
{
	for (int i = 0; i < rcu_state.gp_nreaders; i++)
		if (rcu_state.gp_readers[i].e == e)
			rcu_state.gp_readers[i].e = NULL;
}

static int cbs_push(struct rcu_cbs *q, struct rcu_head *head, void (*func)(struct rcu_head *))
{
	if (q->n == q->cap) {
		int cap = q->cap ? q->cap * 2 : 256;
		struct rcu_cb *cb = realloc(q->cb, (size_t)cap * sizeof(*cb));

		if (!cb)
			return -ENOMEM;
		q->cb = cb;
		q->cap = cap;
	}
	q->cb[q->n++] = (struct rcu_cb){ head, func };
	return 0;
}

/* A grace period ends once every reader it waits for has left its read-side section. */
static bool gp_done(void)
{
	for (int i = 0; i < rcu_state.gp_nreaders; i++) {
		const struct gp_reader *r = &rcu_state.gp_readers[i];

		if (r->e && r->e->rcu_qs == r->qs)
			return false;
	}
	return true;
}

static void gp_start(struct cgt_sched_ent *const *live, int nlive)
{
	struct rcu_cbs q = rcu_state.gp_cbs;

	rcu_state.gp_cbs = rcu_state.pending;
	rcu_state.pending = (struct rcu_cbs){ q.cb, 0, q.cap };
	rcu_state.gp_nreaders = 0;
	for (int i = 0; i < nlive; i++) {
		struct cgt_sched_ent *e = live[i];

		if (!e->rcu_depth)
			continue;
		if (rcu_state.gp_nreaders == rcu_state.gp_cap) {
			int cap = rcu_state.gp_cap ? rcu_state.gp_cap * 2 : 64;
			struct gp_reader *r = realloc(rcu_state.gp_readers, (size_t)cap * sizeof(*r));

			if (!r)
				abort();
			rcu_state.gp_readers = r;
			rcu_state.gp_cap = cap;
		}
		rcu_state.gp_readers[rcu_state.gp_nreaders++] = (struct gp_reader){ e, e->rcu_qs };
	}
	rcu_state.gp_active = true;
}

/* End the grace period if it can end, run its callbacks in order, and start the next. */
void sched_rcu_advance(struct cgt_sched_ent *const *live, int nlive)
{
	while (rcu_state.gp_active && gp_done()) {
		struct rcu_cbs q = rcu_state.gp_cbs;

		rcu_state.gp_cbs = (struct rcu_cbs){ NULL, 0, 0 };
		rcu_state.gp_active = false;
		rcu_state.calling_back = true;
		for (int i = 0; i < q.n; i++)
			q.cb[i].func(q.cb[i].head);	/* may queue more: they go to pending */
		rcu_state.calling_back = false;
		free(q.cb);
		if (rcu_state.pending.n)
			gp_start(live, nlive);
	}
	if (!rcu_state.gp_active && rcu_state.pending.n) {
		gp_start(live, nlive);
		if (gp_done())
			sched_rcu_advance(live, nlive);
	}
}

void cgt_sched_call_rcu(struct rcu_head *head, void (*func)(struct rcu_head *head))
{
	CGT_UNSEEN();
	if (cbs_push(&rcu_state.pending, head, func)) {
		fprintf(stderr, "cgtorture: out of memory queueing an RCU callback\n");
		abort();
	}
}

bool sched_rcu_calling_back(void)
{
	return rcu_state.calling_back;
}

bool sched_rcu_pending(void)
{
	return rcu_state.gp_active || rcu_state.pending.n;
}
