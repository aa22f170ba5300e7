// SPDX-License-Identifier: GPL-2.0
/*
 * The terminal tables of cgtorture compare: per workload, one row per lock variant and thread
 * count, one column per figure (medians over the repeats), the best of each column among the
 * variants at the same thread count marked with '*'. Two tables, so each fits a terminal:
 * throughput and cost, then latency and fairness.
 */
#include <math.h>
#include <string.h>

#include "compare.h"

#define COL_WIDTH	9
#define COL_SPREAD	(-1)	/* (max - min) / median of the acquisition rate */
#define COL_OVERHEAD	(-2)	/* harness cost per acquisition over the bare lock's */

struct column {
	const char *head;
	int ctx;
	int fig;		/* enum cgt_cmp_fig, or COL_* */
	int best;		/* 1: highest is best, -1: lowest, 0: not marked */
};

static const struct column throughput_cols[] = {
	{ "reads/s", CGT_CMP_BARE, CGT_FIG_READS_PER_S, 1 },
	{ "writes/s", CGT_CMP_BARE, CGT_FIG_WRITES_PER_S, 1 },
	{ "spread", CGT_CMP_BARE, COL_SPREAD, -1 },
	{ "user s", CGT_CMP_BARE, CGT_FIG_USER_S, -1 },
	{ "sys s", CGT_CMP_BARE, CGT_FIG_SYS_S, -1 },
	{ "cpu/op", CGT_CMP_BARE, CGT_FIG_CPU_PER_OP, -1 },
	{ "harness", CGT_CMP_HARNESS, COL_OVERHEAD, 0 },
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

static double value(const struct cgt_cmp_cell *c, const struct column *col)
{
	const struct cgt_cmp_stat *r = &c->rate[col->ctx];

	if (col->fig == COL_OVERHEAD)
		return c->overhead.median;
	if (col->fig == COL_SPREAD)
		return r->median > 0 ? (r->max - r->min) / r->median : NAN;
	return c->fig[col->ctx][col->fig].median;
}

static void format(char *buf, size_t len, const struct column *col, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (col->fig == COL_SPREAD)
		snprintf(buf, len, "%.0f%%", v * 100);
	else if (col->fig == COL_OVERHEAD)
		snprintf(buf, len, "x%.2f", v);
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

static void print_table(FILE *f, const struct cgt_cmp_result *res, int first, int last,
			const struct column *cols, int ncols)
{
	const struct cgt_cmp_cell *cells = res->cells;
	char buf[32];

	fprintf(f, "%-13s %7s", "lock", "threads");
	for (int k = 0; k < ncols; k++)
		fprintf(f, " %*s ", COL_WIDTH, cols[k].head);
	fputc('\n', f);
	for (int g = first; g < last; ) {
		int end = g;

		/* a group: the variants at one thread count */
		while (end < last && cells[end].threads == cells[g].threads)
			end++;
		for (int i = g; i < end; i++) {
			fprintf(f, "%-13s %7d", cells[i].lock->name, cells[i].threads);
			for (int k = 0; k < ncols; k++) {
				double v = value(&cells[i], &cols[k]);

				format(buf, sizeof(buf), &cols[k], v);
				fprintf(f, " %*s%c", COL_WIDTH, buf,
					end - g > 1 && v == best_of(cells, g, end, &cols[k]) ? '*' : ' ');
			}
			fprintf(f, "%s\n", cells[i].consistent ? "" : "  WRITERS OVERLAPPED");
		}
		g = end;
	}
}

void cgt_cmp_print_tables(FILE *f, const struct cgt_cmp_result *res)
{
	const struct cgt_compare_config *cfg = res->cfg;
	int per_workload = cfg->threads.n * cfg->locks.n;

	for (int first = 0; first < res->ncells; first += per_workload) {
		const struct cgt_workload *w = res->cells[first].workload;
		int last = first + per_workload;

		fprintf(f, "\nworkload %s: %s\n", w->name, w->desc);
		fprintf(f, "The bare lock's figures, medians of %d repeat(s) of %g s. 'wr wait' (worst "
			"writer wait) and 'passed' (reads that got in\nwhile a writer waited) come "
			"from the harness's lock tracking; 'harness' is its cost per acquisition over "
			"the bare lock's.\n'spread' is (max - min) / median of the acquisition rate. "
			"* marks the best at each thread count.\n\n", cfg->repeat, cfg->duration);
		print_table(f, res, first, last, throughput_cols, (int)ARRAY_SIZE(throughput_cols));
		fputc('\n', f);
		print_table(f, res, first, last, latency_cols, (int)ARRAY_SIZE(latency_cols));
	}
}
