// SPDX-License-Identifier: GPL-2.0
/* Swarm phases (src/run/swarm.c): drawn from the seed, some with every feature, some without. */
#include <criterion/criterion.h>
#include <string.h>

#include "../../src/run/run.h"
#include "../../src/run/swarm.h"

static struct cgt_run_config cfg = {
	.seed = 42, .threads = 512, .walkers = 4, .clone_thread_pct = 70, .stall = 2,
	.mix = { 35, 2, 20, 10, 33 }, .swarm = CGT_SWARM_ALL,
};

static int nonzero(const unsigned int *w, int n)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		k += w[i] != 0;
	return k;
}

/*
 * Each phase draws how much it leaves out: a third of the phases keep every operation and a
 * quarter every reader (what a bug needing them all at once requires); others drop some,
 * and some keep one or two readers' kinds, the storms on one lock a reader-first lock's
 * writer starves in.
 */
Test(swarm, some_phases_leave_nothing_out_and_some_keep_few_readers)
{
	int all_ops = 0, all_reads = 0, few_reads = 0, some_out = 0, n = 600;

	for (int i = 0; i < n; i++) {
		struct cgt_phase p;
		int ops, reads;

		cgt_swarm_draw(&cfg, i, &p);
		ops = nonzero(p.mix, CGT_NR_OPS);
		reads = nonzero(p.reads, CGT_NR_READS);
		all_ops += ops == CGT_NR_OPS;
		all_reads += reads == CGT_NR_READS;
		few_reads += reads <= 2;
		some_out += ops < CGT_NR_OPS || reads < CGT_NR_READS;
	}
	cr_assert_gt(all_ops, n / 4, "%d of %d phases with every operation", all_ops, n);
	cr_assert_gt(all_reads, n / 6, "%d of %d phases with every reader", all_reads, n);
	cr_assert_gt(few_reads, n / 5, "%d of %d phases with one or two readers", few_reads, n);
	cr_assert_gt(some_out, n / 2, "%d of %d phases leave something out", some_out, n);
}

/* A third of the phases have the parent ignore SIGCHLD (how release_task reaps a leader). */
Test(swarm, some_phases_reap_at_once_unless_the_delay_is_pinned)
{
	struct cgt_run_config pinned = cfg;
	int at_once = 0, n = 600;

	pinned.reap_delay = 8;
	pinned.swarm &= ~(1u << CGT_SWARM_REAP);
	for (int i = 0; i < n; i++) {
		struct cgt_phase p;

		cgt_swarm_draw(&cfg, i, &p);
		at_once += !p.reap_delay;
		cgt_swarm_draw(&pinned, i, &p);
		cr_assert_eq(p.reap_delay, 8);
	}
	cr_assert(at_once > n / 5 && at_once < n / 2, "%d of %d phases reap at once", at_once, n);
}

Test(swarm, the_same_seed_draws_the_same_phases_and_pinned_dimensions_stay)
{
	struct cgt_phase a, b;
	struct cgt_run_config pinned = cfg;

	cgt_swarm_draw(&cfg, 7, &a);
	cgt_swarm_draw(&cfg, 7, &b);
	cr_assert_eq(memcmp(&a, &b, sizeof(a)), 0);
	pinned.swarm &= ~(1u << CGT_SWARM_MIX);
	for (int i = 0; i < 50; i++) {
		cgt_swarm_draw(&pinned, i, &a);
		cr_assert_eq(memcmp(a.mix, cfg.mix, sizeof(a.mix)), 0, "--mix given: pinned");
	}
}

/*
 * The pid space is a run-long draw: one free run in two gets one, from twice the thread cap
 * plus the reserved pids to four times that, the same for the same seed; a pid_max given,
 * the dimension left out of --swarm, or a controlled run keeps the configured one.
 */
