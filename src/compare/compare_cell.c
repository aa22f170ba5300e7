// SPDX-License-Identifier: GPL-2.0
/*
 * One measurement of cgtorture compare: a lock variant, a workload and a thread count, in
 * one context, for a duration. Each worker runs one of the loops of locks/lock_loop.h over
 * the workload's plan of acquisitions (from its own place in it); the timed acquisitions go
 * into the worker's own histograms, merged with the counts into the figures after the join.
 *
 * The contexts run the same plan, seeds and loops; they differ in what is taken and how:
 * bare and limit workers run the variant's own loops (its lock functions inlined), harness
 * workers are registered harness threads running the bare loop over cgt_lock_acquire(), as
 * the model takes a lock, loop workers run the limit's loop over locks that do nothing, and
 * reference workers the limit's loop over the variant's reference primitive. Every worker is
 * an RCU reader, since rcu-spinlock's, rcu-mutex's and percpu-rwsem's readers are.
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
	const struct cgt_lock_ops *ops;	/* what the context takes: the variant, its reference, none */
	struct cgt_lock lock;
	struct cgt_cmp_data *data;
	int ctx;			/* enum cgt_cmp_ctx */
	int ready;			/* workers at the start line */
	int go;				/* release-stored: start */
	int stop;			/* release-stored: finish */
	struct cgt_lock_step plan[CGT_LOCK_PLAN];
};

struct cmp_worker {
	pthread_t thread;
	struct cmp_run *run;
	struct prng rng;
	struct cgt_thread state;	/* a harness worker's registration */
	/* sampled acquisition latency: [CGT_READ], [CGT_WRITE]; [CLOCK] one clock read's cost */
	struct cgt_hist hist[3];
	struct cgt_lock_loop loop;
	double cpu[2];			/* user and system seconds */
};

#define CLOCK		2	/* the histogram of the clock's own cost */

/*
 * A timed acquisition of the bare and harness loops. The clock reads are timed by a third
 * read: what sampling costs is measured in the same run, not assumed (its median, as a read
 * cut by preemption is not its cost).
 */
static void sampled(void *arg, int side, uint64_t lock_ns, uint64_t clock_ns)
{
	struct cmp_worker *wk = arg;

	cgt_hist_record(&wk->hist[side], lock_ns);
	cgt_hist_record(&wk->hist[CLOCK], clock_ns);
}

/* The harness context: the bare loop, the lock taken as the model takes it. */
static void harness_loop(struct cgt_lock *lock, struct cgt_lock_loop *l)
{
	cgt_lock_loop_bare(lock, l, cgt_read_lock, cgt_read_unlock, cgt_write_lock,
			   cgt_write_unlock);
}

static void work(struct cmp_worker *wk)
{
	struct cmp_run *run = wk->run;
	struct cgt_lock_loop *l = &wk->loop;

	*l = (struct cgt_lock_loop){
		.plan = run->plan, .pos = prng_below(&wk->rng, CGT_LOCK_PLAN), .stop = &run->stop,
		.rng = &wk->rng, .read_section = cgt_cmp_read_section,
		.write_section = cgt_cmp_write_section, .data = run->data, .sampled = sampled,
		.arg = wk,
	};
	if (run->ctx == CGT_CMP_HARNESS)
		harness_loop(&run->lock, l);
	else if (run->ctx == CGT_CMP_BARE)
		run->ops->loops->bare(&run->lock, l);
	else
		run->ops->loops->limit(&run->lock, l);
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
	work(wk);
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

	if (!h)
		return;
	for (int k = 0; k < 3; k++)
		cgt_hist_init(&h[k]);
	for (int i = 0; i < threads; i++) {
		for (int side = CGT_READ; side <= CGT_WRITE; side++) {
			cgt_hist_merge(&h[side], &wk[i].hist[side]);
			ops[side] += wk[i].loop.ops[side];
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
	const struct cgt_lock_ops *take = ctx == CGT_CMP_REFERENCE ? cgt_cmp_reference(ops) :
					  ctx == CGT_CMP_LOOP ? &cgt_cmp_nolock : ops;
	struct cmp_run *run = calloc(1, sizeof(*run));
	struct cmp_worker *wk = calloc((size_t)threads, sizeof(*wk));
	double elapsed = 0;
	int ret = -ENOMEM;

	for (int f = 0; f < CGT_CMP_NR_FIGS; f++)
		fig[f] = NAN;
	*consistent = true;
	if (!take) {		/* a variant with no reference: its figures stay NaN */
		ret = 0;
		goto out;
	}
	if (!run || !wk)
		goto out;
	run->data = cgt_cmp_data_new();
	if (!run->data)
		goto out;
	run->w = w;
	run->ops = take;
	run->ctx = ctx;
	cgt_cmp_plan(w, seed, run->plan);
	cgt_lock_classes_reset();
	cgt_lock_init(&run->lock, take, "css_set_lock");
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
