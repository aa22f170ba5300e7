// SPDX-License-Identifier: GPL-2.0
/*
 * The terminal tables of cgtorture compare: per workload, one row per lock variant and thread
 * count, one column per figure (medians over the repeats), the best of each column among the
 * variants at the same thread count marked with '*'. Three tables, so each fits a terminal:
 * the cost of one acquisition in each context (what the loop, the primitive, its reference,
 * the workload and the harness each add), throughput, then latency and fairness; then a few
 * lines drawn from the numbers that say which variant leads where.
 */
#include <math.h>
#include <string.h>

#include "compare.h"

#define COL_WIDTH	9
#define COL_SPREAD	(-1)	/* (max - min) / median of the acquisition rate */
#define COL_OVERHEAD	(-2)	/* harness cost per acquisition over the bare lock's */
#define COL_RATE	(-3)	/* acquisitions per second */
#define COL_VS_LIMIT	(-4)	/* the bare lock's cost per acquisition over its limit's */
#define COL_VS_REF	(-5)	/* the limit's cost per acquisition over its reference's */

struct column {
	const char *head;
	int ctx;
	int fig;		/* enum cgt_cmp_fig, or COL_* */
	int best;		/* 1: highest is best, -1: lowest, 0: not marked */
};

enum { COST_LOOP, COST_LIMIT, COST_REF, COST_VS_REF, COST_BARE, COST_VS_LIMIT, COST_HARNESS,
       COST_OVERHEAD, NR_COST };

/* CPU time per acquisition in each context, and their ratios */
static const struct column cost_cols[NR_COST] = {
	[COST_LOOP]	= { "loop", CGT_CMP_LOOP, CGT_FIG_CPU_PER_OP, 0 },
	[COST_LIMIT]	= { "limit", CGT_CMP_LIMIT, CGT_FIG_CPU_PER_OP, -1 },
	[COST_REF]	= { "reference", CGT_CMP_REFERENCE, CGT_FIG_CPU_PER_OP, -1 },
	[COST_VS_REF]	= { "lim/ref", CGT_CMP_REFERENCE, COL_VS_REF, 0 },
	[COST_BARE]	= { "bare", CGT_CMP_BARE, CGT_FIG_CPU_PER_OP, -1 },
	[COST_VS_LIMIT]	= { "bare/lim", CGT_CMP_BARE, COL_VS_LIMIT, 0 },
	[COST_HARNESS]	= { "harness", CGT_CMP_HARNESS, CGT_FIG_CPU_PER_OP, -1 },
	[COST_OVERHEAD]	= { "harn/bare", CGT_CMP_HARNESS, COL_OVERHEAD, 0 },
};

static const struct column throughput_cols[] = {
	{ "limit/s", CGT_CMP_LIMIT, COL_RATE, 1 },
	{ "reads/s", CGT_CMP_BARE, CGT_FIG_READS_PER_S, 1 },
	{ "writes/s", CGT_CMP_BARE, CGT_FIG_WRITES_PER_S, 1 },
	{ "vs limit", CGT_CMP_BARE, COL_VS_LIMIT, 0 },
	{ "spread", CGT_CMP_BARE, COL_SPREAD, -1 },
	{ "user s", CGT_CMP_BARE, CGT_FIG_USER_S, -1 },
	{ "sys s", CGT_CMP_BARE, CGT_FIG_SYS_S, -1 },
	{ "meas/op", CGT_CMP_BARE, CGT_FIG_MEAS_PER_OP, 0 },
};

static const struct column latency_cols[] = {
	{ "rd p50", CGT_CMP_BARE, CGT_FIG_READ_P50, -1 },
	{ "rd p99", CGT_CMP_BARE, CGT_FIG_READ_P99, -1 },
	{ "rd p99.9", CGT_CMP_BARE, CGT_FIG_READ_P999, -1 },
	{ "rd max", CGT_CMP_BARE, CGT_FIG_READ_MAX, -1 },
	{ "wr p50", CGT_CMP_BARE, CGT_FIG_WRITE_P50, -1 },
	{ "wr p99", CGT_CMP_BARE, CGT_FIG_WRITE_P99, -1 },
	{ "wr p99.9", CGT_CMP_BARE, CGT_FIG_WRITE_P999, -1 },
	{ "wr max", CGT_CMP_BARE, CGT_FIG_WRITE_MAX, -1 },
	{ "wr wait", CGT_CMP_HARNESS, CGT_FIG_WORST_WAIT, -1 },
	{ "passed", CGT_CMP_HARNESS, CGT_FIG_PASSED_OVER, -1 },
};

static bool is_ratio(const struct column *col)
{
	return col->fig == COL_OVERHEAD || col->fig == COL_VS_LIMIT || col->fig == COL_VS_REF;
}

