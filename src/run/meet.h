/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where threads meet on one thread group (meet.c): perturbation and aim for the windows
 * that matter. Most of the model's races are a reader holding a view of a thread group (a
 * walk from one of its threads, a readdir holding one by reference, a migration's
 * snapshot, a css_set or process-list iteration on one of its threads) while another
 * thread changes that group (fork, exit, exec, a move): the same group at about the same
 * time. A delay in an iteration holds its read lock, so the change's writer waits while
 * other readers come: the storms a reader-first lock starves its writer in. Uniform
 * perturbation spreads its delays over every point and readers pick their targets at
 * random; this remembers, per group, who last read it
 * and who last changed it, and when, so that a thread at a point can be told another was
 * on the same group within CGT_MEET_NS in the other role (a change also meets a change),
 * and a delay there widens the window the two race in; and it keeps the threads whose
 * groups changed last, for readers to aim at. DataCollider (Erickson et al., OSDI 2010)
 * pauses a thread at an access to catch a conflicting one; this pauses where a conflict
 * has just been seen.
 */
#ifndef CGT_RUN_MEET_H
#define CGT_RUN_MEET_H

#include <stdbool.h>
#include <stdint.h>

#define CGT_MEET_NS	2000000		/* as long as the longest delay of a walk step */
#define CGT_MEET_HOT	64		/* changed threads kept for readers to aim at */

enum cgt_meet_role { CGT_MEET_READ, CGT_MEET_CHANGE };

/*
 * Thread @by passes a point on the group @group (its signal_struct, a key only) in @role
 * at @now_ns. True if another thread met it there: changed the group within CGT_MEET_NS,
 * or, for a change, read it.
 */
bool cgt_meet(const void *group, enum cgt_meet_role role, int by, uint64_t now_ns);
/* Thread @tid's group is changing: a reader may aim at it. */
void cgt_meet_changing(int tid);
/* Whether any thread's group has changed yet, and one of the last CGT_MEET_HOT, by @r. */
bool cgt_meet_hot(void);
int cgt_meet_hot_tid(uint32_t r);
void cgt_meet_reset(void);

#endif
