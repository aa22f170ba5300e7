/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tunables declared once in a table, as the kernel's module parameters are: name, kind,
 * default, help and where the value goes. getopt_long's options, --help's lines, the banner
 * and the command that runs a configuration again all come from a table. The engine sits
 * this low because a report's command line is parsed again by the searches, not only by the
 * command line; each layer declares the kinds of value it owns (tunable_kinds.c here, the
 * run's in run/option_kinds.c, compare's lists in compare/compare_kinds.c), as each
 * subsystem brings its own kernel_param_ops.
 */
#ifndef CGT_TUNABLE_H
#define CGT_TUNABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "compiler.h"

struct tunable;

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

/* A tunable with no name is a positional argument, which the usage line names by metavar. */
struct tunable {
	const char *name;
	const struct tunable_kind_ops *kind;
	const char *def;		/* parsed like the command line; NULL: the kind's fallback */
	const char *metavar;
	const char *help;		/* a positional's: what it is, as "needs one ..." says */
	size_t offset;			/* into the command's configuration */
	long min, max;			/* int, count, ints, seconds and bound ranges */
};

/*
 * The generic kinds (tunable_kinds.c). seconds: a double, with a unit (ms, s, m, h); min < 0
 * lets 0 switch the thing off. bound: seconds as meant for the plain build, stretched by the
 * sanitizers' slowdown when parsed and shrunk back when spelled out, so one command line
 * means the same in every build. int: an int in [min, max]. count: a long, its range in the
 * message. seed: an unsigned 64-bit number, from the clock if none is given. flag: a bool,
 * given or not. path: a word without white space. string: any word, kept as given.
 */
extern const struct tunable_kind_ops cgt_tunable_seconds, cgt_tunable_bound, cgt_tunable_int,
	cgt_tunable_count, cgt_tunable_seed, cgt_tunable_flag, cgt_tunable_path,
	cgt_tunable_string;

/* "cgtorture: --NAME: <fmt with arg> (valid: ...)" on one line; returns CGT_EXIT_USAGE. */
int cgt_usage_error(const char *name, const char *fmt, const char *arg, const char *valid);
/*
 * A comma list @arg of tunable @name: 0, or CGT_EXIT_USAGE once said that an item is empty
 * ("a,,b", "a,") or named twice (up to its '=', "fork=1,fork=2"). The list kinds call it
 * first: strtok would pass over an empty item without a word.
 */
int cgt_tunable_list_check(const char *name, const char *arg);
/* A whole decimal long: 0, or -1 if @arg is not one. */
int cgt_tunable_parse_long(const char *arg, long *out);

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
