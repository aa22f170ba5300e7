// SPDX-License-Identifier: GPL-2.0
/*
 * One measurement of cgtorture compare: a lock variant, a workload and a thread count, in
 * one context, for a duration. Each worker thread takes the lock for reading or writing as
 * the workload draws, runs the critical section, and records how long the acquisition took
 * in its own histograms; after the join they are merged into the figures.
 *
 * Both contexts run the same loop, seeds and timing; they differ in how the lock is taken:
 * harness workers are registered harness threads taking it through cgt_lock_acquire(), as
 * the model does, bare workers call the variant's ops. Every worker is an RCU reader, since
 * rcu-spinlock's readers are.
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
	bool harness;
	int ready;			/* workers at the start line */
	int go;				/* release-stored: start */
	int stop;			/* release-stored: finish */
};

struct cmp_worker {
	pthread_t thread;
	struct cmp_run *run;
	struct prng rng;
	struct cgt_thread state;	/* a harness worker's registration */
	struct cgt_hist hist[2];	/* acquisition latency: [CGT_READ], [CGT_WRITE] */
	long ops[2];
	long sink;			/* what the readers counted, so no read is optimised away */
	double cpu[2];			/* user and system seconds */
};

static void lock_take(struct cmp_run *run, int side)
{
	struct cgt_lock *lock = &run->lock;

	if (run->harness)
		cgt_lock_acquire(lock, side);
	else if (side == CGT_WRITE)
		lock->ops->write_lock(lock);
	else
		lock->ops->read_lock(lock);
}

static void lock_drop(struct cmp_run *run, int side)
{
	struct cgt_lock *lock = &run->lock;

	if (run->harness)
		cgt_lock_release(lock, side);
	else if (side == CGT_WRITE)
		lock->ops->write_unlock(lock);
	else
		lock->ops->read_unlock(lock);
}

static double tv_sec(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec * 1e-6;
}

/* A worker: acquisitions as the workload draws them, until told to stop. */
static void *cmp_worker_main(void *arg)
{
	struct cmp_worker *wk = arg;
	struct cmp_run *run = wk->run;
	const struct cgt_workload *w = run->w;
	unsigned int burst_left = 0;
	struct rusage r0, r1;

	cgt_rcu_register_thread();
	if (run->harness)
		cgt_thread_register(&wk->state, CGT_ROLE_ACTOR, 0);
	__atomic_fetch_add(&run->ready, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&run->go, __ATOMIC_ACQUIRE))
		sched_yield();
	getrusage(RUSAGE_THREAD, &r0);
	while (!__atomic_load_n(&run->stop, __ATOMIC_ACQUIRE)) {
		unsigned int len = w->write_len;
		int side = CGT_WRITE;
		uint64_t t0, t1;

		if (burst_left) {
			burst_left--;
			len = w->burst_tasks;
		} else if (prng_below(&wk->rng, 1000) < w->read_permille) {
			side = CGT_READ;
			len = w->read_len;
		} else if (prng_below(&wk->rng, 1000) < w->burst_permille) {
			burst_left = w->burst_len - 1;
			len = w->burst_tasks;
		}
		t0 = cgt_clock_ns();
		lock_take(run, side);
		t1 = cgt_clock_ns();
		if (side == CGT_READ)
			wk->sink += cgt_cmp_read_section(run->data, &wk->rng, len);
		else
			cgt_cmp_write_section(run->data, &wk->rng, len);
		lock_drop(run, side);
		cgt_hist_record(&wk->hist[side], t1 - t0);
		wk->ops[side]++;
	}
	getrusage(RUSAGE_THREAD, &r1);
	wk->cpu[0] = tv_sec(&r1.ru_utime) - tv_sec(&r0.ru_utime);
	wk->cpu[1] = tv_sec(&r1.ru_stime) - tv_sec(&r0.ru_stime);
	if (run->harness)
		cgt_thread_unregister(&wk->state);
	cgt_rcu_unregister_thread();
	return NULL;
}

/* The worst writer wait and the reads that passed waiting writers, as lock_track.c keeps them. */
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
	struct cgt_hist *h = malloc(2 * sizeof(*h));
	double cpu[2] = { 0, 0 };
	long ops[2] = { 0, 0 };

	for (int f = 0; f < CGT_CMP_NR_FIGS; f++)
		fig[f] = NAN;
	if (!h)
		return;
	cgt_hist_init(&h[CGT_READ]);
	cgt_hist_init(&h[CGT_WRITE]);
	for (int i = 0; i < threads; i++) {
		for (int side = CGT_READ; side <= CGT_WRITE; side++) {
			cgt_hist_merge(&h[side], &wk[i].hist[side]);
			ops[side] += wk[i].ops[side];
			cpu[side] += wk[i].cpu[side];	/* [0] user, [1] system */
		}
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
	if (ops[CGT_READ] + ops[CGT_WRITE])
		fig[CGT_FIG_CPU_PER_OP] = (cpu[0] + cpu[1]) * 1e9 / (double)(ops[CGT_READ] +
									      ops[CGT_WRITE]);
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
		cgt_hist_init(&wk[started].hist[CGT_READ]);
		cgt_hist_init(&wk[started].hist[CGT_WRITE]);
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
	*elapsed = cgt_now() - t0;
	for (int i = 0; i < started; i++)
		pthread_join(wk[i].thread, NULL);
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
	run->harness = ctx == CGT_CMP_HARNESS;
	cgt_lock_classes_reset();
	cgt_lock_init(&run->lock, ops, "css_set_lock");
	ret = run_workers(run, wk, threads, duration, seed, &elapsed);
	if (!ret) {
		fill_figures(wk, threads, elapsed, fig);
		if (run->harness)
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