static double value(const struct cgt_cmp_cell *c, const struct column *col)
{
	const struct cgt_cmp_stat *r = &c->rate[col->ctx];

	if (col->fig == COL_OVERHEAD)
		return c->overhead.median;
	if (col->fig == COL_VS_LIMIT)
		return c->vs_limit.median;
	if (col->fig == COL_VS_REF)
		return c->vs_reference.median;
	if (col->fig == COL_RATE)
		return r->median;
	/* one repeat has no spread: "-", not a best 0% */
	if (col->fig == COL_SPREAD)
		return c->repeats > 1 && r->median > 0 ? (r->max - r->min) / r->median : NAN;
	return c->fig[col->ctx][col->fig].median;
}

static void format(char *buf, size_t len, const struct column *col, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (col->fig == COL_SPREAD)
		snprintf(buf, len, "%.0f%%", v * 100);
	else if (is_ratio(col))
		snprintf(buf, len, "x%.2f", v);
	else if (col->fig == COL_RATE)
		cgt_cmp_format(buf, len, CGT_UNIT_RATE, v);
	else
		cgt_cmp_format(buf, len, cgt_cmp_figs[col->fig].unit, v);
}

/* The best value of @col among cells [first, last), or NaN. */
static double best_of(const struct cgt_cmp_cell *cells, int first, int last,
		      const struct column *col)
{
	double best = NAN;

	for (int i = first; i < last && col->best; i++) {
		double v = value(&cells[i], col);

		if (!isnan(v) && (isnan(best) || (col->best > 0 ? v > best : v < best)))
			best = v;
	}
	return best;
}

/* After a value: '*' the best at its thread count, '?' a ratio that means little */
static char mark(const struct cgt_cmp_result *res, int g, int end, int i,
		 const struct column *col, double v)
{
	if (is_ratio(col))
		return cgt_cmp_ratios_noisy(res->cfg, &res->cells[i]) ? '?' : ' ';
	return end - g > 1 && v == best_of(res->cells, g, end, col) ? '*' : ' ';
}

static void print_table(FILE *f, const struct cgt_cmp_result *res, int first, int last,
			const struct column *cols, int ncols)
{
	const struct cgt_cmp_cell *cells = res->cells;
	char buf[32];

	fprintf(f, "%-14s %7s", "lock", "threads");
	for (int k = 0; k < ncols; k++)
		if (cgt_cmp_ctx_on(res->cfg, cols[k].ctx))
			fprintf(f, " %*s ", COL_WIDTH, cols[k].head);
	fputc('\n', f);
	for (int g = first; g < last; ) {
		int end = g;

		/* a group: the variants at one thread count */
		while (end < last && cells[end].threads == cells[g].threads)
			end++;
		for (int i = g; i < end; i++) {
			fprintf(f, "%-14s %7d", cells[i].lock->name, cells[i].threads);
			for (int k = 0; k < ncols; k++) {
				double v = value(&cells[i], &cols[k]);

				if (!cgt_cmp_ctx_on(res->cfg, cols[k].ctx))
					continue;
				format(buf, sizeof(buf), &cols[k], v);
				fprintf(f, " %*s%c", COL_WIDTH, buf, mark(res, g, end, i, &cols[k], v));
			}
			fprintf(f, "%s\n", cells[i].consistent ? "" : "  WRITERS OVERLAPPED");
		}
		g = end;
	}
}

/* The cell of [first, last) with the best (@high: highest) median of figure @fig in @ctx. */
static int best_cell(const struct cgt_cmp_cell *cells, int first, int last, int ctx, int fig,
		     bool high, int skip)
{
	int best = -1;

	for (int i = first; i < last; i++) {
		double v = fig < 0 ? cells[i].rate[ctx].median : cells[i].fig[ctx][fig].median;
		double b;

		if (i == skip || isnan(v))
			continue;
		b = best < 0 ? NAN : fig < 0 ? cells[best].rate[ctx].median :
					       cells[best].fig[ctx][fig].median;
		if (best < 0 || (high ? v > b : v < b))
			best = i;
	}
	return best;
}

/* "pthread-rwlock (72.0ms)" */
static void name_value(char *buf, size_t len, const struct cgt_cmp_cell *c, int ctx, int fig)
{
	char v[16];

	if (fig < 0)
		cgt_cmp_format(v, sizeof(v), CGT_UNIT_RATE, c->rate[ctx].median);
	else
		cgt_cmp_format(v, sizeof(v), cgt_cmp_figs[fig].unit, c->fig[ctx][fig].median);
	snprintf(buf, len, "%s (%s)", c->lock->name, v);
}

/*
 * How many cells of [first, last) at @threads have the median of ratio column @col within
 * 1.25 (and how many have one).
 */
