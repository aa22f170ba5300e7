/* SPDX-License-Identifier: GPL-2.0 */
/* The commands of cgtorture, and what they share (setup.c). */
#ifndef CGT_CLI_H
#define CGT_CLI_H

#include "../report/report.h"
#include "../run/options.h"

struct tunable_set;
struct cgt_report_in;

int cgt_cli_prepare(struct tunable_set *sets, size_t nsets, void (*help)(FILE *f), int argc,
		    char **argv, struct cgt_run_config *cfg);
void cgt_cli_on_signals(void);

/* search_cli.c: the searches' command lines */
int cgt_explore_main(int argc, char **argv);
int cgt_replay_main(int argc, char **argv);
int cgt_shrink_main(int argc, char **argv);
/* show_cli.c: a report for a person */
int cgt_show_main(int argc, char **argv);
/* reproduce_cli.c: a report.json or a kernel's log made an exact replay */
int cgt_reproduce_main(int argc, char **argv);

#endif
