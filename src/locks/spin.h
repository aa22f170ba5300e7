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

#include "../base/compiler.h"

#define CGT_SPINS_BEFORE_YIELD	128

static inline void spin_wait(unsigned int *spins)
{
	cpu_relax();
	if (++*spins % CGT_SPINS_BEFORE_YIELD == 0)
		sched_yield();
}

/* A FIFO ticket lock: spinlock_t before qspinlock, and the write side of rcu-spinlock. */
struct ticket_lock {
	uint32_t next;		/* next ticket to hand out */
	uint32_t owner;		/* ticket now served */
};

static inline void ticket_lock(struct ticket_lock *t)
{
	uint32_t me = __atomic_fetch_add(&t->next, 1, __ATOMIC_RELAXED);
	unsigned int spins = 0;

	while (__atomic_load_n(&t->owner, __ATOMIC_ACQUIRE) != me)
		spin_wait(&spins);
}

static inline void ticket_unlock(struct ticket_lock *t)
{
	/* Only the holder writes owner, so a plain increment of its own value is enough. */
	__atomic_store_n(&t->owner, __atomic_load_n(&t->owner, __ATOMIC_RELAXED) + 1,
			 __ATOMIC_RELEASE);
}

#endif
