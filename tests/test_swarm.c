// SPDX-License-Identifier: GPL-2.0
/* Swarm phases (src/run/swarm.c): drawn from the seed, some with every feature, some without. */
#include <criterion/criterion.h>
#include <string.h>

#include "../src/run/run.h"
#include "../src/run/swarm.h"

static struct cgt_run_config cfg = {
	.seed = 42, .threads = 512, .walkers = 4, .clone_thread_pct = 70,
	.mix = { 35, 2, 20, 10, 33 }, .swarm = CGT_SWARM_ALL,
};

static int nonzero(const unsigned int *w, int n)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		k += w[i] != 0;
	return k;
}

/*
 * Each phase draws how much it leaves out: a third of the phases keep every operation and
 * every reader (what a bug needing them all at once requires), others drop some.
 */
Test(swarm, a_third_of_the_phases_leave_nothing_out)
{
	int full = 0, some_out = 0, n = 600;

	for (int i = 0; i < n; i++) {
		struct cgt_phase p;

		cgt_swarm_draw(&cfg, i, &p);
		if (nonzero(p.mix, CGT_NR_OPS) == CGT_NR_OPS &&
		    nonzero(p.reads, CGT_NR_READS) == CGT_NR_READS)
			full++;
		else
			some_out++;
	}
	cr_assert_gt(full, n / 4, "%d of %d phases with everything", full, n);
	cr_assert_gt(some_out, n / 2, "%d of %d phases leave something out", some_out, n);
}

Test(swarm, the_same_seed_draws_the_same_phases_and_pinned_dimensions_stay)
{
	struct cgt_phase a, b;
	struct cgt_run_config pinned = cfg;

	cgt_swarm_draw(&cfg, 7, &a);
	cgt_swarm_draw(&cfg, 7, &b);
	cr_assert_eq(memcmp(&a, &b, sizeof(a)), 0);
	pinned.swarm &= ~(1u << CGT_SWARM_MIX);
	for (int i = 0; i < 50; i++) {
		cgt_swarm_draw(&pinned, i, &a);
		cr_assert_eq(memcmp(a.mix, cfg.mix, sizeof(a.mix)), 0, "--mix given: pinned");
	}
}
