// SPDX-License-Identifier: GPL-2.0
/*
 * The kinds of tunable value compare owns: comma lists of lock variants, numbers and
 * workloads, each list of compare.h beginning with its count.
 */
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare_kinds.h"
#include "../base/exit_status.h"

/*
 * A comma list of at most CGT_LIST_MAX items, none empty, each named once, into a list of compare.h
 * (each begins with its count): @item reads item @i; @all, if the list takes "all", fills it.
 */
static int parse_list(const struct tunable *t, const char *arg, void *dst,
		      int (*item)(const struct tunable *t, const char *tok, void *dst, int i),
		      int (*all)(void *dst))
{
	char *copy, *tok, *save = NULL;
	int n = 0, ret = 0;

	_Static_assert(CGT_LIST_MAX == 16, "the message below says 16");
	if (!strcmp(arg, "all") && all) {
		*(int *)dst = all(dst);
		return 0;
	}
	if (cgt_tunable_list_check(t->name, arg))
		return CGT_EXIT_USAGE;
	copy = strdup(arg);
	if (!copy)
		return CGT_EXIT_USAGE;
	for (tok = strtok_r(copy, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save)) {
		if (n == CGT_LIST_MAX)
			ret = cgt_usage_error(t->name, "'%s' has more than 16 items", arg, NULL);
		if (!ret)
			ret = item(t, tok, dst, n);
		if (!ret)
			n++;
	}
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
	return cgt_tunable_int.parse(t, tok, &((struct cgt_int_list *)dst)->v[i]);
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

const struct tunable_kind_ops cgt_tunable_locks = {
	.parse = parse_locks, .print = print_locks, .label = "variants", .choices = cgt_lock_names,
};
const struct tunable_kind_ops cgt_tunable_ints = { .parse = parse_ints, .print = print_ints };
const struct tunable_kind_ops cgt_tunable_workloads = {
	.parse = parse_workloads, .print = print_workloads,
	.label = "workloads", .choices = cgt_workload_names,
};
