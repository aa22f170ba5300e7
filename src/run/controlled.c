// SPDX-License-Identifier: GPL-2.0
/*
 * A controlled run: one model thread at a time under a scheduler (src/sched/), its clock
 * counted in decisions. The tick at every decision asks for checks and for the end; the
 * driver hands out the baton and waits for the model to rest, end or block. Apart from the
 * free loop, whose clock is the wall's, so that each reads as the one loop it is.
 */
#include "run_internal.h"
#include "../detect/detect.h"

struct cgt_sched_params cgt_run_sched_params(const struct cgt_run_config *cfg)
{
	return (struct cgt_sched_params){ .seed = cfg->seed, .steps = cfg->steps,
					  .tunables = cfg->sched_tunables };
}

/* the run whose decisions tick: the scheduler calls run_tick without an argument */
static struct cgt_run *tick_run;

/*
 * A controlled run's clock, at every decision (the baton holder calls it): a check every
 * CGT_CHECK_DECISIONS, and the end after --steps, at the --stop-on failure, or when the
 * driver asks (wall clock, signal). A replay stops exactly where the recorded run did.
 */
static void run_tick(long step)
{
	struct cgt_run *run = tick_run;
	const struct cgt_run_config *cfg = run->cfg;
	bool stop;

	if (cfg->swarm && step >= run->next_phase_step)
		cgt_run_next_phase(run, -1, step);
	if (__atomic_load_n(&run->pause, __ATOMIC_RELAXED))
		return;
	/*
	 * At or past it: a replay that stopped fitting may be held in a check's pause at
	 * that very decision, and must still stop once the pause is over.
	 */
	if (cfg->follow && !cfg->lenient)
		stop = cfg->follow_stop_step >= 0 && step >= cfg->follow_stop_step;
	else
		stop = step >= cfg->steps || __atomic_load_n(&run->failed, __ATOMIC_RELAXED) ||
		       cgt_sched_stop_requested();
	if (stop && run->stop_step < 0) {
		run->stop_step = step;
		run->final = true;
		__atomic_store_n(&run->pause, 1, __ATOMIC_RELEASE);
	} else if (run->stop_step < 0 && cfg->check_interval > 0 && step >= run->next_check_step) {
		run->next_check_step += CGT_CHECK_DECISIONS;
		__atomic_store_n(&run->pause, 1, __ATOMIC_RELEASE);
	}
	/* after the stop: a failure seen at this decision stops the run at the next, as ever */
	cgt_detect_decision(step);
}

/*
 * The driver of a controlled run: it hands out the baton, then waits for the model to come
 * to rest (everyone parked: check it), to end (everyone gone), or to block for good (no
 * one can run: a deadlock, reported as a hang). Returns false if threads stay stuck.
 */
static bool run_drive(struct cgt_run *run, struct cgt_run_result *res,
		      struct run_progress *progress)
{
	double end = run->start + run->cfg->duration;

	cgt_sched_kick();
	for (;;) {
		switch (cgt_sched_wait_idle(0.05)) {
		case CGT_IDLE_BUSY:
			cgt_run_progress(run, progress);
			if ((cgt_now() >= end || cgt_run_interrupted()) &&
			    !cgt_sched_stop_requested())
				cgt_sched_request_stop();
			continue;
		case CGT_IDLE_DONE:
			return true;
		case CGT_IDLE_DEADLOCK:
			cgt_detect_stuck(cgt_sched_steps());
			return false;
		case CGT_IDLE_PARKED:
			break;
		}
		/*
		 * The lock orders the model's state before the check and the check before what
		 * each thread does once it wakes, for TSan, which does not see the baton.
		 */
		pthread_mutex_lock(&run->park_lock);
		stat_inc(run, checks);
		cgt_detect_at_rest();
		pthread_mutex_unlock(&run->park_lock);
		if (run->final) {
			res->quiesced = true;
			__atomic_store_n(&run->stop, 1, __ATOMIC_RELEASE);
		}
		__atomic_store_n(&run->pause, 0, __ATOMIC_RELEASE);
		cgt_sched_wake(&run->pause);
		cgt_sched_kick();
	}
}

/* The scheduler started, ticking @run's clock, before the first model thread joins it. */
void cgt_run_controlled_start(struct cgt_run *run)
{
	const struct cgt_run_config *cfg = run->cfg;
	struct cgt_sched_config scfg = {
		.ops = cfg->sched, .params = cgt_run_sched_params(cfg),
		.follow = cfg->follow, .lenient = cfg->lenient,
		.park = &run->pause, .tick = run_tick,
		.lock_code = cgt_run_lock_code(cfg),
	};

	tick_run = run;
	cgt_sched_init(&scfg);
}

/* The run driven to its end; true if every model thread finished. */
bool cgt_run_controlled(struct cgt_run *run, struct cgt_run_result *res)
{
	struct run_progress progress;
	bool finished;

	cgt_run_progress_begin(run, &progress);
	/* every model thread has left the scheduler; their pthreads finish as in a drain */
	finished = run_drive(run, res, &progress) && cgt_run_drain(run);
	cgt_run_progress_end(&progress);
	return finished;
}