static int within(const struct cgt_cmp_cell *cells, int first, int last, int threads,
		  const struct column *col, int *of)
{
	int n = 0;

	*of = 0;
	for (int i = first; i < last; i++) {
		double r = value(&cells[i], col);

		if (cells[i].threads != threads || isnan(r))
			continue;
		++*of;
		n += r <= 1.25;
	}
	return n;
}

/*
 * The pairs of variants at @threads that the limit's cost per acquisition and the
 * reference's put in the same order (of those both have, and whose references differ: two
 * variants of one reference are ranked by its noise): whether the limit ranks them as the
 * primitives they are rank.
 */
static int ranked_alike(const struct cgt_cmp_cell *cells, int first, int last, int threads,
			int *of)
{
	int n = 0;

	*of = 0;
	for (int i = first; i < last; i++) {
		for (int j = i + 1; j < last; j++) {
			const struct column *lim = &cost_cols[COST_LIMIT], *ref = &cost_cols[COST_REF];
			double li = value(&cells[i], lim), lj = value(&cells[j], lim);
			double ri = value(&cells[i], ref), rj = value(&cells[j], ref);

			if (cells[i].threads != threads || cells[j].threads != threads ||
			    isnan(li + lj + ri + rj) ||
			    cgt_cmp_reference(cells[i].lock) == cgt_cmp_reference(cells[j].lock))
				continue;
			++*of;
			n += (li < lj) == (ri < rj);
		}
	}
	return n;
}

/*
 * What the table says, in a few lines drawn from its numbers: which variant leads in
 * acquisitions at each thread count and by how much, who has the lowest read and write
 * p99 and the worst and best writer waits at the largest count, and how close the bare
 * lock comes to its limit and the harness to the bare lock at the smallest.
 */
static void print_reading(FILE *f, const struct cgt_cmp_result *res, int first, int last)
{
	const struct cgt_cmp_cell *cells = res->cells;
	int lo = first, hi = first, n, of;
	char a[64], b[64];

	if (last - first < 2)
		return;
	fputs("Reading: the most acquisitions/s", f);
	for (int g = first; g < last; ) {
		int end = g, top, next;

		while (end < last && cells[end].threads == cells[g].threads)
			end++;
		top = best_cell(cells, g, end, CGT_CMP_BARE, -1, true, -1);
		next = best_cell(cells, g, end, CGT_CMP_BARE, -1, true, top);
		if (cells[g].threads < cells[lo].threads)
			lo = g;
		if (cells[g].threads > cells[hi].threads)
			hi = g;
		if (top >= 0) {
			name_value(a, sizeof(a), &cells[top], CGT_CMP_BARE, -1);
			fprintf(f, "%s at %d thread%s %s", g == first ? "" : ";", cells[g].threads,
				cells[g].threads == 1 ? "" : "s", a);
			if (next >= 0 && cells[next].rate[CGT_CMP_BARE].median > 0)
				fprintf(f, ", x%.2f the next (%s)", cells[top].rate[CGT_CMP_BARE].median /
					cells[next].rate[CGT_CMP_BARE].median, cells[next].lock->name);
		}
		g = end;
	}
	fputs(".\n", f);
	/* the cells at the largest thread count */
	for (int g = first; g < last; g++) {
		int end = g;

		if (cells[g].threads != cells[hi].threads)
			continue;
		while (end < last && cells[end].threads == cells[g].threads)
			end++;
		const char *sep = ":";

		fprintf(f, "At %d thread%s", cells[g].threads, cells[g].threads == 1 ? "" : "s");
		for (int side = CGT_READ; side <= CGT_WRITE; side++) {
			int fig = side == CGT_READ ? CGT_FIG_READ_P99 : CGT_FIG_WRITE_P99;
			int best = best_cell(cells, g, end, CGT_CMP_BARE, fig, false, -1);

			if (best < 0)
				continue;
			name_value(a, sizeof(a), &cells[best], CGT_CMP_BARE, fig);
			fprintf(f, "%s the lowest %s p99 %s", sep, side == CGT_READ ? "read" : "write",
				a);
			sep = ";";
		}
		n = best_cell(cells, g, end, CGT_CMP_HARNESS, CGT_FIG_WORST_WAIT, true, -1);
		of = best_cell(cells, g, end, CGT_CMP_HARNESS, CGT_FIG_WORST_WAIT, false, -1);
		if (n >= 0 && of >= 0 && n != of) {
			name_value(a, sizeof(a), &cells[n], CGT_CMP_HARNESS, CGT_FIG_WORST_WAIT);
			name_value(b, sizeof(b), &cells[of], CGT_CMP_HARNESS, CGT_FIG_WORST_WAIT);
			fprintf(f, "%s the worst writer wait %s, the best %s", sep, a, b);
		}
		fputs(".\n", f);
		break;
	}
	fprintf(f, "At %d thread%s", cells[lo].threads, cells[lo].threads == 1 ? "" : "s");
	if (res->cfg->reference) {
		n = within(cells, first, last, cells[lo].threads, &cost_cols[COST_VS_REF], &of);
		fprintf(f, " the limit is within x1.25 of its reference for %d of %d variants",
			n, of);
		n = ranked_alike(cells, first, last, cells[lo].threads, &of);
		fprintf(f, " (%d of %d pairs of variants in the same order by both),", n, of);
	}
	n = within(cells, first, last, cells[lo].threads, &cost_cols[COST_VS_LIMIT], &of);
	fprintf(f, " the bare lock within x1.25 of its limit for %d of %d", n, of);
	n = within(cells, first, last, cells[lo].threads, &cost_cols[COST_OVERHEAD], &of);
	fprintf(f, ", and the harness within x1.25 of the bare lock for %d of %d.\n", n, of);
}


