// SPDX-License-Identifier: GPL-2.0
/*
 * cgtorture help --completion bash: a bash completion script, written from the command table
 * and the tables of options that --help prints. It completes a command's name, its options,
 * the value of an option whose kind lists its choices (an item of a comma list too), a folder
 * for DIR and a file for a command that takes a REPORT. It needs nothing but bash itself (not
 * the bash-completion package); make install puts it where that package looks for it.
 */
#include <ctype.h>
#include <string.h>

#include "cli.h"

/*
 * The choices of @t as words, on @f if not NULL: its kind's list ("a, b, or some of c, d"
 * gives the items that are one word each), else a metavar of alternatives ("pass|fail|known").
 * How many; 0 if it has none.
 */
static int choices(FILE *f, const struct tunable *t)
{
	const char *s = t->kind->choices ? t->kind->choices() : t->metavar;
	const char *sep = t->kind->choices ? ", " : "|";
	int n = 0;

	if (!s || (!t->kind->choices && !strchr(s, '|')))
		return 0;
	while (*s) {
		size_t len = strstr(s, sep) ? (size_t)(strstr(s, sep) - s) : strlen(s);
		bool word = len > 0;

		for (size_t i = 0; i < len; i++)
			word &= isalnum((unsigned char)s[i]) || strchr("._-", s[i]);
		if (word && f)
			fprintf(f, "%s%.*s", n ? " " : "", (int)len, s);
		n += word;
		s += len + (s[len] ? strlen(sep) : 0);
	}
	return n;
}

/* Whether an option of @tab takes a value. */
static bool valued(const struct tunable *t)
{
	return t->name && !t->kind->flag;
}

/*
 * The case arms of one table's options that take a value, on the word before the cursor: a
 * folder for DIR, the choices of those that list some, nothing for the others (a number).
 */
static void values(FILE *f, const struct tunable *tab, size_t n)
{
	const char *sep = "\t\t";

	for (size_t i = 0; i < n; i++) {
		const struct tunable *t = &tab[i];

		if (!valued(t))
			continue;
		if (t->metavar && !strcmp(t->metavar, "DIR")) {
			fprintf(f, "\t\t--%s) COMPREPLY=($(compgen -d -- \"$cur\")); return ;;\n",
				t->name);
		} else if (choices(NULL, t)) {
			fprintf(f, "\t\t--%s) value=1 words=\"", t->name);
			choices(f, t);
			fputs("\" ;;\n", f);
		}
	}
	for (size_t i = 0; i < n; i++)
		if (valued(&tab[i]) && !choices(NULL, &tab[i]) &&
		    !(tab[i].metavar && !strcmp(tab[i].metavar, "DIR"))) {
			fprintf(f, "%s--%s", sep, tab[i].name);
			sep = "|";
		}
	if (sep[0] == '|')
		fputs(") value=1 ;;\n", f);
}

static void names(FILE *f, const struct tunable *tab, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (tab[i].name)
			fprintf(f, " --%s", tab[i].name);
}

/* A command's arm: what its previous word asks for, then its options. */
static void command(FILE *f, const struct cgt_command *c, const struct tunable_set *run)
{
	const char *a = c->args;

	fprintf(f, "\t%s)\n", c->name);
	if (c->options || c->run_options) {
		fputs("\t\tcase $prev in\n", f);
		if (c->options)
			values(f, c->options->table, c->options->n);
		if (c->run_options)
			values(f, run->table, run->n);
		fputs("\t\tesac\n", f);
	}
	fputs("\t\topts=\"--help", f);
	if (c->options)
		names(f, c->options->table, c->options->n);
	if (c->run_options)
		names(f, run->table, run->n);
	/* a list command's options are in its arguments: "[--tsv]" */
	while ((a = strstr(a, "--"))) {
		size_t len = strcspn(a, " ]");

		fprintf(f, " %.*s", (int)len, a);
		a += len;
	}
	/* help's own: the manual page and this script, as its line of help says */
	if (!strcmp(c->name, "help"))
		fputs(" --man --completion\"\n\t\tcase $prev in\n\t\t--completion) value=1 "
		      "words=bash ;;\n\t\thelp) value=1 words=\"$commands\" ;;\n\t\tesac", f);
	else
		fputc('"', f);
	fputc('\n', f);
	if (strstr(c->args, "REPORT"))
		fputs("\t\tfiles=1\n", f);
	fputs("\t\t;;\n", f);
}

void cgt_cli_completion_bash(FILE *f, const struct cgt_command *cmds, size_t n)
{
	struct tunable_set run = cgt_run_options(NULL);

	fputs("# bash completion for cgtorture, written by `cgtorture help --completion bash`\n"
	      "# from the tables of options that --help prints.\n"
	      "_cgtorture()\n{\n"
	      "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev= cmd=run opts= value= words= files= pre=\n"
	      "\tlocal commands=\"", f);
	for (size_t k = 0; k < n; k++)
		fprintf(f, "%s%s", k ? " " : "", cmds[k].name);
	/* a first word that is an option is the default command's, or --version */
	fputs("\"\n"
	      "\t[ \"$COMP_CWORD\" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD-1]}\n"
	      "\tCOMPREPLY=()\n"
	      "\tif [ \"$COMP_CWORD\" -eq 1 ] && [ \"${cur#-}\" = \"$cur\" ]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"$commands\" -- \"$cur\"))\n\t\treturn\n\tfi\n"
	      "\t[ \"$COMP_CWORD\" -ge 2 ] && cmd=${COMP_WORDS[1]}\n"
	      "\tcase $cmd in\n\t-*)\n\t\tcmd=run ;;\n\tesac\n"
	      "\tcase $cmd in\n", f);
	for (size_t k = 0; k < n; k++)
		command(f, &cmds[k], &run);
	fputs("\tesac\n"
	      "\t[ \"$COMP_CWORD\" -eq 1 ] && opts=\"$opts --version\"\n"
	      "\t# an option's value: its choices, an item of a comma list at a time\n"
	      "\tif [ -n \"$value\" ] && [ \"${cur#-}\" = \"$cur\" ]; then\n"
	      "\t\tcase $cur in\n\t\t*,*)\n\t\t\tpre=${cur%,*}, cur=${cur##*,} ;;\n\t\tesac\n"
	      "\t\tCOMPREPLY=($(compgen -P \"$pre\" -W \"$words\" -- \"$cur\"))\n"
	      "\t\treturn\n\tfi\n"
	      "\tif [ \"${cur#-}\" != \"$cur\" ]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
	      "\telif [ -n \"$files\" ]; then\n"
	      "\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n\tfi\n"
	      "}\ncomplete -F _cgtorture cgtorture\n", f);
}
