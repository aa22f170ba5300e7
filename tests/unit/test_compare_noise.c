// SPDX-License-Identifier: GPL-2.0
/*
 * When compare's ratios mean little (src/compare/compare_noise.c): a comparison of one repeat
 * or of measurements under CGT_CMP_MIN_SECONDS, and a cell whose ratio's repeats spread over
 * CGT_CMP_MAX_SPREAD of its median, are flagged, and say why; a cell whose repeats agree, and
 * one on the limit of the rule, are not.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/compare/compare.h"

#define REPEATS	3

static struct cgt_cmp_cell cell;

/*
 * A cell whose bare lock costs @bare[r] ns per acquisition in repeat r, its limit 10 ns and
 * its harness twice the bare lock: bare/lim is @bare[r] / 10, harn/bare 2 in every repeat.
 */
static void make_cell(const double bare[REPEATS])
{
	memset(&cell, 0, sizeof(cell));
	cell.repeats = REPEATS;
	cell.sample = malloc(CGT_CMP_NR_CTX * REPEATS * sizeof(*cell.sample));
	cr_assert_not_null(cell.sample);
	for (int k = 0; k < CGT_CMP_NR_CTX * REPEATS; k++)
		for (int f = 0; f < CGT_CMP_NR_FIGS; f++)
			cell.sample[k][f] = NAN;
	for (int r = 0; r < REPEATS; r++) {
		cgt_cmp_sample(&cell, CGT_CMP_LIMIT, r)[CGT_FIG_CPU_PER_OP] = 10;
		cgt_cmp_sample(&cell, CGT_CMP_BARE, r)[CGT_FIG_CPU_PER_OP] = bare[r];
		cgt_cmp_sample(&cell, CGT_CMP_HARNESS, r)[CGT_FIG_CPU_PER_OP] = 2 * bare[r];
	}
	cgt_cmp_cell_summarise(&cell);
}

static void fini(void)
{
	free(cell.sample);
}

TestSuite(compare_noise, .fini = fini);

Test(compare_noise, repeats_that_agree_are_not_flagged)
{
	char why[256] = "x";

	make_cell((double[]){ 14, 15, 16 });
	cr_assert_not(cgt_cmp_cell_noisy(&cell, why, sizeof(why)), "flagged: %s", why);
	cr_assert_str_empty(why);
}

Test(compare_noise, repeats_that_disagree_flag_the_ratio_and_say_by_how_much)
{
	char why[256];

	make_cell((double[]){ 10, 15, 25 });	/* bare/lim x1.0, x1.5, x2.5: spread 1.0 */
	cr_assert(cgt_cmp_cell_noisy(&cell, why, sizeof(why)));
	cr_assert_str_eq(why, "bare/lim x1.00 to x2.50 over 3 repeats");
}

/* (max - min) / median at the limit itself is not over it */
Test(compare_noise, a_spread_of_exactly_the_limit_is_not_flagged)
{
	char why[256];

	make_cell((double[]){ 16, 20, 16 + 20 * CGT_CMP_MAX_SPREAD });
	cr_assert_float_eq((cell.vs_limit.max - cell.vs_limit.min) / cell.vs_limit.median,
			   CGT_CMP_MAX_SPREAD, 1e-12);
	cr_assert_not(cgt_cmp_cell_noisy(&cell, why, sizeof(why)), "flagged: %s", why);
}

Test(compare_noise, one_repeat_or_short_measurements_flag_every_ratio)
{
	struct cgt_compare_config cfg = { .repeat = 3, .duration = 1 };
	char why[256];

	cr_assert_not(cgt_cmp_config_noisy(&cfg, why, sizeof(why)), "flagged: %s", why);
	cfg.duration = CGT_CMP_MIN_SECONDS;
	cr_assert_not(cgt_cmp_config_noisy(&cfg, why, sizeof(why)), "flagged: %s", why);
	cfg.repeat = 1;
	cr_assert(cgt_cmp_config_noisy(&cfg, why, sizeof(why)));
	cr_assert_str_eq(why, "one repeat, no spread to judge them by");
	cfg.duration = 0.1;
	cr_assert(cgt_cmp_config_noisy(&cfg, why, sizeof(why)));
	cr_assert_str_eq(why, "one repeat, no spread to judge them by; measurements of 0.1 s, "
			 "under 0.25 s");
	cfg.repeat = 2;
	cr_assert(cgt_cmp_config_noisy(&cfg, why, sizeof(why)));
	cr_assert_str_eq(why, "measurements of 0.1 s, under 0.25 s");
}

/* A cell flagged by the comparison's reasons is flagged whatever its repeats say. */
Test(compare_noise, the_comparison_s_reasons_reach_every_cell)
{
	struct cgt_compare_config cfg = { .repeat = 3, .duration = 0.1 };

	make_cell((double[]){ 14, 15, 16 });
	cr_assert(cgt_cmp_ratios_noisy(&cfg, &cell));
	cfg.duration = 1;
	cr_assert_not(cgt_cmp_ratios_noisy(&cfg, &cell));
}
