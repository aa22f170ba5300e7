// SPDX-License-Identifier: GPL-2.0
/*
 * The run's own option rules (run/options.c run_rules and mode_rules), past the options
 * engine (test_tunable.c): what an option given pins, what it brings along, and what this
 * build or this mode cannot honour, refused with the usage status and one line that names
 * what would work. The eras' rules are test_era.c's, the swarm's draws test_swarm.c's.
 */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <string.h>

#include "../../src/run/options.h"
#include "../../src/base/build.h"
#include "../../src/base/exit_status.h"

/* @line split on spaces, as the command line "cgtorture run LINE" gives it */
static int parse(struct cgt_run_config *cfg, const char *line)
{
	static char buf[512];
	char *argv[32], *w, *save;
	int argc = 0;

	snprintf(buf, sizeof(buf), "cgtorture %s", line);
	for (w = strtok_r(buf, " ", &save); w && argc < 31; w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	return cgt_run_options_argv(argc, argv, cfg);
}

static void redirect(void)
{
	cr_redirect_stderr();
}

/* A dimension's own option pins it for every phase; --swarm given says which draw instead. */
Test(run_options, an_option_given_pins_its_swarm_dimension)
{
	struct cgt_run_config cfg;

	cr_assert_eq(parse(&cfg, "--seed 3"), 0);
	cr_assert(cfg.swarm & (1u << CGT_SWARM_PERTURB));
	cr_assert_eq(parse(&cfg, "--seed 3 --perturb 100"), 0);
	cr_assert_not(cfg.swarm & (1u << CGT_SWARM_PERTURB));
	cr_assert_eq(cfg.perturb, 100);
	cr_assert_eq(parse(&cfg, "--seed 3 --perturb 100 --swarm on"), 0);
	cr_assert(cfg.swarm & (1u << CGT_SWARM_PERTURB), "--swarm given keeps its dimensions");
}

/* --kernel brings its era's locks; a lock option given beside it says otherwise. */
Test(run_options, a_lock_given_beats_the_eras)
{
	struct cgt_run_config cfg;

	cr_assert_eq(parse(&cfg, "--kernel 4.4"), 0);
	cr_assert_str_eq(cfg.css_lock->name, "spinlock");
	cr_assert_str_eq(cfg.tasklist_lock->name, "rwlock");
	cr_assert_eq(parse(&cfg, "--kernel 4.4 --css-lock rwsem --tasklist-lock spinlock"), 0);
	cr_assert_str_eq(cfg.css_lock->name, "rwsem");
	cr_assert_str_eq(cfg.tasklist_lock->name, "spinlock");
	cr_assert(cfg.kernel_given);
}

/* reader-pref-rwlock is a lock, not a code path: it replaces tasklist_lock's variant. */
Test(run_options, a_lock_bug_replaces_tasklist_locks_variant)
{
	struct cgt_run_config cfg;

	cr_assert_eq(parse(&cfg, "--bug reader-pref-rwlock"), 0);
	cr_assert_str_eq(cfg.tasklist_lock->name, "rwlock-rpref");
}

/* Without --kernel a bug of other eras runs in the first its catalogue entry names. */
Test(run_options, a_bug_alone_runs_in_its_first_era)
{
	struct cgt_run_config cfg;

	cr_assert_eq(parse(&cfg, "--bug css-iter-stale-pos"), 0);
	cr_assert_str_eq(cfg.era->name, "4.4");
	cr_assert(cfg.kernel_given, "the rerun command pins the era it ran in");
	cr_assert_str_eq(cfg.css_lock->name, "spinlock");
}

Test(run_options, a_sanitizers_failure_is_refused_in_another_build, .init = redirect)
{
	struct cgt_run_config cfg;
	const char *other = strcmp(cgt_build_name(), "tsan") ? "tsan" : "asan";
	char line[64];

	snprintf(line, sizeof(line), "--stop-on %s", other);
	cr_assert_eq(parse(&cfg, line), CGT_EXIT_USAGE);
	cr_assert_eq(parse(&cfg, strcmp(other, "tsan") ? "--bug no-pid-alive --expect fail" :
			   "--bug cset-walk-unlocked --expect fail"), CGT_EXIT_USAGE);
	fflush(stderr);
	cr_assert_stderr_eq_str(strcmp(other, "tsan") ?
		"cgtorture: --stop-on asan: it reports in the asan build only (build/asan/cgtorture; "
		"this is the tsan build)\n"
		"cgtorture: --bug no-pid-alive: only asan catches it, in the asan build "
		"(build/asan/cgtorture; this is the tsan build)\n" :
		"cgtorture: --stop-on tsan: it reports in the tsan build only (build/tsan/cgtorture; "
		"this is the asan build)\n"
		"cgtorture: --bug cset-walk-unlocked: only tsan catches it, in the tsan build "
		"(build/tsan/cgtorture; this is the asan build)\n");
}

Test(run_options, a_sanitizers_bug_without_expect_fail_runs, .init = redirect)
{
	struct cgt_run_config cfg;

	cr_assert_eq(parse(&cfg, "--bug cset-walk-unlocked"), 0,
		     "a run that does not ask for the failure may run anywhere");
}

/* Options of another mode, set to what they would change, are refused, not ignored. */
Test(run_options, options_of_another_mode_are_refused, .init = redirect)
{
	struct cgt_run_config cfg;

	cr_assert_eq(parse(&cfg, "--locks code"), CGT_EXIT_USAGE);
	cr_assert_eq(parse(&cfg, "--locks code --sched random"), 0);
	cr_assert_eq(parse(&cfg, "--locks both"), 0, "the default, as a rerun command names it");
	cr_assert_eq(parse(&cfg, "--depth 5"), CGT_EXIT_USAGE);
	cr_assert_eq(parse(&cfg, "--depth 5 --sched random"), CGT_EXIT_USAGE);
	cr_assert_eq(parse(&cfg, "--depth 5 --sched pct"), 0);
	cr_assert_eq(parse(&cfg, "--preemptions 1 --sched pct"), CGT_EXIT_USAGE);
	cr_assert_eq(parse(&cfg, "--preemptions 1 --sched bounded"), 0);
	cr_assert_eq(parse(&cfg, "--check-determinism"), CGT_EXIT_USAGE);
	cr_assert_eq(parse(&cfg, "--check-determinism --sched random"), 0);
	fflush(stderr);
	cr_assert_stderr_eq_str(
		"cgtorture: --locks: a controlled run's (with --sched random, pct, bounded); a free "
		"run always takes each variant's own code\n"
		"cgtorture: --depth: PCT's bug depth, for --sched pct only\n"
		"cgtorture: --depth: PCT's bug depth, for --sched pct only\n"
		"cgtorture: --preemptions: the bounded scheduler's, for --sched bounded only\n"
		"cgtorture: --check-determinism needs a controlled run (--sched random, pct, "
		"bounded)\n");
}

/* A bug whose code its era's kernel lacked is no bug of that kernel. */
Test(run_options, a_bug_outside_its_eras_is_refused, .init = redirect)
{
	struct cgt_run_config cfg;

	cr_assert_eq(parse(&cfg, "--bug css-iter-stale-pos --kernel 3.15"), CGT_EXIT_USAGE);
	fflush(stderr);
	cr_assert_stderr_eq_str("cgtorture: --bug css-iter-stale-pos breaks code of era 4.4,6.x "
				"alone, not of 3.15\n");
}
