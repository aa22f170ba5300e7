// SPDX-License-Identifier: GPL-2.0
/*
 * The order shrink cuts by: a run's size up to its failure, compared key by key. First the
 * preemptions past CHESS's bound (a schedule with hundreds cannot be followed, however few
 * its threads), then the threads that ran, the operations, the decisions, the preemptions
 * and the switches. The decisions the lenient follower adds after the failure, to end the
 * run, are no part of the counterexample.
 */
#include <stdlib.h>

#include "shrink.h"

int shrink_threads_ran(const struct cgt_schedule *s, long upto)
{
	int n = 0, max = 0;
	bool *seen;

	for (long k = 0; k <= upto && k < s->len; k++)
		max = s->choice[k] > max ? s->choice[k] : max;
	seen = calloc((size_t)max + 1, sizeof(*seen));
	if (!seen)
		return max;
	for (long k = 0; k <= upto && k < s->len; k++)
		if (!seen[s->choice[k]]) {
			seen[s->choice[k]] = true;
			n++;
		}
	free(seen);
	return n;
}

struct shrink_size shrink_size_of(const struct cgt_child_result *res)
{
	struct shrink_size s = { .ran = shrink_threads_ran(&res->schedule, res->step),
				 .ops = res->ops, .dec = res->step + 1 };

	for (long i = 0; res->preempted && i < res->preemptions; i++)
		s.pre += res->preempted[i] <= res->step;
	for (long k = 1; k <= res->step && k < res->schedule.len; k++)
		s.switches += res->schedule.choice[k] != res->schedule.choice[k - 1];
	return s;
}

static long over_bound(long pre)
{
	return pre > SHRINK_BOUND ? pre : SHRINK_BOUND;
}

int shrink_size_cmp(const struct shrink_size *a, const struct shrink_size *b, bool bound)
{
	const long ka[] = { over_bound(a->pre), a->ran, a->ops, a->dec, a->pre, a->switches };
	const long kb[] = { over_bound(b->pre), b->ran, b->ops, b->dec, b->pre, b->switches };

	for (size_t i = !bound; i < sizeof(ka) / sizeof(ka[0]); i++)
		if (ka[i] != kb[i])
			return ka[i] < kb[i] ? -1 : 1;
	return 0;
}

bool shrink_size_within(const struct shrink_size *a, const struct shrink_size *b)
{
	return a->ran <= b->ran && a->ops <= b->ops && a->dec <= b->dec &&
	       over_bound(a->pre) <= over_bound(b->pre);
}
