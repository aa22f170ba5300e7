// SPDX-License-Identifier: GPL-2.0
/* The seeded random walk: at every decision, any thread that can run, with equal chance. */
#include "sched.h"
#include "../base/prng.h"

static struct prng rng;

static void random_start(const struct cgt_sched_params *p)
{
	prng_seed(&rng, p->seed, 0x5c4ed);
}

static void random_new_thread(struct cgt_sched_ent *e)
{
	(void)e;
}

static struct cgt_sched_ent *random_pick(struct cgt_sched_ent **runnable, int n,
					 struct cgt_sched_ent *cur, long step)
{
	(void)cur;
	(void)step;
	return runnable[prng_below(&rng, (uint32_t)n)];
}

const struct cgt_sched_ops random_sched_ops = {
	.name		= "random",
	.desc		= "seeded random walk: any runnable thread, with equal chance, at every point",
	.start		= random_start,
	.new_thread	= random_new_thread,
	.pick		= random_pick,
};
