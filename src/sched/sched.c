// SPDX-License-Identifier: GPL-2.0
/*
 * The controlled scheduler's core: the table of schedulable threads, the baton, decisions
 * (recorded, or followed from a schedule), blocking and waking, and RCU grace periods counted
 * in decisions rather than time, so that even the freeing of memory happens at the same step
 * every time. Everything here runs in the baton holder, or in the driver while no thread
 * holds the baton; see sched.h for why ThreadSanitizer does not look at it.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sched.h"
#include "../base/futex.h"
#include "../core/point.h"
#include "../core/rcu.h"
#include "../core/thread.h"

bool cgt_sched_enabled;
__thread struct cgt_sched_ent *cgt_sched_self;

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

static struct {
	struct cgt_sched_config cfg;
	struct cgt_sched_ent **live;	/* by thread number */
	struct cgt_sched_ent **runnable;
	int nlive, cap;
	int next_id;
	long step;
	struct cgt_schedule rec;
	long diverged;
	char why[160];
	int running;			/* futex: someone holds the baton */
	int stop;			/* the driver's wall-clock cap was reached */
	/* RCU */
	struct rcu_cbs pending;		/* queued for the next grace period */
	struct rcu_cbs gp_cbs;		/* ending with the running one */
	struct gp_reader *gp_readers;
	int gp_nreaders, gp_cap;
	bool gp_active;
} S;

/* The baton: relaxed atomics ordered by fences (invisible to TSan) and a futex to sleep on. */
static void gate_open(struct cgt_sched_ent *e)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	__atomic_store_n(&e->gate, 1, __ATOMIC_RELAXED);
	futex_wake(&e->gate, 1);
}

