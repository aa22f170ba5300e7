// SPDX-License-Identifier: GPL-2.0
/*
 * The plots of cgtorture compare, drawn by gnuplot from compare.gp, a script that carries
 * its data inline so that it can be run again by hand in the results folder. Each variant
 * has a colour of its own (a palette as long as the longest --locks list), the same in every
 * plot; each context a line style of its own. Per workload: the acquisition rate against the
 * thread count, per variant a solid line for the bare lock (median, bars from min to max
 * over the repeats), dashed its limit, dotted the harness and, with --reference, dash-dotted
 * its reference; and the latency percentiles of each side at the largest thread count, per
 * variant the bare lock solid and the harness dotted. Every legend stands outside the plot
 * area, so that no line runs under it: the variants by colour, the contexts by line style.
 * Each plot as PNG (pngcairo) and SVG, drawn under a temporary name and renamed into place
 * once gnuplot has succeeded. Without gnuplot, the script is still written and one line says
 * how to get the pictures.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compare.h"
#include "../base/files.h"

static const char *const formats[][2] = {	/* file suffix, gnuplot terminal */
	{ "png", "pngcairo size 1000,600 noenhanced font ',10'" },
	{ "svg", "svg size 1000,600 dynamic noenhanced font 'Sans,10'" },
};

static const char *const kinds[] = { "throughput", "latency" };

/*
 * One colour per variant of a list, told apart on a white background: Tableau's ten, then
 * six darker ones.
 */
static const char *const palette[] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
	"#bcbd22", "#17becf", "#000000", "#393b79", "#637939", "#843c39", "#7b4173", "#b8860b",
};
_Static_assert(ARRAY_SIZE(palette) >= CGT_LIST_MAX, "a colour for every variant of a list");

/* The line style of each context drawn, and its entry in the legend */
static const struct {
	int ctx;
	const char *style;
	const char *title;
} contexts[] = {
	{ CGT_CMP_BARE, "lw 2 pt 7", "bare lock" },
	{ CGT_CMP_LIMIT, "dt '-' lw 1", "limit" },
	{ CGT_CMP_HARNESS, "dt '.' lw 2 pt 6", "harness" },
	{ CGT_CMP_REFERENCE, "dt '-.' lw 1", "reference" },
};

/* A number for gnuplot: NaN is a point it skips. */
static void gp_number(FILE *f, double v)
{
	if (isnan(v))
		fputs(" NaN", f);
	else
		fprintf(f, " %.6g", v);
}

/*
 * $rate<w>: per lock a block of "threads median min max limit harness reference" (the bare
 * lock's rate over the repeats, then the median of each other context's; NaN for the
 * reference without --reference), blocks two blank lines apart.
 */
static void data_rate(FILE *f, const struct cgt_cmp_result *res, int w)
{
	const struct cgt_compare_config *cfg = res->cfg;
	int per_workload = cfg->threads.n * cfg->locks.n;

	fprintf(f, "$rate%d << EOD\n", w);
	for (int l = 0; l < cfg->locks.n; l++) {
		fprintf(f, "# %s: threads, acquisitions/s median, min, max; the medians of the "
			"limit, the harness, the reference\n", cfg->locks.v[l]->name);
		for (int t = 0; t < cfg->threads.n; t++) {
			const struct cgt_cmp_cell *c = &res->cells[w * per_workload +
								     t * cfg->locks.n + l];

			fprintf(f, "%d", c->threads);
			gp_number(f, c->rate[CGT_CMP_BARE].median);
			gp_number(f, c->rate[CGT_CMP_BARE].min);
			gp_number(f, c->rate[CGT_CMP_BARE].max);
			gp_number(f, c->rate[CGT_CMP_LIMIT].median);
			gp_number(f, c->rate[CGT_CMP_HARNESS].median);
			gp_number(f, c->rate[CGT_CMP_REFERENCE].median);
			fputc('\n', f);
		}
		fputs("\n\n", f);
	}
	fputs("EOD\n", f);
}

/*
 * $lat<w>: per lock a block of "percentile read_ns write_ns" of the bare lock, then of the
 * harness, at the largest thread count.
 */
static int data_latency(FILE *f, const struct cgt_cmp_result *res, int w)
{
	const struct cgt_compare_config *cfg = res->cfg;
	int per_workload = cfg->threads.n * cfg->locks.n, top = 0;

	for (int t = 1; t < cfg->threads.n; t++)
		if (cfg->threads.v[t] > cfg->threads.v[top])
			top = t;
	fprintf(f, "$lat%d << EOD\n", w);
	for (int l = 0; l < cfg->locks.n; l++) {
		const struct cgt_cmp_cell *c = &res->cells[w * per_workload + top * cfg->locks.n + l];

		fprintf(f, "# %s: percentile (p50, p99, p99.9, max), read ns, write ns; the bare "
			"lock's, the harness's\n", cfg->locks.v[l]->name);
		for (int p = 0; p < 4; p++) {
			fprintf(f, "%d", p + 1);
			for (int ctx = CGT_CMP_BARE; ctx <= CGT_CMP_HARNESS; ctx++) {
				gp_number(f, c->fig[ctx][CGT_FIG_READ_P50 + p].median);
				gp_number(f, c->fig[ctx][CGT_FIG_WRITE_P50 + p].median);
			}
			fputc('\n', f);
		}
		fputs("\n\n", f);
	}
	fputs("EOD\n", f);
	return cfg->threads.v[top];
}

