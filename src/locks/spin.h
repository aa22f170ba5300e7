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
#include "../base/futex.h"

#define CGT_SPINS_BEFORE_YIELD	128

static inline void spin_wait(unsigned int *spins)
{
	cpu_relax();
	if (++*spins % CGT_SPINS_BEFORE_YIELD == 0)
		sched_yield();
}

/*
 * A FIFO ticket lock: spinlock_t before qspinlock, and the write side of rcu-spinlock. In
 * the kernel a waiter spins with preemption off, so a lock never has more spinners than
 * there are CPUs. Here hundreds of pthreads queue, and if all spun, each hand-over would
 * wait for the next ticket to be scheduled among them (at 2,000 threads, 600 exits queued
 * on tasklist_lock took 2.5 s). So the CGT_TICKET_SPINNERS tickets next in line spin, and
 * the rest sleep on the owner word, each woken by the release that brings it that near.
 * The sleepers tag themselves with their ticket modulo 32, so a release wakes about one
 * in 32 of them, not all.
 */
#define CGT_TICKET_SPINNERS	4

struct ticket_lock {
	uint32_t next;		/* next ticket to hand out */
	uint32_t owner;		/* ticket now served */
};

static inline uint32_t ticket_bit(uint32_t ticket)
{
	return 1u << (ticket % 32);
}

/*
 * The ticket is taken and the owner read with sequential consistency, as the release
 * writes the owner and reads the next ticket: either the waiter sees the new owner, or the
 * release sees the waiter and wakes it.
 */
static inline void ticket_lock(struct ticket_lock *t)
{
	uint32_t me = __atomic_fetch_add(&t->next, 1, __ATOMIC_SEQ_CST), owner;
	unsigned int spins = 0;

	while ((owner = __atomic_load_n(&t->owner, __ATOMIC_SEQ_CST)) != me) {
		if (me - owner > CGT_TICKET_SPINNERS)
			futex_wait_bitset(&t->owner, owner, ticket_bit(me));
		else
			spin_wait(&spins);
	}
}

static inline void ticket_unlock(struct ticket_lock *t)
{
	/* only the holder writes owner */
	uint32_t owner = __atomic_load_n(&t->owner, __ATOMIC_RELAXED) + 1;

	__atomic_store_n(&t->owner, owner, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&t->next, __ATOMIC_SEQ_CST) - owner > CGT_TICKET_SPINNERS)
		futex_wake_bitset(&t->owner, INT32_MAX, ticket_bit(owner + CGT_TICKET_SPINNERS));
}

#endif
