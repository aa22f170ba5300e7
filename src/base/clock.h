/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one monotonic clock. cgt_clock_ns() counts from the last cgt_clock_reset() (a run's
 * start), so event times and failure times read as "seconds into the run"; cgt_now() is
 * the same clock in seconds from an arbitrary origin, for measuring an interval.
 */
#ifndef CGT_CLOCK_H
#define CGT_CLOCK_H

#include <stdint.h>

uint64_t cgt_clock_ns(void);		/* monotonic ns since cgt_clock_reset() */
void cgt_clock_reset(void);
double cgt_now(void);			/* monotonic seconds */

/*
 * A controlled run counts time in scheduling decisions: the decisions made so far, set by
 * the scheduler; -1 in a free-running run. Events and failures are stamped with it.
 */
extern long cgt_step_clock;

/* How long ago @since was; a copy of a thread taken while it moved on can be in the future. */
static inline uint64_t cgt_age_ns(uint64_t now, uint64_t since)
{
	return since < now ? now - since : 0;
}

#endif
