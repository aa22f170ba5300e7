// SPDX-License-Identifier: GPL-2.0
/*
 * One table of tunables per command, as locktorture declares its module parameters: name,
 * default, help and where the value goes. getopt_long's options, --help, the banner and the
 * command that runs it again come from it; a command with options of its own parses its
 * table and the run's in one pass. This file holds the engine and the stress run's table;
 * each kind of value is an entry of tunable_kinds.c.
 */
#include <getopt.h>
#include <string.h>

#include "tunables.h"
#include "../base/build.h"
#include "../base/machine.h"

#define CFG(field)	offsetof(struct cgt_run_config, field)

static const struct tunable tunables[] = {
	{ "duration", T_SECONDS, "10", "SECONDS", "how long the run lasts (suffix ms, s, m or h)",
	  CFG(duration), 0, 24 * 3600 },
	{ "seed", T_SEED, NULL, "N", "seed of every random choice (default: from the clock, printed)",
	  CFG(seed), 0, 0 },
	{ "threads", T_INT, "512", "N", "cap on live model threads (pthreads)",
	  CFG(threads), 1, 100000 },
	{ "walkers", T_INT, "4", "N", "dedicated observer threads besides the model threads",
	  CFG(walkers), 0, 1024 },
	{ "iter", T_ITER, "for_each", "WALK", "thread-group walk",
	  CFG(iter), 0, 0 },
	{ "kernel", T_ERA, CGT_DEFAULT_ERA, "ERA",
	  "kernel era: its locks (unless --css-lock/--tasklist-lock say otherwise) and code "
	  "paths; without it, 3.15 with the queued tasklist_lock, or one free run in two "
	  "another era drawn by --swarm", CFG(era), 0, 0 },
	{ "css-lock", T_LOCK, "rwsem", "NAME", "css_set lock variant",
	  CFG(css_lock), 0, 0 },
	{ "tasklist-lock", T_LOCK, "rwlock", "NAME", "tasklist_lock variant",
	  CFG(tasklist_lock), 0, 0 },
	{ "mix", T_MIX, "fork=35,exec=2,exit=20,migrate=10,observe=33", "OP=W,...",
	  "weights of fork, exec, exit, migrate and observe", CFG(mix), 0, 0 },
	{ "reap-delay", T_INT, "8", "OPS",
	  "a dead process stays a zombie for this many model operations until its parent's "
	  "wait() reaps it (0: at once, as if the parent ignored SIGCHLD)", CFG(reap_delay),
	  0, 1000000 },
	{ "pid-max", T_PID_MAX, "0", "N",
	  "numbers are handed out again past N, from 300 on, as the kernel's pid_max makes "
	  "them (0: never reused)", CFG(pid_max), RESERVED_PIDS + 1, PID_MAX_LIMIT },
	{ "clone-thread", T_INT, "70", "PCT", "share of forks that make a thread (CLONE_THREAD)",
	  CFG(clone_thread_pct), 0, 100 },
	{ "stats-interval", T_SECONDS, "2", "SECONDS", "seconds between stats lines (0: none)",
	  CFG(stats_interval), -1, 3600 },
	{ "stack", T_INT, "64", "KiB", "pthread stack of a model thread",
	  CFG(stack_kib), 32, 8192 },
	{ "quiet", T_FLAG, NULL, NULL, "print the summary only",
	  CFG(quiet), 0, 0 },
	{ "off-cpu", T_SECONDS, "0", "SECONDS",
	  "one reader of the threadgroup lock stays off the CPU this long while it holds it, as "
	  "direct reclaim or CFS throttling keep the holder of a kernel hung-task chain (a "
	  "controlled run: until nothing else can run; 0: never)",
	  CFG(off_cpu), -1, 3600 },
	{ "stall", T_BOUND, "2", "SECONDS",
	  "a walk older, or a thread blocked longer, is reported (x4 ASan, x8 TSan)",
	  CFG(stall), 0, 3600 },
	{ "starve", T_BOUND, "1", "SECONDS",
	  "a writer passed over by readers this long is starved (x4 ASan, x8 TSan)",
	  CFG(starve), 0, 3600 },
	{ "check-interval", T_SECONDS, "2", "SECONDS",
	  "hold the model still and check its invariants this often (0: at the end only)",
	  CFG(check_interval), -1, 3600 },
	{ "perturb", T_INT, "0", "PERMILLE", "delay or yield at this share of marked points",
	  CFG(perturb), 0, 1000 },
	{ "swarm", T_SWARM, "on", "DIMS",
	  "phases of 0.25-3 s (500-4000 decisions), each drawing these from the seed; "
	  "an option given pins its own", CFG(swarm), 0, 0 },
	{ "bug", T_BUG, NULL, "NAME", "put a catalogued bug back (repeatable; see: cgtorture bugs)",
	  CFG(bugs), 0, 0 },
	{ "stop-on", T_STOP, "none", "DETECTOR",
	  "end the run once this detector reports: any, none, or a detector's name",
	  CFG(stop_on), 0, 0 },
	{ "sched", T_SCHED, "none", "NAME",
	  "controlled schedule: none (free-running), or a scheduler", CFG(sched), 0, 0 },
	{ "depth", T_INT, "3", "D", "PCT's bug depth: d-1 priority change points",
	  CFG(depth), 1, 16 },
	{ "steps", T_INT, "20000", "N", "a controlled run's length, in scheduling decisions",
	  CFG(steps), 1, 10000000 },
	{ "locks", T_LOCK_MODE, "both", "model|code|both",
	  "a controlled run's locks: kept by the scheduler by each variant's policy (model), "
	  "or each variant's own code with a decision at each atomic operation (code; glibc's "
	  "rwsem and mutex stay model locks), or by the seed: odd code, even model (both; "
	  "model with --bug)", CFG(lock_mode), 0, 0 },
	{ "check-determinism", T_FLAG, NULL, NULL,
	  "a controlled run, twice: the two schedules must be the same", CFG(check_determinism),
	  0, 0 },
	{ "expect", T_EXPECT, NULL, "pass|fail|known",
	  "a check: exit 0 if the outcome is this, 3 if an expected failure was not found "
	  "(known: a pass on which the --kernel era's catalogued behaviour showed)",
	  CFG(expect), 0, 0 },
	{ "out", T_PATH, "results", "DIR", "where a failure's report folder goes",
	  CFG(out), 0, 0 },
};

