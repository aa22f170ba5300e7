/* SPDX-License-Identifier: GPL-2.0 */
/* The grace periods (sched_rcu.c) that the baton (sched.c) drives; nothing else includes it. */
#ifndef CGT_SCHED_INTERNAL_H
#define CGT_SCHED_INTERNAL_H

#include "sched.h"

void sched_rcu_reset(void);
/*
 * At each decision: end the grace period if it can end, run its callbacks, start the next,
 * which waits for those of the @nlive @live threads then in a read-side section.
 */
void sched_rcu_advance(struct cgt_sched_ent *const *live, int nlive);
/* @e has exited: no grace period waits for it */
void sched_rcu_forget(struct cgt_sched_ent *e);
/* a grace period running, or callbacks queued for one */
bool sched_rcu_pending(void);
/* callbacks are running: inside a decision, where no decision nor wait can be made */
bool sched_rcu_calling_back(void);

#endif
