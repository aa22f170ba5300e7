// SPDX-License-Identifier: GPL-2.0
/*
 * A stress run from its start to its end, of either kind: boot the model, let init fork the
 * first processes, keep the population up, hold every model thread still now and then to
 * check the model, print statistics; at the end check once more, stop every model thread,
 * and check that nothing leaked. The detectors watch throughout; every failure ends up in
 * the report. This file sets the run up and takes it down; the parts between are one file
 * each (run_internal.h): free.c or controlled.c drives it, walker.c runs init and the
 * walkers, quiesce.c holds the model still, end.c ends it early.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"
#include "actor.h"
#include "run_internal.h"
#include "points.h"
#include "press.h"
#include "steer.h"
#include "../detect/detect.h"

static struct cgt_thread driver;	/* the thread calling cgt_run, in the registry */

/*
 * What --kernel makes known: each lock whose variant the era names and whose variant is a
 * catalogued bug (3.14 and 3.15's reader-first rwlock_t) fails as that bug, which the era
 * shipped with; asked for with --bug, the same bug is what the run looks for.
 */
static void run_know_era(const struct cgt_run_config *cfg)
{
	const struct { const char *lock, *era_variant; const struct cgt_lock_ops *ops; } locks[] = {
		{ "tasklist_lock", cfg->era->tasklist_lock, cfg->tasklist_lock },
		{ "css_set_lock", cfg->era->css_set_lock, cfg->css_lock },
	};
	enum cgt_bug bug;

	for (size_t i = 0; cfg->kernel_given && i < ARRAY_SIZE(locks); i++) {
		const struct cgt_lock_ops *ops = locks[i].ops;

		if (ops && ops->bug && !strcmp(ops->name, locks[i].era_variant) &&
		    !cgt_bug_parse(ops->bug, &bug) && !(cfg->bugs & (1UL << bug)))
			cgt_failure_know(cgt_bug_catalogue[bug].detector, locks[i].lock, ops->bug);
	}
}

double cgt_run_deadline_s(const struct cgt_run_config *cfg)
{
	return cfg->duration + cfg->stall + 4 + cfg->threads / 2000.0;
}

static struct cgt_run *run_alloc(const struct cgt_run_config *cfg,
				 const struct cgt_run_hooks *hooks)
{
	static const struct cgt_run_hooks no_hooks;
	struct cgt_run *run = calloc(1, sizeof(*run));

	if (!run)
		return NULL;
	run->cfg = cfg;
	run->hooks = hooks ? hooks : &no_hooks;
	run->stop_step = -1;
	run->next_check_step = CGT_CHECK_DECISIONS;
	pthread_mutex_init(&run->park_lock, NULL);
	return run;
}

/* What the run before left behind set back, the driver registered, the run's ends armed. */
static void run_reset(struct cgt_run *run, struct cgt_run_result *res)
{
	cgt_clock_reset();
	cgt_tick_start();
	cgt_failures_reset();
	run_know_era(run->cfg);
	cgt_lock_classes_reset();
	cgt_threads_cover_reset();
	cgt_rcu_register_thread();
	cgt_thread_register(&driver, CGT_ROLE_DRIVER, 0);
	cgt_run_end_arm(run, res);
}

/* Phase 0 in force, and what reads it from the first model thread on. */
static void run_first_phase(struct cgt_run *run)
{
	const struct cgt_run_config *cfg = run->cfg;

	cgt_phase_reset();
	run->phase = 0;
	/* meetings perturb unless perturbation is pinned off (--perturb 0, --swarm off) */
	cgt_events_install(cgt_phase_begin(cfg, 0, 0, cfg->sched ? 0 : -1)->perturb,
			   (cfg->swarm & (1u << CGT_SWARM_PERTURB)) || cfg->perturb, cfg->seed);
	if (!cfg->sched)
		cgt_steer_install(cfg->seed);	/* before the first model thread reads it */
	cgt_press_reset(&(struct cgt_press_config){
		.duration = cfg->sched ? 0 : cfg->duration, .starve = cfg->starve,
		.known_too = cfg->expect == CGT_EXPECT_KNOWN });
	run->next_phase_s = cgt_swarm_length_s(cfg, 0);
	run->next_phase_step = cgt_swarm_length_steps(cfg, 0);
}

