/* SPDX-License-Identifier: GPL-2.0 */
/* The commands of cgtorture, and what they share (setup.c). */
#ifndef CGT_CLI_H
#define CGT_CLI_H

#include "../report/report.h"
#include "../run/options.h"

struct tunable_set;
struct cgt_report_in;

/* A command's own table of options, which the manual page and the completion read. */
struct cgt_cli_table {
	const struct tunable *table;
	size_t n;
};

/*
 * A command (main.c's table): its name, its arguments and one line of help for the usage
 * text, its main (given argv from the command's name on), and its options: its own table,
 * and whether it takes the run's too.
 */
struct cgt_command {
	const char *name;
	const char *args;
	const char *help;
	int (*main)(int argc, char **argv);
	const struct cgt_cli_table *options;
	bool run_options;
};

int cgt_cli_prepare(struct tunable_set *sets, size_t nsets, void (*help)(FILE *f), int argc,
		    char **argv, struct cgt_run_config *cfg);
void cgt_cli_on_signals(void);

/* search_cli.c: the searches' command lines */
extern const struct cgt_cli_table cgt_explore_options, cgt_replay_options, cgt_shrink_options;
int cgt_explore_main(int argc, char **argv);
int cgt_replay_main(int argc, char **argv);
int cgt_shrink_main(int argc, char **argv);
/* show_cli.c: a report for a person */
int cgt_show_main(int argc, char **argv);
/* reproduce_cli.c: a report.json or a kernel's log made an exact replay */
extern const struct cgt_cli_table cgt_reproduce_options;
int cgt_reproduce_main(int argc, char **argv);
/* compare_cli.c */
extern const struct cgt_cli_table cgt_compare_options;

/* manual.c: the manual page of the commands @cmds, in roff, for man(1) */
void cgt_cli_manual(FILE *f, const struct cgt_command *cmds, size_t n, const char *version);
/* completion.c: bash's completion of the commands @cmds and their options */
void cgt_cli_completion_bash(FILE *f, const struct cgt_command *cmds, size_t n);

#endif
