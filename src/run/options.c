// SPDX-License-Identifier: GPL-2.0
/*
 * The run's table of tunables, as locktorture declares its module parameters: name, kind,
 * default, help and where the value goes in struct cgt_run_config. After a command line, the
 * run's own rules; then the banner and the command that runs it again, which a report keeps
 * and the searches parse back.
 */
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "../base/build.h"
#include "../base/files.h"
#include "../base/machine.h"

#define CFG(field)	offsetof(struct cgt_run_config, field)

/* PCT's depth when none is given: one that does nothing elsewhere is no mistake */
#define PCT_DEFAULT_DEPTH	3
/* CHESS: most bugs show within two preemptions; the bench's target is three */
#define BOUNDED_DEFAULT_PREEMPTIONS	3
#define STR(x)			XSTR(x)
#define XSTR(x)			#x

static const struct tunable tunables[] = {
	{ "duration", &cgt_tunable_seconds, "10", "SECONDS",
	  "how long the run lasts (suffix ms, s, m or h)",
	  CFG(duration), 0, 24 * 3600 },
	{ "seed", &cgt_tunable_seed, NULL, "N",
	  "seed of every random choice (default: from the clock, printed)",
	  CFG(seed), 0, 0 },
	{ "threads", &cgt_tunable_int, "512", "N", "cap on live model threads (pthreads)",
	  CFG(threads), 1, 100000 },
	{ "walkers", &cgt_tunable_int, "4", "N",
	  "dedicated observer threads besides the model threads",
	  CFG(walkers), 0, 1024 },
	{ "iter", &cgt_tunable_iter, "for_each", "WALK", "thread-group walk",
	  CFG(iter), 0, 0 },
	{ "kernel", &cgt_tunable_era, CGT_DEFAULT_ERA, "ERA",
	  "kernel era: its locks (unless --css-lock/--tasklist-lock say otherwise) and code "
	  "paths; without it, 3.15 with the queued tasklist_lock, or one free run in two "
	  "another era drawn by --swarm", CFG(era), 0, 0 },
	{ "css-lock", &cgt_tunable_lock, "rwsem", "NAME", "css_set lock variant",
	  CFG(css_lock), 0, 0 },
	{ "tasklist-lock", &cgt_tunable_lock, "rwlock", "NAME", "tasklist_lock variant",
	  CFG(tasklist_lock), 0, 0 },
	{ "mix", &cgt_tunable_mix, "fork=35,exec=2,exit=20,migrate=10,observe=33", "OP=W,...",
	  "weights of fork, exec, exit, migrate and observe", CFG(mix), 0, 0 },
	{ "reap-delay", &cgt_tunable_int, "8", "OPS",
	  "a dead process stays a zombie for this many model operations until its parent's "
	  "wait() reaps it (0: at once, as if the parent ignored SIGCHLD)", CFG(reap_delay),
	  0, 1000000 },
	{ "pid-max", &cgt_tunable_pid_max, "0", "N",
	  "numbers are handed out again past N, from 300 on, as the kernel's pid_max makes "
	  "them (0: never reused)", CFG(pid_max), RESERVED_PIDS + 1, PID_MAX_LIMIT },
	{ "clone-thread", &cgt_tunable_int, "70", "PCT",
	  "share of forks that make a thread (CLONE_THREAD)",
	  CFG(clone_thread_pct), 0, 100 },
	{ "stats-interval", &cgt_tunable_seconds, "2", "SECONDS",
	  "seconds between stats lines (0: none)",
	  CFG(stats_interval), -1, 3600 },
	{ "stack", &cgt_tunable_int, "64", "KiB", "pthread stack of a model thread",
	  CFG(stack_kib), 32, 8192 },
	{ "quiet", &cgt_tunable_flag, NULL, NULL, "print the summary only",
	  CFG(quiet), 0, 0 },
	{ "off-cpu", &cgt_tunable_seconds, "0", "SECONDS",
	  "one reader of the threadgroup lock stays off the CPU this long while it holds it, as "
	  "direct reclaim or CFS throttling keep the holder of a kernel hung-task chain (a "
	  "controlled run: until nothing else can run; 0: never)",
	  CFG(off_cpu), -1, 3600 },
	{ "stall", &cgt_tunable_bound, "2", "SECONDS",
	  "a walk older, or a thread blocked longer, is reported (x4 ASan, x8 TSan)",
	  CFG(stall), 0, 3600 },
	{ "starve", &cgt_tunable_bound, "1", "SECONDS",
	  "a writer passed over by readers this long is starved (x4 ASan, x8 TSan)",
	  CFG(starve), 0, 3600 },
	{ "check-interval", &cgt_tunable_seconds, "2", "SECONDS",
	  "hold the model still and check its invariants this often (0: at the end only)",
	  CFG(check_interval), -1, 3600 },
	{ "perturb", &cgt_tunable_int, "0", "PERMILLE",
	  "delay or yield at this share of marked points",
	  CFG(perturb), 0, 1000 },
	{ "swarm", &cgt_tunable_swarm, "on", "DIMS",
	  "phases of 0.25-3 s (500-4000 decisions), each drawing these from the seed; "
	  "an option given pins its own", CFG(swarm), 0, 0 },
	{ "bug", &cgt_tunable_bug, NULL, "NAME",
	  "put a catalogued bug back (repeatable; see: cgtorture bugs)",
	  CFG(bugs), 0, 0 },
	{ "stop-on", &cgt_tunable_stop, "none", "DETECTOR",
	  "end the run once this detector reports: any, none, or a detector's name",
	  CFG(stop_on), 0, 0 },
	{ "sched", &cgt_tunable_sched, "none", "NAME",
	  "controlled schedule: none (free-running), or a scheduler", CFG(sched), 0, 0 },
	{ "depth", &cgt_tunable_int, STR(PCT_DEFAULT_DEPTH), "D", "PCT's bug depth: d-1 priority change points",
	  CFG(sched_tunables.depth), 1, 16 },
	{ "preemptions", &cgt_tunable_int, STR(BOUNDED_DEFAULT_PREEMPTIONS), "K",
	  "the bounded scheduler's preemptions at most (explore and reproduce raise it from 0)",
	  CFG(sched_tunables.preemptions), 0, 16 },
	{ "steps", &cgt_tunable_int, "20000", "N",
	  "a controlled run's length, in scheduling decisions",
	  CFG(steps), 1, 10000000 },
	{ "locks", &cgt_tunable_lock_mode, "both", "model|code|both",
	  "a controlled run's locks: kept by the scheduler by each variant's policy (model), "
	  "or each variant's own code with a decision at each atomic operation (code; glibc's "
	  "locks stay model locks), or by the seed: odd code, even model (both; "
	  "model with --bug)", CFG(lock_mode), 0, 0 },
	{ "check-determinism", &cgt_tunable_flag, NULL, NULL,
	  "a controlled run, twice: the two schedules must be the same", CFG(check_determinism),
	  0, 0 },
	{ "expect", &cgt_tunable_expect, NULL, "pass|fail|known",
	  "a check: exit 0 if the outcome is this, 3 if an expected failure was not found "
	  "(known: a pass on which the --kernel era's catalogued behaviour showed)",
	  CFG(expect), 0, 0 },
	{ "out", &cgt_tunable_path, "results", "DIR", "where a failure's report folder goes",
	  CFG(out), 0, 0 },
};

