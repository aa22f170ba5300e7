// SPDX-License-Identifier: GPL-2.0
/*
 * cgtorture compare's files (src/compare/compare_out.c, compare_plot.c): a result made up
 * here is summarised, written as compare.csv and compare.json, read back as a consumer would
 * (jansson; a CSV split by hand) and compared figure by figure with what was written; a
 * figure a context does not have is null in JSON and empty in CSV; nothing half-written
 * (".tmp") remains. Without gnuplot, compare.gp is still written and a line says so.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <dirent.h>
#include <limits.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/compare/compare.h"

#define NLOCKS		2
#define NTHREADS	2
#define REPEATS		3

static struct cgt_compare_config cfg;
static struct cgt_cmp_result res;
static char dir[64];

/* A value for every figure, context and repeat; the lock class figures only in the harness. */
static double made_up(int cell, int ctx, int r, int f)
{
	if (ctx == CGT_CMP_BARE && (f == CGT_FIG_WORST_WAIT || f == CGT_FIG_PASSED_OVER))
		return NAN;
	return (cell + 1) * 1000.0 + ctx * 100.0 + f * 7.0 + ((r * 5) % REPEATS) * 0.123456789;
}

static void setup(void)
{
	int i = 0;

	memset(&cfg, 0, sizeof(cfg));
	cfg.locks.n = NLOCKS;
	cfg.locks.v[0] = cgt_lock_find("rwlock");
	cfg.locks.v[1] = cgt_lock_find("rcu-spinlock");
	cfg.threads.n = NTHREADS;
	cfg.threads.v[0] = 1;
	cfg.threads.v[1] = 4;
	cfg.workloads.n = 1;
	cfg.workloads.v[0] = cgt_workload_find("balanced");
	cfg.duration = 0.25;
	cfg.repeat = REPEATS;
	cfg.seed = 18446744073709551557ull;
	cfg.command = "cgtorture compare --test";
	cfg.reference = true;
	cr_assert_not_null(cfg.locks.v[1]);
	cr_assert_not_null(cfg.workloads.v[0]);

	memset(&res, 0, sizeof(res));
	res.cfg = &cfg;
	res.ncells = NLOCKS * NTHREADS;
	res.cells = calloc((size_t)res.ncells, sizeof(*res.cells));
	res.nproc = 2;
	snprintf(res.cpu, sizeof(res.cpu), "Test CPU");
	snprintf(res.started, sizeof(res.started), "2026-12-03 08:00:00");
	for (int t = 0; t < NTHREADS; t++) {
		for (int l = 0; l < NLOCKS; l++, i++) {
			struct cgt_cmp_cell *c = &res.cells[i];

			c->workload = cfg.workloads.v[0];
			c->lock = cfg.locks.v[l];
			c->threads = cfg.threads.v[t];
			c->repeats = REPEATS;
			c->consistent = true;
			c->sample = calloc(CGT_CMP_NR_CTX * REPEATS, sizeof(*c->sample));
			for (int ctx = 0; ctx < CGT_CMP_NR_CTX; ctx++)
				for (int r = 0; r < REPEATS; r++)
					for (int f = 0; f < CGT_CMP_NR_FIGS; f++)
						cgt_cmp_sample(c, ctx, r)[f] = made_up(i, ctx, r, f);
			cgt_cmp_cell_summarise(c);
		}
	}
	snprintf(dir, sizeof(dir), "/tmp/cgt-compare-test-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[PATH_MAX];

	while (d && (e = readdir(d)) != NULL) {
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (e->d_name[0] != '.' || strlen(e->d_name) > 2)
			unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
	cgt_cmp_result_free(&res);
}

TestSuite(compare_out, .init = setup, .fini = teardown, .timeout = 30);

static void assert_no_tmp(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	cr_assert_not_null(d);
	while ((e = readdir(d)) != NULL)
		cr_assert_null(strstr(e->d_name, ".tmp"), "%s left behind", e->d_name);
	closedir(d);
}

Test(compare_out, summary_is_median_min_max_over_repeats)
{
	const struct cgt_cmp_cell *c = &res.cells[0];
	const struct cgt_cmp_stat *s = &c->fig[CGT_CMP_HARNESS][CGT_FIG_SYS_S];

	cr_assert_float_eq(s->min, made_up(0, CGT_CMP_HARNESS, 0, CGT_FIG_SYS_S), 1e-9);
	cr_assert_float_eq(s->median, made_up(0, CGT_CMP_HARNESS, 2, CGT_FIG_SYS_S), 1e-9);
	cr_assert_float_eq(s->max, made_up(0, CGT_CMP_HARNESS, 1, CGT_FIG_SYS_S), 1e-9);
	cr_assert(isnan(c->fig[CGT_CMP_BARE][CGT_FIG_PASSED_OVER].median));
	/*
	 * the ratios: CPU time per acquisition, paired within each repeat: the harness's over
	 * the bare lock's, the bare lock's over its limit's
	 */
	cr_assert(c->overhead.min > 0 && c->overhead.min <= c->overhead.median &&
		  c->overhead.median <= c->overhead.max);
	for (int r = 0; r < REPEATS; r++) {
		double h = made_up(0, CGT_CMP_HARNESS, r, CGT_FIG_CPU_PER_OP);
		double b = made_up(0, CGT_CMP_BARE, r, CGT_FIG_CPU_PER_OP);
		double l = made_up(0, CGT_CMP_LIMIT, r, CGT_FIG_CPU_PER_OP);

		cr_assert(h / b >= c->overhead.min - 1e-12 && h / b <= c->overhead.max + 1e-12);
		double ref = made_up(0, CGT_CMP_REFERENCE, r, CGT_FIG_CPU_PER_OP);

		cr_assert(b / l >= c->vs_limit.min - 1e-12 && b / l <= c->vs_limit.max + 1e-12);
		cr_assert(l / ref >= c->vs_reference.min - 1e-12 &&
			  l / ref <= c->vs_reference.max + 1e-12);
	}
	cr_assert_float_eq(c->loop_ns.median, c->fig[CGT_CMP_LOOP][CGT_FIG_CPU_PER_OP].median,
			   1e-12);
	cr_assert_float_eq(c->vs_limit.median,
			   made_up(0, CGT_CMP_BARE, 2, CGT_FIG_CPU_PER_OP) /
			   made_up(0, CGT_CMP_LIMIT, 2, CGT_FIG_CPU_PER_OP), 1e-9);
}

/* compare's loops and --reference reach every variant: none is left to NaN columns */
Test(compare_out, every_variant_has_its_loops_and_a_reference)
{
	for (size_t i = 0; i < cgt_nr_lock_variants; i++) {
		const struct cgt_lock_ops *ops = cgt_lock_variants[i];
		const struct cgt_lock_ops *ref = cgt_cmp_reference(ops);

		cr_assert(ops->loops && ops->loops->limit && ops->loops->bare, "%s: no loops",
			  ops->name);
		cr_assert_not_null(ref, "%s: reference '%s' is not one of compare's", ops->name,
				   ops->reference ? ops->reference : "(none)");
		cr_assert(ref->loops && ref->loops->limit, "%s: its reference has no loop",
			  ops->name);
	}
}

static json_t *get(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	cr_assert_not_null(v, "no \"%s\"", key);
	return v;
}

static void assert_stat(json_t *o, const struct cgt_cmp_stat *s, const char *what)
{
	const char *keys[] = { "median", "min", "max" };
	const double want[] = { s->median, s->min, s->max };

	for (int k = 0; k < 3; k++) {
		json_t *v = get(o, keys[k]);

		if (isnan(want[k]))
			cr_assert(json_is_null(v), "%s %s should be null", what, keys[k]);
		else
			cr_assert(json_is_number(v) && json_number_value(v) == want[k],
				  "%s %s: %g, want %g", what, keys[k], json_number_value(v), want[k]);
	}
}

Test(compare_out, json_reads_back)
{
	char path[128];
	json_error_t err;
	json_t *root, *cells, *cell;
	size_t i;

	cr_assert_eq(cgt_cmp_write_json(&res, dir), 0);
	assert_no_tmp();
	snprintf(path, sizeof(path), "%s/compare.json", dir);
	root = json_load_file(path, 0, &err);
	cr_assert_not_null(root, "compare.json: %s (line %d)", err.text, err.line);
	cr_assert_str_eq(json_string_value(get(root, "schema")), "cgtorture-compare");
	cr_assert_eq(json_integer_value(get(root, "version")), 4);
	cr_assert_str_eq(json_string_value(get(root, "command")), cfg.command);
	cr_assert_eq(json_integer_value(get(get(root, "machine"), "nproc")), 2);
	cr_assert_str_eq(json_string_value(get(get(root, "machine"), "cpu")), "Test CPU");
	cr_assert_str_eq(json_string_value(get(get(root, "config"), "seed")),
			 "18446744073709551557", "the seed must stay exact");
	cr_assert_eq(json_array_size(get(get(root, "config"), "locks")), NLOCKS);
	cells = get(root, "cells");
	cr_assert_eq(json_array_size(cells), (size_t)res.ncells);
	json_array_foreach(cells, i, cell) {
		const struct cgt_cmp_cell *c = &res.cells[i];

		cr_assert_str_eq(json_string_value(get(cell, "lock")), c->lock->name);
		cr_assert_str_eq(json_string_value(get(cell, "workload")), "balanced");
		cr_assert_eq(json_integer_value(get(cell, "threads")), c->threads);
		cr_assert(json_is_true(get(cell, "writers_exclusive")));
		assert_stat(get(cell, "overhead"), &c->overhead, "overhead");
		assert_stat(get(cell, "limit_ratio"), &c->vs_limit, "limit_ratio");
		assert_stat(get(cell, "reference_ratio"), &c->vs_reference, "reference_ratio");
		assert_stat(get(cell, "loop_ns_per_op"), &c->loop_ns, "loop_ns_per_op");
		/* 3 repeats of 0.25 s that agree within 1%: nothing to say */
		cr_assert(json_is_null(get(cell, "ratios_noise")), "ratios_noise: %s",
			  json_string_value(get(cell, "ratios_noise")));
		cr_assert_str_eq(json_string_value(get(cell, "reference")), c->lock->reference);
		for (int ctx = 0; ctx < CGT_CMP_NR_CTX; ctx++) {
			json_t *figs = get(get(get(cell, "contexts"), cgt_cmp_ctx_names[ctx]),
					   "figures");

			cr_assert_eq(json_object_size(figs), CGT_CMP_NR_FIGS);
			for (int f = 0; f < CGT_CMP_NR_FIGS; f++) {
				json_t *fig = get(figs, cgt_cmp_figs[f].key), *rep;

				assert_stat(fig, &c->fig[ctx][f], cgt_cmp_figs[f].key);
				rep = get(fig, "repeats");
				cr_assert_eq(json_array_size(rep), REPEATS);
				for (int r = 0; r < REPEATS; r++) {
					double want = cgt_cmp_sample(c, ctx, r)[f];
					json_t *v = json_array_get(rep, (size_t)r);

					cr_assert(isnan(want) ? json_is_null(v) :
						  json_number_value(v) == want);
				}
			}
		}
	}
	json_decref(root);
}

/* Measurements too short for their ratios: every cell of compare.json says so. */
Test(compare_out, json_says_why_ratios_mean_little)
{
	char path[128];
	json_error_t err;
	json_t *root, *cell;
	size_t i;

	cfg.duration = 0.1;
	cr_assert_eq(cgt_cmp_write_json(&res, dir), 0);
	snprintf(path, sizeof(path), "%s/compare.json", dir);
	root = json_load_file(path, 0, &err);
	cr_assert_not_null(root, "compare.json: %s (line %d)", err.text, err.line);
	json_array_foreach(get(root, "cells"), i, cell)
		cr_assert_str_eq(json_string_value(get(cell, "ratios_noise")),
				 "measurements of 0.1 s, under 0.25 s");
	json_decref(root);
}

/* "a,b,,c" split in place; empty fields kept */
static int split(char *line, char **field, int max)
{
	int n = 0;

	while (n < max) {
		field[n++] = line;
		line = strchr(line, ',');
		if (!line)
			break;
		*line++ = '\0';
	}
	return n;
}

static void assert_csv_stat(char **field, const struct cgt_cmp_stat *s)
{
	const double want[] = { s->median, s->min, s->max };

	for (int k = 0; k < 3; k++) {
		if (isnan(want[k]))
			cr_assert_str_empty(field[k]);
		else
			cr_assert_float_eq(strtod(field[k], NULL), want[k], 1e-9 * fabs(want[k]) + 1e-12,
					   "%s, want %.17g", field[k], want[k]);
	}
}

Test(compare_out, csv_reads_back)
{
	enum { FIXED = 7, COLS = FIXED + 3 * CGT_CMP_NR_FIGS + 9 };
	char path[128], *line = NULL, *field[COLS + 1];
	size_t cap = 0;
	FILE *f;
	int rows = 0;

	cr_assert_eq(cgt_cmp_write_csv(&res, dir), 0);
	assert_no_tmp();
	snprintf(path, sizeof(path), "%s/compare.csv", dir);
	f = fopen(path, "r");
	cr_assert_not_null(f);
	cr_assert_gt(getline(&line, &cap, f), 0);
	line[strcspn(line, "\n")] = '\0';
	cr_assert_eq(split(line, field, COLS + 1), COLS, "header columns");
	cr_assert_str_eq(field[0], "workload");
	cr_assert_str_eq(field[FIXED], "reads_per_s_median");
	cr_assert_str_eq(field[COLS - 9], "overhead_median");
	cr_assert_str_eq(field[COLS - 6], "limit_ratio_median");
	cr_assert_str_eq(field[COLS - 3], "reference_ratio_median");
	while (getline(&line, &cap, f) > 0) {
		const struct cgt_cmp_cell *c = &res.cells[rows / CGT_CMP_NR_CTX];
		int ctx = rows % CGT_CMP_NR_CTX;
		static const struct cgt_cmp_stat none = { NAN, NAN, NAN };

		line[strcspn(line, "\n")] = '\0';
		cr_assert_eq(split(line, field, COLS + 1), COLS, "row %d", rows);
		cr_assert_str_eq(field[0], "balanced");
		cr_assert_str_eq(field[1], c->lock->name);
		cr_assert_eq(atoi(field[3]), c->threads);
		cr_assert_str_eq(field[4], cgt_cmp_ctx_names[ctx]);
		cr_assert_eq(atoi(field[5]), REPEATS);
		for (int k = 0; k < CGT_CMP_NR_FIGS; k++)
			assert_csv_stat(&field[FIXED + 3 * k], &c->fig[ctx][k]);
		assert_csv_stat(&field[COLS - 9], ctx == CGT_CMP_HARNESS ? &c->overhead : &none);
		assert_csv_stat(&field[COLS - 6], ctx == CGT_CMP_BARE ? &c->vs_limit : &none);
		assert_csv_stat(&field[COLS - 3], ctx == CGT_CMP_REFERENCE ? &c->vs_reference : &none);
		rows++;
	}
	cr_assert_eq(rows, res.ncells * CGT_CMP_NR_CTX);
	free(line);
	fclose(f);
}

Test(compare_out, without_gnuplot_the_script_is_written_and_a_line_says_so)
{
	char path[128], *note = NULL, *gp;
	size_t len = 0;
	FILE *m = open_memstream(&note, &len);
	FILE *f;
	long size;

	setenv("PATH", "/nonexistent", 1);
	cr_assert_eq(cgt_cmp_plot(&res, dir, m), 0);
	fclose(m);
	cr_assert_not_null(strstr(note, "plots skipped"), "note: %s", note);
	cr_assert_not_null(strstr(note, "gnuplot-nox"), "note: %s", note);
	free(note);
	assert_no_tmp();
	snprintf(path, sizeof(path), "%s/compare.gp", dir);
	f = fopen(path, "r");
	cr_assert_not_null(f, "no compare.gp");
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	gp = calloc(1, (size_t)size + 1);
	cr_assert_eq(fread(gp, 1, (size_t)size, f), (size_t)size);
	fclose(f);
	cr_assert_not_null(strstr(gp, "$rate0 << EOD"));
	cr_assert_not_null(strstr(gp, "$lat0 << EOD"));
	cr_assert_not_null(strstr(gp, "locks = \"rwlock rcu-spinlock\""));
	cr_assert_not_null(strstr(gp, "throughput-balanced.png"));
	cr_assert_not_null(strstr(gp, "latency-balanced.svg"));
	free(gp);
}
