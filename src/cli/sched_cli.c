// SPDX-License-Identifier: GPL-2.0
/*
 * The command lines of the searches over controlled schedules: explore, replay and shrink
 * (src/search/ holds what they do).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "tunables.h"
#include "../base/build.h"
#include "../run/catalogue.h"
#include "../base/files.h"
#include "../search/search.h"

/* Take "--NAME VALUE" (or a flag) out of argv; returns its value, "" for a flag, or NULL. */
static const char *take_option(int *argc, char **argv, const char *name, bool flag)
{
	for (int i = 1; i < *argc; i++) {
		const char *v;
		int n = flag ? 1 : 2;

		if (strcmp(argv[i], name))
			continue;
		if (!flag && i + 1 >= *argc) {
			fprintf(stderr, "cgtorture: %s needs a value (see --help)\n", name);
			exit(CGT_EXIT_USAGE);
		}
		v = flag ? "" : argv[i + 1];
		memmove(&argv[i], &argv[i + n], sizeof(*argv) * (size_t)(*argc - i - n + 1));
		*argc -= n;
		return v;
	}
	return NULL;
}

static bool has_option(int argc, char **argv, const char *name)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], name))
			return true;
	return false;
}

static long parse_count(const char *opt, const char *v, long max)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 10);
	if (end == v || *end || errno || n < 1 || n > max) {
		fprintf(stderr, "cgtorture: %s: '%s' is not a number from 1 to %ld\n", opt, v, max);
		exit(CGT_EXIT_USAGE);
	}
	return n;
}

static void explore_help(void)
{
	puts("usage: cgtorture explore [--runs N] [--keep-going] [run options]\n\n"
	     "Runs N controlled schedules (--sched pct unless told otherwise), each with its own\n"
	     "seed (--seed, --seed + 1, ...), and stops at the first that fails, or goes on with\n"
	     "--keep-going. With one --bug, the failure looked for is its catalogued detector's.\n\n"
	     "  --runs N                   schedules to try [100]\n"
	     "  --keep-going               count every failing schedule\n\n"
	     "The run options (cgtorture help) set the model and the scheduler: --sched, --depth,\n"
	     "--steps, --threads, --bug, --seed, --out, ...");
}

int cgt_explore_main(int argc, char **argv)
{
	struct cgt_run_config cfg = { 0 };
	struct tunable_set run;
	const char *runs_opt;
	bool keep_going;
	long runs;
	int ret;

	if (has_option(argc, argv, "--help") || has_option(argc, argv, "-h")) {
		explore_help();
		return CGT_EXIT_PASS;
	}
	runs_opt = take_option(&argc, argv, "--runs", false);
	runs = runs_opt ? parse_count("--runs", runs_opt, 100000000) : 100;
	keep_going = take_option(&argc, argv, "--keep-going", true) != NULL;
	run = cgt_tunables_run_set(&cfg);
	ret = cgt_cli_prepare(&run, 1, cgt_tunables_help, argc, argv, &cfg);
	if (ret)
		return ret < 0 ? CGT_EXIT_PASS : ret;
	if (!has_option(argc, argv, "--sched"))
		cfg.sched = cgt_sched_find("pct");
	if (!cfg.sched) {
		fprintf(stderr, "cgtorture: explore: --sched none is not a schedule to explore "
			"(valid: %s)\n", cgt_sched_names());
		cgt_cli_release(&cfg);
		return CGT_EXIT_USAGE;
	}
	cgt_cli_on_signals();
	ret = cgt_explore(&cfg, runs, keep_going, cgt_cli_render);
	cgt_cli_release(&cfg);
	return ret;
}

