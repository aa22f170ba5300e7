// SPDX-License-Identifier: GPL-2.0
/*
 * compare.csv and compare.json, each written to a temporary file and renamed into place.
 *
 * compare.csv: one row per workload, lock variant, thread count and context measured; for
 * every figure its median, min and max over the repeats (empty where the context has no such
 * figure), then the harness's overhead on the harness rows, the bare lock's cost over its
 * limit's on the bare rows and the limit's over its reference's on the reference rows.
 * compare.json, schema "cgtorture-compare" version 4: the machine, the configuration, and
 * per cell the ratios, why they mean little (null if they do not: compare_noise.c), the
 * loop's own cost, the reference's name, and every figure of each context measured (bare,
 * harness, limit, loop, reference) with its median, min, max and every repeat.
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "../base/files.h"

#define CGT_COMPARE_VERSION	4

static void csv_number(FILE *f, double v)
{
	if (!isnan(v))
		fprintf(f, "%.10g", v);
}

static void csv_stat(FILE *f, const struct cgt_cmp_stat *s)
{
	fputc(',', f);
	csv_number(f, s->median);
	fputc(',', f);
	csv_number(f, s->min);
	fputc(',', f);
	csv_number(f, s->max);
}

int cgt_cmp_write_csv(const struct cgt_cmp_result *res, const char *dir)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int ret;

	if (!m)
		return -ENOMEM;
	fputs("workload,lock,sleeps,threads,context,repeats,writers_exclusive", m);
	for (int f = 0; f < CGT_CMP_NR_FIGS; f++)
		fprintf(m, ",%s_median,%s_min,%s_max", cgt_cmp_figs[f].key, cgt_cmp_figs[f].key,
			cgt_cmp_figs[f].key);
	fputs(",overhead_median,overhead_min,overhead_max"
	      ",limit_ratio_median,limit_ratio_min,limit_ratio_max"
	      ",reference_ratio_median,reference_ratio_min,reference_ratio_max\n", m);
	for (int i = 0; i < res->ncells; i++) {
		const struct cgt_cmp_cell *c = &res->cells[i];

		for (int ctx = 0; ctx < CGT_CMP_NR_CTX; ctx++) {
			static const struct cgt_cmp_stat none = { NAN, NAN, NAN };

			if (!cgt_cmp_ctx_on(res->cfg, ctx))
				continue;
			fprintf(m, "%s,%s,%d,%d,%s,%d,%d", c->workload->name, c->lock->name,
				c->lock->sleeps, c->threads, cgt_cmp_ctx_names[ctx], c->repeats,
				c->consistent);
			for (int f = 0; f < CGT_CMP_NR_FIGS; f++)
				csv_stat(m, &c->fig[ctx][f]);
			csv_stat(m, ctx == CGT_CMP_HARNESS ? &c->overhead : &none);
			csv_stat(m, ctx == CGT_CMP_BARE ? &c->vs_limit : &none);
			csv_stat(m, ctx == CGT_CMP_REFERENCE ? &c->vs_reference : &none);
			fputc('\n', m);
		}
	}
	ret = fclose(m) || !buf ? -ENOMEM : cgt_write_atomic(dir, "compare.csv", buf, len);
	free(buf);
	return ret;
}

/* A number, or null for NaN (a figure the context does not have). */
static json_t *number(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

static json_t *stat_json(const struct cgt_cmp_stat *s)
{
	return json_pack("{s:o, s:o, s:o}", "median", number(s->median), "min", number(s->min),
			 "max", number(s->max));
}

static json_t *context_json(const struct cgt_cmp_cell *c, int ctx)
{
	json_t *figs = json_object();

	for (int f = 0; f < CGT_CMP_NR_FIGS; f++) {
		json_t *fig = stat_json(&c->fig[ctx][f]), *repeats = json_array();

		for (int r = 0; r < c->repeats; r++)
			json_array_append_new(repeats, number(cgt_cmp_sample(c, ctx, r)[f]));
		json_object_set_new(fig, "repeats", repeats);
		json_object_set_new(figs, cgt_cmp_figs[f].key, fig);
	}
	return json_pack("{s:o, s:o}", "acquisitions_per_s", stat_json(&c->rate[ctx]),
			 "figures", figs);
}

static json_t *config_json(const struct cgt_compare_config *cfg)
{
	json_t *locks = json_array(), *threads = json_array(), *workloads = json_array();
	char seed[32];

	for (int i = 0; i < cfg->locks.n; i++)
		json_array_append_new(locks, json_string(cfg->locks.v[i]->name));
	for (int i = 0; i < cfg->threads.n; i++)
		json_array_append_new(threads, json_integer(cfg->threads.v[i]));
	for (int i = 0; i < cfg->workloads.n; i++) {
		const struct cgt_workload *w = cfg->workloads.v[i];

		json_array_append_new(workloads, json_pack(
			"{s:s, s:s, s:i, s:i, s:i, s:i, s:i, s:i}", "name", w->name,
			"desc", w->desc, "read_permille", w->read_permille, "read_len", w->read_len,
			"write_len", w->write_len, "burst_permille", w->burst_permille,
			"burst_len", w->burst_len, "burst_tasks", w->burst_tasks));
	}
	snprintf(seed, sizeof(seed), "%llu", (unsigned long long)cfg->seed);
	return json_pack("{s:o, s:o, s:o, s:f, s:i, s:s, s:b}", "locks", locks, "threads", threads,
			 "workloads", workloads, "duration_s", cfg->duration, "repeat", cfg->repeat,
			 "seed", seed, "reference", cfg->reference);
}

int cgt_cmp_write_json(const struct cgt_cmp_result *res, const char *dir)
{
	json_t *cells = json_array(), *root;
	char *text;
	int ret;

	for (int i = 0; i < res->ncells; i++) {
		const struct cgt_cmp_cell *c = &res->cells[i];
		json_t *contexts = json_object();
		char why[256];

		for (int ctx = 0; ctx < CGT_CMP_NR_CTX; ctx++)
			if (cgt_cmp_ctx_on(res->cfg, ctx))
				json_object_set_new(contexts, cgt_cmp_ctx_names[ctx],
						    context_json(c, ctx));
		json_array_append_new(cells, json_pack(
			"{s:s, s:s, s:b, s:i, s:i, s:b, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			"workload", c->workload->name, "lock", c->lock->name,
			"sleeps", c->lock->sleeps, "threads", c->threads, "repeats", c->repeats,
			"writers_exclusive", c->consistent, "overhead", stat_json(&c->overhead),
			"limit_ratio", stat_json(&c->vs_limit),
			"reference_ratio", stat_json(&c->vs_reference),
			"ratios_noise", cgt_cmp_noise(res->cfg, c, why, sizeof(why)) ?
					json_string(why) : json_null(),
			"loop_ns_per_op", stat_json(&c->loop_ns),
			"reference", c->lock->reference ? json_string(c->lock->reference) : json_null(),
			"contexts", contexts));
	}
	root = json_pack("{s:s, s:i, s:s, s:{s:i, s:s, s:s}, s:f, s:o, s:o}",
			 "schema", "cgtorture-compare", "version", CGT_COMPARE_VERSION,
			 "command", res->cfg->command ? res->cfg->command : "",
			 "machine", "nproc", res->nproc, "cpu", res->cpu, "started", res->started,
			 "elapsed_s", res->elapsed, "config", config_json(res->cfg), "cells", cells);
	text = root ? json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER) : NULL;
	json_decref(root);
	ret = text ? cgt_write_atomic(dir, "compare.json", text, strlen(text)) : -ENOMEM;
	free(text);
	return ret;
}
