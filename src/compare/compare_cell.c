// SPDX-License-Identifier: GPL-2.0
/*
 * One measurement of cgtorture compare: a lock variant, a workload and a thread count, in
 * one context, for a duration. Each worker walks the workload's plan of acquisitions (from
 * its own place in it), takes the lock for each, runs the critical section and counts it;
 * one acquisition in CGT_CMP_SAMPLE, chosen at random within each run of that many, is
 * timed into the worker's own histograms, so the count is never paid for by a clock read.
 * After the join the histograms and counts are merged into the figures.
 *
 * The contexts run the same plan, seeds and loop; they differ in how the lock is taken:
 * harness workers are registered harness threads taking it through cgt_lock_acquire(), as
 * the model does, bare workers call the variant's ops, and limit workers call the ops alone,
 * with no critical section and no timing. Every worker is an RCU reader, since rcu-spinlock's,
 * rcu-mutex's and percpu-rwsem's readers are.
 */
#define _GNU_SOURCE		/* RUSAGE_THREAD */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "compare.h"
#include "histogram.h"
#include "../core/rcu.h"
#include "../core/thread.h"

#define WORKER_STACK	(256 * 1024)

struct cmp_run {
	const struct cgt_workload *w;
	struct cgt_lock lock;
	struct cgt_cmp_data *data;
	int ctx;			/* enum cgt_cmp_ctx */
	int ready;			/* workers at the start line */
	int go;				/* release-stored: start */
	int stop;			/* release-stored: finish */
	struct cgt_cmp_step plan[CGT_CMP_PLAN];
};

struct cmp_worker {
	pthread_t thread;
	struct cmp_run *run;
	struct prng rng;
	struct cgt_thread state;	/* a harness worker's registration */
	/* sampled acquisition latency: [CGT_READ], [CGT_WRITE]; [CLOCK] one clock read's cost */
	struct cgt_hist hist[3];
	long ops[2];
	long sink;			/* what the readers counted, so no read is optimised away */
	double cpu[2];			/* user and system seconds */
};

static inline __attribute__((always_inline)) void lock_take(struct cgt_lock *lock, int side,
							   bool harness)
{
	if (harness)
		cgt_lock_acquire(lock, side);
	else if (side == CGT_WRITE)
		lock->ops->write_lock(lock);
	else
		lock->ops->read_lock(lock);
}

static inline __attribute__((always_inline)) void lock_drop(struct cgt_lock *lock, int side,
							   bool harness)
{
	if (harness)
		cgt_lock_release(lock, side);
	else if (side == CGT_WRITE)
		lock->ops->write_unlock(lock);
	else
		lock->ops->read_unlock(lock);
}

#define CLOCK		2	/* the histogram of the clock's own cost */
#define PLAN_NEXT(pos)	(((pos) + 1) & (CGT_CMP_PLAN - 1))

/*
 * The bare and harness contexts (@harness a constant: each gets its own loop). The sampled
 * acquisition's clock reads are timed by a third read: what sampling costs is measured in
 * the same run, not assumed (its median, as a read cut by preemption is not its cost).
 */
static inline __attribute__((always_inline)) void work(struct cmp_worker *wk, bool harness)
{
	struct cmp_run *run = wk->run;
	struct cgt_lock *lock = &run->lock;
	unsigned int pos = prng_below(&wk->rng, CGT_CMP_PLAN);
	long ops[2] = { 0, 0 }, sink = 0;

	/* one run at least, so that every worker has a figure however late it was let run */
	do {
		unsigned int pick = prng_below(&wk->rng, CGT_CMP_SAMPLE);

		for (unsigned int i = 0; i < CGT_CMP_SAMPLE; i++, pos = PLAN_NEXT(pos)) {
			const struct cgt_cmp_step *step = &run->plan[pos];
			int side = step->side;

			if (unlikely(i == pick)) {
				uint64_t t0 = cgt_clock_ns(), t1, t2;

				lock_take(lock, side, harness);
				t1 = cgt_clock_ns();
				t2 = cgt_clock_ns();
				cgt_hist_record(&wk->hist[side], t1 - t0);
				cgt_hist_record(&wk->hist[CLOCK], t2 - t1);
			} else {
				lock_take(lock, side, harness);
			}
			if (side == CGT_READ)
				sink += cgt_cmp_read_section(run->data, &wk->rng, step->len);
			else
				cgt_cmp_write_section(run->data, &wk->rng, step->len);
			lock_drop(lock, side, harness);
			ops[side]++;
		}
	} while (!__atomic_load_n(&run->stop, __ATOMIC_ACQUIRE));
	wk->ops[CGT_READ] = ops[CGT_READ];
	wk->ops[CGT_WRITE] = ops[CGT_WRITE];
	wk->sink = sink;
}