/* A report's configuration, as its command line gives it, for a run in this binary. */
static int report_config(const char *path, struct cgt_report_in *r, struct cgt_run_config *cfg)
{
	struct tunable_set run;
	char err[256];
	char **argv;
	int argc, ret;

	if (cgt_report_read(path, r, err, sizeof(err))) {
		fprintf(stderr, "cgtorture: %s\n", err);
		return CGT_EXIT_USAGE;
	}
	if (strcmp(r->build, cgt_build_name())) {
		fprintf(stderr, "cgtorture: %s is from the %s build; this is the %s build "
			"(build/%s/cgtorture)\n", path, r->build, cgt_build_name(), r->build);
		return CGT_EXIT_USAGE;
	}
	if (cgt_command_argv(r->command, &argc, &argv, err, sizeof(err))) {
		fprintf(stderr, "cgtorture: %s: %s\n", path, err);
		return CGT_EXIT_USAGE;
	}
	run = cgt_tunables_run_set(cfg);
	ret = cgt_cli_prepare(&run, 1, cgt_tunables_help, argc - 1, argv + 1, cfg);
	cgt_argv_free(argc, argv);
	if (ret)
		return ret < 0 ? CGT_EXIT_USAGE : ret;
	if (r->controlled != (cfg->sched != NULL) ||
	    (r->controlled && strcmp(r->scheduler, cfg->sched->name))) {
		fprintf(stderr, "cgtorture: %s: the schedule (%s) does not fit the command (--sched %s)\n",
			path, r->controlled ? r->scheduler : "none",
			cfg->sched ? cfg->sched->name : "none");
		return CGT_EXIT_USAGE;
	}
	cfg->check_determinism = false;
	cfg->quiet = true;
	return 0;
}

static void replay_help(void)
{
	puts("usage: cgtorture replay REPORT [--tries N]\n\n"
	     "Runs a report's configuration again. A controlled run follows the recorded schedule\n"
	     "and must reach the same failure at the same decision; a free-running one is run up\n"
	     "to N times with the same seed and prints how often the failure came back.\n"
	     "Reports of the replays go to REPORT's folder/replay.\n\n"
	     "  --tries N                  free-running runs [10]");
}

int cgt_replay_main(int argc, char **argv)
{
	struct cgt_run_config cfg = { 0 };
	struct cgt_report_in r = { 0 };
	const char *tries_opt;
	long tries;
	char *out;
	int ret;

	if (has_option(argc, argv, "--help") || has_option(argc, argv, "-h")) {
		replay_help();
		return CGT_EXIT_PASS;
	}
	tries_opt = take_option(&argc, argv, "--tries", false);
	tries = tries_opt ? parse_count("--tries", tries_opt, 100000) : 10;
	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "cgtorture: replay needs one report.json (see replay --help)\n");
		return CGT_EXIT_USAGE;
	}
	ret = report_config(argv[1], &r, &cfg);
	if (!ret) {
		out = cgt_path_join(r.dir, "replay");
		cfg.out = out;
		cgt_cli_render(&cfg);
		cgt_cli_on_signals();
		ret = cgt_replay(argv[1], &r, &cfg, tries);
		free(out);
	}
	cgt_cli_release(&cfg);
	cgt_report_in_free(&r);
	return ret;
}

static void shrink_help(void)
{
	puts("usage: cgtorture shrink REPORT [--runs N]\n\n"
	     "Cuts a controlled run's failing schedule down while the same failure (the same\n"
	     "detector) still happens: fewer threads and walkers, no decisions past the failure,\n"
	     "fewer switches (a thread that was switched away from goes on instead). Each trial\n"
	     "follows the schedule as far as it fits. The result is replayed exactly once more and\n"
	     "written beside REPORT as report.shrunk.json and summary.shrunk.txt.\n\n"
	     "  --runs N                   trial runs at most [300]");
}

int cgt_shrink_main(int argc, char **argv)
{
	struct cgt_run_config cfg = { 0 };
	struct cgt_report_in r = { 0 };
	const char *runs_opt;
	long budget = 300;
	int ret;

	if (has_option(argc, argv, "--help") || has_option(argc, argv, "-h")) {
		shrink_help();
		return CGT_EXIT_PASS;
	}
	runs_opt = take_option(&argc, argv, "--runs", false);
	if (runs_opt)
		budget = parse_count("--runs", runs_opt, 1000000);
	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "cgtorture: shrink needs one report.json (see shrink --help)\n");
		return CGT_EXIT_USAGE;
	}
	ret = report_config(argv[1], &r, &cfg);
	if (ret)
		goto out;
	cgt_cli_on_signals();
	ret = cgt_shrink(argv[1], &r, &cfg, budget, cgt_cli_render);
out:
	cgt_cli_release(&cfg);
	cgt_report_in_free(&r);
	return ret;
}
