// SPDX-License-Identifier: GPL-2.0
/*
 * refcount_t on the model's counts (src/model/refcount.h): each misuse the kernel's
 * refcount_t warns about fails the run at once, in its words, and a lookup's get takes no
 * reference on an object already dying.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "model_fixture.h"
#include "../../src/model/refcount.h"

TestSuite(refcount, .init = model_boot_for_each);

static int shared_count = 1;

/* Another harness thread (tid 42) puts the last reference. */
static void *put_last(void *arg)
{
	struct cgt_thread t;

	(void)arg;
	cgt_thread_register(&t, CGT_ROLE_ACTOR, 42);
	cr_expect(refcount_dec_and_test(&shared_count, "put_task_struct"));
	cgt_thread_unregister(&t);
	return (void *)(long)t.id;
}

/*
 * A misuse is two threads' story: the report names the thread that put the last reference,
 * in its evidence and among the threads the failure is about, so its events come with it.
 */
Test(refcount, an_increment_from_zero_names_the_thread_that_put_the_last)
{
	struct cgt_thread self;
	struct cgt_failure f[CGT_MAX_FAILURES];
	pthread_t th;
	void *putter;
	char want[64];
	int n;

	cgt_thread_register(&self, CGT_ROLE_ACTOR, 7);
	cr_assert_eq(pthread_create(&th, NULL, put_last, NULL), 0);
	pthread_join(th, &putter);
	refcount_inc(&shared_count, "get_task_struct");
	n = cgt_failures_get(f, CGT_MAX_FAILURES);
	cr_assert_eq(n, 1);
	snprintf(want, sizeof(want), "the last reference was put by thread %ld (tid 42) ",
		 (long)putter);
	cr_expect(f[0].evidence && strstr(f[0].evidence, want), "%s", f[0].evidence);
	cr_expect_eq(f[0].ninvolved, 2);
	cr_expect_eq(f[0].involved[0], self.id);
	cr_expect_eq(f[0].involved[1], (long)putter);
	cgt_thread_unregister(&self);
}

Test(refcount, an_increment_from_zero_is_a_use_after_free)
{
	int count = 0;

	refcount_inc(&count, "get_pid on a freed struct pid");
	cr_expect(strstr(invariant_summary(), "refcount_t: addition on 0; use-after-free: get_pid"),
		  "%s", invariant_summary());
}

Test(refcount, a_decrement_below_zero_is_an_underflow)
{
	int count = 1;

	cr_expect(refcount_dec_and_test(&count, "put_pid"), "the last put frees");
	cr_expect_str_eq(invariant_summary(), "", "the last put is no misuse");
	cr_expect(!refcount_dec_and_test(&count, "put_pid"), "a second put frees nothing");
	cr_expect(strstr(invariant_summary(), "refcount_t: underflow; use-after-free: put_pid"),
		  "%s", invariant_summary());
}

Test(refcount, a_put_that_must_not_be_the_last_says_it_leaks)
{
	int count = 1;

	refcount_dec(&count, "a signal_struct's sigcnt");
	cr_expect(strstr(invariant_summary(), "refcount_t: decrement hit 0; leaking memory"),
		  "%s", invariant_summary());
}

Test(refcount, get_unless_zero_takes_no_reference_on_a_dying_object)
{
	int dying = 0, live = 2;

	cr_expect(!refcount_inc_not_zero(&dying));
	cr_expect_eq(dying, 0);
	cr_expect(refcount_inc_not_zero(&live));
	cr_expect_eq(live, 3);
	cr_expect_str_eq(invariant_summary(), "", "neither is a misuse");
}
