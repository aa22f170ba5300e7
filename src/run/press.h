/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reader pressure (press.c). A reader-first lock breaks no promise when readers pass its
 * waiting writer: it fails only by time, a writer kept out for --starve, and only readers
 * that overlap back to back for that long show it, as many CPUs walking under the lock did
 * in the kernel's lockups behind tasklist_lock. Swarm phases spread the walkers over every
 * reader kind and mostly end within a second, so that pressure comes and goes before
 * --starve. So when a reader-first lock's readers are seen passing a waiting writer, every
 * walker turns to that lock's readers (ops.h) for CGT_PRESS_STARVES x --starve, or until a
 * starvation report names the lock: at most CGT_PRESS_PER_LOCK times a run, only with that
 * much of the run left, and for a third of the run at most, so the rest of the run goes on
 * as drawn. A lock that keeps its writers' place is never pressed: there the first read
 * that passes a queued writer fails the run. Nor is one whose starvation is the era's known
 * behaviour (run.c), unless the run expects to see it: a night over an era looks for what
 * is new, and pressing a known lock keeps every fork out meanwhile.
 */
#ifndef CGT_RUN_PRESS_H
#define CGT_RUN_PRESS_H

#include <stdbool.h>

#include "ops.h"

#define CGT_PRESS_STARVES	1.5
#define CGT_PRESS_PER_LOCK	3
#define CGT_PRESS_LOG		8

struct cgt_press {
	const char *lock;		/* the model lock pressed */
	double start_s;			/* seconds into the run */
	double length_s;
	bool starved;			/* a writer of it was reported starved meanwhile */
};

struct cgt_press_config {
	double duration, starve;	/* seconds */
	bool known_too;			/* press a lock whose starvation is known */
};

/* A free-running run's start and end; a controlled run presses nothing. */
void cgt_press_reset(const struct cgt_press_config *cfg);
void cgt_press_stop(double now_s);
/* The driver, now and then (@now_s: seconds into the run): start or end a press. */
void cgt_press_refresh(double now_s);
/* A walker's turn: one read under the press in force, if any (else false: read as usual). */
bool cgt_press_read(struct cgt_run *run, struct prng *rng, struct cgt_watch *watch);
/* The lock pressed now, or NULL. */
const char *cgt_press_now(void);
/* The presses so far, oldest first. */
int cgt_presses(struct cgt_press *out, int max);

#endif
