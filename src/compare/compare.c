// SPDX-License-Identifier: GPL-2.0
/*
 * cgtorture compare, the driver: every cell (workload x thread count x lock variant) in turn,
 * each repeat measured in every context, in alternating order so that a drift
 * of the machine (another process, the CPU's clock) weighs on all alike; then the median
 * and spread of every figure over the repeats.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "compare.h"
#include "../base/clock.h"
#include "../run/run.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median, min and max of the @n values that are not NaN; all NaN if none is. */
static struct cgt_cmp_stat stat_of(double *v, int n)
{
	struct cgt_cmp_stat s = { NAN, NAN, NAN };
	int k = 0;

	for (int i = 0; i < n; i++)
		if (!isnan(v[i]))
			v[k++] = v[i];
	if (!k)
		return s;
	qsort(v, (size_t)k, sizeof(*v), cmp_double);
	s.min = v[0];
	s.max = v[k - 1];
	s.median = k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
	return s;
}

static double acquisitions(const double *fig)
{
	return fig[CGT_FIG_READS_PER_S] + fig[CGT_FIG_WRITES_PER_S];
}

/*
 * The cost of one acquisition in context @ctx over its cost in @base, paired within each
 * repeat, in CPU time (the workers' user and system time per acquisition): on a machine
 * shared with other work, a context that was kept off the CPU for a while loses wall time,
 * not CPU time, so the ratio stays about the code.
 */
static struct cgt_cmp_stat cost_ratio(const struct cgt_cmp_cell *c, int ctx, int base)
{
	double v[CGT_CMP_MAX_REPEAT];

	for (int r = 0; r < c->repeats; r++)
		v[r] = cgt_cmp_sample(c, ctx, r)[CGT_FIG_CPU_PER_OP] /
		       cgt_cmp_sample(c, base, r)[CGT_FIG_CPU_PER_OP];
	return stat_of(v, c->repeats);
}

void cgt_cmp_cell_summarise(struct cgt_cmp_cell *c)
{
	double v[CGT_CMP_MAX_REPEAT];

	for (int ctx = 0; ctx < CGT_CMP_NR_CTX; ctx++) {
		for (int f = 0; f < CGT_CMP_NR_FIGS; f++) {
			for (int r = 0; r < c->repeats; r++)
				v[r] = cgt_cmp_sample(c, ctx, r)[f];
			c->fig[ctx][f] = stat_of(v, c->repeats);
		}
		for (int r = 0; r < c->repeats; r++)
			v[r] = acquisitions(cgt_cmp_sample(c, ctx, r));
		c->rate[ctx] = stat_of(v, c->repeats);
	}
	c->overhead = cost_ratio(c, CGT_CMP_HARNESS, CGT_CMP_BARE);
	c->vs_limit = cost_ratio(c, CGT_CMP_BARE, CGT_CMP_LIMIT);
	c->vs_reference = cost_ratio(c, CGT_CMP_LIMIT, CGT_CMP_REFERENCE);
	c->loop_ns = c->fig[CGT_CMP_LOOP][CGT_FIG_CPU_PER_OP];
}

/* The CPU model, as /proc/cpuinfo names it. */
static void cpu_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];

	snprintf(buf, len, "unknown");
	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, "model name", 10) || !colon)
			continue;
		colon += 1 + (colon[1] == ' ');
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(buf, len, "%s", colon);
		break;
	}
	if (f)
		fclose(f);
}

/*
 * One line as a cell is measured: its rates, and its CPU-time ratios (of the bare lock over
 * its limit, of the harness over the bare lock), each followed by '?' when it means little:
 * why, on a line of its own if the cell's repeats are to blame (the comparison's own reasons
 * are said once, before the first cell).
 */
static void print_cell(const struct cgt_cmp_result *res, int i)
{
	const struct cgt_cmp_cell *c = &res->cells[i];
	char rate[CGT_CMP_NR_CTX][16], why[256];
	const char *q = cgt_cmp_ratios_noisy(res->cfg, c) ? "?" : "";

	for (int ctx = 0; ctx < CGT_CMP_NR_CTX; ctx++)
		cgt_cmp_format(rate[ctx], sizeof(rate[ctx]), CGT_UNIT_RATE, c->rate[ctx].median);
	printf("[%3d/%d] %-13s %-14s %4d threads: %7s acquisitions/s limit, %7s bare (x%.2f%s), "
	       "%7s harness (x%.2f%s), loop %.1fns/op", i + 1, res->ncells, c->workload->name,
	       c->lock->name, c->threads, rate[CGT_CMP_LIMIT], rate[CGT_CMP_BARE],
	       c->vs_limit.median, q, rate[CGT_CMP_HARNESS], c->overhead.median, q,
	       c->loop_ns.median);
	if (res->cfg->reference)
		printf(", reference %s %7s (limit x%.2f%s)",
		       c->lock->reference ? c->lock->reference : "none", rate[CGT_CMP_REFERENCE],
		       c->vs_reference.median, q);
	printf("%s\n", c->consistent ? "" : "  WRITERS OVERLAPPED");
	if (cgt_cmp_cell_noisy(c, why, sizeof(why)))
		printf("        ? its ratios mean little, its repeats disagree: %s\n", why);
	fflush(stdout);
}

