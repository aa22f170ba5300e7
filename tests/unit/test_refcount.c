// SPDX-License-Identifier: GPL-2.0
/*
 * refcount_t on the model's counts (src/model/refcount.h): each misuse the kernel's
 * refcount_t warns about fails the run at once, in its words, and a lookup's get takes no
 * reference on an object already dying.
 */
#include <string.h>

#include "model_fixture.h"
#include "../../src/model/refcount.h"

TestSuite(refcount, .init = model_boot_for_each);

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
