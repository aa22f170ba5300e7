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
	{ "sched", &cgt_tunable_string, "", "NAME", "the controlled searches' scheduler (default: "
	  "the bug's catalogued explore options', else random; bounded raises its preemptions "
	  "from 0)", offsetof(struct cgt_reproduce_opts, sched), 0, 0 },
	{ "free", &cgt_tunable_seconds, "5", "SECONDS",
	  "a kernel log: free-running time per search, "
	  "before its controlled schedules (0: none)", offsetof(struct cgt_reproduce_opts, free_s),
	  -1, 600 },
	{ "out", &cgt_tunable_string, "results", "DIR", "where the reproduction goes (a "
	  "report.json's: without --out, its own folder)", offsetof(struct cgt_reproduce_opts, out),
	  0, 0 },
	{ "map", &cgt_tunable_flag, NULL, NULL,
	  "a kernel log: print its records and the mapping, search "
	  "nothing", offsetof(struct cgt_reproduce_opts, map), 0, 0 },
	{ "functions", &cgt_tunable_string, "", "F1,F2,...", "a write-up with no kernel record: "
	  "the kernel functions of its stack, innermost first, searched as a record of --kind",
	  offsetof(struct cgt_reproduce_opts, functions), 0, 0 },
	{ "kind", &cgt_tunable_string, "", "KIND", "with --functions: hung-task, soft-lockup, "
	  "hard-lockup, rcu-stall, kasan, kcsan, lockdep, bug-oops, ...",
	  offsetof(struct cgt_reproduce_opts, kind), 0, 0 },
	{ "version", &cgt_tunable_string, "", "X.Y", "with --functions: the kernel it happened on",
	  offsetof(struct cgt_reproduce_opts, version), 0, 0 },
	{ "locks", &cgt_tunable_string, "", "L1,L2,...", "with --functions: the locks it names "
	  "(a lockdep cycle's)", offsetof(struct cgt_reproduce_opts, locks), 0, 0 },
};

const struct cgt_cli_table cgt_reproduce_options = {
	reproduce_tunables, ARRAY_SIZE(reproduce_tunables)
};

static void reproduce_help(FILE *f)
{
	fputs("usage: cgtorture reproduce REPORT [--runs N] [--shrink N] [--out DIR]\n\n"
	      "Turns a free-running failure (a nightly cell's, say) into an exact replay: runs\n"
	      "controlled schedules with the report's configuration and bugs, and the catalogue's\n"
	      "explore options for its bug (else " REPRODUCE_DEFAULT "), seed after seed,\n"
	      "until the same detector fires with the same kind of evidence (the same walk start\n"
	      "fate, the same lock cycle, the same invariant); replays that schedule's report to\n"
	      "check it is exact, then shrinks it. Reports go to REPORT's folder/reproduce (or\n"
	      "--out's).\n\n"
	      "REPORT may also be a kernel's own report (told apart by content): a dmesg, syslog\n"
	      "or journalctl log, a mail quoting one (a syzbot mail whole), crash's bt or\n"
	      "/proc/PID/stack. Its records (hung task, soft or hard lockup, RCU stall, KASAN,\n"
	      "KCSAN, lockdep, BUG, WARNING) are read, the one the model knows best is mapped onto\n"
	      "it (a table: each frame and lock, and what it is in the model), and its era is\n"
	      "searched, the catalogued bugs whose own functions its stacks show (in kernels\n"
	      "that had them) first, each a free-running run (--free) then controlled schedules.\n"
	      "A failure found is judged against the record's mechanism, column by column: the\n"
	      "detector its kind allows, the lock and side its task waits for (a lockdep cycle's\n"
	      "locks), its function family, its kernel. Verdicts and exit status: 0 reproduced\n"
	      "(all of it, in the record's kernel; exactly, or free-running only: it says which);\n"
	      "1 reproduced in part (what matched, what the model lacks) or another failure found\n"
	      "(its page, never counted as the record's); 3 not found within --runs; 2 refused\n"
	      "(unreadable, no kernel record) or not modelled (it says what is missing);\n"
	      "4 cannot write its reports; 128+N interrupted by signal N (what was found so\n"
	      "far, said to be partial).\n"
	      "A write-up with no kernel record (a changelog, a mail's analysis) is refused\n"
	      "with the functions it names; hand them in as a record with --functions and\n"
	      "--kind (and --version, --locks), which is then mapped and searched as a log's.\n\n", f);
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
	static const char *const klog_only[] = { "map", "free" };
	struct tunable_set set = TUNABLE_SET(reproduce_tunables, &o);
	bool json;
	int ret;

	cgt_tunables_table_defaults(reproduce_tunables, ARRAY_SIZE(reproduce_tunables), &o);
	ret = cgt_tunables_sets_parse(&set, 1, reproduce_help, argc, argv);
	if (ret)
		return ret < 0 ? CGT_EXIT_PASS : ret;
	if (!o.functions[0] && (o.kind[0] || o.version[0] || o.locks[0])) {
		fprintf(stderr, "cgtorture: reproduce: --kind, --version and --locks describe a "
			"record handed in with --functions\n");
		return CGT_EXIT_USAGE;
	}
	if (o.functions[0] && !o.kind[0]) {
		fprintf(stderr, "cgtorture: reproduce: --functions needs --kind (hung-task, "
			"soft-lockup, rcu-stall, kasan, ...)\n");
		return CGT_EXIT_USAGE;
	}
	if (o.functions[0] && is_json(o.report)) {
		fprintf(stderr, "cgtorture: reproduce: --functions hands in a kernel's record; "
			"%s is a report.json\n", o.report);
		return CGT_EXIT_USAGE;
	}
	if (o.sched[0] && (!cgt_sched_find(o.sched) || !strcmp(o.sched, "none"))) {
		fprintf(stderr, "cgtorture: reproduce: --sched: '%s' is no scheduler (valid: %s)\n",
			o.sched, cgt_sched_names());
		return CGT_EXIT_USAGE;
	}
	o.out_given = cgt_tunables_given(&set, "out");
	json = is_json(o.report);
	/* a kernel log's options do nothing to a report.json: refused, not ignored */
	for (size_t i = 0; json && i < ARRAY_SIZE(klog_only); i++)
		if (cgt_tunables_given(&set, klog_only[i])) {
			fprintf(stderr, "cgtorture: reproduce: --%s is for a kernel log; %s is a "
				"report.json (cgtorture show %s prints what it holds)\n", klog_only[i],
				o.report, o.report);
			return CGT_EXIT_USAGE;
		}
	cgt_cli_on_signals();
	return json ? cgt_reproduce_report(&o) : cgt_reproduce_klog(&o);
}
