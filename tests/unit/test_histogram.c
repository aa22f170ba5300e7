// SPDX-License-Identifier: GPL-2.0
/*
 * The latency histogram (src/compare/histogram.c): percentiles of known inputs, to within the
 * bucket precision it promises (exact below 2 * CGT_HIST_SUB, 1/CGT_HIST_SUB above), and
 * merging per-thread histograms gives what one histogram of every value gives.
 */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "../../src/compare/histogram.h"

/* within one bucket's width of @want */
#define assert_near(got, want)							\
	cr_assert(llabs((long long)(got) - (long long)(want)) <=			\
		  (long long)(want) / CGT_HIST_SUB + 1, "got %llu, want %llu",	\
		  (unsigned long long)(got), (unsigned long long)(want))

static struct cgt_hist h, a, b;

Test(histogram, empty_is_zero)
{
	cgt_hist_init(&h);
	cr_assert_eq(cgt_hist_percentile(&h, 50), 0);
	cr_assert_eq(cgt_hist_percentile(&h, 100), 0);
}

Test(histogram, small_values_are_exact)
{
	cgt_hist_init(&h);
	for (uint64_t v = 0; v < 2 * CGT_HIST_SUB; v++)
		cgt_hist_record(&h, v);
	cr_assert_eq(h.count, 2 * CGT_HIST_SUB);
	cr_assert_eq(h.min, 0);
	cr_assert_eq(h.max, 2 * CGT_HIST_SUB - 1);
	/* 64 values 0..63: the 50th percentile is the 32nd value, 31 */
	cr_assert_eq(cgt_hist_percentile(&h, 50), CGT_HIST_SUB - 1);
	cr_assert_eq(cgt_hist_percentile(&h, 100), 2 * CGT_HIST_SUB - 1);
	cr_assert_eq(cgt_hist_percentile(&h, 0.001), 0);
}

Test(histogram, uniform_1_to_100000)
{
	cgt_hist_init(&h);
	for (uint64_t v = 1; v <= 100000; v++)
		cgt_hist_record(&h, v);
	assert_near(cgt_hist_percentile(&h, 50), 50000);
	assert_near(cgt_hist_percentile(&h, 99), 99000);
	assert_near(cgt_hist_percentile(&h, 99.9), 99900);
	cr_assert_eq(cgt_hist_percentile(&h, 100), 100000, "the maximum is exact");
	cr_assert_eq(h.min, 1);
}

Test(histogram, one_value_everywhere)
{
	cgt_hist_init(&h);
	for (int i = 0; i < 1000; i++)
		cgt_hist_record(&h, 123457);
	/* every percentile is clamped into [min, max], so exactly the value */
	cr_assert_eq(cgt_hist_percentile(&h, 50), 123457);
	cr_assert_eq(cgt_hist_percentile(&h, 99.9), 123457);
}

/* A tail: 990 fast acquisitions of 100 ns, 9 of 10 us, one of 5 ms. */
Test(histogram, tail_percentiles)
{
	cgt_hist_init(&h);
	for (int i = 0; i < 990; i++)
		cgt_hist_record(&h, 100);
	for (int i = 0; i < 9; i++)
		cgt_hist_record(&h, 10000);
	cgt_hist_record(&h, 5000000);
	assert_near(cgt_hist_percentile(&h, 50), 100);
	assert_near(cgt_hist_percentile(&h, 99), 100);		/* the 990th value */
	assert_near(cgt_hist_percentile(&h, 99.9), 10000);	/* the 999th */
	cr_assert_eq(cgt_hist_percentile(&h, 100), 5000000);
}

Test(histogram, huge_values_clamp_into_the_last_bucket)
{
	cgt_hist_init(&h);
	cgt_hist_record(&h, UINT64_MAX);
	cgt_hist_record(&h, 1ull << 50);
	cr_assert_eq(h.bucket[CGT_HIST_BUCKETS - 1], 2);
	cr_assert_eq(cgt_hist_percentile(&h, 100), UINT64_MAX);
}

Test(histogram, merge_equals_one_histogram)
{
	cgt_hist_init(&h);
	cgt_hist_init(&a);
	cgt_hist_init(&b);
	for (uint64_t v = 1; v <= 50000; v++) {
		uint64_t x = v * 7919 % 1000003;

		cgt_hist_record(&h, x);
		cgt_hist_record(v % 2 ? &a : &b, x);
	}
	cgt_hist_merge(&a, &b);
	cr_assert_eq(a.count, h.count);
	cr_assert_eq(a.min, h.min);
	cr_assert_eq(a.max, h.max);
	cr_assert_arr_eq(a.bucket, h.bucket, sizeof(h.bucket));
	for (double p = 10; p <= 100; p += 10)
		cr_assert_eq(cgt_hist_percentile(&a, p), cgt_hist_percentile(&h, p));
}
