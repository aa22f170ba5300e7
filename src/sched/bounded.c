// SPDX-License-Identifier: GPL-2.0
/*
 * Preemption bounding, after CHESS (Musuvathi and Qadeer, PLDI 2007): most concurrency bugs
 * show within two preemptions, and a schedule with few is one a person can follow. A thread
 * runs on until it ends an operation, blocks or exits, where any runnable thread may follow
 * it (a yield, free); at most K decisions drawn from the seed, and nowhere else, the running
 * thread is preempted for another, and sits out the free switches until a decision drawn
 * from the rest of the run (or until no other thread can run): a preemption matters when
 * others get far while its victim waits, as PCT's lowered priority lets them. explore and reproduce raise K from 0 (search/bound.c), so
 * the first failure found has the fewest preemptions they could find.
 *
 * CHESS enumerates those schedules; ours are drawn at random, as a run of 5,000 decisions
 * has far too many to enumerate.
 */
#include <stdlib.h>

#include "sched.h"
#include "../base/prng.h"

#define MAX_PREEMPTIONS	16

static struct prng rng;
static long preempt_at[MAX_PREEMPTIONS];	/* ascending */
static int npreempt, next_preempt;
static long steps;				/* the run's length */
static const struct cgt_sched_ent *yielder;	/* just ended an operation */

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

static void bounded_start(const struct cgt_sched_params *p)
{
	prng_seed(&rng, p->seed, 0xb0d);
	npreempt = next_preempt = 0;
	steps = p->steps;
	yielder = NULL;
	for (int i = 0; i < p->tunables.preemptions && i < MAX_PREEMPTIONS; i++)
		preempt_at[npreempt++] = p->steps > 0 ? (long)(prng_next(&rng) % (uint64_t)p->steps) : 0;
	qsort(preempt_at, (size_t)npreempt, sizeof(*preempt_at), cmp_long);
}

static void bounded_new_thread(struct cgt_sched_ent *e)
{
	e->resume_at = 0;
}

static void bounded_yielded(struct cgt_sched_ent *e)
{
	yielder = e;
}

static struct cgt_sched_ent *bounded_pick(struct cgt_sched_ent **runnable, int n,
					  struct cgt_sched_ent *cur, long step)
{
	bool free_switch = !cur || cur->state != CGT_ENT_RUNNABLE || cur == yielder;
	struct cgt_sched_ent *next;
	int k, c = 0, awake = 0;

	yielder = NULL;
	if (free_switch) {
		for (int i = 0; i < n; i++)
			awake += runnable[i]->resume_at <= step;
		if (!awake)
			return runnable[prng_below(&rng, (uint32_t)n)];
		k = (int)prng_below(&rng, (uint32_t)awake);
		for (int i = 0; i < n; i++)
			if (runnable[i]->resume_at <= step && !k--)
				return runnable[i];
	}
	/* a preemption point passed while the running thread ran alone waits for a rival */
	if (next_preempt == npreempt || step < preempt_at[next_preempt] || n < 2)
		return cur;
	next_preempt++;
	while (runnable[c] != cur)
		c++;
	k = (int)prng_below(&rng, (uint32_t)(n - 1));
	next = runnable[k < c ? k : k + 1];
	cur->resume_at = step + 1 + (long)(prng_next(&rng) % (uint64_t)(steps - step > 1 ? steps - step : 1));
	return next;
}

const struct cgt_sched_ops bounded_sched_ops = {
	.name		= "bounded",
	.desc		= "preemption bounding: threads switch where they yield, and at most "
			  "--preemptions K times elsewhere",
	.start		= bounded_start,
	.new_thread	= bounded_new_thread,
	.yielded	= bounded_yielded,
	.pick		= bounded_pick,
};
