/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A log-bucketed latency histogram, as HdrHistogram buckets: each power of two is cut into
 * CGT_HIST_SUB sub-buckets, so a value is kept to within 1/CGT_HIST_SUB of itself (values
 * below 2 * CGT_HIST_SUB exactly) at a fixed size whatever the range. Recording is an index
 * and an increment, cheap enough for every lock acquisition; each thread records into its
 * own and they are merged after the threads are joined.
 */
#ifndef CGT_HISTOGRAM_H
#define CGT_HISTOGRAM_H

#include <stdint.h>

#define CGT_HIST_SUB_BITS	5
#define CGT_HIST_SUB		(1u << CGT_HIST_SUB_BITS)
#define CGT_HIST_RANGE_BITS	40	/* 2^40 ns: 18 minutes; longer values share the last bucket */
#define CGT_HIST_BUCKETS	((CGT_HIST_RANGE_BITS - CGT_HIST_SUB_BITS + 1) * CGT_HIST_SUB)

struct cgt_hist {
	uint64_t count;
	uint64_t min, max;		/* exact */
	uint64_t bucket[CGT_HIST_BUCKETS];
};

void cgt_hist_init(struct cgt_hist *h);
void cgt_hist_merge(struct cgt_hist *into, const struct cgt_hist *from);
/* The value at percentile @pct (0 < pct <= 100): its bucket's middle, within [min, max]. */
uint64_t cgt_hist_percentile(const struct cgt_hist *h, double pct);

static inline unsigned int cgt_hist_index(uint64_t v)
{
	unsigned int msb, shift;

	if (v < 2 * CGT_HIST_SUB)
		return (unsigned int)v;
	msb = 63u - (unsigned int)__builtin_clzll(v);
	if (msb >= CGT_HIST_RANGE_BITS)
		return CGT_HIST_BUCKETS - 1;
	shift = msb - CGT_HIST_SUB_BITS;
	/* the power of two picks the group, the bits below the top one the sub-bucket */
	return (shift + 1) * CGT_HIST_SUB + (unsigned int)((v >> shift) & (CGT_HIST_SUB - 1));
}

static inline void cgt_hist_record(struct cgt_hist *h, uint64_t v)
{
	h->bucket[cgt_hist_index(v)]++;
	if (!h->count++ || v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

#endif
