/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The parts of a run's driver, one job a file, as cgt_run (run.c) calls them in turn; private
 * to src/run/. The state they share is the run's own (struct cgt_run, park.h).
 */
#ifndef CGT_RUN_INTERNAL_H
#define CGT_RUN_INTERNAL_H

#include "park.h"

#define RUN_TICK_NS	20000000L	/* the driver's sleep between two looks */

/* walker.c: init and the walkers, the driver's own model threads */
void cgt_run_walkers_start(struct cgt_run *run);
void cgt_run_walkers_join(struct cgt_run *run);

/* quiesce.c: the model held still and checked, or stopped for good */
void cgt_run_sleep_tick(void);
bool cgt_run_check(struct cgt_run *run, double timeout, bool patient);
bool cgt_run_drain(struct cgt_run *run);

/* progress.c: the stats lines on stdout and the progress line on a terminal */
struct run_progress {
	double next_stats;		/* when the next stats line is due */
	double next_progress;		/* when the progress line is drawn again */
	bool tty;			/* stderr is a terminal, which the progress line needs */
	const char *waiting;		/* the end's phase last shown, or NULL */
};
void cgt_run_progress_begin(const struct cgt_run *run, struct run_progress *p);
void cgt_run_progress(struct cgt_run *run, struct run_progress *p);
void cgt_run_progress_end(const struct run_progress *p);
/*
 * Past the run's time, what it waits for (@what: "last check", "draining") and for how many
 * threads, on the progress line: a large run's end is long, and must not be silent.
 */
void cgt_run_progress_wait(struct run_progress *p, const char *what, long left);

/* end.c: the run's early ends (signal, --stop-on, hard deadline) and its result */
void cgt_run_end_arm(struct cgt_run *run, struct cgt_run_result *res);
void cgt_run_end_disarm(void);
void cgt_run_abort(void);
void cgt_run_fill_result(struct cgt_run *run, struct cgt_run_result *res);

/* phase.c: the next swarm phase, @now_s into a free run or at decision @step (else -1) */
void cgt_run_next_phase(struct cgt_run *run, double now_s, long step);

/* free.c: a free-running run, and the ramp that starts it */
void cgt_run_ramp_begin(struct cgt_run *run);
bool cgt_run_free(struct cgt_run *run, struct cgt_run_result *res);

/* controlled.c: a run under the scheduler */
void cgt_run_controlled_start(struct cgt_run *run);
bool cgt_run_controlled(struct cgt_run *run, struct cgt_run_result *res);

#endif
