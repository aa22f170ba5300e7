// SPDX-License-Identifier: GPL-2.0
/*
 * One table of tunables per command, as locktorture declares its module parameters: name,
 * default, help and where the value goes. getopt_long's options, --help and the banner come
 * from it. This file holds the engine and the stress run's table.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tunables.h"
#include "../base/build.h"

#define CFG(field)	offsetof(struct cgt_run_config, field)

static const struct tunable tunables[] = {
	{ "duration", T_SECONDS, "10", "SECONDS", "how long the run lasts (suffix ms, s, m or h)",
	  CFG(duration), 0, 24 * 3600 },
	{ "seed", T_SEED, NULL, "N", "seed of every random choice (default: from the clock, printed)",
	  CFG(seed), 0, 0 },
	{ "threads", T_INT, "512", "N", "cap on live model threads (pthreads)",
	  CFG(threads), 1, 100000 },
	{ "walkers", T_INT, "4", "N", "dedicated observer threads besides the model threads",
	  CFG(walkers), 0, 1024 },
	{ "iter", T_ITER, "for_each", "WALK", "thread-group walk: while_each or for_each",
	  CFG(iter), 0, 0 },
	{ "css-lock", T_LOCK, "rwsem", "NAME", "css_set lock variant",
	  CFG(css_lock), 0, 0 },
	{ "tasklist-lock", T_LOCK, "rwlock", "NAME", "tasklist_lock variant",
	  CFG(tasklist_lock), 0, 0 },
	{ "mix", T_MIX, "fork=35,exec=2,exit=20,migrate=10,observe=33", "OP=W,...",
	  "weights of fork, exec, exit, migrate and observe", CFG(mix), 0, 0 },
	{ "clone-thread", T_INT, "70", "PCT", "share of forks that make a thread (CLONE_THREAD)",
	  CFG(clone_thread_pct), 0, 100 },
	{ "stats-interval", T_SECONDS, "2", "SECONDS", "seconds between stats lines (0: none)",
	  CFG(stats_interval), -1, 3600 },
	{ "stack", T_INT, "64", "KiB", "pthread stack of a model thread",
	  CFG(stack_kib), 32, 8192 },
	{ "quiet", T_FLAG, NULL, NULL, "print the summary only",
	  CFG(quiet), 0, 0 },
	{ "stall", T_BOUND, "2", "SECONDS",
	  "a walk older, or a thread blocked longer, is reported (x4 ASan, x8 TSan)",
	  CFG(stall), 0, 3600 },
	{ "starve", T_BOUND, "1", "SECONDS",
	  "a writer passed over by readers this long is starved (x4 ASan, x8 TSan)",
	  CFG(starve), 0, 3600 },
	{ "check-interval", T_SECONDS, "2", "SECONDS",
	  "hold the model still and check its invariants this often (0: at the end only)",
	  CFG(check_interval), -1, 3600 },
	{ "perturb", T_INT, "0", "PERMILLE", "delay or yield at this share of marked points",
	  CFG(perturb), 0, 1000 },
	{ "bug", T_BUG, NULL, "NAME", "put a catalogued bug back (repeatable; see: cgtorture bugs)",
	  CFG(bugs), 0, 0 },
	{ "stop-on", T_STOP, "none", "DETECTOR",
	  "end the run once this detector reports: any, none, or a detector's name",
	  CFG(stop_on), 0, 0 },
	{ "sched", T_SCHED, "none", "NAME",
	  "controlled schedule: none (free-running), or a scheduler", CFG(sched), 0, 0 },
	{ "depth", T_INT, "3", "D", "PCT's bug depth: d-1 priority change points",
	  CFG(depth), 1, 16 },
	{ "steps", T_INT, "20000", "N", "a controlled run's length, in scheduling decisions",
	  CFG(steps), 1, 10000000 },
	{ "check-determinism", T_FLAG, NULL, NULL,
	  "a controlled run, twice: the two schedules must be the same", CFG(check_determinism),
	  0, 0 },
	{ "expect", T_EXPECT, NULL, "pass|fail",
	  "a check: exit 0 if the outcome is this, 3 if an expected failure was not found",
	  CFG(expect), 0, 0 },
	{ "out", T_PATH, "results", "DIR", "where a failure's report folder goes",
	  CFG(out), 0, 0 },
};

int cgt_usage_error(const char *name, const char *fmt, const char *arg, const char *valid)
{
	fprintf(stderr, "cgtorture: --%s: ", name);
	fprintf(stderr, fmt, arg);
	if (valid)
		fprintf(stderr, " (valid: %s)", valid);
	fputc('\n', stderr);
	return CGT_EXIT_USAGE;
}

/* Seconds with an optional unit; t->min < 0 means 0 is allowed (it switches the thing off). */
static int parse_seconds(const struct tunable *t, const char *arg, double *out)
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
	*out = v;
	return 0;
}

