// SPDX-License-Identifier: GPL-2.0
/*
 * cgtorture compare: its tunables, the checks made before anything runs (so that bad input
 * leaves nothing behind), then the comparison, its tables, and the results folder
 * <out>/compare-<date>-<time> with compare.csv, compare.json, compare.gp and the plots.
 */
#define _GNU_SOURCE	/* sigabbrev_np */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "compare_cli.h"
#include "../base/exit_status.h"
#include "../base/files.h"
#include "../base/tunable.h"
#include "../compare/compare.h"
#include "../compare/compare_kinds.h"

#define CMP(field)	offsetof(struct cgt_compare_config, field)

static const struct tunable compare_tunables[] = {
	{ "locks", &cgt_tunable_locks, "all", "NAME,...",
	  "lock variants to compare (all: every one)",
	  CMP(locks), 0, 0 },
	{ "threads", &cgt_tunable_ints, "1,2,4,8", "N,...",
	  "thread counts, each a cell per variant",
	  CMP(threads), 1, CGT_CMP_MAX_THREADS },
	{ "workload", &cgt_tunable_workloads, "read-mostly", "NAME,...",
	  "workload presets (all: every one)",
	  CMP(workloads), 0, 0 },
	{ "duration", &cgt_tunable_seconds, "1", "SECONDS",
	  "each measurement: one cell, one context, one repeat (suffix ms, s, m or h)",
	  CMP(duration), 0, 3600 },
	{ "repeat", &cgt_tunable_int, "3", "N",
	  "measurements of each cell and context (median and spread)",
	  CMP(repeat), 1, CGT_CMP_MAX_REPEAT },
	{ "seed", &cgt_tunable_seed, NULL, "N",
	  "seed of every random choice (default: from the clock, printed)",
	  CMP(seed), 0, 0 },
	{ "out", &cgt_tunable_path, "results", "DIR",
	  "the results folder compare-<date>-<time> goes in here",
	  CMP(out), 0, 0 },
	{ "quiet", &cgt_tunable_flag, NULL, NULL,
	  "no line per cell as it is measured: the tables only",
	  CMP(quiet), 0, 0 },
	{ "reference", &cgt_tunable_flag, NULL, NULL,
	  "also time each variant's reference primitive, as its "
	  "users write it (glibc, liburcu, Concurrency Kit), and the limit's ratio to it",
	  CMP(reference), 0, 0 },
};

const struct cgt_cli_table cgt_compare_options = {
	compare_tunables, ARRAY_SIZE(compare_tunables)
};

static void compare_help(FILE *f)
{
	fprintf(f, "usage: cgtorture compare [OPTION...]\n\n"
		"The same workload on each lock variant and thread count, one after another, each\n"
		"measured bare (the variant's lock functions inlined around the critical sections),\n"
		"through the harness (as the model takes css_set_lock), at its limit (the lock\n"
		"functions alone, inlined into a loop), the loop's own cost (locks that do nothing)\n"
		"and with --reference the primitive it is, as its users write it; with repeats;\n"
		"tables, compare.csv, compare.json and plots. A ratio marked '?' means little: one\n"
		"repeat, measurements under %g s, or repeats over %.0f%% apart (docs/compare.md).\n"
		"Exit status: 0 done, 1 a variant's writers overlapped, 2 bad usage, 4 cannot write\n"
		"--out, 128+N interrupted by signal N (the cells measured whole are written).\n\n"
		"Options:\n", CGT_CMP_MIN_SECONDS, CGT_CMP_MAX_SPREAD * 100);
	cgt_tunables_table_help(f, compare_tunables, ARRAY_SIZE(compare_tunables));
	fputs("\nWorkloads:\n", f);
	for (size_t i = 0; i < cgt_nr_workloads; i++)
		fprintf(f, "  %-14s %s\n", cgt_workloads[i].name, cgt_workloads[i].desc);
	fputs("\nVariants:\n", f);
	for (size_t i = 0; i < cgt_nr_lock_variants; i++)
		fprintf(f, "  %-14s %s%s\n", cgt_lock_variants[i]->name, cgt_lock_variants[i]->desc,
			cgt_lock_variants[i]->rcu_readers ? " (compare only)" : "");
}

/* More threads than the machine lets this user run would fail halfway: refuse at once. */
static int check_threads(const struct cgt_compare_config *cfg)
{
	struct rlimit rl;
	int most = 0;

	for (int i = 0; i < cfg->threads.n; i++)
		if (cfg->threads.v[i] > most)
			most = cfg->threads.v[i];
	if (getrlimit(RLIMIT_NPROC, &rl) || rl.rlim_cur == RLIM_INFINITY ||
	    (rlim_t)most < rl.rlim_cur)
		return 0;
	fprintf(stderr, "cgtorture: --threads: %d threads are more than RLIMIT_NPROC (%llu) lets "
		"this user run\n", most, (unsigned long long)rl.rlim_cur);
	return CGT_EXIT_USAGE;
}

