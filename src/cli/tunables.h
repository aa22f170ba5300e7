/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tunables of each command, declared once in a table: they drive getopt_long, --help and
 * the start banner. tunable_kinds.c holds the kinds of value, tunables.c the engine and the
 * stress run's table.
 */
#ifndef CGT_TUNABLES_H
#define CGT_TUNABLES_H

#include <stdint.h>
#include <stdio.h>

#include "../compare/compare.h"
#include "../run/run.h"

/*
 * The kinds of value, each an entry of cgt_tunable_kinds[] (tunable_kinds.c).
 * T_BOUND: seconds as meant for the plain build, stretched by the sanitizers' slowdown when
 * parsed and shrunk back when spelled out, so one command line means the same in every build.
 * T_COUNT: a long, its range in the message. T_STRING: any word, kept as given.
 */
enum tunable_kind { T_SECONDS, T_BOUND, T_SEED, T_INT, T_PID_MAX, T_COUNT, T_ITER, T_LOCK, T_ERA, T_MIX, T_FLAG,
		    T_BUG, T_EXPECT, T_PATH, T_STRING, T_STOP, T_SCHED, T_SWARM, T_LOCK_MODE,
		    /* comma lists (compare.h): lock variants or "all", numbers, workloads or "all" */
		    T_LOCKS, T_INTS, T_WORKLOADS,
		    T_NR_KINDS };

/* A tunable with no name is a positional argument, which the usage line names by metavar. */
struct tunable {
	const char *name;
	enum tunable_kind kind;
	const char *def;		/* parsed like the command line; NULL: the kind's fallback */
	const char *metavar;
	const char *help;		/* a positional's: what it is, as "needs one ..." says */
	size_t offset;			/* into the command's configuration */
	long min, max;			/* T_INT, T_COUNT, T_INTS, T_SECONDS and T_BOUND ranges */
};

struct tunable_kind_ops {
	/* @arg into @dst; 0, or CGT_EXIT_USAGE once cgt_usage_error has said why */
	int (*parse)(const struct tunable *t, const char *arg, void *dst);
	/* the value at @src, as the banner shows it */
	void (*print)(FILE *f, const struct tunable *t, const void *src);
	/* the value as a command line gives it; NULL: " --NAME " and print */
	void (*spell)(FILE *f, const struct tunable *t, const void *src);
	/* the choices, listed in --help under the tunable as "label: choices()" */
	const char *label;
	const char *(*choices)(void);
	/* the default of a tunable that declares none (def NULL); NULL: leave it */
	void (*fallback)(void *dst);
	bool flag;			/* given or not: takes no value */
	bool default_below;		/* --help shows the default on a line of its own */
};

extern const struct tunable_kind_ops cgt_tunable_kinds[T_NR_KINDS];

/* "cgtorture: --NAME: <fmt with arg> (valid: ...)" on one line; returns CGT_EXIT_USAGE. */
int cgt_usage_error(const char *name, const char *fmt, const char *arg, const char *valid);

/* A table and the configuration its values go into, for the engine. */
struct tunable_set {
	const struct tunable *table;
	size_t n;
	void *cfg;
	uint64_t given;			/* bit i: table[i] was on the command line */
};

/* One bit of @given per tunable: a table longer than 64 does not build. */
#define TUNABLE_SET(tab, cfg)								\
	{ (tab), ARRAY_SIZE(tab) + 0 * sizeof(char[ARRAY_SIZE(tab) <= 64 ? 1 : -1]), (cfg), 0 }

/* The stress run's table. */
struct tunable_set cgt_tunables_run_set(struct cgt_run_config *cfg);
void cgt_tunables_defaults(struct cgt_run_config *cfg);
/* 0 on success; otherwise prints one line naming the problem and returns CGT_EXIT_USAGE. */
int cgt_tunables_parse(int argc, char **argv, struct cgt_run_config *cfg);
/*
 * @sets: a command's own tables and the run's (cgt_tunables_run_set(@cfg)), parsed as one
 * command line, then the run's own rules. As cgt_tunables_sets_parse.
 */
int cgt_tunables_run_parse(struct tunable_set *sets, size_t nsets, void (*help)(FILE *f),
			   int argc, char **argv, const struct cgt_run_config *cfg);
void cgt_tunables_help(FILE *f);
void cgt_tunables_banner(FILE *f, const struct cgt_run_config *cfg);
void cgt_tunables_command(FILE *f, const struct cgt_run_config *cfg);

/* The engine, for any command's tables and configurations. */
void cgt_tunables_table_defaults(const struct tunable *table, size_t n, void *cfg);
/*
 * Every option of @sets, in one getopt_long pass, and then the positionals in order. 0, a
 * status after one line on stderr, or -1 once --help has printed @help. @argv[0] is the
 * command's name, as a missing positional's message says it.
 */
int cgt_tunables_sets_parse(struct tunable_set *sets, size_t nsets, void (*help)(FILE *f),
			    int argc, char **argv);
/* Whether the tunable @name of @set was on the command line. */
bool cgt_tunables_given(const struct tunable_set *set, const char *name);
/* The options' lines of --help (positionals are named in the usage line instead). */
void cgt_tunables_table_help(FILE *f, const struct tunable *table, size_t n);
/* " name=value" for each tunable, as the banner shows them */
void cgt_tunables_table_values(FILE *f, const struct tunable *table, size_t n, const void *cfg);
/* @cmd and every value but @unspelled's spelled out as an option: the command that runs it again */
void cgt_tunables_table_command(FILE *f, const char *cmd, const struct tunable *table,
				size_t n, const void *cfg, const char *unspelled);

#endif