struct tunable_set cgt_run_options(struct cgt_run_config *cfg)
{
	return (struct tunable_set)TUNABLE_SET(tunables, cfg);
}

void cgt_run_options_defaults(struct cgt_run_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cgt_tunables_table_defaults(tunables, ARRAY_SIZE(tunables), cfg);
}

/* The build whose sanitizer detector @det is (only it reports), or NULL: every build's. */
static const char *detector_build(int det)
{
	return det == CGT_DET_TSAN ? "tsan" : det == CGT_DET_ASAN ? "asan" : NULL;
}

/*
 * What this binary cannot do refused before it runs in vain: a sanitizer's failure asked
 * for (--expect fail with its bug, --stop-on it) in another build, and options for a mode
 * the run is not in set to what they would change (a report's rerun command names every
 * option, at its default where it does nothing). The line names what would work.
 */
static int mode_rules(const struct tunable_set *run, const struct cgt_run_config *cfg)
{
	const char *build = cfg->stop_on >= 0 && cfg->stop_on < CGT_NR_DETECTORS ?
			    detector_build(cfg->stop_on) : NULL;

	if (build && strcmp(build, cgt_build_name())) {
		fprintf(stderr, "cgtorture: --stop-on %s: it reports in the %s build only "
			"(build/%s/cgtorture; this is the %s build)\n",
			cgt_detector_names[cfg->stop_on], build, build, cgt_build_name());
		return CGT_EXIT_USAGE;
	}
	for (int b = 0; b < CGT_NR_BUGS && cfg->expect == CGT_EXPECT_FAIL; b++) {
		const struct cgt_bug_info *bug = &cgt_bug_catalogue[b];

		build = detector_build(bug->detector);
		if ((cfg->bugs & (1UL << b)) && build && strcmp(build, cgt_build_name())) {
			fprintf(stderr, "cgtorture: --bug %s: only %s catches it, in the %s build "
				"(build/%s/cgtorture; this is the %s build)\n", bug->name,
				cgt_detector_names[bug->detector], build, build, cgt_build_name());
			return CGT_EXIT_USAGE;
		}
	}
	if (cgt_tunables_given(run, "locks") && !cfg->sched && cfg->lock_mode != CGT_LOCKS_BOTH) {
		fprintf(stderr, "cgtorture: --locks: a controlled run's (with --sched %s); a free "
			"run always takes each variant's own code\n", cgt_sched_names());
		return CGT_EXIT_USAGE;
	}
	if (cgt_tunables_given(run, "depth") && cfg->sched_tunables.depth != PCT_DEFAULT_DEPTH &&
	    (!cfg->sched || strcmp(cfg->sched->name, "pct"))) {
		fprintf(stderr, "cgtorture: --depth: PCT's bug depth, for --sched pct only\n");
		return CGT_EXIT_USAGE;
	}
	if (cgt_tunables_given(run, "preemptions") &&
	    cfg->sched_tunables.preemptions != BOUNDED_DEFAULT_PREEMPTIONS &&
	    (!cfg->sched || strcmp(cfg->sched->name, "bounded"))) {
		fprintf(stderr, "cgtorture: --preemptions: the bounded scheduler's, for --sched "
			"bounded only\n");
		return CGT_EXIT_USAGE;
	}
	return 0;
}