/*
 * When ratios mean little (compare_noise.c): the comparison's reasons, or each cell whose
 * repeats disagree, under the tables that mark them '?'.
 */
static void print_noise(FILE *f, const struct cgt_cmp_result *res, int first, int last)
{
	char why[256];
	int n = 0;

	if (cgt_cmp_config_noisy(res->cfg, why, sizeof(why))) {
		fprintf(f, "Warning: no ratio here means much ('?'): %s (docs/compare.md).\n", why);
		return;
	}
	for (int i = first; i < last; i++)
		n += cgt_cmp_cell_noisy(&res->cells[i], why, sizeof(why));
	if (!n)
		return;
	fprintf(f, "Warning: the ratios of %d of %d cells mean little ('?'), their repeats spread "
		"over %.0f%% of the median (docs/compare.md):\n", n, last - first,
		CGT_CMP_MAX_SPREAD * 100);
	for (int i = first; i < last; i++)
		if (cgt_cmp_cell_noisy(&res->cells[i], why, sizeof(why)))
			fprintf(f, "  %s at %d thread%s: %s\n", res->cells[i].lock->name,
				res->cells[i].threads, res->cells[i].threads == 1 ? "" : "s", why);
}

/* Each variant's reference, once: "rwlock: ck_rwlock (Concurrency Kit's ...)". */
static void print_references(FILE *f, const struct cgt_cmp_result *res, int first, int last)
{
	fputs("References:", f);
	for (int i = first; i < last && res->cells[i].threads == res->cells[first].threads; i++) {
		const struct cgt_lock_ops *ops = res->cells[i].lock, *ref = cgt_cmp_reference(ops);

		fprintf(f, "\n  %-14s %s", ops->name, ref ? ref->name : "none");
		if (ref)
			fprintf(f, ": %s", ref->desc);
	}
	fputc('\n', f);
}

void cgt_cmp_print_tables(FILE *f, const struct cgt_cmp_result *res)
{
	const struct cgt_compare_config *cfg = res->cfg;
	int per_workload = cfg->threads.n * cfg->locks.n;

	for (int first = 0; first < res->ncells; first += per_workload) {
		const struct cgt_workload *w = res->cells[first].workload;
		int last = first + per_workload;

		fprintf(f, "\nworkload %s: %s\n", w->name, w->desc);
		fprintf(f, "Medians of %d repeat(s) of %g s; * marks the best at each thread count. "
			"CPU time per acquisition: 'loop', the limit's loop\nover locks that do "
			"nothing (its own cost, in every figure, subtracted from none); 'limit', the "
			"variant's lock functions alone, inlined\ninto that loop; 'reference' (with "
			"--reference), the primitive it is, as its users write it, in the same loop; "
			"'bare', the lock\naround the workload's critical sections; 'harness', taken "
			"as the model takes css_set_lock.\n\n", cfg->repeat, cfg->duration);
		print_table(f, res, first, last, cost_cols, NR_COST);
		if (cfg->reference)
			print_references(f, res, first, last);
		fprintf(f, "\nThe bare lock's: 'limit/s', the limit's acquisitions/s; 'meas/op': what "
			"timing one acquisition in %d cost per acquisition. 'wr wait'\n(worst writer "
			"wait) and 'passed' (reads that got in while a writer waited) come from the "
			"harness's lock tracking, at its tick. 'spread'\nis (max - min) / median of "
			"the acquisition rate.\n\n", CGT_LOCK_SAMPLE);
		print_table(f, res, first, last, throughput_cols, (int)ARRAY_SIZE(throughput_cols));
		fputc('\n', f);
		print_table(f, res, first, last, latency_cols, (int)ARRAY_SIZE(latency_cols));
		fputc('\n', f);
		print_reading(f, res, first, last);
		print_noise(f, res, first, last);
	}
}