/* The legend's entries, in black with no data, for the line styles of the contexts @ctxs. */
static void context_keys(FILE *f, const struct cgt_compare_config *cfg, unsigned int ctxs)
{
	for (size_t k = 0; k < ARRAY_SIZE(contexts); k++)
		if (ctxs & 1U << contexts[k].ctx && cgt_cmp_ctx_on(cfg, contexts[k].ctx))
			fprintf(f, ", \\\n     NaN with lines lc 'black' %s title '%s'",
				contexts[k].style, contexts[k].title);
	fputc('\n', f);
}

static void plot_rate(FILE *f, const struct cgt_cmp_result *res, int w, const char *out)
{
	const struct cgt_compare_config *cfg = res->cfg;
	int lo = cfg->threads.v[0], hi = lo;

	for (int t = 1; t < cfg->threads.n; t++) {
		lo = cfg->threads.v[t] < lo ? cfg->threads.v[t] : lo;
		hi = cfg->threads.v[t] > hi ? cfg->threads.v[t] : hi;
	}

	fprintf(f, "reset\nset output '%s'\n", out);
	fprintf(f, "set title \"%s: lock acquisitions per second, the median of %d repeat%s "
		"(bars: min to max)\"\n", cfg->workloads.v[w]->name, cfg->repeat,
		cfg->repeat == 1 ? "" : "s");
	fputs("set xlabel 'threads'\nset ylabel 'acquisitions per second'\n"
	      "set logscale x 2\nset logscale y 10\nset format y '%.0s%c'\nset grid\n"
	      "set key outside right top\n", f);
	/* half a doubling of room each side, so one thread count still makes a range */
	fprintf(f, "set xrange [%g:%g]\nset xtics (", lo / M_SQRT2, hi * M_SQRT2);
	for (int t = 0; t < cfg->threads.n; t++)
		fprintf(f, "%s%d", t ? ", " : "", cfg->threads.v[t]);
	fprintf(f, ")\nplot for [i=1:%d] $rate%d index (i-1) using 1:2:3:4 with yerrorlines "
		"%s lc i title word(locks, i)", cfg->locks.n, w, contexts[0].style);
	/* the other contexts, columns 5 on, each in its variant's colour, their key in black */
	for (size_t k = 1; k < ARRAY_SIZE(contexts); k++)
		if (cgt_cmp_ctx_on(cfg, contexts[k].ctx))
			fprintf(f, ", \\\n     for [i=1:%d] $rate%d index (i-1) using 1:%zu with lines "
				"%s lc i notitle", cfg->locks.n, w, 4 + k, contexts[k].style);
	context_keys(f, cfg, ~0U);
}

/*
 * The latency plot: a panel per side, side by side at fixed places on the page, and one
 * legend right of both (the same variants are in each), where no data is drawn.
 */
static void plot_latency(FILE *f, const struct cgt_cmp_result *res, int w, int threads,
			 const char *out)
{
	const struct cgt_compare_config *cfg = res->cfg;
	/* a workload without writes (null) has no writers' panel: gnuplot refuses an empty plot */
	bool writes = cfg->workloads.v[w]->read_permille < 1000;
	/* the panels' left and right edges, a fraction of the page */
	static const double edge[2][2] = { { 0.07, 0.38 }, { 0.46, 0.77 } };

	fprintf(f, "reset\nset output '%s'\n", out);
	fprintf(f, "set multiplot title \"%s, %d threads: time to acquire the lock (median of %d "
		"repeat%s)\"\n", cfg->workloads.v[w]->name, threads, cfg->repeat,
		cfg->repeat == 1 ? "" : "s");
	fputs("set logscale y 10\nset ylabel 'time to acquire'\nset grid\nset xrange [0.5:4.5]\n"
	      "set xtics ('p50' 1, 'p99' 2, 'p99.9' 3, 'max' 4)\n"
	      "set tmargin at screen 0.86\nset bmargin at screen 0.1\n"
	      "set ytics ('10ns' 10, '100ns' 100, '1us' 1e3, '10us' 1e4, '100us' 1e5, '1ms' 1e6,"
	      " '10ms' 1e7, '100ms' 1e8, '1s' 1e9, '10s' 1e10)\n", f);
	fprintf(f, "set key at screen %g, 0.86 left top Left reverse samplen 3\n",
		edge[1][1] + 0.02);
	/* the bare lock's columns 2 (reads) and 3 (writes), the harness's 4 and 5 */
	for (int side = 0; side < 1 + writes; side++) {
		fprintf(f, "set lmargin at screen %g\nset rmargin at screen %g\n", edge[side][0],
			writes ? edge[side][1] : edge[1][1]);
		fprintf(f, "set title '%s'\nplot for [i=1:%d] $lat%d index (i-1) using 1:%d with "
			"linespoints %s lc i %s, \\\n     for [i=1:%d] $lat%d index (i-1) using 1:%d "
			"with linespoints %s lc i notitle", side ? "writers" : "readers",
			cfg->locks.n, w, 2 + side, contexts[0].style, side ? "notitle" :
			"title word(locks, i)", cfg->locks.n, w, 4 + side, contexts[2].style);
		if (side)
			fputc('\n', f);
		else
			context_keys(f, cfg, 1U << CGT_CMP_BARE | 1U << CGT_CMP_HARNESS);
	}
	fputs("unset multiplot\n", f);
}

