// SPDX-License-Identifier: GPL-2.0
/* Where threads meet on a thread group (src/run/meet.c): who meets whom, and for how long. */
#include <criterion/criterion.h>

#include "../../src/run/meet.h"

static int group_a, group_b;		/* stand-ins for two signal_structs: keys only */

TestSuite(meet, .init = cgt_meet_reset);

Test(meet, a_change_meets_a_reader_and_a_reader_meets_a_change)
{
	cr_assert_not(cgt_meet(&group_a, CGT_MEET_READ, 1, 1000), "nobody was there");
	cr_assert(cgt_meet(&group_a, CGT_MEET_CHANGE, 2, 2000), "thread 1 reads the group");
	cr_assert(cgt_meet(&group_a, CGT_MEET_READ, 1, 3000), "thread 2 just changed it");
}

Test(meet, readers_do_not_meet_readers)
{
	cgt_meet(&group_a, CGT_MEET_READ, 1, 1000);
	cr_assert_not(cgt_meet(&group_a, CGT_MEET_READ, 2, 2000));
}

Test(meet, changes_meet_changes_of_others_only)
{
	cgt_meet(&group_a, CGT_MEET_CHANGE, 1, 1000);
	cr_assert_not(cgt_meet(&group_a, CGT_MEET_CHANGE, 1, 2000), "its own change");
	cr_assert(cgt_meet(&group_a, CGT_MEET_CHANGE, 2, 3000), "a fork beside an exit");
}

Test(meet, only_within_the_window_and_the_group)
{
	cgt_meet(&group_a, CGT_MEET_CHANGE, 1, 1000);
	cr_assert_not(cgt_meet(&group_b, CGT_MEET_READ, 2, 2000), "another group");
	cr_assert_not(cgt_meet(&group_a, CGT_MEET_READ, 2, 1000 + CGT_MEET_NS), "too late");
}

Test(meet, readers_aim_at_the_threads_that_changed_last)
{
	cr_assert_not(cgt_meet_hot());
	cr_assert_eq(cgt_meet_hot_tid(7), 0);
	for (int tid = 1; tid <= CGT_MEET_HOT + 10; tid++)
		cgt_meet_changing(tid);
	cr_assert(cgt_meet_hot());
	for (uint32_t r = 0; r < 2 * CGT_MEET_HOT; r++)
		cr_assert_gt(cgt_meet_hot_tid(r), 10, "only the last %d are kept", CGT_MEET_HOT);
}
