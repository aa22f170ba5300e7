// SPDX-License-Identifier: GPL-2.0
/*
 * The driver's own model threads: init (walkers[0]) and the walkers, readers outside the
 * model's thread groups as a monitoring tool would be. Each takes a turn between two marked
 * points, and parks or stops there as every model thread does. They are threads of their
 * own so that the driver never blocks inside the model, whatever the model does.
 */
#include <stdlib.h>
#include <time.h>

#include "run_internal.h"

struct run_walker {
	pthread_t thread;
	struct cgt_run *run;
	struct prng rng;
	struct cgt_watch watch;
	struct cgt_thread state;
	struct cgt_sched_ent ent;
	int index;		/* 0: init; the phase's first walkers read, the rest idle */
};

static void walker_turn(struct run_walker *w)
{
	struct timespec ts = { 0, RUN_TICK_NS / 4 };

	/* under reader pressure every walker reads the pressed lock, the idle ones too */
	if (cgt_press_read(w->run, &w->rng, &w->watch))
		return;
	if (w->index <= cgt_phase_now()->walkers)
		cgt_observe(w->run, &w->rng, &w->watch);
	else if (!cgt_sched_on())
		nanosleep(&ts, NULL);
}

/* init (pid 1) keeps the population up: a new process when few threads are left. */
static void init_turn(struct run_walker *w)
{
	struct cgt_run *run = w->run;
	int cap = cgt_phase_now()->threads, floor = cap / 4 > 1 ? cap / 4 : 1;
	struct timespec ts = { 0, RUN_TICK_NS / 4 };

	while (READ_ONCE(run->stats.live) < floor && !cgt_run_stopping(run) &&
	       !__atomic_load_n(&run->pause, __ATOMIC_ACQUIRE))
		if (cgt_fork_from(run, &init_task, false))
			break;
	/* under the scheduler the loop's marked point is init's pause */
	if (!cgt_sched_on())
		nanosleep(&ts, NULL);
}

static void *walker_main(void *arg)
{
	struct run_walker *w = arg;
	struct cgt_run *run = w->run;
	bool init = !w->index;

	cgt_rcu_register_thread();
	cgt_thread_register(&w->state, init ? CGT_ROLE_ACTOR : CGT_ROLE_WALKER,
			    init ? init_task.pid : 0);
	if (cgt_sched_on())
		cgt_sched_enter(&w->ent);
	while (!cgt_run_stopping(run)) {
		cgt_point(CGT_PT_LOOP, NULL);
		if (__atomic_load_n(&run->pause, __ATOMIC_ACQUIRE)) {
			cgt_run_park(run, NULL);
			continue;
		}
		if (init)
			init_turn(w);
		else
			walker_turn(w);
	}
	cgt_sched_exit();
	cgt_thread_unregister(&w->state);
	cgt_rcu_unregister_thread();
	return NULL;
}

/*
 * Start init and every walker a phase may want, each under the scheduler in a controlled
 * run; those that did start are run->nwalkers, the count a check waits for.
 */
void cgt_run_walkers_start(struct cgt_run *run)
{
	const struct cgt_run_config *cfg = run->cfg;
	struct run_walker *walkers = calloc((size_t)cgt_swarm_walkers(cfg) + 1, sizeof(*walkers));

	run->walkers = walkers;
	for (int i = 0; walkers && i <= cgt_swarm_walkers(cfg); i++) {
		walkers[i].run = run;
		walkers[i].index = i;
		prng_seed(&walkers[i].rng, cfg->seed, ~(uint64_t)i);
		if (cfg->sched)
			cgt_sched_add(&walkers[i].ent);
		if (pthread_create(&walkers[i].thread, NULL, walker_main, &walkers[i]))
			break;
		run->nwalkers++;
	}
}

void cgt_run_walkers_join(struct cgt_run *run)
{
	for (int i = 0; i < run->nwalkers; i++)
		pthread_join(run->walkers[i].thread, NULL);
}
