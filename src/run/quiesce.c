// SPDX-License-Identifier: GPL-2.0
/*
 * Holding the model still: every model thread and walker parked at the top of its loop for
 * an invariant check, then let go; and at the end, every one told to stop and waited for.
 * Both kinds of run end in the same drain, and the free loop checks as it goes; the waits
 * are patient with a loaded machine, the run's hard deadline bounding them.
 */
#include <time.h>

#include "run_internal.h"
#include "steer.h"
#include "points.h"
#include "../base/build.h"
#include "../detect/detect.h"

/*
 * Seconds a drain may go without one model thread exiting, in the plain build (stretched as
 * --stall is). 2 s failed a correct run 3 times in 8 at a load of 100-500 (2,000 threads
 * queued on cgroup_mutex; 10 s: 8 of 8 passed, the slowest drained in 14.7 s): the hard
 * deadline, not this, is what bounds a drain that never ends.
 */
#define DRAIN_TIMEOUT	10.0

void cgt_run_sleep_tick(void)
{
	struct timespec ts = { 0, RUN_TICK_NS };

	nanosleep(&ts, NULL);
}

/*
 * Park every model thread and walker; false if they did not all come within @timeout. On a
 * loaded machine they come slowly: with @patient, each one that parks restarts the wait
 * (the final check, which must happen; the hard deadline bounds it). A check while running
 * is not patient: hundreds of threads queued behind a long migration would hold the whole
 * model paused for as long as that queue takes to drain.
 */
static bool run_quiesce(struct cgt_run *run, double timeout, bool patient)
{
	double deadline = cgt_now() + timeout;
	bool all = false;
	int parked = -1, now;

	__atomic_store_n(&run->pause, 1, __ATOMIC_SEQ_CST);
	/* a signal asks for the end within a second: the run is cut short, not judged stuck */
	while (!all && cgt_now() < deadline && !cgt_run_interrupted()) {
		now = __atomic_load_n(&run->parked, __ATOMIC_ACQUIRE);
		all = now == READ_ONCE(run->stats.actors) + run->nwalkers;
		if (patient && now > parked) {
			parked = now;
			deadline = cgt_now() + timeout;
		}
		if (run->ending)
			cgt_run_progress_wait(run->ending, "last check",
					      READ_ONCE(run->stats.actors) + run->nwalkers - now);
		if (!all)
			cgt_run_sleep_tick();
	}
	return all;
}

static void run_resume(struct cgt_run *run)
{
	__atomic_store_n(&run->pause, 0, __ATOMIC_SEQ_CST);
	cgt_run_wake_parked(run);
}

/*
 * Hold the model still and check it, giving its threads @timeout to come to rest; a model
 * that will not is the hang watchdog's.
 */
bool cgt_run_check(struct cgt_run *run, double timeout, bool patient)
{
	bool quiet = run_quiesce(run, timeout, patient);

	if (quiet) {
		stat_inc(run, checks);
		cgt_detect_at_rest();
	} else if (!patient) {
		stat_inc(run, checks_skipped);
	}
	run_resume(run);
	return quiet;
}

/*
 * Stop every model thread and wait for the last pthread to finish; false if for
 * DRAIN_TIMEOUT none did (each one that finishes restarts the wait: a loaded machine is
 * slow, not stuck; the run's hard deadline still bounds the whole).
 */
bool cgt_run_drain(struct cgt_run *run)
{
	double timeout = DRAIN_TIMEOUT * cgt_build_slowdown(), deadline = cgt_now() + timeout;
	long left, last = -1;

	__atomic_store_n(&run->stop, 1, __ATOMIC_RELEASE);
	cgroup_offline_all();
	cgt_events_calm();
	cgt_steer_remove();
	run_resume(run);
	while ((left = __atomic_load_n(&run->stats.actors, __ATOMIC_ACQUIRE)) > 0) {
		if (left != last) {
			last = left;
			deadline = cgt_now() + timeout;
		}
		if (cgt_now() > deadline)
			return false;
		if (run->ending)
			cgt_run_progress_wait(run->ending, "draining", left);
		cgt_run_sleep_tick();
	}
	return true;
}