/* The limit: the same plan's lock operations, and nothing else. */
static void limit(struct cmp_worker *wk)
{
	struct cmp_run *run = wk->run;
	struct cgt_lock *lock = &run->lock;
	const struct cgt_lock_ops *ops = lock->ops;
	unsigned int pos = prng_below(&wk->rng, CGT_CMP_PLAN);
	long n[2] = { 0, 0 };

	do {
		for (unsigned int i = 0; i < CGT_CMP_SAMPLE; i++, pos = PLAN_NEXT(pos)) {
			int side = run->plan[pos].side;

			if (side == CGT_READ) {
				ops->read_lock(lock);
				ops->read_unlock(lock);
			} else {
				ops->write_lock(lock);
				ops->write_unlock(lock);
			}
			n[side]++;
		}
	} while (!__atomic_load_n(&run->stop, __ATOMIC_ACQUIRE));
	wk->ops[CGT_READ] = n[CGT_READ];
	wk->ops[CGT_WRITE] = n[CGT_WRITE];
}

static double tv_sec(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec * 1e-6;
}

static void *cmp_worker_main(void *arg)
{
	struct cmp_worker *wk = arg;
	struct cmp_run *run = wk->run;
	struct rusage r0, r1;

	cgt_rcu_register_thread();
	if (run->ctx == CGT_CMP_HARNESS)
		cgt_thread_register(&wk->state, CGT_ROLE_ACTOR, 0);
	__atomic_fetch_add(&run->ready, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&run->go, __ATOMIC_ACQUIRE))
		sched_yield();
	getrusage(RUSAGE_THREAD, &r0);
	if (run->ctx == CGT_CMP_HARNESS)
		work(wk, true);
	else if (run->ctx == CGT_CMP_BARE)
		work(wk, false);
	else
		limit(wk);
	getrusage(RUSAGE_THREAD, &r1);
	wk->cpu[0] = tv_sec(&r1.ru_utime) - tv_sec(&r0.ru_utime);
	wk->cpu[1] = tv_sec(&r1.ru_stime) - tv_sec(&r0.ru_stime);
	if (run->ctx == CGT_CMP_HARNESS)
		cgt_thread_unregister(&wk->state);
	cgt_rcu_unregister_thread();
	return NULL;
}

/* The worst writer wait and the reads that passed waiting writers, as the lock layer keeps them (locks/lock.c). */
static void class_figures(double *fig)
{
	struct cgt_lock_class c[16];
	int n = cgt_lock_classes(c, 16);

	for (int i = 0; i < n; i++) {
		if (strcmp(c[i].name, "css_set_lock"))
			continue;
		fig[CGT_FIG_WORST_WAIT] = (double)c[i].wait_max_ns[CGT_WRITE];
		fig[CGT_FIG_PASSED_OVER] = (double)c[i].passed_over;
	}
}

