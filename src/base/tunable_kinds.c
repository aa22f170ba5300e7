// SPDX-License-Identifier: GPL-2.0
/*
 * The kinds of tunable value that belong to no layer: numbers, seconds, a seed, a flag, a
 * word. How a kind reads its value from the command line, shows it in the banner, spells it
 * in a command that runs it again, and what --help lists under it.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "build.h"
#include "tunable.h"

int cgt_tunable_parse_long(const char *arg, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(arg, &end, 10);
	return end == arg || *end || errno ? -1 : 0;
}

/* Seconds with an optional unit; t->min < 0 means 0 is allowed (it switches the thing off). */
static int parse_seconds(const struct tunable *t, const char *arg, void *dst)
{
	static const struct { const char *suffix; double scale; } units[] = {
		{ "", 1 }, { "s", 1 }, { "ms", 1e-3 }, { "m", 60 }, { "h", 3600 },
	};
	bool zero_ok = t->min < 0;
	char range[64], *end;
	size_t u;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (end == arg || errno)
		return cgt_usage_error(t->name, "'%s' is not a number of seconds", arg, NULL);
	for (u = 0; u < ARRAY_SIZE(units) && strcmp(end, units[u].suffix); u++)
		;
	if (u == ARRAY_SIZE(units))
		return cgt_usage_error(t->name, "'%s' has an unknown unit", arg, "ms, s, m, h");
	v *= units[u].scale;
	if (!isfinite(v) || v > (double)t->max || v < 0 || (!zero_ok && v == 0)) {
		snprintf(range, sizeof(range), "%s and at most %ld s",
			 zero_ok ? "0 (off)" : "more than 0", t->max);
		return cgt_usage_error(t->name, "'%s' is out of range", arg, range);
	}
	*(double *)dst = v;
	return 0;
}

static void print_seconds(FILE *f, const struct tunable *t, const void *src)
{
	(void)t;
	fprintf(f, "%gs", *(const double *)src);
}

static int parse_bound(const struct tunable *t, const char *arg, void *dst)
{
	int ret = parse_seconds(t, arg, dst);

	*(double *)dst *= cgt_build_slowdown();
	return ret;
}

static void print_bound(FILE *f, const struct tunable *t, const void *src)
{
	(void)t;
	fprintf(f, "%gs", *(const double *)src / cgt_build_slowdown());
}

static int parse_seed(const struct tunable *t, const char *arg, void *dst)
{
	char *end;

	errno = 0;
	*(uint64_t *)dst = strtoull(arg, &end, 0);
	if (end == arg || *end || errno || arg[0] == '-')
		return cgt_usage_error(t->name, "'%s' is not an unsigned 64-bit number", arg, NULL);
	return 0;
}

static void print_seed(FILE *f, const struct tunable *t, const void *src)
{
	(void)t;
	fprintf(f, "%llu", (unsigned long long)*(const uint64_t *)src);
}

/* No seed given: one from the clock, which the banner prints so that the run can be repeated */
static void seed_from_clock(void *dst)
{
	*(uint64_t *)dst = (uint64_t)time(NULL) ^ ((uint64_t)clock() << 32);
}

static int parse_int(const struct tunable *t, const char *arg, void *dst)
{
	char range[64];
	long v;

	snprintf(range, sizeof(range), "%ld to %ld", t->min, t->max);
	if (cgt_tunable_parse_long(arg, &v))
		return cgt_usage_error(t->name, "'%s' is not a number", arg, range);
	if (v < t->min || v > t->max)
		return cgt_usage_error(t->name, "'%s' is out of range", arg, range);
	*(int *)dst = (int)v;
	return 0;
}

static void print_int(FILE *f, const struct tunable *t, const void *src)
{
	(void)t;
	fprintf(f, "%d", *(const int *)src);
}

static int parse_count(const struct tunable *t, const char *arg, void *dst)
{
	char fmt[96];
	long v;

	if (!cgt_tunable_parse_long(arg, &v) && v >= t->min && v <= t->max) {
		*(long *)dst = v;
		return 0;
	}
	snprintf(fmt, sizeof(fmt), "'%%s' is not a number from %ld to %ld", t->min, t->max);
	return cgt_usage_error(t->name, fmt, arg, NULL);
}

static void print_count(FILE *f, const struct tunable *t, const void *src)
{
	(void)t;
	fprintf(f, "%ld", *(const long *)src);
}

static int parse_flag(const struct tunable *t, const char *arg, void *dst)
{
	(void)t;
	(void)arg;
	*(bool *)dst = true;
	return 0;
}

static void print_flag(FILE *f, const struct tunable *t, const void *src)
{
	(void)t;
	fputs(*(const bool *)src ? "yes" : "no", f);
}

/* A flag is spelled only when set. */
static void spell_flag(FILE *f, const struct tunable *t, const void *src)
{
	if (*(const bool *)src)
		fprintf(f, " --%s", t->name);
}

static int parse_path(const struct tunable *t, const char *arg, void *dst)
{
	if (!arg[0])
		return cgt_usage_error(t->name, "'%s' is empty", arg, NULL);
	/* a report's command line spells it unquoted, to be split on spaces again */
	if (strpbrk(arg, " \t\n"))
		return cgt_usage_error(t->name, "'%s' holds white space, which a report's "
				       "command line cannot keep", arg, NULL);
	*(const char **)dst = arg;
	return 0;
}

static int parse_string(const struct tunable *t, const char *arg, void *dst)
{
	(void)t;
	*(const char **)dst = arg;
	return 0;
}

static void print_string(FILE *f, const struct tunable *t, const void *src)
{
	(void)t;
	fputs(*(const char *const *)src, f);
}

const struct tunable_kind_ops cgt_tunable_seconds = {
	.parse = parse_seconds, .print = print_seconds,
};
const struct tunable_kind_ops cgt_tunable_bound = { .parse = parse_bound, .print = print_bound };
const struct tunable_kind_ops cgt_tunable_seed = {
	.parse = parse_seed, .print = print_seed, .fallback = seed_from_clock,
};
const struct tunable_kind_ops cgt_tunable_int = { .parse = parse_int, .print = print_int };
const struct tunable_kind_ops cgt_tunable_count = { .parse = parse_count, .print = print_count };
const struct tunable_kind_ops cgt_tunable_flag = {
	.parse = parse_flag, .print = print_flag, .spell = spell_flag, .flag = true,
};
const struct tunable_kind_ops cgt_tunable_path = { .parse = parse_path, .print = print_string };
const struct tunable_kind_ops cgt_tunable_string = {
	.parse = parse_string, .print = print_string,
};
