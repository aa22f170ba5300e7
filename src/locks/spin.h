/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The wait loop of the spinning variants. The kernel's spinning locks disable preemption,
 * so their holder always makes progress; in user space the holder can be preempted while
 * hundreds of spinners burn whole time slices. So a spinner yields its CPU every so often,
 * which keeps it runnable (never asleep on a wait queue): CPU time is still burnt while
 * waiting, which is what tells the spinning variants from the sleeping ones.
 */
#ifndef CGT_SPIN_H
#define CGT_SPIN_H

#include <sched.h>
#include <stdint.h>

#include "step.h"
#include "../base/compiler.h"

#define CGT_SPINS_BEFORE_YIELD	128

static inline void spin_wait(unsigned int *spins)
{
	++*spins;
	if (lk_spin())
		return;
	cpu_relax();
	if (*spins % CGT_SPINS_BEFORE_YIELD == 0)
		sched_yield();
}

/*
 * A FIFO ticket lock (spin.c): spinlock_t before qspinlock, the queue of the queued rwlock,
 * and the write side of rcu-spinlock.
 */
struct ticket_lock {
	uint32_t next;		/* next ticket to hand out */
	uint32_t owner;		/* ticket now served */
	uint32_t sleepers;	/* waiters asleep, or about to be */
	uint32_t id;		/* where its turn words begin (spin.c) */
};

void ticket_init(struct ticket_lock *t);
/* The waits and wakes (spin.c); the fast paths are inline, for compare's loops. */
void ticket_lock_slow(struct ticket_lock *t, uint32_t me);
void ticket_wake_sleepers(struct ticket_lock *t, uint32_t owner);

/*
 * Every access is sequentially consistent, as the release's: a waiter reads its turn word,
 * counts itself a sleeper, then reads the owner; the release writes the owner, then reads
 * the sleepers and bumps the turn words. Either the waiter sees the new owner, or the
 * release sees the waiter and bumps its word, and the futex will not let it sleep through.
 */
static inline void ticket_lock(struct ticket_lock *t)
{
	uint32_t me = lk_fetch_add(&t->next, 1, __ATOMIC_SEQ_CST);

	if (likely(lk_load(&t->owner, __ATOMIC_SEQ_CST) == me))
		return;
	ticket_lock_slow(t, me);
}

static inline void ticket_unlock(struct ticket_lock *t)
{
	/* only the holder writes owner */
	uint32_t owner = lk_load(&t->owner, __ATOMIC_RELAXED) + 1;

	lk_store(&t->owner, owner, __ATOMIC_SEQ_CST);
	if (unlikely(lk_load(&t->sleepers, __ATOMIC_SEQ_CST)))
		ticket_wake_sleepers(t, owner);
}

#endif
