// SPDX-License-Identifier: GPL-2.0
/*
 * The order shrink cuts by (src/search/shrink_size.c): a run counted up to its failure, the
 * decisions after it left out, and compared key by key, preemptions past CHESS's bound first
 * for a schedule's cut and not for a configuration's.
 */
#include <criterion/criterion.h>

#include "../../src/search/shrink.h"

/* T1 T1 T2 T3 T2 | T4 T4: failure at decision 4, then two decisions to end the run */
static const int choices[] = { 1, 1, 2, 3, 2, 4, 4 };
static long preempted[] = { 2, 3, 5 };

static struct cgt_child_result result(void)
{
	struct cgt_child_result r = { .step = 4, .ops = 3, .preemptions = 3,
				      .preempted = preempted };

	for (size_t k = 0; k < sizeof(choices) / sizeof(choices[0]); k++)
		cr_assert_eq(cgt_schedule_push(&r.schedule, choices[k]), 0);
	return r;
}

Test(shrink_size, counts_up_to_the_failure_only)
{
	struct cgt_child_result r = result();
	struct shrink_size s = shrink_size_of(&r);

	cr_expect_eq(s.ran, 3, "T4 ran after the failure");
	cr_expect_eq(s.dec, 5);
	cr_expect_eq(s.pre, 2, "the preemption at decision 5 came after it");
	cr_expect_eq(s.switches, 3);
	cr_expect_eq(s.ops, 3);
	cgt_schedule_free(&r.schedule);
}

Test(shrink_size, threads_before_operations_before_decisions)
{
	struct shrink_size big = { .ran = 4, .ops = 2, .dec = 50, .pre = 1 };
	struct shrink_size fewer_threads = { .ran = 3, .ops = 9, .dec = 900, .pre = 2 };
	struct shrink_size fewer_ops = { .ran = 4, .ops = 1, .dec = 90, .pre = 3 };

	cr_expect_lt(shrink_size_cmp(&fewer_threads, &big, true), 0);
	cr_expect_lt(shrink_size_cmp(&fewer_ops, &big, true), 0);
	cr_expect_gt(shrink_size_cmp(&big, &fewer_ops, false), 0);
	cr_expect_eq(shrink_size_cmp(&big, &big, true), 0);
}

Test(shrink_size, preemptions_past_the_bound_first_for_a_schedule_only)
{
	struct shrink_size many = { .ran = 3, .ops = 4, .dec = 80, .pre = 40 };
	struct shrink_size bounded = { .ran = 6, .ops = 12, .dec = 170, .pre = SHRINK_BOUND };
	struct shrink_size one = { .ran = 6, .ops = 12, .dec = 170, .pre = 1 };

	cr_expect_lt(shrink_size_cmp(&bounded, &many, true), 0);
	cr_expect_gt(shrink_size_cmp(&bounded, &many, false), 0, "a configuration's cut");
	cr_expect_lt(shrink_size_cmp(&one, &bounded, true), 0, "within the bound, fewer still");
}
