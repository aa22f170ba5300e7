// SPDX-License-Identifier: GPL-2.0
/*
 * The command lines of the searches over controlled schedules: explore, replay and shrink
 * (src/search/ holds what they do), each a table of its own tunables; explore's are parsed
 * beside the run's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "../run/options.h"
#include "../base/build.h"
#include "../run/catalogue.h"
#include "../search/search.h"

#define STR(x)	XSTR(x)
#define XSTR(x)	#x

static const struct tunable explore_tunables[] = {
	{ "runs", &cgt_tunable_count, "100", "N", "schedules to try",
	  offsetof(struct cgt_explore_opts, runs), 1, 100000000 },
	{ "keep-going", &cgt_tunable_flag, NULL, NULL, "count every failing schedule",
	  offsetof(struct cgt_explore_opts, keep_going), 0, 0 },
	{ "shrink", &cgt_tunable_count, "0", "N",
	  "shrink the first failure found in at most N trial runs (and 60 s; 0: not at all)",
	  offsetof(struct cgt_explore_opts, shrink), 0, 1000000 },
};

const struct cgt_cli_table cgt_explore_options = {
	explore_tunables, ARRAY_SIZE(explore_tunables)
};

static void explore_help(FILE *f)
{
	fputs("usage: cgtorture explore [--runs N] [--keep-going] [--shrink N] [run options]\n\n"
	      "Runs N controlled schedules (--sched pct unless told otherwise), each with its own\n"
	      "seed (--seed, --seed + 1, ...), and stops at the first that fails, or goes on with\n"
	      "--keep-going. With one --bug, the failure looked for is its catalogued detector's.\n\n",
	      f);
	cgt_tunables_table_help(f, explore_tunables, ARRAY_SIZE(explore_tunables));
	fputs("\nThe run options (cgtorture help) set the model and the scheduler: --sched, --depth,\n"
	      "--steps, --threads, --bug, --seed, --out, ...\n", f);
}

int cgt_explore_main(int argc, char **argv)
{
	struct cgt_run_config cfg = { 0 };
	struct cgt_explore_opts o = { 0 };
	struct tunable_set sets[] = {
		TUNABLE_SET(explore_tunables, &o),
		cgt_run_options(&cfg),
	};
	char **pct = calloc((size_t)argc + 3, sizeof(*pct));
	bool sched = false;
	int ret;

	if (!pct)
		return CGT_EXIT_TOOL;
	/*
	 * Without --sched, PCT's, given before the parse: the options are a controlled run's
	 * from the first (no free run's draw, --depth is PCT's). Option names are whole words.
	 */
	memcpy(pct, argv, (size_t)argc * sizeof(*argv));
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		sched |= !strcmp(argv[i], "--sched") || !strncmp(argv[i], "--sched=", 8);
	if (!sched) {
		pct[argc++] = "--sched";
		pct[argc++] = "pct";
	}
	ret = cgt_cli_prepare(sets, ARRAY_SIZE(sets), explore_help, argc, pct, &cfg);
	if (ret) {
		free(pct);
		return ret < 0 ? CGT_EXIT_PASS : ret;
	}
	if (!cfg.sched) {
		fprintf(stderr, "cgtorture: explore: --sched none is not a schedule to explore "
			"(valid: %s)\n", cgt_sched_names());
		cgt_run_render_free(&cfg);
		free(pct);
		return CGT_EXIT_USAGE;
	}
	o.era_free = !cfg.bugs && !cgt_tunables_given(&sets[1], "kernel") &&
		     !cgt_tunables_given(&sets[1], "css-lock") &&
		     !cgt_tunables_given(&sets[1], "tasklist-lock");
	cgt_cli_on_signals();
	ret = cgt_explore(&cfg, &o);
	cgt_run_render_free(&cfg);
	free(pct);
	return ret;
}

/* replay's and shrink's options: the report, and how many runs */
struct report_opts {
	const char *report;
	long runs;
	double seconds;			/* shrink's time budget */
};

#define REPORT_ARG	{ NULL, &cgt_tunable_string, NULL, "REPORT", "report.json",	\
			  offsetof(struct report_opts, report), 0, 0 }

