// SPDX-License-Identifier: GPL-2.0
/*
 * cgtorture reproduce: its options, and which pipeline takes the report: a report.json's
 * (src/search/reproduce_report.c) or a kernel log's (src/search/reproduce_klog.c).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "../search/search.h"

static const struct tunable reproduce_tunables[] = {
	{ NULL, &cgt_tunable_string, NULL, "REPORT",
	  "report.json of a free-running failure, or a kernel "
	  "log (- for stdin)", offsetof(struct cgt_reproduce_opts, report), 0, 0 },
	{ "runs", &cgt_tunable_count, "200", "N", "controlled schedules to try at most",
	  offsetof(struct cgt_reproduce_opts, runs), 1, 100000 },
	{ "shrink", &cgt_tunable_count, "100", "N",
	  "trial runs to shrink the schedule found (0: none)",
	  offsetof(struct cgt_reproduce_opts, shrink), 0, 1000000 },
	{ "free", &cgt_tunable_seconds, "5", "SECONDS",
	  "a kernel log: free-running time per search, "
	  "before its controlled schedules (0: none)", offsetof(struct cgt_reproduce_opts, free_s),
	  -1, 600 },
	{ "out", &cgt_tunable_string, "results", "DIR", "where a kernel log's reproduction goes (a "
	  "report.json's goes to its folder)", offsetof(struct cgt_reproduce_opts, out), 0, 0 },
	{ "map", &cgt_tunable_flag, NULL, NULL,
	  "a kernel log: print its records and the mapping, search "
	  "nothing", offsetof(struct cgt_reproduce_opts, map), 0, 0 },
};

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


int cgt_reproduce_main(int argc, char **argv)
{
	struct cgt_reproduce_opts o = { 0 };
	struct tunable_set set = TUNABLE_SET(reproduce_tunables, &o);
	int ret;

	cgt_tunables_table_defaults(reproduce_tunables, ARRAY_SIZE(reproduce_tunables), &o);
	ret = cgt_tunables_sets_parse(&set, 1, reproduce_help, argc, argv);
	if (ret)
		return ret < 0 ? CGT_EXIT_PASS : ret;
	cgt_cli_on_signals();
	return is_json(o.report) ? cgt_reproduce_report(&o) : cgt_reproduce_klog(&o);
}