/*
 * Without --kernel, a bug of other eras alone than the default runs in the first its
 * catalogue entry names: `run --bug NAME` at default settings shows it.
 */
static const struct cgt_kernel_era *bug_era(const struct cgt_run_config *cfg)
{
	char first[16];

	for (int b = 0; b < CGT_NR_BUGS; b++) {
		const char *eras = cgt_bug_catalogue[b].eras;

		if (!(cfg->bugs & (1UL << b)) || cgt_bug_in_era((enum cgt_bug)b, cfg->era->name))
			continue;
		snprintf(first, sizeof(first), "%.*s", (int)strcspn(eras, ","), eras);
		return cgt_era_find(first);
	}
	return NULL;
}

/* The run's own rules, once its table (@run, whose configuration is @cfg) is parsed. */
static int run_rules(const struct tunable_set *run, struct cgt_run_config *cfg)
{
	const struct cgt_kernel_era *drawn;
	int n;

	/*
	 * Without --swarm, a dimension's own option pins it. The rerun command always names
	 * --swarm, so it repeats the same phases.
	 */
	if (!cgt_tunables_given(run, "swarm"))
		for (int d = 0; d < CGT_NR_SWARM_DIMS; d++)
			if (cgt_tunables_given(run, cgt_swarm_dim_names[d]))
				cfg->swarm &= ~(1u << d);
	/*
	 * A population the swarm drew replaces --threads' and pins the phases' caps to it, so the
	 * rerun command names it as given.
	 */
	n = cgt_swarm_population(cfg);
	if (n) {
		cfg->threads = n;
		cfg->threads_drawn = true;
		cfg->swarm &= ~(1u << CGT_SWARM_THREADS);
	}
	/*
	 * --kernel, or the era the swarm drew (then named as if given: the rerun command pins
	 * it, and its catalogued behaviour is known), sets the era's locks; a lock option given
	 * says otherwise.
	 */
	cfg->kernel_given = cgt_tunables_given(run, "kernel");
	drawn = cfg->kernel_given ? NULL : bug_era(cfg);
	if (!drawn && !cfg->kernel_given)
		drawn = cgt_swarm_era(cfg);
	if (drawn) {
		cfg->era = drawn;
		cfg->kernel_given = true;
	}
	if (cfg->kernel_given) {
		if (!cgt_tunables_given(run, "css-lock"))
			cfg->css_lock = cgt_lock_find(cfg->era->css_set_lock);
		if (!cgt_tunables_given(run, "tasklist-lock"))
			cfg->tasklist_lock = cgt_lock_find(cfg->era->tasklist_lock);
	}
	/* a bug breaks code its era's kernel had, or it is no bug of that kernel */
	for (int b = 0; b < CGT_NR_BUGS; b++)
		if ((cfg->bugs & (1UL << b)) && !cgt_bug_in_era((enum cgt_bug)b, cfg->era->name)) {
			fprintf(stderr, "cgtorture: --bug %s breaks code of era %s alone, not of %s\n",
				cgt_bug_catalogue[b].name, cgt_bug_catalogue[b].eras, cfg->era->name);
			return CGT_EXIT_USAGE;
		}
	/* a bug that is a lock, not a code path, replaces tasklist_lock's variant */
	for (int b = 0; b < CGT_NR_BUGS; b++)
		if ((cfg->bugs & (1UL << b)) && cgt_bug_catalogue[b].tasklist_lock)
			cfg->tasklist_lock = cgt_lock_find(cgt_bug_catalogue[b].tasklist_lock);
	if (cfg->check_determinism && !cfg->sched) {
		fprintf(stderr, "cgtorture: --check-determinism needs a controlled run (--sched %s)\n",
			cgt_sched_names());
		return CGT_EXIT_USAGE;
	}
	return mode_rules(run, cfg);
}