Test(swarm, one_free_run_in_two_draws_a_pid_space_that_wraps_soon)
{
	struct cgt_run_config c = cfg;
	const int lo = 2 * 512 + RESERVED_PIDS + 1, hi = 4 * lo;
	int drawn = 0, n = 200;

	for (int i = 0; i < n; i++) {
		int max;

		c.seed = 1000 + (uint64_t)i;
		max = cgt_swarm_pid_max(&c);
		cr_assert_eq(max, cgt_swarm_pid_max(&c), "seed %d drew two pid spaces", i);
		if (!max)
			continue;
		drawn++;
		cr_assert(max >= lo && max <= hi, "pid_max %d outside %d-%d", max, lo, hi);
	}
	cr_assert(drawn > n / 3 && drawn < 2 * n / 3, "%d of %d runs drew a pid space", drawn, n);

	c.pid_max = 4096;
	cr_assert_eq(cgt_swarm_pid_max(&c), 4096, "a given pid_max was drawn over");
	c.pid_max = 0;
	for (int i = 0; i < n; i++) {
		c.seed = 1000 + (uint64_t)i;
		c.swarm = CGT_SWARM_ALL & ~(1u << CGT_SWARM_PID_MAX);
		cr_assert_eq(cgt_swarm_pid_max(&c), 0, "drawn with the dimension off");
		c.swarm = CGT_SWARM_ALL;
		c.sched = (const struct cgt_sched_ops *)&c;	/* any non-NULL: controlled */
		cr_assert_eq(cgt_swarm_pid_max(&c), 0, "drawn in a controlled run");
		c.sched = NULL;
	}
}

/*
 * The era is a run-long draw too: one free run in two models another era than the default,
 * each of them drawn, the same for the same seed; the dimension left out of --swarm, a
 * catalogued bug or a known-bad lock asked for, or a controlled run on the model's locks
 * keeps the configured era; one that steps through the locks' code draws as a free run.
 */
Test(swarm, one_free_run_in_two_draws_another_kernel_era)
{
	struct cgt_run_config c = cfg;
	const struct cgt_kernel_era *def = cgt_era_find(CGT_DEFAULT_ERA);
	int drawn = 0, n = 200, seen[8] = { 0 };

	cr_assert_leq(cgt_nr_kernel_eras, ARRAY_SIZE(seen));
	for (int i = 0; i < n; i++) {
		const struct cgt_kernel_era *e;

		c.seed = 2000 + (uint64_t)i;
		e = cgt_swarm_era(&c);
		cr_assert_eq(e, cgt_swarm_era(&c), "seed %d drew two eras", i);
		if (!e)
			continue;
		drawn++;
		cr_assert_neq(e, def, "the default era drawn as if another");
		seen[e - cgt_kernel_eras]++;
	}
	cr_assert(drawn > n / 3 && drawn < 2 * n / 3, "%d of %d runs drew an era", drawn, n);
	for (size_t k = 0; k < cgt_nr_kernel_eras; k++)
		cr_assert(&cgt_kernel_eras[k] == def || seen[k],
			  "era %s never drawn", cgt_kernel_eras[k].name);

	for (int i = 0; i < n; i++) {
		const struct cgt_kernel_era *e;

		c.seed = 2000 + (uint64_t)i;
		c.swarm = CGT_SWARM_ALL & ~(1u << CGT_SWARM_KERNEL);
		cr_assert_null(cgt_swarm_era(&c), "drawn with the dimension off");
		c.swarm = CGT_SWARM_ALL;
		c.bugs = 1;
		cr_assert_null(cgt_swarm_era(&c), "drawn with a catalogued bug asked for");
		c.bugs = 0;
		c.tasklist_lock = cgt_lock_find("rwlock-rpref");
		cr_assert_null(cgt_swarm_era(&c), "drawn with a known-bad lock asked for");
		c.tasklist_lock = NULL;
		e = cgt_swarm_era(&c);
		c.sched = (const struct cgt_sched_ops *)&c;	/* any non-NULL: controlled */
		c.lock_mode = CGT_LOCKS_MODEL;
		cr_assert_null(cgt_swarm_era(&c), "drawn in a controlled run on model locks");
		c.lock_mode = CGT_LOCKS_CODE;
		cr_assert_eq(cgt_swarm_era(&c), e, "a run stepping through the code drew otherwise");
		c.lock_mode = CGT_LOCKS_BOTH;
		cr_assert_eq(cgt_swarm_era(&c), (c.seed & 1) ? e : NULL, "--locks both, seed %llu",
			     (unsigned long long)c.seed);
		c.sched = NULL;
	}
}

