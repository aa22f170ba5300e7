// SPDX-License-Identifier: GPL-2.0
/*
 * rcu-mutex: readers under RCU, writers on a sleeping mutex, the common kernel pattern for
 * a read-mostly structure updated rarely (mutex_lock; unlink; mutex_unlock; synchronize_rcu;
 * kfree). read_lock is rcu_read_lock(): a reader never waits. A writer sleeps on a
 * pthread_mutex against other writers, and after letting it go waits a grace period, as an
 * updater that frees what it unlinked must before kfree: that wait is part of each write's
 * cost here. Readers run beside writers, so (as rcu-spinlock) it is for cgtorture compare
 * only; the caller must be a registered RCU reader.
 */
#define _LGPL_SOURCE	/* compare's loops inline liburcu's read side (rcu_read_side.h) */
#include <pthread.h>

#include "lock.h"
#include "lock_loop.h"
#include "rcu_read_side.h"
#include "../core/rcu.h"

_Static_assert(sizeof(pthread_mutex_t) <= CGT_LOCK_PRIV_SIZE, "rcu-mutex state too large");

static void rcu_mutex_init(struct cgt_lock *lock)
{
	pthread_mutex_init(cgt_lock_priv(lock, pthread_mutex_t), NULL);
}

static void rcu_mutex_write_lock(struct cgt_lock *lock)
{
	pthread_mutex_lock(cgt_lock_priv(lock, pthread_mutex_t));
}

static void rcu_mutex_write_unlock(struct cgt_lock *lock)
{
	pthread_mutex_unlock(cgt_lock_priv(lock, pthread_mutex_t));
	synchronize_rcu();
}

static void rcu_mutex_destroy(struct cgt_lock *lock)
{
	pthread_mutex_destroy(cgt_lock_priv(lock, pthread_mutex_t));
}

CGT_LOCK_LOOPS(rcu_mutex, rcu_read_lock_fast, rcu_read_unlock_fast, rcu_mutex_write_lock,
	       rcu_mutex_write_unlock);

const struct cgt_lock_ops rcu_mutex_lock_ops = {
	.name		= "rcu-mutex",
	.desc		= "readers under RCU (never wait), writers sleep on a mutex, then synchronize_rcu",
	.sleeps		= true,
	.shared		= true,
	.policy		= CGT_POLICY_UNFAIR,
	.rcu_readers	= true,
	.init		= rcu_mutex_init,
	.read_lock	= rcu_read_lock_model,
	.read_unlock	= rcu_read_unlock_model,
	.write_lock	= rcu_mutex_write_lock,
	.write_unlock	= rcu_mutex_write_unlock,
	.destroy	= rcu_mutex_destroy,
	.loops		= &rcu_mutex_loops,
	.reference	= "urcu+pthread_mutex",
};