static const struct tunable_kind_ops *kind_of(const struct tunable *t)
{
	return &cgt_tunable_kinds[t->kind];
}

void cgt_tunables_table_defaults(const struct tunable *table, size_t n, void *cfg)
{
	for (size_t i = 0; i < n; i++) {
		const struct tunable *t = &table[i];

		if (t->def)
			kind_of(t)->parse(t, t->def, (char *)cfg + t->offset);
		else if (kind_of(t)->fallback)
			kind_of(t)->fallback((char *)cfg + t->offset);
	}
}

struct tunable_set cgt_tunables_run_set(struct cgt_run_config *cfg)
{
	return (struct tunable_set)TUNABLE_SET(tunables, cfg);
}

void cgt_tunables_defaults(struct cgt_run_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cgt_tunables_table_defaults(tunables, ARRAY_SIZE(tunables), cfg);
}

/* getopt_long's index @idx back to its set and tunable; the positionals have no option. */
static int tunable_take(struct tunable_set *sets, size_t nsets, int idx, const char *arg)
{
	for (size_t s = 0; s < nsets; s++) {
		struct tunable_set *set = &sets[s];

		for (size_t i = 0; i < set->n; i++) {
			const struct tunable *t = &set->table[i];

			if (!t->name || idx--)
				continue;
			set->given |= 1ULL << i;
			return kind_of(t)->parse(t, arg, (char *)set->cfg + t->offset);
		}
	}
	return CGT_EXIT_USAGE;
}

