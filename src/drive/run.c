// SPDX-License-Identifier: GPL-2.0
/*
 * The free-running stress run: boot the model, let init fork the first processes, keep the
 * population up, print statistics, then hold every model thread still, check the model,
 * stop them all, and check that nothing leaked.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "run.h"

#define QUIESCE_TIMEOUT	5.0	/* seconds to wait for every model thread to park */
#define DRAIN_TIMEOUT	5.0	/* seconds to wait for every model thread to exit */
#define TICK_NS		20000000L

double cgt_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void sleep_tick(void)
{
	struct timespec ts = { 0, TICK_NS };

	nanosleep(&ts, NULL);
}

/* A model thread waits here, between operations, while the driver inspects the model. */
void cgt_run_park(struct cgt_run *run, struct task *me)
{
	struct timespec ts;

	pthread_mutex_lock(&run->park_lock);
	run->parked++;
	pthread_cond_broadcast(&run->park_cond);
	/* a SIGKILL from an exec that began before the pause must still take effect */
	while (__atomic_load_n(&run->pause, __ATOMIC_ACQUIRE) && !cgt_run_stopping(run) &&
	       !(me && fatal_signal_pending(me))) {
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 5000000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&run->park_cond, &run->park_lock, &ts);
	}
	run->parked--;
	pthread_mutex_unlock(&run->park_lock);
}

/* Park every model thread and walker; false if some did not come within the timeout. */
static bool run_quiesce(struct cgt_run *run, int walkers)
{
	double deadline = cgt_now() + QUIESCE_TIMEOUT;
	bool all = false;

	__atomic_store_n(&run->pause, 1, __ATOMIC_RELEASE);
	pthread_mutex_lock(&run->park_lock);
	while (!all && cgt_now() < deadline) {
		all = run->parked == READ_ONCE(run->stats.actors) + walkers;
		if (!all) {
			pthread_mutex_unlock(&run->park_lock);
			sleep_tick();
			pthread_mutex_lock(&run->park_lock);
		}
	}
	pthread_mutex_unlock(&run->park_lock);
	return all;
}

static void run_resume(struct cgt_run *run)
{
	pthread_mutex_lock(&run->park_lock);
	__atomic_store_n(&run->pause, 0, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&run->park_cond);
	pthread_mutex_unlock(&run->park_lock);
}

/* A walker: a reader outside the model's thread groups, as a monitoring tool would be. */
struct walker {
	pthread_t thread;
	struct cgt_run *run;
	struct prng rng;
};

static void *walker_main(void *arg)
{
	struct walker *w = arg;
	struct cgt_run *run = w->run;

	cgt_rcu_register_thread();
	while (!cgt_run_stopping(run)) {
		if (__atomic_load_n(&run->pause, __ATOMIC_ACQUIRE)) {
			cgt_run_park(run, NULL);
			continue;
		}
		cgt_observe(run, &w->rng);
	}
	cgt_rcu_unregister_thread();
	return NULL;
}

/* init keeps the population up: a new process when few threads are left. */
static void run_replenish(struct cgt_run *run)
{
	int floor = run->cfg->threads / 4 > 1 ? run->cfg->threads / 4 : 1;

	while (READ_ONCE(run->stats.live) < floor && !cgt_run_stopping(run))
		if (cgt_fork_from(run, &init_task, false))
			break;
}

static void run_report_progress(struct cgt_run *run, double start, double *next_stats,
				double *next_progress, bool tty)
{
	const struct cgt_run_config *cfg = run->cfg;
	double now = cgt_now(), elapsed = now - start;
	struct cgt_stats s;

	if (cfg->quiet)
		return;
	if (cfg->stats_interval > 0 && now >= *next_stats) {
		cgt_stats_snapshot(&run->stats, &s);
		if (tty)
			fputs("\r\033[K", stderr);
		cgt_print_stats(stdout, &s, elapsed);
		fflush(stdout);
		*next_stats += cfg->stats_interval;
	}
	if (tty && now >= *next_progress) {
		cgt_stats_snapshot(&run->stats, &s);
		cgt_print_progress(stderr, &s, elapsed, cfg->duration);
		*next_progress = now + 0.25;
	}
}

/* Stop every model thread and wait for the last pthread to finish. */
static bool run_drain(struct cgt_run *run)
{
	double deadline = cgt_now() + DRAIN_TIMEOUT;

	__atomic_store_n(&run->stop, 1, __ATOMIC_RELEASE);
	run_resume(run);
	while (__atomic_load_n(&run->stats.actors, __ATOMIC_ACQUIRE) > 0) {
		if (cgt_now() > deadline)
			return false;
		sleep_tick();
	}
	return true;
}

int cgt_run(const struct cgt_run_config *cfg, struct cgt_run_result *res)
{
	struct cgt_model_config mcfg = {
		.css_set_lock_ops	= cfg->css_lock,
		.tasklist_lock_ops	= cfg->tasklist_lock,
		.hooks			= &cgt_actor_hooks,
		.iter			= cfg->iter,
		.walk_limit		= 4L * cfg->threads + 64,
	};
	struct cgt_run *run = calloc(1, sizeof(*run));
	struct walker *walkers = NULL;
	double start, end, next_stats, next_progress = 0;
	bool tty = !cfg->quiet && isatty(STDERR_FILENO);
	int i, nwalkers = 0;

	memset(res, 0, sizeof(*res));
	if (!run)
		return -ENOMEM;
	run->cfg = cfg;
	pthread_mutex_init(&run->park_lock, NULL);
	pthread_cond_init(&run->park_cond, NULL);
	pthread_mutex_init(&run->livelock_lock, NULL);
	cgt_rcu_register_thread();
	cgt_violations_reset();
	if (cgt_actors_init(run) || cgt_model_init(&mcfg)) {
		cgt_rcu_unregister_thread();
		free(run);
		return -EINVAL;
	}

	start = cgt_now();
	end = start + cfg->duration;
	next_stats = start + cfg->stats_interval;

	walkers = calloc((size_t)cfg->walkers + 1, sizeof(*walkers));
	for (i = 0; walkers && i < cfg->walkers; i++) {
		walkers[i].run = run;
		prng_seed(&walkers[i].rng, cfg->seed, ~(uint64_t)i);
		if (pthread_create(&walkers[i].thread, NULL, walker_main, &walkers[i]))
			break;
		nwalkers++;
	}

	while (cgt_now() < end) {
		run_replenish(run);
		run_report_progress(run, start, &next_stats, &next_progress, tty);
		sleep_tick();
	}
	if (tty)
		fputs("\r\033[K", stderr);

	res->quiesced = run_quiesce(run, nwalkers);
	if (res->quiesced)
		res->invariants_ok = !cgt_check_invariants(res->why, sizeof(res->why));
	else
		snprintf(res->why, sizeof(res->why), "model threads did not come to rest in %.0f s",
			 QUIESCE_TIMEOUT);
	res->elapsed = cgt_now() - start;

	res->finished = run_drain(run);
	for (i = 0; i < nwalkers; i++)
		pthread_join(walkers[i].thread, NULL);
	free(walkers);

	cgt_stats_snapshot(&run->stats, &res->stats);
	memcpy(res->livelock_first, run->livelock_first, sizeof(res->livelock_first));
	cgt_violations(&res->violations);
	if (res->finished)
		res->leaks_ok = !cgt_model_exit(res->leak_why, sizeof(res->leak_why));
	res->pass = res->quiesced && res->invariants_ok && res->finished && res->leaks_ok &&
		    !res->stats.livelocks && !res->violations.count;
	cgt_rcu_unregister_thread();
	free(run);
	return 0;
}
