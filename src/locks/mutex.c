// SPDX-License-Identifier: GPL-2.0
/*
 * mutex: a sleeping exclusive lock, as struct mutex (cgroup_mutex).
 *
 * Built on glibc's default pthread_mutex: waiters sleep on a futex. Fairness: none promised;
 * a waker competes with newcomers (as the kernel mutex's optimistic spinners do), so a
 * waiter can be passed over, but never forever under a finite load.
 */
#include <pthread.h>

#include "lock.h"
#include "lock_loop.h"

_Static_assert(sizeof(pthread_mutex_t) <= CGT_LOCK_PRIV_SIZE, "mutex state too large");

static void mutex_init(struct cgt_lock *lock)
{
	pthread_mutex_init(cgt_lock_priv(lock, pthread_mutex_t), NULL);
}

static void mutex_lock(struct cgt_lock *lock)
{
	pthread_mutex_lock(cgt_lock_priv(lock, pthread_mutex_t));
}

static void mutex_unlock(struct cgt_lock *lock)
{
	pthread_mutex_unlock(cgt_lock_priv(lock, pthread_mutex_t));
}

static void mutex_destroy(struct cgt_lock *lock)
{
	pthread_mutex_destroy(cgt_lock_priv(lock, pthread_mutex_t));
}

CGT_LOCK_LOOPS(mutex, mutex_lock, mutex_unlock, mutex_lock, mutex_unlock);

const struct cgt_lock_ops mutex_lock_ops = {
	.name		= "mutex",
	.desc		= "sleeping exclusive (struct mutex), no fairness promised",
	.sleeps		= true,
	.shared		= false,
	.policy		= CGT_POLICY_UNFAIR,
	.init		= mutex_init,
	.read_lock	= mutex_lock,
	.read_unlock	= mutex_unlock,
	.write_lock	= mutex_lock,
	.write_unlock	= mutex_unlock,
	.destroy	= mutex_destroy,
	.loops		= &mutex_loops,
	.reference	= "pthread_mutex",
};
