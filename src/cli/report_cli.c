// SPDX-License-Identifier: GPL-2.0
/*
 * The command lines that start from a report for a person: show (src/report/show.c) and
 * reproduce (src/search/reproduce.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "../run/options.h"
#include "../base/files.h"
#include "../report/kind.h"
#include "../report/page.h"
#include "../search/search.h"

static void show_help(FILE *f)
{
	fputs("usage: cgtorture show REPORT\n\n"
	      "Prints a report's verdict, its failures and how the failure came about, and writes\n"
	      "report.html beside it: one page with the evidence, the story, the timeline, the\n"
	      "linkage picture and the commands to run it again, which needs no network.\n", f);
}

int cgt_show_main(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		show_help(stdout);
		return CGT_EXIT_PASS;
	}
	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "cgtorture: show takes one report.json (cgtorture show REPORT)\n");
		return CGT_EXIT_USAGE;
	}
	return cgt_report_show(argv[1], stdout);
}

static const struct tunable reproduce_tunables[] = {
	{ NULL, &cgt_tunable_string, NULL, "REPORT", "report.json of a free-running failure, or a kernel "
	  "log (- for stdin)", offsetof(struct cgt_reproduce_opts, report), 0, 0 },
	{ "runs", &cgt_tunable_count, "200", "N", "controlled schedules to try at most",
	  offsetof(struct cgt_reproduce_opts, runs), 1, 100000 },
	{ "shrink", &cgt_tunable_count, "100", "N", "trial runs to shrink the schedule found (0: none)",
	  offsetof(struct cgt_reproduce_opts, shrink), 0, 1000000 },
	{ "free", &cgt_tunable_seconds, "5", "SECONDS", "a kernel log: free-running time per search, "
	  "before its controlled schedules (0: none)", offsetof(struct cgt_reproduce_opts, free_s),
	  -1, 600 },
	{ "out", &cgt_tunable_string, "results", "DIR", "where a kernel log's reproduction goes (a "
	  "report.json's goes to its folder)", offsetof(struct cgt_reproduce_opts, out), 0, 0 },
	{ "map", &cgt_tunable_flag, NULL, NULL, "a kernel log: print its records and the mapping, search "
	  "nothing", offsetof(struct cgt_reproduce_opts, map), 0, 0 },
};

/* Used when the report puts back no single catalogued bug: small, and switching often. */
#define REPRODUCE_DEFAULT	"--sched random --threads 8 --steps 5000"

static void reproduce_help(FILE *f)
{
	fputs("usage: cgtorture reproduce REPORT [--runs N] [--shrink N] [--out DIR]\n\n"
	      "Turns a free-running failure (a nightly cell's, say) into an exact replay: runs\n"
	      "controlled schedules with the report's configuration and bugs, and the catalogue's\n"
	      "explore options for its bug (else " REPRODUCE_DEFAULT "), seed after seed,\n"
	      "until the same detector fires with the same kind of evidence (the same walk start\n"
	      "fate, the same lock cycle, the same invariant); replays that schedule's report to\n"
	      "check it is exact, then shrinks it. Reports go to REPORT's folder/reproduce.\n\n"
	      "REPORT may also be a kernel's own report (told apart by content): a dmesg, syslog\n"
	      "or journalctl log, a mail quoting one (a syzbot mail whole), crash's bt or\n"
	      "/proc/PID/stack. Its records (hung task, soft or hard lockup, RCU stall, KASAN,\n"
	      "KCSAN, lockdep, BUG, WARNING) are read, the one the model knows best is mapped onto\n"
	      "it (a table: each frame and lock, and what it is in the model), and its era is\n"
	      "searched, the catalogued bugs its frames point at first, each a free-running run\n"
	      "(--free) then controlled schedules, until the same detector fires on the same\n"
	      "lock, walk or function. Exit status: 0 reproduced (exactly, or free-running only:\n"
	      "it says which), 3 not found within --runs, 2 unreadable or nothing in it modelled.\n\n", f);
	cgt_tunables_table_help(f, reproduce_tunables, ARRAY_SIZE(reproduce_tunables));
}

/* The report's command, with the controlled options after it (the later word wins). */
static int controlled_config(const struct cgt_report_in *r, const struct cgt_run_config *orig,
			     struct cgt_run_config *cfg)
{
	const char *more = REPRODUCE_DEFAULT;
	char err[256], **argv, **all, *words, *w, *save;
	struct tunable_set run;
	int argc, n, bug = -1, ret = CGT_EXIT_USAGE;