/* <out>/compare-<date>-<time>, made now: a new folder, never one of an earlier run. */
static int make_dir(const char *out, char *dir, size_t len)
{
	char stamp[32];

	cgt_time_stamp(stamp, sizeof(stamp));
	for (int n = 1; n < 100; n++) {
		if (n == 1)
			snprintf(dir, len, "%s/compare-%s", out, stamp);
		else
			snprintf(dir, len, "%s/compare-%s-%d", out, stamp, n);
		if (!mkdir(dir, 0777))
			return 0;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

/* A results folder that could not be completed goes: nothing is left half-written. */
static void remove_dir(const char *dir)
{
	static const char *const files[] = { "compare.csv", "compare.json" };
	char path[PATH_MAX];

	if (!dir[0])
		return;
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		if (snprintf(path, sizeof(path), "%s/%s", dir, files[i]) < (int)sizeof(path))
			unlink(path);
	}
	rmdir(dir);
}

static int write_results(struct cgt_cmp_result *res)
{
	int ret = make_dir(res->cfg->out, res->dir, sizeof(res->dir));

	if (!ret)
		ret = cgt_cmp_write_csv(res, res->dir);
	if (!ret)
		ret = cgt_cmp_write_json(res, res->dir);
	if (ret) {
		fprintf(stderr, "cgtorture: cannot write the results in %s: %s\n",
			res->dir[0] ? res->dir : res->cfg->out, strerror(-ret));
		remove_dir(res->dir);
		return CGT_EXIT_TOOL;
	}
	ret = cgt_cmp_plot(res, res->dir, stdout);
	if (ret)
		fprintf(stderr, "cgtorture: the plots failed (gnuplot compare.gp in %s): %s\n",
			res->dir, strerror(-ret));
	printf("results: %s (compare.csv, compare.json, compare.gp%s)\n", res->dir,
	       ret ? "" : ", plots as PNG and SVG");
	return CGT_EXIT_PASS;
}

int cgt_compare_main(int argc, char **argv)
{
	struct cgt_compare_config cfg;
	struct tunable_set set = TUNABLE_SET(compare_tunables, &cfg);
	struct cgt_cmp_result res;
	char *command = NULL, why[256];
	size_t len = 0;
	FILE *m;
	int ret, nctx, interrupted;
	bool overlapped = false;

	memset(&cfg, 0, sizeof(cfg));
	cgt_tunables_table_defaults(compare_tunables, ARRAY_SIZE(compare_tunables), &cfg);
	ret = cgt_tunables_sets_parse(&set, 1, compare_help, argc, argv);
	if (ret)
		return ret < 0 ? CGT_EXIT_PASS : ret;
	ret = check_threads(&cfg);
	if (ret)
		return ret;
	ret = cgt_dir_check_writable(cfg.out);
	if (ret) {
		fprintf(stderr, "cgtorture: --out: cannot write in '%s': %s\n", cfg.out,
			strerror(-ret));
		return CGT_EXIT_TOOL;
	}
	m = open_memstream(&command, &len);
	if (m) {
		cgt_tunables_table_command(m, "cgtorture compare", compare_tunables,
					   ARRAY_SIZE(compare_tunables), &cfg, NULL);
		fclose(m);
	}
	cfg.command = command;
	printf("cgtorture compare:");
	cgt_tunables_table_values(stdout, compare_tunables, ARRAY_SIZE(compare_tunables), &cfg);
	nctx = CGT_CMP_NR_CTX - !cfg.reference;
	printf("\n  %d cell(s) x %d repeat(s) x %d contexts x %g s: about %.0f s\n",
	       cfg.workloads.n * cfg.threads.n * cfg.locks.n, cfg.repeat, nctx, cfg.duration,
	       cfg.workloads.n * cfg.threads.n * cfg.locks.n * cfg.repeat * nctx * cfg.duration);
	if (cgt_cmp_config_noisy(&cfg, why, sizeof(why)))
		printf("warning: no ratio of this comparison will mean much (marked '?'): %s "
		       "(docs/compare.md)\n", why);
	fflush(stdout);

	/* a signal ends it after the cell under way: the cells measured whole are written */
	cgt_cli_on_signals();
	ret = cgt_compare(&cfg, &res);
	if (ret) {
		fprintf(stderr, "cgtorture: compare could not run its threads: %s\n", strerror(-ret));
		ret = CGT_EXIT_TOOL;
		goto out;
	}
	interrupted = cgt_run_interrupted();
	if (interrupted && !res.measured) {
		printf("compare: interrupted by SIG%s before a cell was measured whole: nothing "
		       "written\n", sigabbrev_np(interrupted));
		ret = CGT_EXIT_SIGNAL + interrupted;
		goto out;
	}
	cgt_cmp_print_tables(stdout, &res);
	printf("\n%d cells in %.1f s on %d CPU(s), %s; seed %llu\n", res.ncells, res.elapsed,
	       res.nproc, res.cpu, (unsigned long long)cfg.seed);
	ret = write_results(&res);
	for (int i = 0; i < res.ncells; i++)
		overlapped |= !res.cells[i].consistent;
	if (!ret && overlapped)
		ret = CGT_EXIT_FAIL;
	if (!ret && interrupted) {
		printf("compare: interrupted by SIG%s after %d of %d cells: the results above are "
		       "partial\n", sigabbrev_np(interrupted), res.measured, res.ncells);
		ret = CGT_EXIT_SIGNAL + interrupted;
	}
out:
	cgt_cmp_result_free(&res);
	free(command);
	return ret;
}
