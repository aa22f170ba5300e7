// SPDX-License-Identifier: GPL-2.0
/*
 * A free-running run: every model thread on its own pthread, the driver looking in every
 * tick of the wall clock until --duration, a --stop-on failure or a signal. Each look grows
 * the population (the ramp), steers rare paths and reader pressure, switches swarm phases
 * and checks the model now and then; at the end comes the last check, which must happen,
 * and the drain. Apart from the controlled driver, whose clock is its decisions.
 */
#include "run_internal.h"
#include "points.h"
#include "steer.h"
#include "../detect/detect.h"

/* how often rare paths and reader pressure are looked at, in seconds */
#define STEER_INTERVAL_S	0.25

/*
 * A free run starts by growing to the population it asks for: until RAMP_PERMILLE of the
 * phase's cap live, every operation forks (ops.c) while the walkers read as ever, so a run
 * at 30,000 threads spends its time at 30,000 rather than where its mix levels off (at
 * 6,000). A ramp not there by half the run ends anyway: the machine's thread cap, or
 * forks that fail. A controlled run has no ramp: its schedules stay as they were.
 */
#define RAMP_PERMILLE	875

void cgt_run_ramp_begin(struct cgt_run *run)
{
	long target = (long)cgt_phase_now()->threads * RAMP_PERMILLE / 1000;

	run->stats.ramp_target = target > 1 ? target : 1;
	run->stats.ramp_ms = -1;
	__atomic_store_n(&run->ramping, !run->cfg->sched, __ATOMIC_RELAXED);
}

static void run_ramp(struct cgt_run *run, double now_s)
{
	if (!__atomic_load_n(&run->ramping, __ATOMIC_RELAXED))
		return;
	if (READ_ONCE(run->stats.live) >= run->stats.ramp_target)
		cgt_run_ramp_end(run, now_s, true);
	else if (now_s >= run->cfg->duration / 2)
		cgt_run_ramp_end(run, now_s, false);
}

/* The driver's looks, one a tick, until the run's end. */
static void run_loop(struct cgt_run *run, struct run_progress *progress)
{
	const struct cgt_run_config *cfg = run->cfg;
	double end = run->start + cfg->duration, next_steer = 0;
	double next_check = cfg->check_interval > 0 ? run->start + cfg->check_interval : end + 1;

	while (cgt_now() < end && !__atomic_load_n(&run->failed, __ATOMIC_ACQUIRE) &&
	       !cgt_run_interrupted()) {
		cgt_run_progress(run, progress);
		run_ramp(run, cgt_now() - run->start);
		if (cgt_now() >= next_steer) {
			cgt_steer_refresh();
			cgt_press_refresh(cgt_now() - run->start);
			next_steer = cgt_now() + STEER_INTERVAL_S;
		}
		if (cfg->swarm && cgt_now() - run->start >= run->next_phase_s)
			cgt_run_next_phase(run, cgt_now() - run->start, -1);
		/* a check parks every reader, which would let a pressed lock's writer in */
		if (cgt_now() >= next_check && !cgt_press_now()) {
			cgt_run_check(run, cfg->stall, false);
			next_check = cgt_now() + cfg->check_interval;
		}
		cgt_run_sleep_tick();
	}
}

/*
 * The last check must happen: threads on their way through queues that move, on a
 * loaded machine, get two seconds past the stall between one parking and the next; a
 * thread that really hangs meanwhile is the watchdog's, reported after one stall. The
 * cgroups go offline first, so that writers queued on cgroup_mutex leave at once, and
 * perturbation stops: at 30,000 threads its delays held the queues still for seconds.
 */
static bool run_last_check(struct cgt_run *run)
{
	double timeout = run->cfg->stall + 2;
	bool quiesced;

	cgroup_offline_all();
	cgt_events_calm();
	quiesced = cgt_run_check(run, timeout, true);
	if (!quiesced && !cgt_run_interrupted())
		cgt_detect_no_rest(timeout);
	return quiesced;
}

/* The run driven to its end; true if every model thread finished. */
bool cgt_run_free(struct cgt_run *run, struct cgt_run_result *res)
{
	struct run_progress progress;

	bool drained;

	cgt_run_progress_begin(run, &progress);
	run_loop(run, &progress);
	cgt_press_stop(cgt_now() - run->start);
	run->ending = &progress;
	progress.next_progress = 0;	/* the wait says so at once */
	res->quiesced = run_last_check(run);
	drained = cgt_run_drain(run);
	run->ending = NULL;
	cgt_run_progress_end(&progress);
	return drained;
}
