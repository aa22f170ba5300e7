/* SPDX-License-Identifier: GPL-2.0 */
/* The run's hook at the marked points (points.c): events, scheduling or perturbation, detectors. */
#ifndef CGT_POINTS_H
#define CGT_POINTS_H

#include <stdbool.h>
#include <stdint.h>

/*
 * @perturb: per mille of marked points that delay or yield (free-running runs only);
 * @meet: also one time in two where threads meet on a thread group (meet.h).
 */
void cgt_events_install(int perturb, bool meet, uint64_t seed);
void cgt_events_remove(void);
/* A new phase's perturbation (swarm.h). */
void cgt_events_set_perturb(int permille);
/*
 * The run's end: no more delays or meetings. Every thread must now leave, and a walk of
 * thousands of tasks that sleeps at a tenth of its steps holds tasklist_lock for a third of a
 * second, while the exits queue behind it.
 */
void cgt_events_calm(void);
/*
 * The walk this thread is in (from its last WALK_START or WALK_STEP), or NULL: for a
 * picture of a livelock, taken by the walker itself as the detector stops its walk.
 */
struct cgt_walk;
const struct cgt_walk *cgt_events_walk(void);

#endif
