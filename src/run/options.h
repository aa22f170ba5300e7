/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run's tunables (options.c): one table of every setting of struct cgt_run_config, the
 * rules that tie them together once parsed, the banner and the command that runs the same
 * configuration again. Every command that runs the model parses it, and so do the searches
 * when they take a report's command line back. The kinds of value the run owns are in
 * option_kinds.c.
 */
#ifndef CGT_RUN_OPTIONS_H
#define CGT_RUN_OPTIONS_H

#include "../base/tunable.h"
#include "run.h"

extern const struct tunable_kind_ops cgt_tunable_pid_max, cgt_tunable_iter, cgt_tunable_lock,
	cgt_tunable_era, cgt_tunable_mix, cgt_tunable_bug, cgt_tunable_expect, cgt_tunable_stop,
	cgt_tunable_sched, cgt_tunable_swarm, cgt_tunable_lock_mode;

/* The run's table, its values going into @cfg. */
struct tunable_set cgt_run_options(struct cgt_run_config *cfg);
/* @cfg zeroed, then every default of the run's table. */
void cgt_run_options_defaults(struct cgt_run_config *cfg);
/*
 * @sets: a command's own tables and the run's (cgt_run_options(@cfg)), each configuration
 * zeroed: their defaults, then one command line (cgt_tunables_sets_parse), then the run's
 * own rules (a swarm dimension's option pins it, a drawn population or era is named as if
 * given, an era sets its locks, a bug that is a lock puts it in). 0, -1 after --help has
 * printed @help, or a status after one line on stderr.
 */
int cgt_run_options_parse(struct tunable_set *sets, size_t nsets, void (*help)(FILE *f),
			  int argc, char **argv, struct cgt_run_config *cfg);
/* cgt_run_options_parse of the run's table alone: @argv as `cgtorture run` takes it */
int cgt_run_options_argv(int argc, char **argv, struct cgt_run_config *cfg);
/* `cgtorture run --help`: the options, the eras */
void cgt_run_options_help(FILE *f);
/* The start banner: every value, and what the build and the machine make of them. */
void cgt_run_options_banner(FILE *f, const struct cgt_run_config *cfg);
/* The command that runs @cfg again, every value spelled out (--kernel only if given). */
void cgt_run_options_command(FILE *f, const struct cgt_run_config *cfg);
/*
 * What a parsed configuration needs before it runs: its results folder writable (else one
 * line on stderr and CGT_EXIT_USAGE), then cgt_run_render. 0 or the status.
 */
int cgt_run_options_ready(struct cgt_run_config *cfg);
/* cfg->banner and cfg->command made anew from @cfg, as a report shows them */
void cgt_run_render(struct cgt_run_config *cfg);
/* what cgt_run_render allocated */
void cgt_run_render_free(struct cgt_run_config *cfg);

#endif