/* The words left after the options, one to each positional in order; each must be given. */
static int positionals_take(struct tunable_set *sets, size_t nsets, int argc, char **argv,
			    int next)
{
	for (size_t s = 0; s < nsets; s++) {
		struct tunable_set *set = &sets[s];

		for (size_t i = 0; i < set->n; i++) {
			const struct tunable *t = &set->table[i];
			int ret;

			if (t->name)
				continue;
			if (next == argc) {
				fprintf(stderr, "cgtorture: %s needs one %s (see %s --help)\n",
					argv[0], t->help, argv[0]);
				return CGT_EXIT_USAGE;
			}
			ret = kind_of(t)->parse(t, argv[next++], (char *)set->cfg + t->offset);
			if (ret)
				return ret;
			set->given |= 1ULL << i;
		}
	}
	if (next < argc) {
		fprintf(stderr, "cgtorture: unexpected argument '%s' (see --help)\n", argv[next]);
		return CGT_EXIT_USAGE;
	}
	return 0;
}

int cgt_tunables_sets_parse(struct tunable_set *sets, size_t nsets, void (*help)(FILE *f),
			    int argc, char **argv)
{
	size_t n = 0, k = 0;
	int c, idx;

	for (size_t s = 0; s < nsets; s++)
		n += sets[s].n;
	struct option opts[n + 2];

	for (size_t s = 0; s < nsets; s++)
		for (size_t i = 0; i < sets[s].n; i++) {
			const struct tunable *t = &sets[s].table[i];

			if (t->name)
				opts[k++] = (struct option){ t->name, kind_of(t)->flag ?
							     no_argument : required_argument,
							     NULL, 0 };
		}
	opts[k++] = (struct option){ "help", no_argument, NULL, 'h' };
	opts[k] = (struct option){ 0 };

	/* 0, not 1: glibc starts afresh, as a second command line (a report's) needs */
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, &idx)) != -1) {
		int ret;

		switch (c) {
		case 0:
			ret = tunable_take(sets, nsets, idx, optarg);
			if (ret)
				return ret;
			break;
		case 'h':
			help(stdout);
			return -1;
		case ':':
			fprintf(stderr, "cgtorture: %s needs a value (see --help)\n", argv[optind - 1]);
			return CGT_EXIT_USAGE;
		default:
			fprintf(stderr, "cgtorture: unknown option '%s' (see --help)\n", argv[optind - 1]);
			return CGT_EXIT_USAGE;
		}
	}
	return positionals_take(sets, nsets, argc, argv, optind);
}

bool cgt_tunables_given(const struct tunable_set *set, const char *name)
{
	for (size_t i = 0; i < set->n; i++)
		if (set->table[i].name && !strcmp(set->table[i].name, name))
			return set->given & (1ULL << i);
	return false;
}

int cgt_tunables_run_parse(struct tunable_set *sets, size_t nsets, void (*help)(FILE *f),
			   int argc, char **argv, const struct cgt_run_config *cfg)
{
	int ret = cgt_tunables_sets_parse(sets, nsets, help, argc, argv);

	/*
	 * Without --swarm, a dimension's own option pins it. The rerun command always names
	 * --swarm, so it repeats the same phases.
	 */
	for (size_t i = 0; !ret && i < nsets; i++) {
		struct cgt_run_config *run = sets[i].cfg;

		if (sets[i].table != tunables || cgt_tunables_given(&sets[i], "swarm"))
			continue;
		for (int d = 0; d < CGT_NR_SWARM_DIMS; d++)
			if (cgt_tunables_given(&sets[i], cgt_swarm_dim_names[d]))
				run->swarm &= ~(1u << d);
	}
	/*
	 * A population the swarm drew replaces --threads' and pins the phases' caps to it, so the
	 * rerun command names it as given.
	 */
	for (size_t i = 0; !ret && i < nsets; i++) {
		struct cgt_run_config *run = sets[i].cfg;
		int n;

		if (sets[i].table == tunables && (n = cgt_swarm_population(run))) {
			run->threads = n;
			run->threads_drawn = true;
			run->swarm &= ~(1u << CGT_SWARM_THREADS);
		}
	}
	/*
	 * --kernel, or the era the swarm drew (then named as if given: the rerun command pins
	 * it, and its catalogued behaviour is known), sets the era's locks; a lock option given
	 * says otherwise.
	 */
	for (size_t i = 0; !ret && i < nsets; i++) {
		struct cgt_run_config *run = sets[i].cfg;
		const struct cgt_kernel_era *drawn;

		if (sets[i].table != tunables)
			continue;
		run->kernel_given = cgt_tunables_given(&sets[i], "kernel");
		drawn = run->kernel_given ? NULL : cgt_swarm_era(run);
		if (drawn) {
			run->era = drawn;
			run->kernel_given = true;
		}
		if (!run->kernel_given)
			continue;
		if (!cgt_tunables_given(&sets[i], "css-lock"))
			run->css_lock = cgt_lock_find(run->era->css_set_lock);
		if (!cgt_tunables_given(&sets[i], "tasklist-lock"))
			run->tasklist_lock = cgt_lock_find(run->era->tasklist_lock);
	}
	if (!ret && cfg->check_determinism && !cfg->sched) {
		fprintf(stderr, "cgtorture: --check-determinism needs a controlled run (--sched %s)\n",
			cgt_sched_names());
		return CGT_EXIT_USAGE;
	}
	return ret;
}