static void gate_wait(struct cgt_sched_ent *e)
{
	while (!__atomic_load_n(&e->gate, __ATOMIC_RELAXED))
		futex_wait(&e->gate, 0, NULL);
	__atomic_store_n(&e->gate, 0, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

static void go_idle(void)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	__atomic_store_n(&S.running, 0, __ATOMIC_RELAXED);
	futex_wake(&S.running, INT_MAX);
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

int cgt_sched_baton_init(const struct cgt_sched_config *cfg)
{
	CGT_UNSEEN();
	free(S.live);
	free(S.runnable);
	cgt_schedule_free(&S.rec);
	free(S.pending.cb);
	free(S.gp_cbs.cb);
	free(S.gp_readers);
	memset(&S, 0, sizeof(S));
	S.cfg = *cfg;
	S.diverged = -1;
	S.cfg.ops->start(cfg->seed, cfg->depth, cfg->steps);
	cgt_sched_enabled = true;
	WRITE_ONCE(cgt_step_clock, 0);
	return 0;
}

void cgt_sched_baton_finish(void)
{
	CGT_UNSEEN();
	cgt_sched_enabled = false;
	WRITE_ONCE(cgt_step_clock, -1);
}

void cgt_sched_add(struct cgt_sched_ent *e)
{
	CGT_UNSEEN();
	if (S.nlive == S.cap) {
		int cap = S.cap ? S.cap * 2 : 64;
		struct cgt_sched_ent **l = realloc(S.live, (size_t)cap * sizeof(*l));
		struct cgt_sched_ent **r = realloc(S.runnable, (size_t)cap * sizeof(*r));

		if (!l || !r) {
			fprintf(stderr, "cgtorture: out of memory in the scheduler\n");
			abort();
		}
		S.live = l;
		S.runnable = r;
		S.cap = cap;
	}
	e->id = ++S.next_id;
	e->state = CGT_ENT_RUNNABLE;
	e->gate = 0;
	e->slot = S.nlive;
	S.live[S.nlive++] = e;
	S.cfg.ops->new_thread(e);
}

/* A grace period ends once every reader it waits for has left its read-side section. */
static bool gp_done(void)
{
	for (int i = 0; i < S.gp_nreaders; i++) {
		const struct gp_reader *r = &S.gp_readers[i];

		if (r->e && r->e->rcu_qs == r->qs)
			return false;
	}
	return true;
}

static void gp_start(void)
{
	struct rcu_cbs q = S.gp_cbs;

	S.gp_cbs = S.pending;
	S.pending = (struct rcu_cbs){ q.cb, 0, q.cap };
	S.gp_nreaders = 0;
	for (int i = 0; i < S.nlive; i++) {
		struct cgt_sched_ent *e = S.live[i];

		if (!e->rcu_depth)
			continue;
		if (S.gp_nreaders == S.gp_cap) {
			int cap = S.gp_cap ? S.gp_cap * 2 : 64;
			struct gp_reader *r = realloc(S.gp_readers, (size_t)cap * sizeof(*r));

			if (!r)
				abort();
			S.gp_readers = r;
			S.gp_cap = cap;
		}
		S.gp_readers[S.gp_nreaders++] = (struct gp_reader){ e, e->rcu_qs };
	}
	S.gp_active = true;
}

/* End the grace period if it can end, run its callbacks in order, and start the next. */
static void rcu_advance(void)
{
	while (S.gp_active && gp_done()) {
		struct rcu_cbs q = S.gp_cbs;

		S.gp_cbs = (struct rcu_cbs){ NULL, 0, 0 };
		S.gp_active = false;
		for (int i = 0; i < q.n; i++)
			q.cb[i].func(q.cb[i].head);	/* may queue more: they go to pending */
		free(q.cb);
		if (S.pending.n)
			gp_start();
	}
	if (!S.gp_active && S.pending.n) {
		gp_start();
		if (gp_done())
			rcu_advance();
	}
}

static struct cgt_sched_ent *find_runnable(int n, int id)
{
	for (int i = 0; i < n; i++)
		if (S.runnable[i]->id == id)
			return S.runnable[i];
	return NULL;
}

static void diverge(long step, int want)
{
	const struct cgt_sched_ent *e = NULL;

	for (int i = 0; i < S.nlive; i++)
		if (S.live[i]->id == want)
			e = S.live[i];
	S.diverged = step;
	if (want < 0)
		snprintf(S.why, sizeof(S.why), "the run goes on past the %ld recorded decisions",
			 S.cfg.follow->len);
	else if (!e)
		snprintf(S.why, sizeof(S.why), "T%d does not exist (%s)", want,
			 want > S.next_id ? "never created" : "already exited");
	else
		snprintf(S.why, sizeof(S.why), "T%d cannot run (blocked)", want);
}

/*
 * One decision: the run's clock ticks, grace periods advance, and the next thread to run is
 * picked and recorded. @cur is the caller if it may go on running. NULL: none can run.
 */
static struct cgt_sched_ent *decide(struct cgt_sched_ent *cur)
{
	const struct cgt_schedule *follow = S.cfg.follow;
	long step = S.step;
	struct cgt_sched_ent *next = NULL;
	int n = 0;

	rcu_advance();
	if (S.cfg.tick)
		S.cfg.tick(step);
	for (int i = 0; i < S.nlive; i++)
		if (S.live[i]->state == CGT_ENT_RUNNABLE)
			S.runnable[n++] = S.live[i];
	if (!n)
		return NULL;
	if (follow && S.diverged < 0) {
		int want = step < follow->len ? follow->choice[step] : -1;

		next = want > 0 ? find_runnable(n, want) : NULL;
		if (!next && !S.cfg.lenient)
			diverge(step, want);
	}
	if (!next && follow) {
		/* a lenient follower, or a replay that no longer fits, keeps switches few */
		next = cur && cur->state == CGT_ENT_RUNNABLE ? cur : S.runnable[0];
	} else if (!next) {
		next = S.cfg.ops->pick(S.runnable, n, cur, step);
	}
	if (cgt_schedule_push(&S.rec, next->id)) {
		fprintf(stderr, "cgtorture: the schedule outgrew %ld decisions\n", CGT_SCHEDULE_MAX);
		abort();
	}
	S.step++;
	WRITE_ONCE(cgt_step_clock, S.step);
	return next;
}

void cgt_sched_kick(void)
{
	CGT_UNSEEN();
	struct cgt_sched_ent *next = decide(NULL);

	if (!next)
		return;
	__atomic_store_n(&S.running, 1, __ATOMIC_RELAXED);
	gate_open(next);
}

enum cgt_sched_idle cgt_sched_wait_idle(double timeout)
{
	CGT_UNSEEN();
	struct timespec ts = { (time_t)timeout, (long)((timeout - (double)(time_t)timeout) * 1e9) };
	bool blocked = false;

	if (__atomic_load_n(&S.running, __ATOMIC_RELAXED)) {
		futex_wait(&S.running, 1, &ts);
		if (__atomic_load_n(&S.running, __ATOMIC_RELAXED))
			return CGT_IDLE_BUSY;
	}
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (!S.nlive)
		return CGT_IDLE_DONE;
	for (int i = 0; i < S.nlive; i++) {
		if (S.live[i]->state == CGT_ENT_RUNNABLE)
			return CGT_IDLE_BUSY;	/* not kicked yet */
		if (S.live[i]->blocked_on != S.cfg.park)
			blocked = true;
	}
	return blocked ? CGT_IDLE_DEADLOCK : CGT_IDLE_PARKED;
}

void cgt_sched_request_stop(void)
{
	CGT_UNSEEN();
	__atomic_store_n(&S.stop, 1, __ATOMIC_RELAXED);
}

bool cgt_sched_stop_requested(void)
{
	CGT_UNSEEN();
	return __atomic_load_n(&S.stop, __ATOMIC_RELAXED);
}

long cgt_sched_steps(void)
{
	CGT_UNSEEN();
	return S.step;
}

const struct cgt_schedule *cgt_sched_recorded(void)
{
	CGT_UNSEEN();
	return &S.rec;
}

long cgt_sched_diverged(char *why, size_t len)
{
	CGT_UNSEEN();
	if (why && len)
		snprintf(why, len, "%s", S.why);
	return S.diverged;
}

int cgt_sched_max_id(void)
{
	CGT_UNSEEN();
	return S.next_id;
}

int cgt_sched_blocked(struct cgt_sched_ent **out, int max)
{
	CGT_UNSEEN();
	int n = 0;

	for (int i = 0; i < S.nlive && n < max; i++)
		if (S.live[i]->state == CGT_ENT_BLOCKED && S.live[i]->blocked_on != S.cfg.park)
			out[n++] = S.live[i];
	return n;
}

void cgt_sched_enter(struct cgt_sched_ent *e)
{
	CGT_UNSEEN();
	cgt_sched_self = e;
	e->thread = cgt_self;
	if (cgt_self)
		WRITE_ONCE(cgt_self->sched_id, e->id);
	gate_wait(e);
}

void cgt_sched_exit(void)
{
	CGT_UNSEEN();
	struct cgt_sched_ent *me = cgt_sched_self, *next;

	if (!me)
		return;
	me->state = CGT_ENT_DEAD;
	memmove(&S.live[me->slot], &S.live[me->slot + 1],
		(size_t)(S.nlive - me->slot - 1) * sizeof(*S.live));
	S.nlive--;
	for (int i = me->slot; i < S.nlive; i++)
		S.live[i]->slot = i;
	for (int i = 0; i < S.gp_nreaders; i++)
		if (S.gp_readers[i].e == me)
			S.gp_readers[i].e = NULL;
	cgt_sched_self = NULL;
	next = decide(NULL);
	if (next)
		gate_open(next);
	else
		go_idle();
}

/* Pass the baton to @next (or go idle) and wait for it to come back. */
static void switch_to(struct cgt_sched_ent *me, struct cgt_sched_ent *next)
{
	if (next == me)
		return;
	if (next)
		gate_open(next);
	else
		go_idle();
	gate_wait(me);
}

void cgt_sched_point(int point)
{
	CGT_UNSEEN();
	struct cgt_sched_ent *me = cgt_sched_self;

	if (!me)
		return;
	if (point == CGT_PT_LOOP && S.cfg.ops->yielded)
		S.cfg.ops->yielded(me);
	switch_to(me, decide(me));
}

void cgt_sched_block(const void *obj)
{
	CGT_UNSEEN();
	struct cgt_sched_ent *me = cgt_sched_self;

	if (!me)
		return;
	me->state = CGT_ENT_BLOCKED;
	me->blocked_on = obj;
	switch_to(me, decide(me));
}

void cgt_sched_wake_ent(struct cgt_sched_ent *e, const void *obj)
{
	CGT_UNSEEN();
	if (e->state == CGT_ENT_BLOCKED && e->blocked_on == obj) {
		e->state = CGT_ENT_RUNNABLE;
		e->blocked_on = NULL;
	}
}

void cgt_sched_wake(const void *obj)
{
	CGT_UNSEEN();
	for (int i = 0; i < S.nlive; i++)
		cgt_sched_wake_ent(S.live[i], obj);
}

void cgt_sched_wake_if(const void *obj, bool (*can)(struct cgt_sched_ent *e))
{
	CGT_UNSEEN();
	for (int i = 0; i < S.nlive; i++)
		if (S.live[i]->state == CGT_ENT_BLOCKED && S.live[i]->blocked_on == obj &&
		    can(S.live[i]))
			cgt_sched_wake_ent(S.live[i], obj);
}

void cgt_sched_rcu_lock(void)
{
	CGT_UNSEEN();
	if (cgt_sched_self)
		cgt_sched_self->rcu_depth++;
}

void cgt_sched_rcu_unlock(void)
{
	CGT_UNSEEN();
	struct cgt_sched_ent *me = cgt_sched_self;

	if (me && !--me->rcu_depth)
		me->rcu_qs++;
}

void cgt_sched_call_rcu(struct rcu_head *head, void (*func)(struct rcu_head *head))
{
	CGT_UNSEEN();
	if (cbs_push(&S.pending, head, func)) {
		fprintf(stderr, "cgtorture: out of memory queueing an RCU callback\n");
		abort();
	}
}

struct gp_waiter {
	struct rcu_head head;
	struct cgt_sched_ent *e;
};

static void gp_waiter_wake(struct rcu_head *head)
{
	struct gp_waiter *w = container_of(head, struct gp_waiter, head);

	cgt_sched_wake_ent(w->e, w);
}

/* synchronize_rcu: a callback that wakes the caller, and the caller blocked until it runs. */
void cgt_sched_synchronize_rcu(void)
{
	CGT_UNSEEN();
	struct gp_waiter w = { .e = cgt_sched_self };

	if (!w.e)
		return;
	cgt_sched_call_rcu(&w.head, gp_waiter_wake);
	w.e->state = CGT_ENT_BLOCKED;
	w.e->blocked_on = &w;
	rcu_advance();			/* no reader in the way: it ends now */
	if (w.e->state == CGT_ENT_BLOCKED)
		switch_to(w.e, decide(w.e));
}

/* Every model thread has gone: whatever is queued can run. */
void cgt_sched_rcu_barrier(void)
{
	CGT_UNSEEN();
	while (S.gp_active || S.pending.n)
		rcu_advance();
}
