// SPDX-License-Identifier: GPL-2.0
/*
 * rcu-nesting (src/detect/rcu_nesting.c): "sleeping function called from invalid context",
 * and its twin.
 * The fixture and the rules these tests keep: detect_fixture.h.
 */
#include "detect_fixture.h"

TestSuite(rcu_nesting, .timeout = 60);

/*
 * rcu-nesting (might_sleep inside rcu_read_lock, as css_set_rwsem once was taken under RCU
 * in 3.15): a sleeping lock (rwsem, sleeps=true) taken inside a read-side section is
 * reported once per lock class, however often it happens.
 */
Test(rcu_nesting, rcu_nesting_sleeping_lock_inside_rcu)
{
	static struct cgt_thread self;
	struct cgt_lock sem;
	struct cgt_failure f;

	fresh_state();
	start_detectors(60, 0);	/* no hang or starvation report may get in the way */
	cgt_rcu_register_thread();
	cgt_thread_register(&self, CGT_ROLE_DRIVER, 0);
	cgt_lock_init(&sem, cgt_lock_find("rwsem"), "test_rwsem");
	cr_assert(sem.ops->sleeps);

	for (int i = 0; i < 3; i++) {
		rcu_read_lock();
		cgt_read_lock(&sem);
		cgt_read_unlock(&sem);
		rcu_read_unlock();
	}
	cr_assert_eq(cgt_failure_count(CGT_DET_RCU_NESTING), 1, "%ld reports for one class",
		     cgt_failure_count(CGT_DET_RCU_NESTING));
	cr_assert_eq(cgt_failures_total(), 1);
	cr_assert(first_failure(CGT_DET_RCU_NESTING, &f));
	cr_assert(strstr(f.summary, "test_rwsem"), "summary: %s", f.summary);
	cr_assert_eq(f.thread_id, self.id);

	cgt_lock_destroy(&sem);
	cgt_detect_stop();
	cgt_thread_unregister(&self);
	cgt_rcu_unregister_thread();
}

/*
 * Twins: the sleeping lock taken first and RCU entered under it (the fixed order), and a
 * spinning lock (rwlock, sleeps=false: read_lock under RCU is legal in the kernel) inside a
 * read-side section: silent.
 */
Test(rcu_nesting, rcu_nesting_silent_for_right_order_and_spinning_lock)
{
	static struct cgt_thread self;
	struct cgt_lock sem, spin;

	fresh_state();
	start_detectors(60, 0);	/* no hang or starvation report may get in the way */
	cgt_rcu_register_thread();
	cgt_thread_register(&self, CGT_ROLE_DRIVER, 0);
	cgt_lock_init(&sem, cgt_lock_find("rwsem"), "test_rwsem");
	cgt_lock_init(&spin, cgt_lock_find("rwlock"), "test_rwlock");
	cr_assert_not(spin.ops->sleeps);

	for (int i = 0; i < 3; i++) {
		cgt_write_lock(&sem);
		rcu_read_lock();
		rcu_read_unlock();
		cgt_write_unlock(&sem);

		rcu_read_lock();
		cgt_read_lock(&spin);
		cgt_read_unlock(&spin);
		cgt_write_lock(&spin);
		cgt_write_unlock(&spin);
		rcu_read_unlock();
	}
	cr_assert_eq(cgt_failure_count(CGT_DET_RCU_NESTING), 0);
	cr_assert_eq(cgt_failures_total(), 0);

	cgt_lock_destroy(&sem);
	cgt_lock_destroy(&spin);
	cgt_detect_stop();
	cgt_thread_unregister(&self);
	cgt_rcu_unregister_thread();
}