static int parse_long(const char *arg, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(arg, &end, 10);
	return end == arg || *end || errno ? -1 : 0;
}

static int parse_mix(const struct tunable *t, const char *arg, unsigned int *mix)
{
	char *copy = strdup(arg), *tok, *save = NULL, ops[128] = "";
	unsigned int total = 0;
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

/* Item @i of a comma list (T_LOCKS, T_INTS, T_WORKLOADS) into the list at @dst. */
static int list_item(const struct tunable *t, const char *tok, void *dst, int i)
{
	char range[64];
	long v;

	switch (t->kind) {
	case T_LOCKS:
		((struct cgt_lock_list *)dst)->v[i] = cgt_lock_find(tok);
		if (!((struct cgt_lock_list *)dst)->v[i])
			return cgt_usage_error(t->name, "unknown lock variant '%s'", tok,
					       cgt_lock_names());
		return 0;
	case T_INTS:
		snprintf(range, sizeof(range), "%ld to %ld", t->min, t->max);
		if (parse_long(tok, &v))
			return cgt_usage_error(t->name, "'%s' is not a number", tok, range);
		if (v < t->min || v > t->max)
			return cgt_usage_error(t->name, "'%s' is out of range", tok, range);
		((struct cgt_int_list *)dst)->v[i] = (int)v;
		return 0;
	default:
		((struct cgt_workload_list *)dst)->v[i] = cgt_workload_find(tok);
		if (!((struct cgt_workload_list *)dst)->v[i])
			return cgt_usage_error(t->name, "unknown workload '%s'", tok,
					       cgt_workload_names());
		return 0;
	}
}

/* "all": every lock variant, or every workload. Every list begins with its count. */
static int list_all(const struct tunable *t, void *dst)
{
	int n = 0;

	if (t->kind == T_LOCKS)
		for (; n < (int)cgt_nr_lock_variants && n < CGT_LIST_MAX; n++)
			((struct cgt_lock_list *)dst)->v[n] = cgt_lock_variants[n];
	else
		for (; n < (int)cgt_nr_workloads && n < CGT_LIST_MAX; n++)
			((struct cgt_workload_list *)dst)->v[n] = &cgt_workloads[n];
	*(int *)dst = n;
	return 0;
}

/* A comma list of at most CGT_LIST_MAX items, each named once. */
static int parse_list(const struct tunable *t, const char *arg, void *dst)
{
	char *copy, *tok, *save = NULL;
	const char *seen[CGT_LIST_MAX];
	int n = 0, ret = 0;

	_Static_assert(CGT_LIST_MAX == 16, "the message below says 16");
	if (!strcmp(arg, "all") && t->kind != T_INTS)
		return list_all(t, dst);
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
			ret = list_item(t, tok, dst, n);
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

static void show_list(FILE *f, const struct tunable *t, const void *src)
{
	for (int i = 0; i < *(const int *)src; i++) {
		if (i)
			fputc(',', f);
		if (t->kind == T_LOCKS)
			fputs(((const struct cgt_lock_list *)src)->v[i]->name, f);
		else if (t->kind == T_INTS)
			fprintf(f, "%d", ((const struct cgt_int_list *)src)->v[i]);
		else
			fputs(((const struct cgt_workload_list *)src)->v[i]->name, f);
	}
}

static int tunable_set(const struct tunable *t, const char *arg, void *cfg)
{
	void *dst = (char *)cfg + t->offset;
	long v;

	switch (t->kind) {
	case T_SECONDS:
		return parse_seconds(t, arg, dst);
	case T_BOUND: {
		int ret = parse_seconds(t, arg, dst);

		*(double *)dst *= cgt_build_slowdown();
		return ret;
	}
	case T_SEED: {
		char *end;

		errno = 0;
		*(uint64_t *)dst = strtoull(arg, &end, 0);
		if (end == arg || *end || errno || arg[0] == '-')
			return cgt_usage_error(t->name, "'%s' is not an unsigned 64-bit number", arg, NULL);
		return 0;
	}
	case T_INT: {
		char range[64];

		snprintf(range, sizeof(range), "%ld to %ld", t->min, t->max);
		if (parse_long(arg, &v))
			return cgt_usage_error(t->name, "'%s' is not a number", arg, range);
		if (v < t->min || v > t->max)
			return cgt_usage_error(t->name, "'%s' is out of range", arg, range);
		*(int *)dst = (int)v;
		return 0;
	}
	case T_ITER:
		if (cgt_iter_parse(arg, dst))
			return cgt_usage_error(t->name, "unknown walk '%s'", arg, "while_each, for_each");
		return 0;
	case T_SCHED: {
		const struct cgt_sched_ops *ops = cgt_sched_find(arg);

		if (!ops && strcmp(arg, "none"))
			return cgt_usage_error(t->name, "unknown scheduler '%s'", arg,
					       cgt_sched_names());
		*(const struct cgt_sched_ops **)dst = ops;
		return 0;
	}
	case T_LOCK: {
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
	case T_MIX:
		return parse_mix(t, arg, dst);
	case T_FLAG:
		*(bool *)dst = true;
		return 0;
	case T_BUG: {
		enum cgt_bug bug;
		char valid[512] = "";

		if (!cgt_bug_parse(arg, &bug)) {
			*(unsigned long *)dst |= 1UL << bug;
			return 0;
		}
		for (int i = 0; i < CGT_NR_BUGS; i++)
			snprintf(valid + strlen(valid), sizeof(valid) - strlen(valid), "%s%s",
				 i ? ", " : "", cgt_bug_names[i]);
		return cgt_usage_error(t->name, "unknown bug '%s'", arg, valid);
	}
	case T_EXPECT:
		if (!strcmp(arg, "pass"))
			*(int *)dst = CGT_EXPECT_PASS;
		else if (!strcmp(arg, "fail"))
			*(int *)dst = CGT_EXPECT_FAIL;
		else
			return cgt_usage_error(t->name, "'%s' is neither outcome", arg, "pass, fail");
		return 0;
	case T_PATH:
		if (!arg[0])
			return cgt_usage_error(t->name, "'%s' is empty", arg, NULL);
		/* a report's command line spells it unquoted, to be split on spaces again */
		if (strpbrk(arg, " \t\n"))
			return cgt_usage_error(t->name, "'%s' holds white space, which a report's "
					       "command line cannot keep", arg, NULL);
		*(const char **)dst = arg;
		return 0;
	case T_STOP: {
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
	case T_LOCKS:
	case T_INTS:
	case T_WORKLOADS:
		return parse_list(t, arg, dst);
	}
	return CGT_EXIT_USAGE;
}

void cgt_tunables_table_defaults(const struct tunable *table, size_t n, void *cfg)
{
	for (size_t i = 0; i < n; i++)
		if (table[i].def)
			tunable_set(&table[i], table[i].def, cfg);
}

void cgt_tunables_defaults(struct cgt_run_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cgt_tunables_table_defaults(tunables, ARRAY_SIZE(tunables), cfg);
	cfg->seed = (uint64_t)time(NULL) ^ ((uint64_t)clock() << 32);
}

int cgt_tunables_table_parse(const struct tunable *table, size_t n, void (*help)(FILE *f),
			     int argc, char **argv, void *cfg)
{
	struct option opts[n + 2];
	size_t i;
	int c, idx;

	for (i = 0; i < n; i++)
		opts[i] = (struct option){ table[i].name,
					   table[i].kind == T_FLAG ? no_argument : required_argument,
					   NULL, 0 };
	opts[i++] = (struct option){ "help", no_argument, NULL, 'h' };
	opts[i] = (struct option){ 0 };

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, &idx)) != -1) {
		int ret;

		switch (c) {
		case 0:
			ret = tunable_set(&table[idx], optarg, cfg);
			if (ret)
				return ret;
			break;
		case 'h':
			help(stdout);
			return -1;
		case ':':
			fprintf(stderr, "cgtorture: %s needs a value (see --help)\n", argv[optind - 1]);
			return CGT_EXIT_USAGE;
		default:
			fprintf(stderr, "cgtorture: unknown option '%s' (see --help)\n", argv[optind - 1]);
			return CGT_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "cgtorture: unexpected argument '%s' (see --help)\n", argv[optind]);
		return CGT_EXIT_USAGE;
	}
	return 0;
}

int cgt_tunables_parse(int argc, char **argv, struct cgt_run_config *cfg)
{
	int ret = cgt_tunables_table_parse(tunables, ARRAY_SIZE(tunables), cgt_tunables_help,
					   argc, argv, cfg);

	if (!ret && cfg->check_determinism && !cfg->sched) {
		fprintf(stderr, "cgtorture: --check-determinism needs a controlled run (--sched %s)\n",
			cgt_sched_names());
		return CGT_EXIT_USAGE;
	}
	return ret;
}

void cgt_tunables_table_help(FILE *f, const struct tunable *table, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct tunable *t = &table[i];
		char lhs[48];

		snprintf(lhs, sizeof(lhs), "--%s%s%s", t->name, t->metavar ? " " : "",
			 t->metavar ? t->metavar : "");
		fprintf(f, "  %-26s %s", lhs, t->help);
		if (t->def && t->kind != T_MIX)
			fprintf(f, " [%s]", t->def);
		fputc('\n', f);
		if (t->kind == T_MIX)
			fprintf(f, "  %-26s [%s]\n", "", t->def);
		if (t->kind == T_LOCK)
			fprintf(f, "  %-26s variants: %s\n", "", cgt_lock_run_names());
		if (t->kind == T_SCHED)
			fprintf(f, "  %-26s schedulers: %s\n", "", cgt_sched_names());
		if (t->kind == T_LOCKS)
			fprintf(f, "  %-26s variants: %s\n", "", cgt_lock_names());
		if (t->kind == T_WORKLOADS)
			fprintf(f, "  %-26s workloads: %s\n", "", cgt_workload_names());
	}
	fprintf(f, "  %-26s this text\n", "--help");
}