/* "throughput-balanced.png", or ".throughput-balanced.png.tmp" while gnuplot draws it */
static void plot_name(char *buf, size_t len, const char *kind, const char *workload,
		      const char *suffix, bool tmp)
{
	snprintf(buf, len, "%s%s-%s.%s%s", tmp ? "." : "", kind, workload, suffix,
		 tmp ? ".tmp" : "");
}

static char *script(const struct cgt_cmp_result *res, size_t *len)
{
	const struct cgt_compare_config *cfg = res->cfg;
	char *buf = NULL, out[PATH_MAX];
	FILE *f = open_memstream(&buf, len);

	if (!f)
		return NULL;
	fputs("# cgtorture compare: the plots of this folder; draw them again with:"
	      " gnuplot compare.gp\n", f);
	fputs("locks = \"", f);
	for (int l = 0; l < cfg->locks.n; l++)
		fprintf(f, "%s%s", l ? " " : "", cfg->locks.v[l]->name);
	fputs("\"\n", f);
	/* set linetype outlives reset: each variant's colour, by its place in the list */
	for (int l = 0; l < cfg->locks.n; l++)
		fprintf(f, "set linetype %d lc rgb '%s' pt 7\n", l + 1, palette[l]);
	for (int w = 0; w < cfg->workloads.n; w++) {
		const char *name = cfg->workloads.v[w]->name;
		int threads;

		data_rate(f, res, w);
		threads = data_latency(f, res, w);
		for (size_t k = 0; k < ARRAY_SIZE(formats); k++) {
			fprintf(f, "set terminal %s\n", formats[k][1]);
			plot_name(out, sizeof(out), kinds[0], name, formats[k][0], true);
			plot_rate(f, res, w, out);
			plot_name(out, sizeof(out), kinds[1], name, formats[k][0], true);
			plot_latency(f, res, w, threads, out);
		}
	}
	fputs("set output\n", f);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

static bool in_path(const char *prog)
{
	const char *path = getenv("PATH");
	char file[PATH_MAX];

	while (path && *path) {
		size_t n = strcspn(path, ":");

		snprintf(file, sizeof(file), "%.*s/%s", (int)n, path, prog);
		if (n && !access(file, X_OK))
			return true;
		path += n + (path[n] == ':');
	}
	return false;
}

/* gnuplot compare.gp, in @dir; 0 if it succeeded. */
static int run_gnuplot(const char *dir)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		if (!chdir(dir))
			execlp("gnuplot", "gnuplot", "compare.gp", (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -EIO;
}

/* Rename every picture drawn under its temporary name into place. */
static int publish(const struct cgt_cmp_result *res, const char *dir)
{
	const struct cgt_compare_config *cfg = res->cfg;
	char tmp[PATH_MAX], final[PATH_MAX], name[256];

	for (int w = 0; w < cfg->workloads.n; w++) {
		for (size_t k = 0; k < ARRAY_SIZE(kinds); k++) {
			for (size_t fmt = 0; fmt < ARRAY_SIZE(formats); fmt++) {
				const char *wname = cfg->workloads.v[w]->name;

				plot_name(name, sizeof(name), kinds[k], wname, formats[fmt][0], true);
				snprintf(tmp, sizeof(tmp), "%s/%s", dir, name);
				plot_name(name, sizeof(name), kinds[k], wname, formats[fmt][0], false);
				snprintf(final, sizeof(final), "%s/%s", dir, name);
				if (rename(tmp, final))
					return -errno;
			}
		}
	}
	return 0;
}

int cgt_cmp_plot(const struct cgt_cmp_result *res, const char *dir, FILE *note)
{
	size_t len = 0;
	char *text = script(res, &len);
	int ret = text ? cgt_write_atomic(dir, "compare.gp", text, len) : -ENOMEM;

	free(text);
	if (ret)
		return ret;
	if (!in_path("gnuplot")) {
		fprintf(note, "plots skipped: gnuplot is not installed (apt-get install gnuplot-nox);"
			" then 'gnuplot compare.gp' in %s draws them\n", dir);
		return 0;
	}
	ret = run_gnuplot(dir);
	return ret ? ret : publish(res, dir);
}
