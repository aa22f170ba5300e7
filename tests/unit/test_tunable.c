// SPDX-License-Identifier: GPL-2.0
/*
 * The options engine (base/tunable.c, tunable_kinds.c): a table's defaults, its values parsed
 * from a command line in one getopt_long pass, bad values refused with the usage status, list
 * items checked, and a configuration spelled back as a command that parses to the same.
 */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/base/exit_status.h"
#include "../../src/base/tunable.h"

struct conf {
	int threads;
	double duration;
	bool quiet;
	const char *out;
	const char *name;
};

#define C(f) offsetof(struct conf, f)

static const struct tunable table[] = {
	{ "threads", &cgt_tunable_int, "8", "N", "threads", C(threads), 1, 1000 },
	{ "duration", &cgt_tunable_seconds, "2", "SECONDS", "how long", C(duration), 0, 3600 },
	{ "quiet", &cgt_tunable_flag, NULL, NULL, "say less", C(quiet), 0, 0 },
	{ "out", &cgt_tunable_path, "results", "DIR", "where", C(out), 0, 0 },
	{ "name", &cgt_tunable_string, "x", "WORD", "a name", C(name), 0, 0 },
};

/*
 * @line split on spaces into the engine, into @c. The words go to a buffer of their own for
 * each of two calls at a time: a path or string value points into it.
 */
static int parse(struct conf *c, const char *line, uint64_t *given)
{
	struct tunable_set set = TUNABLE_SET(table, c);
	static char bufs[2][512];
	static int turn;
	char *buf = bufs[turn++ % 2], *argv[32], *w, *save;
	int argc = 0, ret;

	memset(c, 0, sizeof(*c));
	cgt_tunables_table_defaults(table, ARRAY_SIZE(table), c);
	snprintf(buf, sizeof(bufs[0]), "test %s", line);
	for (w = strtok_r(buf, " ", &save); w && argc < 31; w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	ret = cgt_tunables_sets_parse(&set, 1, NULL, argc, argv);
	if (given)
		*given = set.given;
	return ret;
}

Test(tunable, defaults_then_the_command_line)
{
	struct conf c;
	uint64_t given;

	cr_assert_eq(parse(&c, "", &given), 0);
	cr_assert_eq(c.threads, 8);
	cr_assert_float_eq(c.duration, 2.0, 1e-9);
	cr_assert_not(c.quiet);
	cr_assert_str_eq(c.out, "results");
	cr_assert_eq(given, 0);

	cr_assert_eq(parse(&c, "--threads 12 --duration 500ms --quiet --out /tmp/o", &given), 0);
	cr_assert_eq(c.threads, 12);
	cr_assert_float_eq(c.duration, 0.5, 1e-9);
	cr_assert(c.quiet);
	cr_assert_str_eq(c.out, "/tmp/o");
	cr_assert_eq(given, 0xf, "threads, duration, quiet and out given: %#llx",
		     (unsigned long long)given);
}

Test(tunable, units_of_seconds)
{
	struct conf c;

	cr_assert_eq(parse(&c, "--duration 2m", NULL), 0);
	cr_assert_float_eq(c.duration, 120.0, 1e-9);
	cr_assert_eq(parse(&c, "--duration 1h", NULL), 0);
	cr_assert_float_eq(c.duration, 3600.0, 1e-9);
}

Test(tunable, bad_values_are_usage_errors, .init = cr_redirect_stderr)
{
	struct conf c;

	cr_assert_eq(parse(&c, "--threads 0", NULL), CGT_EXIT_USAGE, "below the range");
	cr_assert_eq(parse(&c, "--threads 1001", NULL), CGT_EXIT_USAGE, "above the range");
	cr_assert_eq(parse(&c, "--threads twelve", NULL), CGT_EXIT_USAGE, "not a number");
	cr_assert_eq(parse(&c, "--duration soon", NULL), CGT_EXIT_USAGE, "not seconds");
	cr_assert_eq(parse(&c, "--duration 2h", NULL), CGT_EXIT_USAGE, "past the hour's range");
	cr_assert_eq(parse(&c, "--threads", NULL), CGT_EXIT_USAGE, "no value");
	cr_assert_eq(parse(&c, "--colour red", NULL), CGT_EXIT_USAGE, "unknown option");
	cr_assert_eq(parse(&c, "stray", NULL), CGT_EXIT_USAGE, "a word no positional takes");
}

Test(tunable, unknown_option_is_named, .init = cr_redirect_stderr)
{
	struct conf c;

	cr_assert_eq(parse(&c, "--colour red", NULL), CGT_EXIT_USAGE);
	fflush(stderr);
	cr_assert_stderr_neq_str("", "a one-line error");
}

Test(tunable, list_items_empty_or_twice_refused, .init = cr_redirect_stderr)
{
	cr_assert_eq(cgt_tunable_list_check("mix", "fork=1,exit=2"), 0);
	cr_assert_eq(cgt_tunable_list_check("mix", "fork=1,,exit=2"), CGT_EXIT_USAGE);
	cr_assert_eq(cgt_tunable_list_check("mix", "fork=1,"), CGT_EXIT_USAGE);
	cr_assert_eq(cgt_tunable_list_check("mix", "fork=1,fork=2"), CGT_EXIT_USAGE);
}

/* The command a configuration spells parses back to the same configuration. */
Test(tunable, spelled_command_parses_back)
{
	struct conf a, b;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	cr_assert_eq(parse(&a, "--threads 33 --duration 1.5 --quiet --out /tmp/r --name y", NULL),
		     0);
	cgt_tunables_table_command(f, "", table, ARRAY_SIZE(table), &a, NULL);
	fclose(f);
	cr_assert_eq(parse(&b, text, NULL), 0, "its command does not parse: %s", text);
	cr_assert_eq(b.threads, a.threads, "%s", text);
	cr_assert_float_eq(b.duration, a.duration, 1e-9, "%s", text);
	cr_assert_eq(b.quiet, a.quiet, "%s", text);
	cr_assert_str_eq(b.out, a.out, "%s", text);
	cr_assert_str_eq(b.name, a.name, "%s", text);
	free(text);
}
