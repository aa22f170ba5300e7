// SPDX-License-Identifier: GPL-2.0
/* Merging histograms and reading percentiles from them (histogram.h). */
#include <math.h>
#include <string.h>

#include "histogram.h"

void cgt_hist_init(struct cgt_hist *h)
{
	memset(h, 0, sizeof(*h));
}

void cgt_hist_merge(struct cgt_hist *into, const struct cgt_hist *from)
{
	if (!from->count)
		return;
	for (unsigned int i = 0; i < CGT_HIST_BUCKETS; i++)
		into->bucket[i] += from->bucket[i];
	if (!into->count || from->min < into->min)
		into->min = from->min;
	if (from->max > into->max)
		into->max = from->max;
	into->count += from->count;
}

/* The lowest value of bucket @i, and how many values it spans. */
static uint64_t bucket_low(unsigned int i, uint64_t *width)
{
	unsigned int shift;

	if (i < 2 * CGT_HIST_SUB) {
		*width = 1;
		return i;
	}
	shift = i / CGT_HIST_SUB - 1;
	*width = 1ull << shift;
	return (uint64_t)(CGT_HIST_SUB + i % CGT_HIST_SUB) << shift;
}

uint64_t cgt_hist_percentile(const struct cgt_hist *h, double pct)
{
	uint64_t rank, seen = 0, width, v;

	if (!h->count)
		return 0;
	/*
	 * The smallest value that at least pct percent of the values do not exceed; the slack
	 * keeps 99.9 (not exact in binary) of 1000 values at the 999th, not the 1000th.
	 */
	rank = (uint64_t)ceil(pct / 100.0 * (double)h->count - 1e-6);
	if (rank < 1)
		rank = 1;
	if (rank >= h->count)
		return h->max;
	for (unsigned int i = 0; i < CGT_HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen < rank)
			continue;
		v = bucket_low(i, &width) + (width - 1) / 2;
		return v < h->min ? h->min : v > h->max ? h->max : v;
	}
	return h->max;
}