int cgt_tunables_parse(int argc, char **argv, struct cgt_run_config *cfg)
{
	struct tunable_set run = cgt_tunables_run_set(cfg);

	return cgt_tunables_run_parse(&run, 1, cgt_tunables_help, argc, argv, cfg);
}

void cgt_tunables_table_help(FILE *f, const struct tunable *table, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct tunable *t = &table[i];
		const struct tunable_kind_ops *k = kind_of(t);
		char lhs[48];

		if (!t->name)
			continue;
		snprintf(lhs, sizeof(lhs), "--%s%s%s", t->name, t->metavar ? " " : "",
			 t->metavar ? t->metavar : "");
		fprintf(f, "  %-26s %s", lhs, t->help);
		if (t->def && !k->default_below)
			fprintf(f, " [%s]", t->def);
		fputc('\n', f);
		if (t->def && k->default_below)
			fprintf(f, "  %-26s [%s]\n", "", t->def);
		if (k->choices)
			fprintf(f, "  %-26s %s: %s\n", "", k->label, k->choices());
	}
	fprintf(f, "  %-26s this text\n", "--help");
}

void cgt_tunables_help(FILE *f)
{
	fprintf(f, "usage: cgtorture [run] [OPTION...]\n\n"
		"Stress a user-space model of the kernel's thread groups and cgroups with real\n"
		"pthreads, then check its invariants. Exit status: 0 pass (or the --expect'ed\n"
		"outcome), 1 failure found, 2 bad usage, 3 an expected failure not found.\n\n"
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

void cgt_tunables_table_values(FILE *f, const struct tunable *table, size_t n, const void *cfg)
{
	for (size_t i = 0; i < n; i++) {
		fprintf(f, " %s=", table[i].name ? table[i].name : table[i].metavar);
		kind_of(&table[i])->print(f, &table[i], (const char *)cfg + table[i].offset);
	}
}

void cgt_tunables_banner(FILE *f, const struct cgt_run_config *cfg)
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
			cfg->depth, cfg->sched->bound(&params, cfg->threads + cfg->walkers + 1),
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

/* The command that runs this configuration again (every value spelled out). */
void cgt_tunables_table_command(FILE *f, const char *cmd, const struct tunable *table,
				size_t n, const void *cfg, const char *unspelled)
{
	fputs(cmd, f);
	for (size_t i = 0; i < n; i++) {
		const struct tunable *t = &table[i];
		const struct tunable_kind_ops *k = kind_of(t);
		const void *src = (const char *)cfg + t->offset;

		if (unspelled && t->name && !strcmp(t->name, unspelled))
			continue;
		if (k->spell) {
			k->spell(f, t, src);
			continue;
		}
		if (!t->name)
			fputc(' ', f);
		else
			fprintf(f, " --%s ", t->name);
		k->print(f, t, src);
	}
}

/*
 * --kernel only if it was given: a run without it has the default era's code paths and the
 * default locks, and no known behaviour (run.c), which naming the era would change.
 */
void cgt_tunables_command(FILE *f, const struct cgt_run_config *cfg)
{
	cgt_tunables_table_command(f, "cgtorture run", tunables, ARRAY_SIZE(tunables), cfg,
				   cfg->kernel_given ? NULL : "kernel");
}
