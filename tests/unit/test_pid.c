// SPDX-License-Identifier: GPL-2.0
/*
 * The pid allocator's promises (kernel/pid.c alloc_pidmap, free_pid), checked by the model
 * as it hands numbers out and by the invariants (cgt_pid_check): a number is the first free
 * one after last_pid, cyclically; no two live pids hold one; every hashed pid's number is
 * taken in the pidmap. None of them fires on the allocator as the kernel has it, through
 * wraps and the ns_last_pid sysctl.
 */
#include "model_fixture.h"

Test(pid, the_allocator_keeps_its_promises_through_many_wraps)
{
	struct pid *held[8] = { 0 };
	char why[256] = "";

	model_boot_pids(CGT_ITER_FOR_EACH, RESERVED_PIDS + 20);
	/* eight live pids at a time, freed out of order: numbers wrap every 20 allocations */
	for (int i = 0; i < 2000; i++) {
		int k = (i * 5) % 8;

		if (held[k])
			free_pid(held[k]);
		held[k] = alloc_pid();
		cr_assert_not_null(held[k]);
		cr_assert_eq(cgt_pid_check(why, sizeof(why)), 0, "%s", why);
	}
	cr_expect_str_eq(invariant_summary(), "", "the allocator as the kernel has it");
	for (int k = 0; k < 8; k++)
		free_pid(held[k]);
	rcu_barrier();
	model_shutdown();
}

Test(pid, ns_last_pid_moves_the_search_without_breaking_a_promise)
{
	struct pid *a, *b;
	char why[256] = "";

	model_boot_pids(CGT_ITER_FOR_EACH, RESERVED_PIDS + 100);
	a = alloc_pid();
	cgt_ns_last_pid_write(RESERVED_PIDS + 50);	/* as CRIU writes it */
	b = alloc_pid();
	cr_expect_eq(b->nr, RESERVED_PIDS + 51);
	cr_expect_eq(cgt_pid_check(why, sizeof(why)), 0, "%s", why);
	cr_expect_str_eq(invariant_summary(), "");
	free_pid(a);
	free_pid(b);
	rcu_barrier();
	model_shutdown();
}
