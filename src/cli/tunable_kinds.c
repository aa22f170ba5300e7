// SPDX-License-Identifier: GPL-2.0
/*
 * The kinds of tunable value, one entry each in cgt_tunable_kinds[]: how a kind reads its
 * value from the command line, shows it in the banner, spells it in a command that runs it
 * again, and what --help lists under it. A new kind is its functions and one entry here.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tunables.h"
#include "../base/build.h"

int cgt_usage_error(const char *name, const char *fmt, const char *arg, const char *valid)
{
	fprintf(stderr, "cgtorture: --%s: ", name);
	fprintf(stderr, fmt, arg);
	if (valid)
		fprintf(stderr, " (valid: %s)", valid);
	fputc('\n', stderr);
	return CGT_EXIT_USAGE;
}

static int parse_long(const char *arg, long *out)
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
	if (parse_long(arg, &v))
		return cgt_usage_error(t->name, "'%s' is not a number", arg, range);
	if (v < t->min || v > t->max)
		return cgt_usage_error(t->name, "'%s' is out of range", arg, range);
	*(int *)dst = (int)v;
	return 0;
}

/* 0, or a pid_max the kernel would take: RESERVED_PIDS + 1 up to PID_MAX_LIMIT */
static int parse_pid_max(const struct tunable *t, const char *arg, void *dst)
{
	char range[64];
	long v;

	snprintf(range, sizeof(range), "0, or %ld to %ld", t->min, t->max);
	if (parse_long(arg, &v))
		return cgt_usage_error(t->name, "'%s' is not a number", arg, range);
	if (v && (v < t->min || v > t->max))
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

	if (!parse_long(arg, &v) && v >= t->min && v <= t->max) {
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

static int parse_iter(const struct tunable *t, const char *arg, void *dst)
{
	if (cgt_iter_parse(arg, dst))
		return cgt_usage_error(t->name, "unknown walk '%s'", arg, cgt_iter_names());
	return 0;
}

static void print_iter(FILE *f, const struct tunable *t, const void *src)
{
	(void)t;
	fputs(cgt_iter_name(*(const enum cgt_iter *)src), f);
}

static int parse_lock(const struct tunable *t, const char *arg, void *dst)
{
	const struct cgt_lock_ops *ops = cgt_lock_find(arg);

	if (!ops)
		return cgt_usage_error(t->name, "unknown lock variant '%s'", arg,
				       cgt_lock_run_names());
	if (ops->rcu_readers)
		return cgt_usage_error(t->name, "'%s' lets readers run beside writers, which the "
				       "model's list walks cannot take (it is for cgtorture compare)",
				       arg, cgt_lock_run_names());
	*(const struct cgt_lock_ops **)dst = ops;
	return 0;
}

static void print_lock(FILE *f, const struct tunable *t, const void *src)
{
	(void)t;
	fputs((*(const struct cgt_lock_ops *const *)src)->name, f);
}

static int parse_era(const struct tunable *t, const char *arg, void *dst)
{
	const struct cgt_kernel_era *era = cgt_era_find(arg);

	if (!era)
		return cgt_usage_error(t->name, "unknown kernel era '%s'", arg, cgt_era_names());
	*(const struct cgt_kernel_era **)dst = era;
	return 0;
}

static void print_era(FILE *f, const struct tunable *t, const void *src)
{
	(void)t;
	fputs((*(const struct cgt_kernel_era *const *)src)->name, f);
}

static int parse_sched(const struct tunable *t, const char *arg, void *dst)
{
	const struct cgt_sched_ops *ops = cgt_sched_find(arg);

	if (!ops && strcmp(arg, "none"))
		return cgt_usage_error(t->name, "unknown scheduler '%s'", arg, cgt_sched_names());
	*(const struct cgt_sched_ops **)dst = ops;
	return 0;
}

static void print_sched(FILE *f, const struct tunable *t, const void *src)
{
	const struct cgt_sched_ops *ops = *(const struct cgt_sched_ops *const *)src;

	(void)t;
	fputs(ops ? ops->name : "none", f);
}

/* --swarm: on, off, or the dimensions phases draw (swarm.h), by their options' names */
static const char *swarm_dims(void)
{
	static char buf[128];

	if (!buf[0])
		for (int d = 0; d < CGT_NR_SWARM_DIMS; d++)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s",
				 d ? ", " : "on, off, or some of ", cgt_swarm_dim_names[d]);
	return buf;
}

static int parse_swarm(const struct tunable *t, const char *arg, void *dst)
{
	char *copy, *tok, *save = NULL;
	unsigned int dims = 0;
	int ret = 0;

	if (!strcmp(arg, "on") || !strcmp(arg, "off")) {
		*(unsigned int *)dst = arg[1] == 'n' ? CGT_SWARM_ALL : 0;
		return 0;
	}
	copy = strdup(arg);
	if (!copy)
		return CGT_EXIT_USAGE;
	for (tok = strtok_r(copy, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save)) {
		int d;

		for (d = 0; d < CGT_NR_SWARM_DIMS; d++)
			if (!strcmp(tok, cgt_swarm_dim_names[d]))
				break;
		if (d == CGT_NR_SWARM_DIMS)
			ret = cgt_usage_error(t->name, "unknown dimension '%s'", tok, swarm_dims());
		dims |= 1u << d;
	}
	free(copy);
	if (!ret)
		*(unsigned int *)dst = dims;
	return ret;
}

static void print_swarm(FILE *f, const struct tunable *t, const void *src)
{
	unsigned int dims = *(const unsigned int *)src;
	int n = 0;

	(void)t;
	if (dims == CGT_SWARM_ALL || !dims) {
		fputs(dims ? "on" : "off", f);
		return;
	}
	for (int d = 0; d < CGT_NR_SWARM_DIMS; d++)
		if (dims & (1u << d))
			fprintf(f, "%s%s", n++ ? "," : "", cgt_swarm_dim_names[d]);
}

static int parse_mix(const struct tunable *t, const char *arg, void *dst)
{
	char *copy = strdup(arg), *tok, *save = NULL, ops[128] = "";
	unsigned int *mix = dst, total = 0;
	int ret = 0;

	if (!copy)
		return CGT_EXIT_USAGE;
	for (int op = 0; op < CGT_NR_OPS; op++)
		snprintf(ops + strlen(ops), sizeof(ops) - strlen(ops), "%s%s", op ? ", " : "",
			 cgt_op_names[op]);
	for (tok = strtok_r(copy, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		long w;
		int op;

		if (!eq) {
			ret = cgt_usage_error(t->name, "'%s' is not OP=WEIGHT", tok, ops);
			break;
		}
		*eq = '\0';
		for (op = 0; op < CGT_NR_OPS; op++)
			if (!strcmp(tok, cgt_op_names[op]))
				break;
		if (op == CGT_NR_OPS)
			ret = cgt_usage_error(t->name, "unknown operation '%s'", tok, ops);
		else if (parse_long(eq + 1, &w) || w < 0 || w > 1000)
			ret = cgt_usage_error(t->name, "weight '%s' is not a number from 0 to 1000", eq + 1, NULL);
		else
			mix[op] = (unsigned int)w;
	}
	for (int op = 0; op < CGT_NR_OPS; op++)
		total += mix[op];
	if (!ret && !total)
		ret = cgt_usage_error(t->name, "'%s' leaves every weight at 0", arg, NULL);
	free(copy);
	return ret;
}

static void print_mix(FILE *f, const struct tunable *t, const void *src)
{
	(void)t;
	for (int op = 0; op < CGT_NR_OPS; op++)
		fprintf(f, "%s%s=%u", op ? "," : "", cgt_op_names[op],
			((const unsigned int *)src)[op]);
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

static int parse_bug(const struct tunable *t, const char *arg, void *dst)
{
	enum cgt_bug bug;
	char valid[512] = "";

	if (!cgt_bug_parse(arg, &bug)) {
		*(unsigned long *)dst |= 1UL << bug;
		return 0;
	}
	for (int i = 0; i < CGT_NR_BUGS; i++)
		snprintf(valid + strlen(valid), sizeof(valid) - strlen(valid), "%s%s",
			 i ? ", " : "", cgt_bug_catalogue[i].name);
	return cgt_usage_error(t->name, "unknown bug '%s'", arg, valid);
}

static void print_bugs(FILE *f, const struct tunable *t, const void *src)
{
	unsigned long bugs = *(const unsigned long *)src;
	int n = 0;

	(void)t;
	for (int b = 0; b < CGT_NR_BUGS; b++)
		if (bugs & (1UL << b))
			fprintf(f, "%s%s", n++ ? "," : "", cgt_bug_catalogue[b].name);
	if (!n)
		fputs("none", f);
}

/* Repeatable: one option per bug. */
static void spell_bugs(FILE *f, const struct tunable *t, const void *src)
{
	for (int b = 0; b < CGT_NR_BUGS; b++)
		if (*(const unsigned long *)src & (1UL << b))
			fprintf(f, " --%s %s", t->name, cgt_bug_catalogue[b].name);
}

static int parse_expect(const struct tunable *t, const char *arg, void *dst)
{
	if (!strcmp(arg, "pass"))
		*(int *)dst = CGT_EXPECT_PASS;
	else if (!strcmp(arg, "fail"))
		*(int *)dst = CGT_EXPECT_FAIL;
	else if (!strcmp(arg, "known"))
		*(int *)dst = CGT_EXPECT_KNOWN;
	else
		return cgt_usage_error(t->name, "'%s' is no outcome", arg, "pass, fail, known");
	return 0;
}

static void print_expect(FILE *f, const struct tunable *t, const void *src)
{
	int e = *(const int *)src;

	(void)t;
	fputs(e == CGT_EXPECT_PASS ? "pass" : e == CGT_EXPECT_FAIL ? "fail" :
	      e == CGT_EXPECT_KNOWN ? "known" : "nothing", f);
}

static const char *const lock_modes[] = {
	[CGT_LOCKS_BOTH] = "both", [CGT_LOCKS_MODEL] = "model", [CGT_LOCKS_CODE] = "code",
};

static int parse_lock_mode(const struct tunable *t, const char *arg, void *dst)
{
	for (size_t i = 0; i < ARRAY_SIZE(lock_modes); i++)
		if (!strcmp(arg, lock_modes[i])) {
			*(int *)dst = (int)i;
			return 0;
		}
	return cgt_usage_error(t->name, "'%s' is no way to take the locks", arg,
			       "model, code, both");
}

static void print_lock_mode(FILE *f, const struct tunable *t, const void *src)
{
	(void)t;
	fputs(lock_modes[*(const int *)src], f);
}

/* Nothing expected has no option that says so. */
static void spell_expect(FILE *f, const struct tunable *t, const void *src)
{
	if (!*(const int *)src)
		return;
	fprintf(f, " --%s ", t->name);
	print_expect(f, t, src);
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

static int parse_stop(const struct tunable *t, const char *arg, void *dst)
{
	char valid[256] = "any, none";

	if (!strcmp(arg, "any") || !strcmp(arg, "none")) {
		*(int *)dst = arg[0] == 'a' ? CGT_STOP_ON_ANY : CGT_STOP_ON_NONE;
		return 0;
	}
	for (int d = 0; d < CGT_NR_DETECTORS; d++) {
		if (!strcmp(arg, cgt_detector_names[d])) {
			*(int *)dst = d;
			return 0;
		}
		snprintf(valid + strlen(valid), sizeof(valid) - strlen(valid), ", %s",
			 cgt_detector_names[d]);
	}
	return cgt_usage_error(t->name, "unknown detector '%s'", arg, valid);
}

static void print_stop(FILE *f, const struct tunable *t, const void *src)
{
	int d = *(const int *)src;

	(void)t;
	fputs(d == CGT_STOP_ON_NONE ? "none" : d == CGT_STOP_ON_ANY ? "any" :
	      cgt_detector_names[d], f);
}

/*
 * A comma list of at most CGT_LIST_MAX items, each named once, into a list of compare.h
 * (each begins with its count): @item reads item @i; @all, if the list takes "all", fills it.
 */
static int parse_list(const struct tunable *t, const char *arg, void *dst,
		      int (*item)(const struct tunable *t, const char *tok, void *dst, int i),
		      int (*all)(void *dst))
{
	char *copy, *tok, *save = NULL;
	const char *seen[CGT_LIST_MAX];
	int n = 0, ret = 0;

	_Static_assert(CGT_LIST_MAX == 16, "the message below says 16");
	if (!strcmp(arg, "all") && all) {
		*(int *)dst = all(dst);
		return 0;
	}
	copy = strdup(arg);
	if (!copy)
		return CGT_EXIT_USAGE;
	for (tok = strtok_r(copy, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save)) {
		for (int i = 0; i < n && !ret; i++)
			if (!strcmp(seen[i], tok))
				ret = cgt_usage_error(t->name, "'%s' is listed twice", tok, NULL);
		if (!ret && n == CGT_LIST_MAX)
			ret = cgt_usage_error(t->name, "'%s' has more than 16 items", arg, NULL);
		if (!ret)
			ret = item(t, tok, dst, n);
		if (!ret)
			seen[n++] = tok;
	}
	if (!ret && !n)
		ret = cgt_usage_error(t->name, "'%s' is an empty list", arg, NULL);
	if (!ret)
		*(int *)dst = n;
	free(copy);
	return ret;
}

static int lock_item(const struct tunable *t, const char *tok, void *dst, int i)
{
	struct cgt_lock_list *l = dst;

	l->v[i] = cgt_lock_find(tok);
	if (!l->v[i])
		return cgt_usage_error(t->name, "unknown lock variant '%s'", tok, cgt_lock_names());
	return 0;
}

static int lock_all(void *dst)
{
	struct cgt_lock_list *l = dst;
	int n;

	for (n = 0; n < (int)cgt_nr_lock_variants && n < CGT_LIST_MAX; n++)
		l->v[n] = cgt_lock_variants[n];
	return n;
}

static int parse_locks(const struct tunable *t, const char *arg, void *dst)
{
	return parse_list(t, arg, dst, lock_item, lock_all);
}

static void print_locks(FILE *f, const struct tunable *t, const void *src)
{
	const struct cgt_lock_list *l = src;

	(void)t;
	for (int i = 0; i < l->n; i++)
		fprintf(f, "%s%s", i ? "," : "", l->v[i]->name);
}

static int int_item(const struct tunable *t, const char *tok, void *dst, int i)
{
	return parse_int(t, tok, &((struct cgt_int_list *)dst)->v[i]);
}

static int parse_ints(const struct tunable *t, const char *arg, void *dst)
{
	return parse_list(t, arg, dst, int_item, NULL);
}

static void print_ints(FILE *f, const struct tunable *t, const void *src)
{
	const struct cgt_int_list *l = src;

	(void)t;
	for (int i = 0; i < l->n; i++)
		fprintf(f, "%s%d", i ? "," : "", l->v[i]);
}

static int workload_item(const struct tunable *t, const char *tok, void *dst, int i)
{
	struct cgt_workload_list *l = dst;

	l->v[i] = cgt_workload_find(tok);
	if (!l->v[i])
		return cgt_usage_error(t->name, "unknown workload '%s'", tok, cgt_workload_names());
	return 0;
}

static int workload_all(void *dst)
{
	struct cgt_workload_list *l = dst;
	int n;

	for (n = 0; n < (int)cgt_nr_workloads && n < CGT_LIST_MAX; n++)
		l->v[n] = &cgt_workloads[n];
	return n;
}

static int parse_workloads(const struct tunable *t, const char *arg, void *dst)
{
	return parse_list(t, arg, dst, workload_item, workload_all);
}

static void print_workloads(FILE *f, const struct tunable *t, const void *src)
{
	const struct cgt_workload_list *l = src;

	(void)t;
	for (int i = 0; i < l->n; i++)
		fprintf(f, "%s%s", i ? "," : "", l->v[i]->name);
}

const struct tunable_kind_ops cgt_tunable_kinds[T_NR_KINDS] = {
	[T_SECONDS]	= { .parse = parse_seconds, .print = print_seconds },
	[T_BOUND]	= { .parse = parse_bound, .print = print_bound },
	[T_SEED]	= { .parse = parse_seed, .print = print_seed, .fallback = seed_from_clock },
	[T_INT]		= { .parse = parse_int, .print = print_int },
	[T_PID_MAX]	= { .parse = parse_pid_max, .print = print_int },
	[T_COUNT]	= { .parse = parse_count, .print = print_count },
	[T_ITER]	= { .parse = parse_iter, .print = print_iter,
			    .label = "walks", .choices = cgt_iter_names },
	[T_LOCK]	= { .parse = parse_lock, .print = print_lock,
			    .label = "variants", .choices = cgt_lock_run_names },
	[T_ERA]		= { .parse = parse_era, .print = print_era,
			    .label = "eras", .choices = cgt_era_names },
	[T_MIX]		= { .parse = parse_mix, .print = print_mix, .default_below = true },
	[T_FLAG]	= { .parse = parse_flag, .print = print_flag, .spell = spell_flag,
			    .flag = true },
	[T_BUG]		= { .parse = parse_bug, .print = print_bugs, .spell = spell_bugs },
	[T_EXPECT]	= { .parse = parse_expect, .print = print_expect, .spell = spell_expect },
	[T_LOCK_MODE]	= { .parse = parse_lock_mode, .print = print_lock_mode },
	[T_PATH]	= { .parse = parse_path, .print = print_string },
	[T_STRING]	= { .parse = parse_string, .print = print_string },
	[T_STOP]	= { .parse = parse_stop, .print = print_stop },
	[T_SCHED]	= { .parse = parse_sched, .print = print_sched,
			    .label = "schedulers", .choices = cgt_sched_names },
	[T_SWARM]	= { .parse = parse_swarm, .print = print_swarm,
			    .label = "dimensions", .choices = swarm_dims },
	[T_LOCKS]	= { .parse = parse_locks, .print = print_locks,
			    .label = "variants", .choices = cgt_lock_names },
	[T_INTS]	= { .parse = parse_ints, .print = print_ints },
	[T_WORKLOADS]	= { .parse = parse_workloads, .print = print_workloads,
			    .label = "workloads", .choices = cgt_workload_names },
};
