/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The detectors that watch a run from outside the model: the event recorder and perturbation
 * at the marked points, and the watchdog thread (livelock, hang with its wait-for picture,
 * starvation, hard deadline). The lock-order and RCU-nesting checks live with the locks
 * (src/locks/lock_track.c); the invariants with the model; the sanitizers in sanitizers.c.
 */
#ifndef CGT_DETECT_H
#define CGT_DETECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cgt_detect_config {
	double stall;			/* seconds: a walk older, or a wait longer, is reported */
	double starve;			/* seconds: a writer passed over this long is starved */
	double deadline;		/* seconds since the run started: the hard end */
	int perturb;			/* per mille of marked points that delay or yield */
	uint64_t seed;
	bool controlled;		/* a controlled run: only the deadline is watched by time */
	void (*on_deadline)(void);	/* the run overran: write what we have and leave */
};

int cgt_detect_start(const struct cgt_detect_config *cfg);
void cgt_detect_stop(void);

/* events.c: the point hook (ring-buffer events, heartbeats, perturbation) */
void cgt_events_install(int perturb, uint64_t seed);
void cgt_events_remove(void);

/* watchdog.c: the wait-for picture right now (who holds what, who waits for what). */
void cgt_waitfor_picture(char *buf, size_t len);
/* A controlled run in which no thread can run: the hang report, with its cycle. */
void cgt_report_deadlock(long step);

/* sanitizers.c: reports the sanitizer runtimes made, and a hook for fatal ones. */
long cgt_sanitizer_reports(void);
const char *cgt_build_name(void);	/* "plain", "tsan" or "asan" */
int cgt_build_slowdown(void);		/* how much slower than plain: time bounds scale by it */
void cgt_sanitizer_on_fatal(void (*fn)(void));

#endif