int cgt_run_options_parse(struct tunable_set *sets, size_t nsets, void (*help)(FILE *f),
			  int argc, char **argv, struct cgt_run_config *cfg)
{
	int ret;

	for (size_t s = 0; s < nsets; s++)
		cgt_tunables_table_defaults(sets[s].table, sets[s].n, sets[s].cfg);
	ret = cgt_tunables_sets_parse(sets, nsets, help, argc, argv);
	for (size_t s = 0; !ret && s < nsets; s++)
		if (sets[s].table == tunables)
			return run_rules(&sets[s], cfg);
	return ret;
}

int cgt_run_options_argv(int argc, char **argv, struct cgt_run_config *cfg)
{
	struct tunable_set run;

	memset(cfg, 0, sizeof(*cfg));
	run = cgt_run_options(cfg);
	return cgt_run_options_parse(&run, 1, cgt_run_options_help, argc, argv, cfg);
}

void cgt_run_options_help(FILE *f)
{
	fprintf(f, "usage: cgtorture [run] [OPTION...]\n\n"
		"Stress a user-space model of the kernel's thread groups and cgroups with real\n"
		"pthreads, then check its invariants. Exit status: 0 pass (or the --expect'ed\n"
		"outcome), 1 failure found, 2 bad usage, 3 an expected failure not found, 4 a tool\n"
		"error (cannot write --out), 128+N interrupted by signal N (verdict INTERRUPTED).\n\n"
		"Options:\n");
	cgt_tunables_table_help(f, tunables, ARRAY_SIZE(tunables));
	fprintf(f, "\nKernel eras (--kernel ERA: tasklist_lock, css_set lock, threadgroup lock; "
		"what changed):\n");
	for (size_t i = 0; i < cgt_nr_kernel_eras; i++) {
		const struct cgt_kernel_era *e = &cgt_kernel_eras[i];

		fprintf(f, "  %-5s %s, %s, %s %s\n        %s\n", e->name, e->tasklist_lock,
			e->css_set_lock, e->threadgroup_lock,
			e->threadgroup_global ? "(global)" : "(per process)", e->desc);
	}
}

