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
 * the kernel a waiter spins with preemption off: a lock never has more spinners than there
 * are CPUs, and the one whose turn comes is already running. Here hundreds of pthreads
 * queue on two CPUs, and a spinner that yields may wait a whole time slice of another
 * process before it runs again: at 2,000 threads, 600 exits queued on tasklist_lock took
 * 2.5 s that way, 4 ms a hand-over. So the CGT_TICKET_SPINNERS tickets next in line spin
 * for a while (CGT_TICKET_SPINS), then sleep on the owner word, as the rest of the queue
 * does from the start; a release wakes the ticket whose turn it is and the one it brings
 * near enough to spin. Sleepers tag themselves with their ticket modulo 32, so a release
 * wakes about one in 32 of them, not all.
 */
#define CGT_TICKET_SPINNERS	4
#define CGT_TICKET_SPINS	1024

struct ticket_lock {
	uint32_t next;		/* next ticket to hand out */
	uint32_t owner;		/* ticket now served */
	uint32_t sleepers;	/* waiters asleep on owner, or about to be */
};

static inline void ticket_init(struct ticket_lock *t)
{
	t->next = t->owner = t->sleepers = 0;
}

static inline uint32_t ticket_bit(uint32_t ticket)
{
	return 1u << (ticket % 32);
}

/*
 * Taking a ticket, counting a sleeper and reading the owner are sequentially consistent,
 * as the release's write of the owner and its reads: either a waiter sees the new owner
 * (and the futex will not put it to sleep), or the release sees the waiter and wakes it.
 */
static inline void ticket_lock(struct ticket_lock *t)
{
	uint32_t me = __atomic_fetch_add(&t->next, 1, __ATOMIC_SEQ_CST), owner;
	unsigned int spins = 0;

	while ((owner = __atomic_load_n(&t->owner, __ATOMIC_SEQ_CST)) != me) {
		if (me - owner <= CGT_TICKET_SPINNERS && spins < CGT_TICKET_SPINS) {
			cpu_relax();
			spins++;
			continue;
		}
		__atomic_fetch_add(&t->sleepers, 1, __ATOMIC_SEQ_CST);
		futex_wait_bitset(&t->owner, owner, ticket_bit(me));
		__atomic_fetch_sub(&t->sleepers, 1, __ATOMIC_RELAXED);
	}
}

static inline void ticket_unlock(struct ticket_lock *t)
{
	/* only the holder writes owner */
	uint32_t owner = __atomic_load_n(&t->owner, __ATOMIC_RELAXED) + 1;

	__atomic_store_n(&t->owner, owner, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&t->sleepers, __ATOMIC_SEQ_CST))
		futex_wake_bitset(&t->owner, INT32_MAX,
				  ticket_bit(owner) | ticket_bit(owner + CGT_TICKET_SPINNERS));
}

#endif