	for (int b = 0; b < CGT_NR_BUGS; b++)
		if (orig->bugs & (1UL << b))
			bug = bug == -1 ? b : -2;
	if (bug >= 0)
		more = cgt_bug_catalogue[bug].explore;
	if (cgt_command_argv(r->command, &argc, &argv, err, sizeof(err))) {
		fprintf(stderr, "cgtorture: %s\n", err);
		return CGT_EXIT_USAGE;
	}
	words = strdup(more);
	all = calloc((size_t)argc + strlen(more) + 3, sizeof(*all));
	if (words && all) {
		n = 0;
		for (int i = 1; i < argc; i++)
			all[n++] = argv[i];
		for (w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save))
			all[n++] = w;
		/*
		 * The model's locks: a schedule whose seed changes here, unparsed, must not take
		 * the era a parse of its command would draw for a run stepping through the code.
		 */
		all[n++] = "--locks";
		all[n++] = "model";
		run = cgt_run_options(cfg);
		ret = cgt_cli_prepare(&run, 1, cgt_run_options_help, n, all, cfg);
		if (ret < 0)
			ret = CGT_EXIT_USAGE;
	}
	free(all);
	free(words);
	cgt_argv_free(argc, argv);
	return ret;
}

/* A report.json starts with '{'; anything else is taken for a kernel log. */
static bool is_json(const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : NULL;
	int c = EOF;

	if (!f)
		return strcmp(path, "-");	/* report_read says why it cannot be read */
	do
		c = getc(f);
	while (c == ' ' || c == '\n' || c == '\t' || c == '\r');
	fclose(f);
	return c == '{';
}

/* the report's failure: its detector and the same kind of evidence (report/kind.h) */
static bool same_kind(const char *path, int detector, void *arg, char *got, size_t len)
{
	return !cgt_report_failure_kind(path, detector, got, len) && !strcmp(got, arg);
}

int cgt_reproduce_main(int argc, char **argv)
{
	struct cgt_run_config orig = { 0 }, cfg = { 0 };
	struct cgt_report_in r = { 0 };
	struct cgt_reproduce_opts o = { 0 };
	struct tunable_set set = TUNABLE_SET(reproduce_tunables, &o);
	char kind[256], what[300], found[600], *out = NULL;
	int ret, i;

	cgt_tunables_table_defaults(reproduce_tunables, ARRAY_SIZE(reproduce_tunables), &o);
	ret = cgt_tunables_sets_parse(&set, 1, reproduce_help, argc, argv);
	if (ret)
		return ret < 0 ? CGT_EXIT_PASS : ret;
	if (!is_json(o.report))
		return cgt_reproduce_klog(&o);
	ret = cgt_report_config(o.report, &r, &orig);
	if (ret)
		goto out;
	ret = CGT_EXIT_USAGE;
	i = cgt_report_interest(&r, orig.stop_on);
	if (r.controlled) {
		fprintf(stderr, "cgtorture: %s is a controlled run's: it replays exactly already "
			"(cgtorture replay %s)\n", o.report, o.report);
		goto out;
	}
	if (i < 0) {
		fprintf(stderr, "cgtorture: %s holds no failure to reproduce\n", o.report);
		goto out;
	}
	if (cgt_report_failure_kind(o.report, r.failure[i].detector, kind, sizeof(kind))) {
		fprintf(stderr, "cgtorture: %s: its failure has no evidence to match\n", o.report);
		goto out;
	}
	ret = controlled_config(&r, &orig, &cfg);
	if (ret)
		goto out;
	out = cgt_path_join(r.dir, "reproduce");
	cfg.out = out;
	cgt_cli_on_signals();
	snprintf(what, sizeof(what), "kind \"%s\"", kind);
	ret = cgt_reproduce(&cfg, r.failure[i].detector, what, same_kind, kind, o.runs, found,
			    sizeof(found));
	if (!ret)
		ret = cgt_cli_exact(found, o.shrink);
out:
	cgt_run_render_free(&cfg);
	cgt_run_render_free(&orig);
	cgt_report_in_free(&r);
	free(out);
	return ret;
}