/* The actors, the model and the detectors started; false if one of them would not. */
static bool run_boot(struct cgt_run *run)
{
	const struct cgt_run_config *cfg = run->cfg;
	struct cgt_model_config mcfg = {
		.era			= cfg->era,
		.css_set_lock_ops	= cfg->css_lock,
		.tasklist_lock_ops	= cfg->tasklist_lock,
		.hooks			= &cgt_actor_hooks,
		.iter			= cfg->iter,
		.walk_limit		= 2L * cfg->threads + 64,
		.reap_delay		= cgt_phase_now()->reap_delay,
		.pid_max		= cgt_swarm_pid_max(cfg),
		.off_cpu		= cfg->off_cpu,
		.bugs			= cfg->bugs,
	};
	struct cgt_detect_config dcfg = {
		.stall		= cfg->stall,
		.starve		= cfg->starve,
		.deadline	= cgt_run_deadline_s(cfg),
		.controlled	= cfg->sched != NULL,
		.on_abort	= cgt_run_abort,
	};

	if (run->hooks->begin)
		run->hooks->begin(cfg);
	return !cgt_actors_init(run) && !cgt_detect_start(&dcfg) && !cgt_model_init(&mcfg) &&
	       !cgt_detect_watch();
}

/* A boot that failed undone, before any model thread ran. */
static void run_unboot(struct cgt_run *run)
{
	cgt_events_remove();
	cgt_steer_remove();
	cgt_thread_unregister(&driver);
	cgt_rcu_unregister_thread();
	cgt_tick_stop();
	free(run);
}

/* The clock started and the driver's own threads with it, after the swarm's notes. */
static void run_start(struct cgt_run *run)
{
	const struct cgt_run_config *cfg = run->cfg;
	int pid_max = cgt_swarm_pid_max(cfg);

	if (cgt_phase_now()->off_cpu_s > 0)
		cgt_model_off_cpu_arm(cgt_phase_now()->off_cpu_s, 1);
	if (pid_max != cfg->pid_max && !cfg->quiet)
		printf("  pid space: numbers handed out again past pid_max %d (drawn by the swarm; "
		       "--pid-max pins it)\n", pid_max);
	if (cfg->threads_drawn && !cfg->quiet)
		printf("  population: up to %d threads the whole run (drawn by the swarm; "
		       "--threads pins it)\n", cfg->threads);

	run->start = cgt_now();
	cgt_run_ramp_begin(run);
	if (cfg->sched)
		cgt_run_controlled_start(run);
	cgt_run_walkers_start(run);
}

/* Every model thread gone: the driver's threads joined, the model and the scheduler freed. */
static void run_release(struct cgt_run *run)
{
	cgt_run_walkers_join(run);
	cgt_model_release_init();
	cgt_detect_after_exit();
	cgt_model_free();
	if (run->cfg->sched)
		cgt_sched_finish();
}

/*
 * The detectors and the driver's hooks stopped and the result filled in; the run itself is
 * freed only if every model thread finished, else threads are stuck in the model: the
 * caller must leave with _exit().
 */
static void run_end(struct cgt_run *run, struct cgt_run_result *res)
{
	if (res->finished)
		run_release(run);
	cgt_detect_stop();
	cgt_events_remove();
	cgt_steer_remove();
	cgt_tick_stop();
	cgt_run_fill_result(run, res);
	if (!res->finished)
		return;
	free(run->walkers);
	cgt_thread_unregister(&driver);
	cgt_rcu_unregister_thread();
	cgt_run_end_disarm();
	free(run);
}

int cgt_run(const struct cgt_run_config *cfg, const struct cgt_run_hooks *hooks,
	    struct cgt_run_result *res)
{
	struct cgt_run *run = run_alloc(cfg, hooks);

	memset(res, 0, sizeof(*res));
	if (!run)
		return -ENOMEM;
	run_reset(run, res);
	run_first_phase(run);
	if (!run_boot(run)) {
		run_unboot(run);
		return -EINVAL;
	}
	run_start(run);
	if (cfg->sched)
		res->finished = cgt_run_controlled(run, res);
	else
		res->finished = cgt_run_free(run, res);
	run_end(run, res);
	return 0;
}
