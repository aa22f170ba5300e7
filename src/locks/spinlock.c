// SPDX-License-Identifier: GPL-2.0
/*
 * spinlock: a spinning exclusive lock, as spinlock_t (the ticket lock the kernel used before
 * qspinlock; later kernels went back to a spinlock for css_set_lock).
 *
 * Fairness: strict FIFO by ticket. Readers get no sharing: read_lock is write_lock.
 * Waiters next in line spin, the rest sleep (spin.c).
 */
#include "lock.h"
#include "lock_loop.h"
#include "spin.h"

_Static_assert(sizeof(struct ticket_lock) <= CGT_LOCK_PRIV_SIZE, "spinlock state too large");

static void spinlock_init(struct cgt_lock *lock)
{
	ticket_init(cgt_lock_priv(lock, struct ticket_lock));
}

static void spinlock_lock(struct cgt_lock *lock)
{
	ticket_lock(cgt_lock_priv(lock, struct ticket_lock));
}

static void spinlock_unlock(struct cgt_lock *lock)
{
	ticket_unlock(cgt_lock_priv(lock, struct ticket_lock));
}

CGT_LOCK_LOOPS(spinlock, spinlock_lock, spinlock_unlock, spinlock_lock, spinlock_unlock);

const struct cgt_lock_ops spinlock_lock_ops = {
	.name		= "spinlock",
	.desc		= "spinning exclusive (spinlock_t), FIFO tickets",
	.sleeps		= false,
	.shared		= false,
	.steps		= true,
	.policy		= CGT_POLICY_FIFO,
	.init		= spinlock_init,
	.read_lock	= spinlock_lock,
	.read_unlock	= spinlock_unlock,
	.write_lock	= spinlock_lock,
	.write_unlock	= spinlock_unlock,
	.loops		= &spinlock_loops,
	.reference	= "ck_spinlock_ticket",
};
