// SPDX-License-Identifier: GPL-2.0
/*
 * The controlled scheduler's core: the table of schedulable threads, the baton, decisions
 * (recorded, or followed from a schedule), blocking and waking. Its grace periods are in
 * sched_rcu.c. Everything here runs in the baton holder, or in the driver while no thread
 * holds the baton; see sched.h for why ThreadSanitizer does not look at it.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sched.h"
#include "sched_internal.h"
#include "../base/futex.h"
#include "../core/point.h"
#include "../core/rcu.h"
#include "../core/thread.h"

bool cgt_sched_enabled;
__thread struct cgt_sched_ent *cgt_sched_self;

/* The baton's state: the threads it knows, the decisions so far, and who holds it. */
static struct {
	struct cgt_sched_config cfg;
	struct cgt_sched_ent **live;	/* by thread number */
	struct cgt_sched_ent **runnable;
	int nlive, cap;
	int next_id;
	long step;
	struct cgt_schedule rec;
	struct cgt_preemption *pre;	/* the switches away from a thread that could go on */
	long npre, precap;
	bool at_loop;			/* this decision ends an operation: a switch is a yield */
	long diverged;
	char why[160];
	int running;			/* futex: someone holds the baton */
	int stop;			/* the driver's wall-clock cap was reached */
} baton;

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
	__atomic_store_n(&baton.running, 0, __ATOMIC_RELAXED);
	futex_wake(&baton.running, INT_MAX);
}

int cgt_sched_baton_init(const struct cgt_sched_config *cfg)
{
	CGT_UNSEEN();
	free(baton.live);
	free(baton.runnable);
	cgt_schedule_free(&baton.rec);
	free(baton.pre);
	sched_rcu_reset();
	memset(&baton, 0, sizeof(baton));
	baton.cfg = *cfg;
	baton.diverged = -1;
	baton.cfg.ops->start(&cfg->params);
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
	if (baton.nlive == baton.cap) {
		int cap = baton.cap ? baton.cap * 2 : 64;
		struct cgt_sched_ent **l = realloc(baton.live, (size_t)cap * sizeof(*l));
		struct cgt_sched_ent **r = realloc(baton.runnable, (size_t)cap * sizeof(*r));

		if (!l || !r) {
			fprintf(stderr, "cgtorture: out of memory in the scheduler\n");
			abort();
		}
		baton.live = l;
		baton.runnable = r;
		baton.cap = cap;
	}
	e->id = ++baton.next_id;
	e->last_ran = baton.step;
	e->state = CGT_ENT_RUNNABLE;
	e->gate = 0;
	e->slot = baton.nlive;
	baton.live[baton.nlive++] = e;
	baton.cfg.ops->new_thread(e);
}

static struct cgt_sched_ent *find_runnable(int n, int id)
{
	for (int i = 0; i < n; i++)
		if (baton.runnable[i]->id == id)
			return baton.runnable[i];
	return NULL;
}

static void diverge(long step, int want)
{
	const struct cgt_sched_ent *e = NULL;

	for (int i = 0; i < baton.nlive; i++)
		if (baton.live[i]->id == want)
			e = baton.live[i];
	baton.diverged = step;
	if (want < 0)
		snprintf(baton.why, sizeof(baton.why), "the run goes on past the %ld recorded decisions",
			 baton.cfg.follow->len);
	else if (!e)
		snprintf(baton.why, sizeof(baton.why), "T%d does not exist (%s)", want,
			 want > baton.next_id ? "never created" : "already exited");
	else
		snprintf(baton.why, sizeof(baton.why), "T%d cannot run (blocked)", want);
}

/*
 * A switch away from @cur that could have gone on, neither at the end of its operation nor
 * blocked nor gone: a preemption, as CHESS counts them (a yield is not one).
 */
static void note_preemption(long step, const struct cgt_sched_ent *cur,
			    const struct cgt_sched_ent *next)
{
	if (!cur || next == cur || cur->state != CGT_ENT_RUNNABLE || baton.at_loop)
		return;
	if (baton.npre == baton.precap) {
		long cap = baton.precap ? baton.precap * 2 : 64;
		struct cgt_preemption *p = realloc(baton.pre, (size_t)cap * sizeof(*p));

		if (!p) {
			fprintf(stderr, "cgtorture: out of memory in the scheduler\n");
			abort();
		}
		baton.pre = p;
		baton.precap = cap;
	}
	baton.pre[baton.npre++] = (struct cgt_preemption){ step, cur->id, next->id };
}

/*
 * Where a followed schedule does not say (a lenient follower, or a replay that no longer
 * fits): no preemption, the running thread goes on until it ends an operation or blocks;
 * then the thread that has waited longest, so that one the schedule so far kept waiting (a
 * walker stopped mid-walk) goes next, and none is starved.
 */
static struct cgt_sched_ent *lenient_pick(int n, struct cgt_sched_ent *cur)
{
	struct cgt_sched_ent *next = baton.runnable[0];

	if (cur && cur->state == CGT_ENT_RUNNABLE && !baton.at_loop)
		return cur;
	for (int i = 1; i < n; i++)
		if (baton.runnable[i]->last_ran < next->last_ran)
			next = baton.runnable[i];
	return next;
}

/*
 * One decision: the run's clock ticks, grace periods advance, and the next thread to run is
 * picked and recorded. @cur is the caller if it may go on running. NULL: none can run.
 */
static struct cgt_sched_ent *decide(struct cgt_sched_ent *cur)
{
	const struct cgt_schedule *follow = baton.cfg.follow;
	long step = baton.step;
	struct cgt_sched_ent *next = NULL;
	int n = 0;