void cgt_tunables_help(FILE *f)
{
	fprintf(f, "usage: cgtorture [run] [OPTION...]\n\n"
		"Stress a user-space model of the kernel's thread groups and cgroups with real\n"
		"pthreads, then check its invariants. Exit status: 0 pass (or the --expect'ed\n"
		"outcome), 1 failure found, 2 bad usage, 3 an expected failure not found.\n\n"
		"Options:\n");
	cgt_tunables_table_help(f, tunables, ARRAY_SIZE(tunables));
}

/* One tunable's value as the command line would spell it; false if it has none to show. */
static bool tunable_value(FILE *f, const struct tunable *t, const void *cfg)
{
	const void *src = (const char *)cfg + t->offset;

	switch (t->kind) {
	case T_SECONDS:
		fprintf(f, "%gs", *(const double *)src);
		return true;
	case T_BOUND:
		fprintf(f, "%gs", *(const double *)src / cgt_build_slowdown());
		return true;
	case T_SEED:
		fprintf(f, "%llu", (unsigned long long)*(const uint64_t *)src);
		return true;
	case T_INT:
		fprintf(f, "%d", *(const int *)src);
		return true;
	case T_ITER:
		fputs(cgt_iter_name(*(const enum cgt_iter *)src), f);
		return true;
	case T_LOCK:
		fputs((*(const struct cgt_lock_ops *const *)src)->name, f);
		return true;
	case T_SCHED: {
		const struct cgt_sched_ops *ops = *(const struct cgt_sched_ops *const *)src;

		fputs(ops ? ops->name : "none", f);
		return true;
	}
	case T_MIX:
		for (int op = 0; op < CGT_NR_OPS; op++)
			fprintf(f, "%s%s=%u", op ? "," : "", cgt_op_names[op],
				((const unsigned int *)src)[op]);
		return true;
	case T_FLAG:
		fputs(*(const bool *)src ? "yes" : "no", f);
		return true;
	case T_BUG: {
		unsigned long bugs = *(const unsigned long *)src;
		int n = 0;

		for (int b = 0; b < CGT_NR_BUGS; b++)
			if (bugs & (1UL << b))
				fprintf(f, "%s%s", n++ ? "," : "", cgt_bug_names[b]);
		if (!n)
			fputs("none", f);
		return true;
	}
	case T_EXPECT: {
		int e = *(const int *)src;

		fputs(e == CGT_EXPECT_PASS ? "pass" : e == CGT_EXPECT_FAIL ? "fail" : "nothing", f);
		return true;
	}
	case T_PATH:
		fputs(*(const char *const *)src, f);
		return true;
	case T_STOP: {
		int d = *(const int *)src;

		fputs(d == CGT_STOP_ON_NONE ? "none" : d == CGT_STOP_ON_ANY ? "any" :
		      cgt_detector_names[d], f);
		return true;
	}
	case T_LOCKS:
	case T_INTS:
	case T_WORKLOADS:
		show_list(f, t, src);
		return true;
	}
	return false;
}

