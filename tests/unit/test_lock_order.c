// SPDX-License-Identifier: GPL-2.0
/*
 * lock-order (src/detect/lock_order.c): lockdep's circular-locking check, and its twin.
 * The fixture and the rules these tests keep: detect_fixture.h.
 */
#include "detect_fixture.h"

TestSuite(lock_order, .timeout = 60);

/*
 * lock-order (lockdep's check_prev_add): one thread takes A then B, later B then A. No
 * deadlock happens (one thread), but the two orders together are an ABBA deadlock waiting
 * for two threads to meet: the inversion is reported the first time it is seen, once.
 */
Test(lock_order, lock_order_inversion_reported_once)
{
	static struct cgt_thread self;
	struct cgt_lock a, b;
	struct cgt_failure f;

	fresh_state();
	start_detectors(60, 0);	/* no hang or starvation report may get in the way */
	cgt_thread_register(&self, CGT_ROLE_DRIVER, 0);
	cgt_lock_init(&a, cgt_lock_find("mutex"), "test_lock_A");
	cgt_lock_init(&b, cgt_lock_find("rwsem"), "test_lock_B");

	cgt_write_lock(&a);
	cgt_write_lock(&b);
	cgt_write_unlock(&b);
	cgt_write_unlock(&a);
	cr_assert_eq(cgt_failure_count(CGT_DET_LOCK_ORDER), 0, "A -> B alone is not an inversion");

	cgt_read_lock(&b);
	cgt_write_lock(&a);
	cgt_write_unlock(&a);
	cgt_read_unlock(&b);
	cr_assert_eq(cgt_failure_count(CGT_DET_LOCK_ORDER), 1, "B -> A after A -> B: %ld reports",
		     cgt_failure_count(CGT_DET_LOCK_ORDER));

	/* the same inversion again is no news */
	cgt_read_lock(&b);
	cgt_write_lock(&a);
	cgt_write_unlock(&a);
	cgt_read_unlock(&b);
	cr_assert_eq(cgt_failure_count(CGT_DET_LOCK_ORDER), 1);
	cr_assert_eq(cgt_failures_total(), 1, "only lock-order may report");

	cr_assert(first_failure(CGT_DET_LOCK_ORDER, &f));
	cr_assert_eq(f.thread_id, self.id);
	cr_assert(strstr(f.summary, "test_lock_A") && strstr(f.summary, "test_lock_B"),
		  "summary names both locks: %s", f.summary);
	cr_assert(strstr(f.summary, "circular"), "summary: %s", f.summary);
	cr_assert_not_null(f.evidence);
	cr_assert(strstr(f.evidence, "test_lock_A") && strstr(f.evidence, "test_lock_B"),
		  "evidence: %s", f.evidence);

	cgt_lock_destroy(&a);
	cgt_lock_destroy(&b);
	cgt_detect_stop();
	cgt_thread_unregister(&self);
}

/* Twin: the same two locks always in one order (A then B, twice): silent. */
Test(lock_order, lock_order_consistent_is_silent)
{
	static struct cgt_thread self;
	struct cgt_lock a, b;

	fresh_state();
	start_detectors(60, 0);	/* no hang or starvation report may get in the way */
	cgt_thread_register(&self, CGT_ROLE_DRIVER, 0);
	cgt_lock_init(&a, cgt_lock_find("mutex"), "test_lock_A");
	cgt_lock_init(&b, cgt_lock_find("rwsem"), "test_lock_B");

	for (int i = 0; i < 2; i++) {
		cgt_write_lock(&a);
		cgt_read_lock(&b);
		cgt_read_unlock(&b);
		cgt_write_unlock(&a);
	}
	cr_assert_eq(cgt_failure_count(CGT_DET_LOCK_ORDER), 0);
	cr_assert_eq(cgt_failures_total(), 0);

	cgt_lock_destroy(&a);
	cgt_lock_destroy(&b);
	cgt_detect_stop();
	cgt_thread_unregister(&self);
}