void cgt_run_options_banner(FILE *f, const struct cgt_run_config *cfg)
{
	const struct cgt_sched_params params = cgt_run_sched_params(cfg);

	fputs("cgtorture run:", f);
	cgt_tunables_table_values(f, tunables, ARRAY_SIZE(tunables), cfg);
	if (cgt_build_slowdown() > 1)
		fprintf(f, "\n  %s build: stall and starve stretched x%d to %gs and %gs",
			cgt_build_name(), cgt_build_slowdown(), cfg->stall, cfg->starve);
	if (cfg->sched && cfg->sched->bound)
		fprintf(f, "\n  %s: a bug of depth %d is found by one run with probability at least "
			"1/(n k^(d-1)) = %.3g (n = %d threads, k = %d decisions)", cfg->sched->name,
			cfg->sched_tunables.depth, cfg->sched->bound(&params, cfg->threads + cfg->walkers + 1),
			cfg->threads + cfg->walkers + 1, cfg->steps);
	if (!cfg->sched) {
		char why[192];
		long cap = cgt_machine_thread_cap(why, sizeof(why));

		if (cap >= 0 && cap < cfg->threads)
			fprintf(f, "\n  machine: about %ld threads at most (%s): fewer than "
				"--threads %d", cap, why, cfg->threads);
	}
	fprintf(f, "\n  css-lock %s: %s\n", cfg->css_lock->name, cfg->css_lock->desc);
}

/*
 * --kernel only if it was given: a run without it has the default era's code paths and the
 * default locks, and no known behaviour (run.c), which naming the era would change.
 */
void cgt_run_options_command(FILE *f, const struct cgt_run_config *cfg)
{
	cgt_tunables_table_command(f, "cgtorture run", tunables, ARRAY_SIZE(tunables), cfg,
				   cfg->kernel_given ? NULL : "kernel");
}

static char *render(void (*fn)(FILE *, const struct cgt_run_config *),
		    const struct cgt_run_config *cfg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return NULL;
	fn(m, cfg);
	fclose(m);
	if (buf && len && buf[len - 1] == '\n')
		buf[len - 1] = '\0';
	return buf;
}

int cgt_run_options_ready(struct cgt_run_config *cfg)
{
	int ret = cgt_dir_check_writable(cfg->out);

	if (ret) {
		fprintf(stderr, "cgtorture: --out: cannot write in '%s': %s\n", cfg->out,
			strerror(-ret));
		return CGT_EXIT_TOOL;
	}
	cgt_run_render(cfg);
	return 0;
}

void cgt_run_render(struct cgt_run_config *cfg)
{
	free((char *)cfg->banner);
	free((char *)cfg->command);
	cfg->banner = render(cgt_run_options_banner, cfg);
	cfg->command = render(cgt_run_options_command, cfg);
}

void cgt_run_render_free(struct cgt_run_config *cfg)
{
	free((char *)cfg->banner);
	free((char *)cfg->command);
	cfg->banner = cfg->command = NULL;
}
