/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgtorture compare: one workload on each chosen lock variant and thread count, cell after
 * cell in one process, with repeats. Each repeat of a cell is measured in four contexts, and
 * with --reference five: the limit (the variant's lock functions alone, inlined into a loop
 * over the workload's order, no critical section, no timing: what the primitive itself
 * allows), bare (the same inlined functions around the workload's critical sections), through
 * the harness (cgt_read_lock() and friends, as the model takes css_set_lock: marked points,
 * wait and hold records, lockdep checks, class statistics), the loop (the limit's loop over
 * locks that do nothing: its own cost) and the reference (the limit's loop over the primitive
 * the variant is, as its users write it: glibc's, liburcu's, Concurrency Kit's), with the same
 * order of operations, threads and seeds; so the figures are about the lock, and the
 * workload's, the harness's and the loop's costs stand beside them. Throughput is counted,
 * never timed per acquisition: one acquisition in CGT_LOCK_SAMPLE, chosen at random, is
 * timed for the latency figures, and what that costs is a figure too.
 */
#ifndef CGT_COMPARE_H
#define CGT_COMPARE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../base/prng.h"
#include "../locks/lock.h"
#include "../locks/lock_loop.h"

#define CGT_LIST_MAX		16	/* items in a --locks, --threads or --workload list */
#define CGT_CMP_MAX_THREADS	4096	/* per cell; RLIMIT_NPROC may allow fewer */
#define CGT_CMP_MAX_REPEAT	100

/*
 * A workload: the mix of read and write acquisitions and the critical section of each.
 * Readers do what cgroup_task_count does (visit css_sets, sum their counts); writers what
 * cgroup_task_migrate does (move tasks between css_sets). A burst is a run of migrations
 * in a row by one thread, as cgroup_procs_write moving a whole thread group.
 */
struct cgt_workload {
	const char *name;
	const char *desc;
	unsigned int read_permille;	/* acquisitions that read */
	unsigned int read_len;		/* css_sets a reader visits */
	unsigned int write_len;		/* tasks one write moves */
	unsigned int burst_permille;	/* writes that start a burst of migrations */
	unsigned int burst_len;		/* migrations in a burst, back to back */
	unsigned int burst_tasks;	/* tasks each migration of a burst moves (a group) */
};

extern const struct cgt_workload cgt_workloads[];
extern const size_t cgt_nr_workloads;
const struct cgt_workload *cgt_workload_find(const char *name);
/* "read-mostly, balanced, ...": for error messages and --help */
const char *cgt_workload_names(void);

/*
 * The order of a workload's acquisitions, drawn once per measurement from its seed, which
 * every context and thread walks (each from its own place): the side, and the css_sets a
 * reader visits or the tasks a write moves. Drawn ahead, so that no context pays for the
 * draws and the limit loop runs the same operations.
 */
void cgt_cmp_plan(const struct cgt_workload *w, uint64_t seed, struct cgt_lock_step *plan);

/* The css_sets and tasks the critical sections work on (compare_workload.c). */
struct cgt_cmp_data;
struct cgt_cmp_data *cgt_cmp_data_new(void);
void cgt_cmp_data_free(struct cgt_cmp_data *d);
/*
 * cgroup_task_count over @len css_sets of @data (a struct cgt_cmp_data), from one @rng
 * picks; @len 0: one shared count read. The loops' critical sections (lock_loop.h).
 */
long cgt_cmp_read_section(void *data, struct prng *rng, unsigned int len);
/* cgroup_task_migrate of @len tasks; under the write lock */
void cgt_cmp_write_section(void *data, struct prng *rng, unsigned int len);
/* Every task still counted once: the writers excluded one another. */
bool cgt_cmp_data_consistent(struct cgt_cmp_data *d);

/* Comma lists of the command line, filled by compare_kinds.c */
struct cgt_lock_list {
	int n;
	const struct cgt_lock_ops *v[CGT_LIST_MAX];
};

struct cgt_int_list {
	int n;
	int v[CGT_LIST_MAX];
};

struct cgt_workload_list {
	int n;
	const struct cgt_workload *v[CGT_LIST_MAX];
};

struct cgt_compare_config {
	struct cgt_lock_list locks;
	struct cgt_int_list threads;
	struct cgt_workload_list workloads;
	double duration;		/* seconds per cell, context and repeat */
	int repeat;
	uint64_t seed;
	const char *out;		/* the results folder goes in here */
	bool quiet;			/* no line per cell */
	bool reference;			/* time each variant's reference primitive too */
	const char *command;		/* the command line that repeats this comparison */
};

/* The contexts each cell is measured in: the reference only with --reference. */
enum cgt_cmp_ctx {
	CGT_CMP_BARE, CGT_CMP_HARNESS, CGT_CMP_LIMIT, CGT_CMP_LOOP, CGT_CMP_REFERENCE,
	CGT_CMP_NR_CTX
};
extern const char *const cgt_cmp_ctx_names[CGT_CMP_NR_CTX];

enum cgt_cmp_unit { CGT_UNIT_RATE, CGT_UNIT_NS, CGT_UNIT_COUNT, CGT_UNIT_S };

/*
 * The figures of one measurement: X(id, key in CSV and JSON, table heading, unit, best is
 * higher). A figure a context does not have (the lock class statistics of the bare lock, the
 * latencies of the untimed limit) is NaN, and null or empty in the files. meas/op is what the
 * latency sampling cost per acquisition: its clock reads, each timed in the same run.
 */
#define CGT_CMP_FIGURES(X)							\
	X(READS_PER_S,	"reads_per_s",		"reads/s",	CGT_UNIT_RATE,	true)	\
	X(WRITES_PER_S,	"writes_per_s",		"writes/s",	CGT_UNIT_RATE,	true)	\
	X(READ_P50,	"read_p50_ns",		"rd p50",	CGT_UNIT_NS,	false)	\
	X(READ_P99,	"read_p99_ns",		"rd p99",	CGT_UNIT_NS,	false)	\
	X(READ_P999,	"read_p99.9_ns",	"rd p99.9",	CGT_UNIT_NS,	false)	\
	X(READ_MAX,	"read_max_ns",		"rd max",	CGT_UNIT_NS,	false)	\
	X(WRITE_P50,	"write_p50_ns",		"wr p50",	CGT_UNIT_NS,	false)	\
	X(WRITE_P99,	"write_p99_ns",		"wr p99",	CGT_UNIT_NS,	false)	\
	X(WRITE_P999,	"write_p99.9_ns",	"wr p99.9",	CGT_UNIT_NS,	false)	\
	X(WRITE_MAX,	"write_max_ns",		"wr max",	CGT_UNIT_NS,	false)	\
	X(WORST_WAIT,	"worst_writer_wait_ns",	"wr wait",	CGT_UNIT_NS,	false)	\
	X(PASSED_OVER,	"passed_over",		"passed",	CGT_UNIT_COUNT,	false)	\
	X(USER_S,	"user_s",		"user s",	CGT_UNIT_S,	false)	\
	X(SYS_S,	"sys_s",		"sys s",	CGT_UNIT_S,	false)	\
	X(CPU_PER_OP,	"cpu_ns_per_op",	"cpu/op",	CGT_UNIT_NS,	false)	\
	X(MEAS_PER_OP,	"measure_ns_per_op",	"meas/op",	CGT_UNIT_NS,	false)

enum cgt_cmp_fig {
#define X(id, key, head, unit, high) CGT_FIG_##id,
	CGT_CMP_FIGURES(X)
#undef X
	CGT_CMP_NR_FIGS
};

struct cgt_cmp_fig_info {
	const char *key;
	const char *head;
	enum cgt_cmp_unit unit;
	bool higher_is_better;
};
extern const struct cgt_cmp_fig_info cgt_cmp_figs[CGT_CMP_NR_FIGS];

/* A figure over the repeats. */
struct cgt_cmp_stat {
	double median, min, max;
};

struct cgt_cmp_cell {
	const struct cgt_workload *workload;
	const struct cgt_lock_ops *lock;
	int threads;
	int repeats;
	double (*sample)[CGT_CMP_NR_FIGS];	/* [ctx * repeats + repeat][figure] */
	struct cgt_cmp_stat fig[CGT_CMP_NR_CTX][CGT_CMP_NR_FIGS];
	struct cgt_cmp_stat rate[CGT_CMP_NR_CTX];	/* acquisitions (reads + writes) per s */
	/* per acquisition, the harness's cost over the bare lock's: paired within a repeat */
	struct cgt_cmp_stat overhead;
	/* per acquisition, the bare lock's cost over its limit's: paired within a repeat */
	struct cgt_cmp_stat vs_limit;
	/* per acquisition, the limit's cost over its reference's (NaN without --reference) */
	struct cgt_cmp_stat vs_reference;
	/* ns of CPU per acquisition the loop itself costs (the loop context's) */
	struct cgt_cmp_stat loop_ns;
	bool consistent;			/* every repeat's writers excluded one another */
};

static inline double *cgt_cmp_sample(const struct cgt_cmp_cell *c, int ctx, int repeat)
{
	return c->sample[ctx * c->repeats + repeat];
}

struct cgt_cmp_result {
	const struct cgt_compare_config *cfg;
	int ncells;
	struct cgt_cmp_cell *cells;		/* workload-major, then threads, then lock */
	int measured;				/* of them, measured whole (a signal ends it) */
	char started[32];			/* local date and time the comparison began */
	double elapsed;				/* seconds, the whole comparison */
	int nproc;				/* online CPUs */
	char cpu[128];				/* the CPU model */
	char dir[PATH_MAX];			/* the results folder, once written */
};

/* compare.c */
int cgt_compare(const struct cgt_compare_config *cfg, struct cgt_cmp_result *res);
void cgt_cmp_result_free(struct cgt_cmp_result *res);
void cgt_cmp_cell_summarise(struct cgt_cmp_cell *c);
/*
 * compare_cell.c: one context of one cell, one repeat: its figures, and whether the writers
 * kept the critical sections' data consistent (they exclude one another in every variant).
 * 0, or -errno if the workers could not be started.
 */
int cgt_cmp_measure(const struct cgt_workload *w, const struct cgt_lock_ops *ops, int threads,
		    int ctx, double duration, uint64_t seed, double *fig, bool *consistent);
/*
 * compare_reference.c: the primitive a variant is, as its users write it (@ops->reference),
 * with its loops; NULL if it names none. The loop context's locks that do nothing.
 */
const struct cgt_lock_ops *cgt_cmp_reference(const struct cgt_lock_ops *ops);
extern const struct cgt_lock_ops cgt_cmp_nolock;
/* Whether a context is measured in this comparison. */
static inline bool cgt_cmp_ctx_on(const struct cgt_compare_config *cfg, int ctx)
{
	return ctx != CGT_CMP_REFERENCE || cfg->reference;
}
/*
 * compare_noise.c: when ratios mean little (docs/compare.md). Every ratio of a comparison:
 * with one repeat, or measurements shorter than CGT_CMP_MIN_SECONDS. Those of cell @c: a
 * ratio whose repeats spread ((max - min) / median) over CGT_CMP_MAX_SPREAD. Each says why in
 * @why.
 */
#define CGT_CMP_MIN_SECONDS	0.25
#define CGT_CMP_MAX_SPREAD	0.5
bool cgt_cmp_config_noisy(const struct cgt_compare_config *cfg, char *why, size_t len);
bool cgt_cmp_cell_noisy(const struct cgt_cmp_cell *c, char *why, size_t len);
/* Whether cell @c's ratios, measured by @cfg, mean little: the reasons of both, in @why. */
bool cgt_cmp_noise(const struct cgt_compare_config *cfg, const struct cgt_cmp_cell *c,
		   char *why, size_t len);
static inline bool cgt_cmp_ratios_noisy(const struct cgt_compare_config *cfg,
					const struct cgt_cmp_cell *c)
{
	char why[8];

	return cgt_cmp_noise(cfg, c, why, sizeof(why));
}
/* compare_table.c */
void cgt_cmp_print_tables(FILE *f, const struct cgt_cmp_result *res);
/* figures.c: a figure in its unit, three significant digits ("850ns", "4.56M"; "-" if NaN) */
void cgt_cmp_format(char *buf, size_t len, enum cgt_cmp_unit unit, double v);
/* compare_out.c: compare.csv and compare.json in @dir; 0 or -errno */
int cgt_cmp_write_csv(const struct cgt_cmp_result *res, const char *dir);
int cgt_cmp_write_json(const struct cgt_cmp_result *res, const char *dir);
/* compare_plot.c: the plots, through gnuplot when it is there; 0, or -errno */
int cgt_cmp_plot(const struct cgt_cmp_result *res, const char *dir, FILE *note);

#endif
