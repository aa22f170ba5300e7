// SPDX-License-Identifier: GPL-2.0
/*
 * rcu-spinlock: readers under RCU, writers under a spinlock, as later kernels look css_sets
 * up (task_css_set() under rcu_read_lock(), css_set_lock a spinlock for the updaters).
 *
 * read_lock is rcu_read_lock(): a reader never waits and never blocks a writer, and a writer
 * waits only for other writers (FIFO tickets, spinning). So readers run beside a writer: what
 * they read must be published with rcu_assign_pointer() and read with rcu_dereference(), and a
 * writer must not free what it unlinks before a grace period (call_rcu, synchronize_rcu) has
 * let every reader out. The model's walks under css_set_lock are plain list walks that rely
 * on the lock keeping writers out, so .rcu_readers keeps this variant out of the stress run:
 * it is for cgtorture compare, whose critical sections read with atomics and free nothing.
 */
#define _LGPL_SOURCE	/* compare's loops inline liburcu's read side (rcu_read_side.h) */
#include "lock.h"
#include "lock_loop.h"
#include "rcu_read_side.h"
#include "spin.h"
#include "../core/rcu.h"

_Static_assert(sizeof(struct ticket_lock) <= CGT_LOCK_PRIV_SIZE, "rcu-spinlock state too large");

static void rcu_spin_init(struct cgt_lock *lock)
{
	ticket_init(cgt_lock_priv(lock, struct ticket_lock));
}

static void rcu_spin_write_lock(struct cgt_lock *lock)
{
	ticket_lock(cgt_lock_priv(lock, struct ticket_lock));
}

static void rcu_spin_write_unlock(struct cgt_lock *lock)
{
	ticket_unlock(cgt_lock_priv(lock, struct ticket_lock));
}

CGT_LOCK_LOOPS(rcu_spin, rcu_read_lock_fast, rcu_read_unlock_fast, rcu_spin_write_lock,
	       rcu_spin_write_unlock);

const struct cgt_lock_ops rcu_spinlock_lock_ops = {
	.name		= "rcu-spinlock",
	.desc		= "readers under RCU (never wait), writers spin on FIFO tickets",
	.sleeps		= false,
	.shared		= true,
	.policy		= CGT_POLICY_FIFO,
	.rcu_readers	= true,
	.init		= rcu_spin_init,
	.read_lock	= rcu_read_lock_model,
	.read_unlock	= rcu_read_unlock_model,
	.write_lock	= rcu_spin_write_lock,
	.write_unlock	= rcu_spin_write_unlock,
	.loops		= &rcu_spin_loops,
	.reference	= "urcu+ck_spinlock_ticket",
};
