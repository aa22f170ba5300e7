/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tunables of each command, declared once in a table: they drive getopt_long, --help and
 * the start banner. tunables.c holds the engine and the stress run's table.
 */
#ifndef CGT_TUNABLES_H
#define CGT_TUNABLES_H

#include <stdio.h>

#include "../compare/compare.h"
#include "../run/run.h"

/*
 * T_BOUND: seconds as meant for the plain build, stretched by the sanitizers' slowdown when
 * parsed and shrunk back when spelled out, so one command line means the same in every build.
 */
enum tunable_kind { T_SECONDS, T_BOUND, T_SEED, T_INT, T_ITER, T_LOCK, T_MIX, T_FLAG, T_BUG, T_EXPECT,
		    T_PATH, T_STOP, T_SCHED,
		    /* comma lists (compare.h): lock variants or "all", numbers, workloads or "all" */
		    T_LOCKS, T_INTS, T_WORKLOADS };

struct tunable {
	const char *name;
	enum tunable_kind kind;
	const char *def;		/* default, parsed like the command line; NULL: none */
	const char *metavar;
	const char *help;
	size_t offset;			/* into the command's configuration */
	long min, max;			/* T_INT, T_INTS, T_SECONDS and T_BOUND ranges */
};

/* The stress run's table. */
void cgt_tunables_defaults(struct cgt_run_config *cfg);
/* 0 on success; otherwise prints one line naming the problem and returns CGT_EXIT_USAGE. */
int cgt_tunables_parse(int argc, char **argv, struct cgt_run_config *cfg);
void cgt_tunables_help(FILE *f);
void cgt_tunables_banner(FILE *f, const struct cgt_run_config *cfg);
void cgt_tunables_command(FILE *f, const struct cgt_run_config *cfg);

/* The engine, for any command's table and configuration. */
void cgt_tunables_table_defaults(const struct tunable *table, size_t n, void *cfg);
/* As cgt_tunables_parse; --help prints @help and returns -1. */
int cgt_tunables_table_parse(const struct tunable *table, size_t n, void (*help)(FILE *f),
			     int argc, char **argv, void *cfg);
void cgt_tunables_table_help(FILE *f, const struct tunable *table, size_t n);
/* " name=value" for each tunable, as the banner shows them */
void cgt_tunables_table_values(FILE *f, const struct tunable *table, size_t n, const void *cfg);
/* @cmd and every value spelled out as an option: the command that runs it again */
void cgt_tunables_table_command(FILE *f, const char *cmd, const struct tunable *table,
				size_t n, const void *cfg);
/* "cgtorture: --NAME: <fmt with arg> (valid: ...)" on one line; returns CGT_EXIT_USAGE. */
int cgt_usage_error(const char *name, const char *fmt, const char *arg, const char *valid);

#endif
