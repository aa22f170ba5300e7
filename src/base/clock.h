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
/*
 * The same clock at a tick, never ahead of cgt_clock_ns(), for what is judged in seconds
 * (the watchdogs' waits and holds) on paths taken millions of times a second, such as every
 * model lock acquisition, where the fine clock costs some 40 ns in a VM's vDSO.
 * cgt_clock_coarse_ns(): CLOCK_MONOTONIC_COARSE, the kernel's tick (a few ms; some 5 ns),
 * kept by the kernel, so never late. cgt_clock_tick_ns(): while a ticker runs
 * (cgt_tick_start), one load (about 1 ns) of what a thread stored every CGT_TICK_NS, or
 * later on a loaded machine (140 ms seen at a load average of 116): for the end of an
 * interval, which a late tick can only shorten; otherwise the coarse clock.
 */
#define CGT_TICK_NS	1000000
uint64_t cgt_clock_coarse_ns(void);
extern uint64_t cgt_tick;	/* cgt_clock_ns() + 1 at the last tick; 0: no ticker runs */

static inline uint64_t cgt_clock_tick_ns(void)
{
	uint64_t t = __atomic_load_n(&cgt_tick, __ATOMIC_RELAXED);

	return __builtin_expect(t != 0, 1) ? t - 1 : cgt_clock_coarse_ns();
}

/* The ticker: a thread of its own; the starts and stops may nest. A forked child has none. */
void cgt_tick_start(void);
void cgt_tick_stop(void);
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
