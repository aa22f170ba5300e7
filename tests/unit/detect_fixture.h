/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the detector tests share (test_lock_order.c, test_rcu_nesting.c, test_hang_waits.c,
 * test_starvation.c, test_exclusion.c, test_livelock.c): each detector against the mistake
 * it exists for and against that mistake's fixed twin. Every bug test must see its detector
 * fire, every twin must see it stay silent. Nothing asserts a duration: the detectors run
 * with short bounds (a few tenths of a second) and the tests wait up to several seconds for
 * them, so a loaded machine only makes them slower. Assertions run on the test thread only;
 * helper threads leave their results in memory.
 *
 * Criterion runs each test in its own process, so every global (failures, lock classes,
 * the thread registry, the model) starts fresh; fresh_state only makes that explicit.
 */
#ifndef CGT_TEST_DETECT_FIXTURE_H
#define CGT_TEST_DETECT_FIXTURE_H

#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "model_fixture.h"
#include "../../src/detect/detect.h"
#include "../../src/run/points.h"

static inline void fresh_state(void)
{
	cgt_clock_reset();
	cgt_failures_reset();
	cgt_lock_classes_reset();
}

static inline void sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Poll until @det has reported at least @n times, for at most @sec seconds. */
static inline long wait_for_failures(enum cgt_detector det, long n, double sec)
{
	double end = now_sec() + sec;

	while (cgt_failure_count(det) < n && now_sec() < end)
		sleep_ms(10);
	return cgt_failure_count(det);
}

/* The first failure of @det, copied into @out; false if there is none. */
static inline bool first_failure(enum cgt_detector det, struct cgt_failure *out)
{
	static struct cgt_failure all[CGT_MAX_FAILURES];
	int n = cgt_failures_get(all, CGT_MAX_FAILURES);

	for (int i = 0; i < n; i++) {
		if (all[i].detector == det) {
			*out = all[i];
			return true;
		}
	}
	return false;
}

/* pthread_join with a deadline: false if the thread is still running after @sec seconds. */
static inline bool join_within(pthread_t th, double sec)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += (time_t)sec;
	ts.tv_nsec += (long)((sec - (double)(time_t)sec) * 1e9);
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	return pthread_timedjoin_np(th, NULL, &ts) == 0;
}

static inline void wait_flag_at_least(const int *flag, int v, const int *stop)
{
	while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) < v &&
	       !(stop && __atomic_load_n(stop, __ATOMIC_ACQUIRE)))
		nap();
}

static inline void start_detectors(double stall, double starve)
{
	struct cgt_detect_config dc = {
		.stall = stall,
		.starve = starve,
		.deadline = 0,		/* no hard deadline: the tests bound themselves */
	};

	/* the detectors see the marked points through the run's hook, as in a run */
	cgt_events_install(0, false, 1);
	cr_assert_eq(cgt_detect_start(&dc), 0, "cgt_detect_start failed");
	cr_assert_eq(cgt_detect_watch(), 0, "cgt_detect_watch failed");
}

#endif