/*
 * The population is a run-long draw as well: one free run in four runs 1,200 to 3,000
 * threads, past khungtaskd's rcu_lock_break, the same for the same seed; excluded as the
 * era is.
 */
Test(swarm, one_free_run_in_four_draws_a_large_population)
{
	struct cgt_run_config c = cfg;
	int drawn = 0, n = 400, lo = 3000, hi = 0;

	for (int i = 0; i < n; i++) {
		int t;

		c.seed = 3000 + (uint64_t)i;
		t = cgt_swarm_population(&c);
		cr_assert_eq(t, cgt_swarm_population(&c), "seed %d drew two populations", i);
		if (!t)
			continue;
		drawn++;
		cr_assert(t >= 1200 && t <= 3000, "population %d outside 1,200-3,000", t);
		lo = t < lo ? t : lo;
		hi = t > hi ? t : hi;
	}
	cr_assert(drawn > n / 8 && drawn < 3 * n / 8, "%d of %d runs drew a population", drawn, n);
	cr_assert(lo < 1500 && hi > 2500, "the draws span %d-%d only", lo, hi);

	for (int i = 0; i < n; i++) {
		c.seed = 3000 + (uint64_t)i;
		c.swarm = CGT_SWARM_ALL & ~(1u << CGT_SWARM_THREADS);
		cr_assert_eq(cgt_swarm_population(&c), 0, "drawn with the dimension off");
		c.swarm = CGT_SWARM_ALL;
		c.bugs = 1;
		cr_assert_eq(cgt_swarm_population(&c), 0, "drawn with a catalogued bug asked for");
		c.bugs = 0;
		c.css_lock = cgt_lock_find("rwlock-rpref");
		cr_assert_eq(cgt_swarm_population(&c), 0, "drawn with a known-bad lock asked for");
		c.css_lock = NULL;
		c.sched = (const struct cgt_sched_ops *)&c;	/* any non-NULL: controlled */
		cr_assert_eq(cgt_swarm_population(&c), 0, "drawn in a controlled run");
		c.sched = NULL;
	}
}

/*
 * One free-running phase in eight keeps a threadgroup reader off the CPU, for a tenth to
 * half of the stall: never a whole stall (the correct kernel stays without a hang), never
 * in a controlled run (its schedules stay as they were), never when --off-cpu pins it.
 */
Test(swarm, one_free_phase_in_eight_keeps_a_reader_off_the_cpu_below_the_stall)
{
	struct cgt_run_config controlled = cfg, pinned = cfg;
	int off = 0, n = 800;

	controlled.sched = cgt_sched_find("random");
	pinned.swarm &= ~(1u << CGT_SWARM_OFF_CPU);
	for (int i = 0; i < n; i++) {
		struct cgt_phase p, c, q;

		cgt_swarm_draw(&cfg, i, &p);
		cgt_swarm_draw(&controlled, i, &c);
		cgt_swarm_draw(&pinned, i, &q);
		off += p.off_cpu_s > 0;
		cr_assert(p.off_cpu_s == 0 || (p.off_cpu_s >= 0.1 * cfg.stall &&
					       p.off_cpu_s < 0.5 * cfg.stall),
			  "phase %d: %.2f s off the CPU, stall %.1f s", i, p.off_cpu_s, cfg.stall);
		cr_assert_eq(c.off_cpu_s, 0, "a controlled phase drew a reader off the CPU");
		cr_assert_eq(q.off_cpu_s, 0, "--off-cpu pinned, a phase drew one still");
	}
	cr_assert(off > n / 12 && off < n / 6, "%d of %d phases with a reader off the CPU", off, n);
}