void cgt_tunables_table_values(FILE *f, const struct tunable *table, size_t n, const void *cfg)
{
	for (size_t i = 0; i < n; i++) {
		fprintf(f, " %s=", table[i].name);
		tunable_value(f, &table[i], cfg);
	}
}

void cgt_tunables_banner(FILE *f, const struct cgt_run_config *cfg)
{
	fputs("cgtorture run:", f);
	cgt_tunables_table_values(f, tunables, ARRAY_SIZE(tunables), cfg);
	if (cgt_build_slowdown() > 1)
		fprintf(f, "\n  %s build: stall and starve stretched x%d to %gs and %gs",
			cgt_build_name(), cgt_build_slowdown(), cfg->stall, cfg->starve);
	if (cfg->sched && cfg->sched->bound)
		fprintf(f, "\n  %s: a bug of depth %d is found by one run with probability at least "
			"1/(n k^(d-1)) = %.3g (n = %d threads, k = %d decisions)", cfg->sched->name,
			cfg->depth, cfg->sched->bound(cfg->threads + cfg->walkers + 1, cfg->steps,
						      cfg->depth),
			cfg->threads + cfg->walkers + 1, cfg->steps);
	fprintf(f, "\n  css-lock %s: %s\n", cfg->css_lock->name, cfg->css_lock->desc);
}

/* The command that runs this configuration again (every value spelled out). */
void cgt_tunables_table_command(FILE *f, const char *cmd, const struct tunable *table,
				size_t n, const void *cfg)
{
	fputs(cmd, f);
	for (size_t i = 0; i < n; i++) {
		const struct tunable *t = &table[i];
		const void *src = (const char *)cfg + t->offset;

		if (t->kind == T_FLAG) {
			if (*(const bool *)src)
				fprintf(f, " --%s", t->name);
			continue;
		}
		if (t->kind == T_BUG) {
			for (int b = 0; b < CGT_NR_BUGS; b++)
				if (*(const unsigned long *)src & (1UL << b))
					fprintf(f, " --bug %s", cgt_bug_names[b]);
			continue;
		}
		if (t->kind == T_EXPECT && !*(const int *)src)
			continue;
		fprintf(f, " --%s ", t->name);
		tunable_value(f, t, cfg);
	}
}

void cgt_tunables_command(FILE *f, const struct cgt_run_config *cfg)
{
	cgt_tunables_table_command(f, "cgtorture run", tunables, ARRAY_SIZE(tunables), cfg);
}
