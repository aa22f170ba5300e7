/* SPDX-License-Identifier: GPL-2.0 */
/* The run's tunables, declared once: they drive getopt_long, --help and the start banner. */
#ifndef CGT_TUNABLES_H
#define CGT_TUNABLES_H

#include <stdio.h>

#include "../drive/run.h"

#define CGT_EXIT_PASS	0
#define CGT_EXIT_FAIL	1
#define CGT_EXIT_USAGE	2

void cgt_tunables_defaults(struct cgt_run_config *cfg);
/* 0 on success; otherwise prints one line naming the problem and returns CGT_EXIT_USAGE. */
int cgt_tunables_parse(int argc, char **argv, struct cgt_run_config *cfg);
void cgt_tunables_help(FILE *f);
void cgt_tunables_banner(FILE *f, const struct cgt_run_config *cfg);
void cgt_tunables_command(FILE *f, const struct cgt_run_config *cfg);

#endif
