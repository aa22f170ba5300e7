// SPDX-License-Identifier: GPL-2.0
/*
 * The kinds of tunable value the run owns: a pid_max, a walk, a lock variant, a kernel era,
 * a scheduler, the swarm's dimensions, the operations' mix, the bugs, the outcome expected,
 * the locks' mode and the detector to stop at. Each reads its value by the registry it
 * names (locks, eras, schedulers, bugs, detectors), so a new entry there is a new value here.
 */
#include <string.h>

#include "options.h"
#include "../detect/detect.h"

/* 0, or a pid_max the kernel would take: RESERVED_PIDS + 1 up to PID_MAX_LIMIT */
static int parse_pid_max(const struct tunable *t, const char *arg, void *dst)
{
	char range[64];
	long v;

	snprintf(range, sizeof(range), "0, or %ld to %ld", t->min, t->max);
	if (cgt_tunable_parse_long(arg, &v))
		return cgt_usage_error(t->name, "'%s' is not a number", arg, range);
	if (v && (v < t->min || v > t->max))
		return cgt_usage_error(t->name, "'%s' is out of range", arg, range);
	*(int *)dst = (int)v;
	return 0;
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
	if (cgt_tunable_list_check(t->name, arg))
		return CGT_EXIT_USAGE;
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

	if (!copy || cgt_tunable_list_check(t->name, arg)) {
		free(copy);
		return CGT_EXIT_USAGE;
	}
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
		else if (cgt_tunable_parse_long(eq + 1, &w) || w < 0 || w > 1000)
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

/* "walk-from-exiting, ...": the catalogue's names, for --help, an error and the completion */
static const char *bug_names(void)
{
	static char valid[512];

	if (!valid[0])
		for (int i = 0; i < CGT_NR_BUGS; i++)
			snprintf(valid + strlen(valid), sizeof(valid) - strlen(valid), "%s%s",
				 i ? ", " : "", cgt_bug_catalogue[i].name);
	return valid;
}

static int parse_bug(const struct tunable *t, const char *arg, void *dst)
{
	enum cgt_bug bug;

	if (!cgt_bug_parse(arg, &bug)) {
		if (*(unsigned long *)dst & (1UL << bug))
			return cgt_usage_error(t->name, "'%s' is given twice", arg, NULL);
		*(unsigned long *)dst |= 1UL << bug;
		return 0;
	}
	return cgt_usage_error(t->name, "unknown bug '%s'", arg, bug_names());
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

/* a pid_max is an int; 0 turns reuse off */
static void print_pid_max(FILE *f, const struct tunable *t, const void *src)
{
	(void)t;
	fprintf(f, "%d", *(const int *)src);
}

const struct tunable_kind_ops cgt_tunable_pid_max = {
	.parse = parse_pid_max, .print = print_pid_max,
};
const struct tunable_kind_ops cgt_tunable_iter = {
	.parse = parse_iter, .print = print_iter, .label = "walks", .choices = cgt_iter_names,
};
const struct tunable_kind_ops cgt_tunable_lock = {
	.parse = parse_lock, .print = print_lock,
	.label = "variants", .choices = cgt_lock_run_names,
};
const struct tunable_kind_ops cgt_tunable_era = {
	.parse = parse_era, .print = print_era, .label = "eras", .choices = cgt_era_names,
};
const struct tunable_kind_ops cgt_tunable_mix = {
	.parse = parse_mix, .print = print_mix, .default_below = true,
};
const struct tunable_kind_ops cgt_tunable_bug = {
	.parse = parse_bug, .print = print_bugs, .spell = spell_bugs,
	.label = "bugs", .choices = bug_names,
};
const struct tunable_kind_ops cgt_tunable_expect = {
	.parse = parse_expect, .print = print_expect, .spell = spell_expect,
};
const struct tunable_kind_ops cgt_tunable_lock_mode = {
	.parse = parse_lock_mode, .print = print_lock_mode,
};
const struct tunable_kind_ops cgt_tunable_stop = { .parse = parse_stop, .print = print_stop };
const struct tunable_kind_ops cgt_tunable_sched = {
	.parse = parse_sched, .print = print_sched,
	.label = "schedulers", .choices = cgt_sched_names,
};
const struct tunable_kind_ops cgt_tunable_swarm = {
	.parse = parse_swarm, .print = print_swarm, .label = "dimensions", .choices = swarm_dims,
};
