// SPDX-License-Identifier: GPL-2.0
/*
 * How a run ends besides by its clock: a signal (SIGINT, SIGTERM) asks for the end, the
 * --stop-on failure calls it, the hard deadline cuts it short; and the result that every
 * end fills in. The signal handler, the failure hook and the deadline's abort are called
 * without an argument, so the run under way is this file's to know.
 */
#include <unistd.h>

#include "run_internal.h"
#include "../detect/detect.h"

static struct cgt_run *current_run;
static struct cgt_run_result *deadline_res;
static int interrupted;

int cgt_run_interrupted(void)
{
	return __atomic_load_n(&interrupted, __ATOMIC_RELAXED);
}

/* From a signal handler: end the run early; it still writes what it has. */
void cgt_run_interrupt(int sig)
{
	__atomic_store_n(&interrupted, sig, __ATOMIC_RELAXED);
}

/*
 * --stop-on: the run ends once the chosen detector (or any) has reported; a known failure
 * ends it only when its detector was named.
 */
static void run_failure_seen(enum cgt_detector det, bool known)
{
	struct cgt_run *run = current_run;

	if (!run)
		return;
	if ((run->cfg->stop_on == CGT_STOP_ON_ANY && !known) || run->cfg->stop_on == (int)det)
		__atomic_store_n(&run->failed, 1, __ATOMIC_RELEASE);
	if (run->hooks->failure)
		run->hooks->failure(run->cfg, det, cgt_failures_total());
}

/* @run is under way: its failures, its deadline and its @res are this file's to handle. */
void cgt_run_end_arm(struct cgt_run *run, struct cgt_run_result *res)
{
	current_run = run;
	deadline_res = res;
	cgt_failure_set_hook(run_failure_seen);
}

/* The run is over and freed: a failure seen or a deadline passed from now is no run's. */
void cgt_run_end_disarm(void)
{
	current_run = NULL;
}

static bool cfg_controlled(const struct cgt_run *run)
{
	return run->cfg->sched != NULL;
}

/* What the run gives back, at its end or at its abort. */
void cgt_run_fill_result(struct cgt_run *run, struct cgt_run_result *res)
{
	struct cgt_failure f[1];

	res->elapsed = cgt_now() - run->start;
	cgt_stats_snapshot(&run->stats, &res->stats);
	cgt_threads_cover(&res->cover);
	res->failures = cgt_failures_total();
	res->known = cgt_failures_known();
	res->first_failure = cgt_failures_get(f, 1) ? (double)f[0].ns / 1e9 : -1;
	res->interrupted = cgt_run_interrupted();
	res->pass = res->failures == res->known && res->quiesced && res->finished;
	res->npresses = cgt_presses(res->presses, CGT_PRESS_LOG);
	res->steps = cfg_controlled(run) ? cgt_sched_steps() : 0;
	res->stop_step = run->stop_step;
	res->diverged = cfg_controlled(run) ?
		cgt_sched_diverged(res->diverged_why, sizeof(res->diverged_why)) : -1;
}

/*
 * The hard deadline passed with the run still going, or ASan is about to abort: write what
 * we have, then leave at once.
 */
void cgt_run_abort(void)
{
	struct cgt_run *run = current_run;

	if (!run || !deadline_res || !run->hooks->abort)
		_exit(CGT_EXIT_FAIL);
	cgt_detect_last_look();
	cgt_run_fill_result(run, deadline_res);
	_exit(run->hooks->abort(run->cfg, deadline_res));
}