	sched_rcu_advance(baton.live, baton.nlive);
	if (baton.cfg.tick)
		baton.cfg.tick(step);
	for (int i = 0; i < baton.nlive; i++)
		if (baton.live[i]->state == CGT_ENT_RUNNABLE)
			baton.runnable[n++] = baton.live[i];
	if (!n)
		return NULL;
	if (follow && baton.diverged < 0) {
		int want = step < follow->len ? follow->choice[step] : -1;

		next = want > 0 ? find_runnable(n, want) : NULL;
		if (!next && !baton.cfg.lenient)
			diverge(step, want);
	}
	if (!next && follow) {
		next = lenient_pick(n, cur);
	} else if (!next) {
		next = baton.cfg.ops->pick(baton.runnable, n, cur, step);
	}
	note_preemption(step, cur, next);
	baton.at_loop = false;
	next->last_ran = step;
	if (cgt_schedule_push(&baton.rec, next->id)) {
		fprintf(stderr, "cgtorture: the schedule outgrew %ld decisions\n", CGT_SCHEDULE_MAX);
		abort();
	}
	baton.step++;
	WRITE_ONCE(cgt_step_clock, baton.step);
	return next;
}

void cgt_sched_kick(void)
{
	CGT_UNSEEN();
	struct cgt_sched_ent *next = decide(NULL);

	if (!next)
		return;
	__atomic_store_n(&baton.running, 1, __ATOMIC_RELAXED);
	gate_open(next);
}

enum cgt_sched_idle cgt_sched_wait_idle(double timeout)
{
	CGT_UNSEEN();
	struct timespec ts = { (time_t)timeout, (long)((timeout - (double)(time_t)timeout) * 1e9) };
	bool blocked = false;

	if (__atomic_load_n(&baton.running, __ATOMIC_RELAXED)) {
		futex_wait(&baton.running, 1, &ts);
		if (__atomic_load_n(&baton.running, __ATOMIC_RELAXED))
			return CGT_IDLE_BUSY;
	}
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (!baton.nlive)
		return CGT_IDLE_DONE;
	for (int i = 0; i < baton.nlive; i++) {
		if (baton.live[i]->state == CGT_ENT_RUNNABLE)
			return CGT_IDLE_BUSY;	/* not kicked yet */
		if (baton.live[i]->blocked_on != baton.cfg.park)
			blocked = true;
	}
	return blocked ? CGT_IDLE_DEADLOCK : CGT_IDLE_PARKED;
}

void cgt_sched_request_stop(void)
{
	CGT_UNSEEN();
	__atomic_store_n(&baton.stop, 1, __ATOMIC_RELAXED);
}

bool cgt_sched_stop_requested(void)
{
	CGT_UNSEEN();
	return __atomic_load_n(&baton.stop, __ATOMIC_RELAXED);
}

long cgt_sched_steps(void)
{
	CGT_UNSEEN();
	return baton.step;
}

const struct cgt_schedule *cgt_sched_recorded(void)
{
	CGT_UNSEEN();
	return &baton.rec;
}

long cgt_sched_preemptions(const struct cgt_preemption **at)
{
	CGT_UNSEEN();
	if (at)
		*at = baton.pre;
	return baton.npre;
}

long cgt_sched_diverged(char *why, size_t len)
{
	CGT_UNSEEN();
	if (why && len)
		snprintf(why, len, "%s", baton.why);
	return baton.diverged;
}

int cgt_sched_max_id(void)
{
	CGT_UNSEEN();
	return baton.next_id;
}

int cgt_sched_blocked(struct cgt_sched_ent **out, int max)
{
	CGT_UNSEEN();
	int n = 0;

	for (int i = 0; i < baton.nlive && n < max; i++)
		if (baton.live[i]->state == CGT_ENT_BLOCKED && baton.live[i]->blocked_on != baton.cfg.park)
			out[n++] = baton.live[i];
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
	memmove(&baton.live[me->slot], &baton.live[me->slot + 1],
		(size_t)(baton.nlive - me->slot - 1) * sizeof(*baton.live));
	baton.nlive--;
	for (int i = me->slot; i < baton.nlive; i++)
		baton.live[i]->slot = i;
	sched_rcu_forget(me);
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
	baton.at_loop = point == CGT_PT_LOOP;
	if (baton.at_loop && baton.cfg.ops->yielded)
		baton.cfg.ops->yielded(me);
	switch_to(me, decide(me));
}

void cgt_sched_step(void)
{
	CGT_UNSEEN();
	struct cgt_sched_ent *me = cgt_sched_self;

	if (me)
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
	for (int i = 0; i < baton.nlive; i++)
		cgt_sched_wake_ent(baton.live[i], obj);
}

void cgt_sched_wake_if(const void *obj, bool (*can)(struct cgt_sched_ent *e))
{
	CGT_UNSEEN();
	for (int i = 0; i < baton.nlive; i++)
		if (baton.live[i]->state == CGT_ENT_BLOCKED && baton.live[i]->blocked_on == obj &&
		    can(baton.live[i]))
			cgt_sched_wake_ent(baton.live[i], obj);
}

/* A model thread's read-side sections: what a grace period started now would wait for. */
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
	sched_rcu_advance(baton.live, baton.nlive);	/* no reader in the way: it ends now */
	if (w.e->state == CGT_ENT_BLOCKED)
		switch_to(w.e, decide(w.e));
}

/* Every model thread has gone: whatever is queued can run. */
void cgt_sched_rcu_barrier(void)
{
	CGT_UNSEEN();
	while (sched_rcu_pending())
		sched_rcu_advance(baton.live, baton.nlive);
}
