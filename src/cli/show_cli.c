// SPDX-License-Identifier: GPL-2.0
/* cgtorture show: a report for a person (src/report/show.c), on the terminal and as a page. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "../report/page.h"

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
