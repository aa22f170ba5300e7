// SPDX-License-Identifier: GPL-2.0
/*
 * cgtorture help --man: the manual page, in roff (man(7)), written from the same command table
 * and tables of options that --help prints, so that the page cannot fall behind the tool;
 * make install puts it in share/man/man1.
 */
#include <string.h>

#include "cli.h"
#include "../base/exit_status.h"

/*
 * @s as roff text: a backslash and a minus as themselves. A line of text starts with "\&",
 * so that one beginning with '.' or '\'' is never taken for a request.
 */
static void roff(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else
			fputc(*s, f);
	}
}

/* One option, or a positional (no name), as a tagged paragraph: its help, default, choices. */
static void option(FILE *f, const struct tunable *t)
{
	const struct tunable_kind_ops *k = t->kind;

	fputs(".TP\n", f);
	if (t->name) {
		fputs("\\fB", f);
		roff(f, "--");
		roff(f, t->name);
		fputs("\\fR", f);
		if (t->metavar) {
			fputs(" \\fI", f);
			roff(f, t->metavar);
			fputs("\\fR", f);
		}
	} else {
		fputs("\\fI", f);
		roff(f, t->metavar);
		fputs("\\fR", f);
	}
	fputs("\n\\&", f);
	roff(f, t->help);
	if (t->def && t->def[0]) {
		roff(f, ". Default: ");
		roff(f, t->def);
	}
	fputs(".\n", f);
	if (k->choices) {
		fputs(".br\n\\&", f);
		roff(f, k->label);
		roff(f, ": ");
		roff(f, k->choices());
		fputs(".\n", f);
	}
}

static void table(FILE *f, const struct tunable *tab, size_t n)
{
	for (size_t i = 0; i < n; i++)
		option(f, &tab[i]);
}

static void command(FILE *f, const struct cgt_command *c, const struct tunable_set *run)
{
	fputs(".SS \"", f);
	roff(f, c->name);
	if (c->args[0]) {
		fputc(' ', f);
		roff(f, c->args);
	}
	fputs("\"\n\\&", f);
	roff(f, c->help);
	fputs(".\n", f);
	if (c->options)
		table(f, c->options->table, c->options->n);
	if (!strcmp(c->name, "run")) {
		table(f, run->table, run->n);
	} else if (c->run_options) {
		fputs(".PP\nAnd every option of \\fBrun\\fR.\n", f);
	}
}

/* The exit statuses, one set for every command (exit_status.h) */
static const struct {
	int status;
	const char *meaning;
} statuses[] = {
	{ CGT_EXIT_PASS, "as expected: a pass, a failure reproduced or replayed, a command done" },
	{ CGT_EXIT_FAIL, "a failure found that nobody expected" },
	{ CGT_EXIT_USAGE, "bad usage: an option, unreadable input, a report that does not fit" },
	{ CGT_EXIT_MISSED, "an expected failure was not found" },
	{ CGT_EXIT_TOOL, "the tool could not do its work: cannot write, cannot fork, a replay "
	  "whose recording no longer fits its command" },
};

void cgt_cli_manual(FILE *f, const struct cgt_command *cmds, size_t n, const char *version)
{
	struct tunable_set run = cgt_run_options(NULL);

	fputs(".TH CGTORTURE 1 \"\" \"cgtorture ", f);
	roff(f, version);
	/* no hyphenation: an option's name reads, and greps, as typed */
	fputs("\" \"User Commands\"\n.nh\n.SH NAME\ncgtorture \\- a concurrency stress and "
	      "race-detection harness for the kernel's thread groups and cgroups\n"
	      ".SH SYNOPSIS\n.nf\n", f);
	for (size_t k = 0; k < n; k++) {
		fprintf(f, "\\fBcgtorture\\fR %s\\fB", k ? "" : "[");
		roff(f, cmds[k].name);
		fprintf(f, "\\fR%s%s", k ? "" : "]", cmds[k].args[0] ? " " : "");
		roff(f, cmds[k].args);
		fputc('\n', f);
	}
	fputs(".fi\n.SH DESCRIPTION\n"
	      "Real threads fork, exec, exit and migrate between cgroups against a user-space model "
	      "of the kernel's thread-group and cgroup linkage, under a chosen lock variant and "
	      "kernel era, while detectors (livelock, hang, lock order, invariants, and the "
	      "sanitizers in their builds) watch; a failure leaves a report folder that "
	      "\\fBreplay\\fR, \\fBshrink\\fR, \\fBshow\\fR and \\fBreproduce\\fR take.\n"
	      ".SH COMMANDS\n", f);
	for (size_t k = 0; k < n; k++)
		command(f, &cmds[k], &run);
	fputs(".SH \"EXIT STATUS\"\nThe same for every command:\n", f);
	for (size_t i = 0; i < ARRAY_SIZE(statuses); i++) {
		fprintf(f, ".TP\n.B %d\n\\&", statuses[i].status);
		roff(f, statuses[i].meaning);
		fputs(".\n", f);
	}
	fprintf(f, ".TP\n.B %d+N\ninterrupted by signal N: what was done so far is written, and "
		"said to be partial.\n", CGT_EXIT_SIGNAL);
	fputs(".SH FILES\n.TP\n.I results/\nwhere a failure's report folder and a comparison's "
	      "results go, unless \\fB\\-\\-out\\fR says otherwise.\n"
	      ".SH \"SEE ALSO\"\n\\fBcgtorture help\\fR \\fICMD\\fR, the same options with more "
	      "words; README.md and docs/ in cgtorture's sources.\n", f);
}