/* Measure cell @c: @repeat times each context; 0 or -errno. */
/* A cell with no figures yet: a context not measured has none. */
static int cell_init(const struct cgt_compare_config *cfg, struct cgt_cmp_cell *c)
{
	c->repeats = cfg->repeat;
	c->consistent = true;
	c->sample = malloc((size_t)(CGT_CMP_NR_CTX * c->repeats) * sizeof(*c->sample));
	if (!c->sample)
		return -ENOMEM;
	for (int k = 0; k < CGT_CMP_NR_CTX * c->repeats; k++)
		for (int f = 0; f < CGT_CMP_NR_FIGS; f++)
			c->sample[k][f] = NAN;
	return 0;
}

static int measure_cell(const struct cgt_compare_config *cfg, struct cgt_cmp_cell *c, int index)
{
	int ret = cell_init(cfg, c);

	if (ret)
		return ret;
	for (int r = 0; r < c->repeats; r++) {
		/* the same seed for every context: the same plan and draws in the same threads */
		uint64_t seed = splitmix64(cfg->seed ^ splitmix64((uint64_t)index << 8 | (uint64_t)r));

		for (int k = 0; k < CGT_CMP_NR_CTX; k++) {
			int ctx = r % 2 ? CGT_CMP_NR_CTX - 1 - k : k;
			bool consistent = false;

			if (!cgt_cmp_ctx_on(cfg, ctx))
				continue;
			if (cgt_run_interrupted())
				break;
			ret = cgt_cmp_measure(c->workload, c->lock, c->threads, ctx,
						  cfg->duration, seed, cgt_cmp_sample(c, ctx, r),
						  &consistent);
			if (ret)
				return ret;
			c->consistent &= consistent;
		}
	}
	cgt_cmp_cell_summarise(c);
	return 0;
}

static int compare_cells(const struct cgt_compare_config *cfg, struct cgt_cmp_result *res)
{
	int i = 0, ret;

	for (int w = 0; w < cfg->workloads.n; w++) {
		for (int t = 0; t < cfg->threads.n; t++) {
			for (int l = 0; l < cfg->locks.n; l++, i++) {
				struct cgt_cmp_cell *c = &res->cells[i];

				c->workload = cfg->workloads.v[w];
				c->threads = cfg->threads.v[t];
				c->lock = cfg->locks.v[l];
				/* after a signal, the cells left keep no figures */
				ret = cgt_run_interrupted() ? cell_init(cfg, c) :
							      measure_cell(cfg, c, i);
				if (ret)
					return ret;
				if (cgt_run_interrupted()) {
					cgt_cmp_cell_summarise(c);
					continue;
				}
				res->measured++;
				if (!cfg->quiet)
					print_cell(res, i);
			}
		}
	}
	return 0;
}

int cgt_compare(const struct cgt_compare_config *cfg, struct cgt_cmp_result *res)
{
	time_t now = time(NULL);
	struct tm tm;
	double t0 = cgt_now();
	int ret;

	memset(res, 0, sizeof(*res));
	res->cfg = cfg;
	res->nproc = (int)sysconf(_SC_NPROCESSORS_ONLN);
	cpu_model(res->cpu, sizeof(res->cpu));
	localtime_r(&now, &tm);
	strftime(res->started, sizeof(res->started), "%Y-%m-%d %H:%M:%S", &tm);
	res->ncells = cfg->workloads.n * cfg->threads.n * cfg->locks.n;
	res->cells = calloc((size_t)res->ncells, sizeof(*res->cells));
	if (!res->cells)
		return -ENOMEM;
	/* the harness's lock path reads the tick, as in a stress run */
	cgt_tick_start();
	ret = compare_cells(cfg, res);
	cgt_tick_stop();
	res->elapsed = cgt_now() - t0;
	return ret;
}

void cgt_cmp_result_free(struct cgt_cmp_result *res)
{
	for (int i = 0; res->cells && i < res->ncells; i++)
		free(res->cells[i].sample);
	free(res->cells);
	res->cells = NULL;
}
