// SPDX-License-Identifier: GPL-2.0
/*
 * Mutual exclusion (src/locks/lock.c): a variant that lets two writers in is reported.
 * The fixture and the rules these tests keep: detect_fixture.h.
 */
#include "detect_fixture.h"

TestSuite(exclusion, .timeout = 60);

/*
 * Mutual exclusion, checked as each lock is taken: a variant that lets a second writer in,
 * or a reader beside a writer, is reported (invariant) the first time, once a run.
 */
static void open_door(struct cgt_lock *lock)
{
	(void)lock;
}

static const struct cgt_lock_ops open_door_ops = {
	.name = "open-door", .desc = "excludes no one", .shared = true,
	.policy = CGT_POLICY_UNFAIR, .init = open_door, .read_lock = open_door,
	.read_unlock = open_door, .write_lock = open_door, .write_unlock = open_door,
};

Test(exclusion, invariant_mutual_exclusion_broken_reported)
{
	struct cgt_thread self;
	struct cgt_failure f;
	struct cgt_lock door, shut;

	fresh_state();
	start_detectors(60, 0);
	cgt_thread_register(&self, CGT_ROLE_ACTOR, 1);
	cgt_lock_init(&shut, cgt_lock_find("rwlock"), "test_shut_lock");
	cgt_write_lock(&shut);		/* a lock that excludes: nothing to say */
	cgt_write_unlock(&shut);
	cgt_read_lock(&shut);
	cgt_read_unlock(&shut);
	cr_assert_eq(cgt_failure_count(CGT_DET_INVARIANT), 0);
	cgt_lock_init(&door, &open_door_ops, "test_door_lock");
	cgt_write_lock(&door);
	cgt_read_lock(&door);		/* a reader beside the writer */
	cgt_write_lock(&door);		/* a second writer: the same report is not made twice */
	cgt_write_unlock(&door);
	cgt_read_unlock(&door);
	cgt_write_unlock(&door);
	cgt_detect_stop();
	cgt_thread_unregister(&self);
	cr_assert_eq(cgt_failure_count(CGT_DET_INVARIANT), 1);
	cr_assert(first_failure(CGT_DET_INVARIANT, &f));
	cr_assert(strstr(f.summary, "mutual exclusion broken: test_door_lock") &&
		  strstr(f.summary, "for reading"), "summary: %s", f.summary);
	cgt_lock_destroy(&door);
	cgt_lock_destroy(&shut);
}
