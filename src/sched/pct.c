// SPDX-License-Identifier: GPL-2.0
/*
 * PCT, probabilistic concurrency testing (Burckhardt, Kothari, Musuvathi, Nagarakatte,
 * ASPLOS 2010): every thread gets a random priority and the highest-priority runnable thread
 * runs; at d-1 decisions drawn at random from the run's k, the running thread drops below
 * every other. A bug of depth d (d ordering constraints) is then found by one run with
 * probability at least 1/(n k^(d-1)) for n threads.
 *
 * Our threads loop over operations for ever rather than end, so a thread that finishes an
 * operation draws a fresh priority: no one thread keeps the baton for the whole run, and
 * within an operation the schedule is PCT's.
 */
#include <math.h>
#include <stdlib.h>

#include "sched.h"
#include "../base/prng.h"

#define MAX_DEPTH	16

static struct prng rng;
static long change_at[MAX_DEPTH];	/* decisions at which the running thread drops */
static int nchanges;

/* Priorities above every change point's, so a dropped thread is below all others. */
static uint64_t fresh_priority(void)
{
	return MAX_DEPTH + (prng_next(&rng) >> 1);
}

static void pct_start(const struct cgt_sched_params *p)
{
	prng_seed(&rng, p->seed, 0x9c7);
	nchanges = 0;
	for (int i = 0; i < p->tunables.depth - 1 && i < MAX_DEPTH - 1; i++)
		change_at[nchanges++] = p->steps > 0 ?
					(long)(prng_next(&rng) % (uint64_t)p->steps) : 0;
}

static void pct_new_thread(struct cgt_sched_ent *e)
{
	e->prio = fresh_priority();
}

static void pct_yielded(struct cgt_sched_ent *e)
{
	e->prio = fresh_priority();
}

static struct cgt_sched_ent *pct_pick(struct cgt_sched_ent **runnable, int n,
				      struct cgt_sched_ent *cur, long step)
{
	struct cgt_sched_ent *best = runnable[0];

	/* the i-th change point leaves the running thread with priority d - i */
	for (int i = 0; i < nchanges; i++)
		if (change_at[i] == step && cur)
			cur->prio = (uint64_t)(nchanges - i);
	for (int i = 1; i < n; i++)
		if (runnable[i]->prio > best->prio)
			best = runnable[i];
	return best;
}

static double pct_bound(const struct cgt_sched_params *p, int threads)
{
	return 1.0 / ((double)threads * pow((double)(p->steps > 0 ? p->steps : 1), p->tunables.depth - 1));
}

const struct cgt_sched_ops pct_sched_ops = {
	.name		= "pct",
	.desc		= "PCT: random priorities, d-1 priority change points (--depth d)",
	.start		= pct_start,
	.new_thread	= pct_new_thread,
	.yielded	= pct_yielded,
	.pick		= pct_pick,
	.bound		= pct_bound,
};