static const struct tunable replay_tunables[] = {
	REPORT_ARG,
	{ "tries", &cgt_tunable_count, "10", "N", "free-running runs",
	  offsetof(struct report_opts, runs), 1, 100000 },
};

const struct cgt_cli_table cgt_replay_options = { replay_tunables, ARRAY_SIZE(replay_tunables) };

/* The search a report command runs once its report's run is configured. */
typedef int (*report_search_fn)(const struct report_opts *o, const struct cgt_report_in *r,
				struct cgt_run_config *cfg);

/*
 * replay's and shrink's command: their options (--help: 0), then the report's run,
 * configured as its command line says, handed to @search with the signals that end it.
 */
static int report_command(const struct tunable *table, size_t n, void (*help)(FILE *f),
			  int argc, char **argv, report_search_fn search)
{
	struct cgt_run_config cfg = { 0 };
	struct cgt_report_in r = { 0 };
	struct report_opts o = { 0 };
	struct tunable_set set = { table, n, &o, 0 };
	int ret;

	cgt_tunables_table_defaults(table, n, &o);
	ret = cgt_tunables_sets_parse(&set, 1, help, argc, argv);
	if (ret < 0)
		return CGT_EXIT_PASS;
	if (!ret)
		ret = cgt_report_config(o.report, &r, &cfg);
	if (!ret) {
		cgt_cli_on_signals();
		ret = search(&o, &r, &cfg);
	}
	cgt_run_render_free(&cfg);
	cgt_report_in_free(&r);
	return ret;
}

static void replay_help(FILE *f)
{
	fputs("usage: cgtorture replay REPORT [--tries N]\n\n"
	      "Runs a report's configuration again. A controlled run follows the recorded schedule\n"
	      "and must reach the same failure at the same decision; a free-running one is run up\n"
	      "to N times with the same seed and prints how often the failure came back.\n"
	      "Reports of the replays go to REPORT's folder/replay.\n\n", f);
	cgt_tunables_table_help(f, replay_tunables, ARRAY_SIZE(replay_tunables));
}

static int replay_search(const struct report_opts *o, const struct cgt_report_in *r,
			 struct cgt_run_config *cfg)
{
	return cgt_replay(o->report, r, cfg, o->runs);
}

int cgt_replay_main(int argc, char **argv)
{
	return report_command(replay_tunables, ARRAY_SIZE(replay_tunables), replay_help, argc,
			      argv, replay_search);
}

static const struct tunable shrink_tunables[] = {
	REPORT_ARG,
	{ "runs", &cgt_tunable_count, "1000", "N", "trial runs at most",
	  offsetof(struct report_opts, runs), 1, 1000000 },
	{ "time", &cgt_tunable_seconds, STR(CGT_SHRINK_SECONDS), "SECONDS",
	  "no trial starts past this many seconds (suffix ms, s, m or h)",
	  offsetof(struct report_opts, seconds), 1, 24 * 3600 },
};

const struct cgt_cli_table cgt_shrink_options = { shrink_tunables, ARRAY_SIZE(shrink_tunables) };

static void shrink_help(FILE *f)
{
	fputs("usage: cgtorture shrink REPORT [--runs N] [--time SECONDS]\n\n"
	      "Cuts a controlled run's failure down while the same failure (the same detector and\n"
	      "kind) still happens: fewer model threads, walkers and kinds of operation (each cut\n"
	      "tried on the schedule so far, then by a short search of its own), then fewer\n"
	      "decisions, preemptions and switches. The result is replayed exactly once more and\n"
	      "written beside REPORT as report.shrunk.json and summary.shrunk.txt; interrupted,\n"
	      "the smallest run so far is, as report.shrunk-partial.json.\n\n", f);
	cgt_tunables_table_help(f, shrink_tunables, ARRAY_SIZE(shrink_tunables));
}

static int shrink_search(const struct report_opts *o, const struct cgt_report_in *r,
			 struct cgt_run_config *cfg)
{
	return cgt_shrink(o->report, r, cfg, o->runs, o->seconds);
}

int cgt_shrink_main(int argc, char **argv)
{
	return report_command(shrink_tunables, ARRAY_SIZE(shrink_tunables), shrink_help, argc,
			      argv, shrink_search);
}