static void fill_figures(struct cmp_worker *wk, int threads, double elapsed, double *fig)
{
	static const double pct[] = { 50, 99, 99.9, 100 };
	struct cgt_hist *h = malloc(3 * sizeof(*h));
	double cpu[2] = { 0, 0 };
	long ops[2] = { 0, 0 };

	for (int f = 0; f < CGT_CMP_NR_FIGS; f++)
		fig[f] = NAN;
	if (!h)
		return;
	for (int k = 0; k < 3; k++)
		cgt_hist_init(&h[k]);
	for (int i = 0; i < threads; i++) {
		for (int side = CGT_READ; side <= CGT_WRITE; side++) {
			cgt_hist_merge(&h[side], &wk[i].hist[side]);
			ops[side] += wk[i].ops[side];
			cpu[side] += wk[i].cpu[side];	/* [0] user, [1] system */
		}
		cgt_hist_merge(&h[CLOCK], &wk[i].hist[CLOCK]);
	}
	fig[CGT_FIG_READS_PER_S] = (double)ops[CGT_READ] / elapsed;
	fig[CGT_FIG_WRITES_PER_S] = (double)ops[CGT_WRITE] / elapsed;
	for (int p = 0; p < 4; p++) {
		fig[CGT_FIG_READ_P50 + p] = h[CGT_READ].count ?
			(double)cgt_hist_percentile(&h[CGT_READ], pct[p]) : NAN;
		fig[CGT_FIG_WRITE_P50 + p] = h[CGT_WRITE].count ?
			(double)cgt_hist_percentile(&h[CGT_WRITE], pct[p]) : NAN;
	}
	fig[CGT_FIG_USER_S] = cpu[0];
	fig[CGT_FIG_SYS_S] = cpu[1];
	if (ops[CGT_READ] + ops[CGT_WRITE]) {
		double n = (double)(ops[CGT_READ] + ops[CGT_WRITE]);

		fig[CGT_FIG_CPU_PER_OP] = (cpu[0] + cpu[1]) * 1e9 / n;
		/* two clock reads per timed acquisition */
		if (h[CLOCK].count)
			fig[CGT_FIG_MEAS_PER_OP] = 2.0 * (double)cgt_hist_percentile(&h[CLOCK], 50) *
						   (double)h[CLOCK].count / n;
	}
	free(h);
}

static void sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Start @threads workers, let them run for @duration, stop and join them. */
static int run_workers(struct cmp_run *run, struct cmp_worker *wk, int threads,
		       double duration, uint64_t seed, double *elapsed)
{
	pthread_attr_t attr;
	int started = 0, ret = 0;
	double t0;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, WORKER_STACK);
	for (; started < threads; started++) {
		wk[started].run = run;
		prng_seed(&wk[started].rng, seed, (uint64_t)started);
		for (int k = 0; k < 3; k++)
			cgt_hist_init(&wk[started].hist[k]);
		ret = pthread_create(&wk[started].thread, &attr, cmp_worker_main, &wk[started]);
		if (ret)
			break;
	}
	pthread_attr_destroy(&attr);
	while (__atomic_load_n(&run->ready, __ATOMIC_ACQUIRE) < started)
		sleep_s(1e-4);
	t0 = cgt_now();
	__atomic_store_n(&run->go, 1, __ATOMIC_RELEASE);
	if (!ret)
		sleep_s(duration);
	__atomic_store_n(&run->stop, 1, __ATOMIC_RELEASE);
	/* a worker counts to the end of its run of CGT_CMP_SAMPLE: the time is to the join */
	for (int i = 0; i < started; i++)
		pthread_join(wk[i].thread, NULL);
	*elapsed = cgt_now() - t0;
	return -ret;
}

int cgt_cmp_measure(const struct cgt_workload *w, const struct cgt_lock_ops *ops, int threads,
		    int ctx, double duration, uint64_t seed, double *fig, bool *consistent)
{
	struct cmp_run *run = calloc(1, sizeof(*run));
	struct cmp_worker *wk = calloc((size_t)threads, sizeof(*wk));
	double elapsed = 0;
	int ret = -ENOMEM;

	if (!run || !wk)
		goto out;
	run->data = cgt_cmp_data_new();
	if (!run->data)
		goto out;
	run->w = w;
	run->ctx = ctx;
	cgt_cmp_plan(w, seed, run->plan);
	cgt_lock_classes_reset();
	cgt_lock_init(&run->lock, ops, "css_set_lock");
	ret = run_workers(run, wk, threads, duration, seed, &elapsed);
	if (!ret) {
		fill_figures(wk, threads, elapsed, fig);
		if (ctx == CGT_CMP_HARNESS)
			class_figures(fig);
		*consistent = cgt_cmp_data_consistent(run->data);
	}
	cgt_lock_destroy(&run->lock);
	cgt_cmp_data_free(run->data);
out:
	free(wk);
	free(run);
	return ret;
}
