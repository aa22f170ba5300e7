// SPDX-License-Identifier: GPL-2.0
/*
 * pthread-rwlock: glibc's pthread_rwlock_t with its default attributes, as most user code
 * gets it: waiters sleep on a futex; fairness: reader-preferring
 * (PTHREAD_RWLOCK_PREFER_READER_NP), so readers that keep overlapping can starve a writer.
 * That is the catalogued reader-pref-rwlock weakness, so tests/e2e/variants.sh and the nightly
 * leave it out of their correct runs; compare and run take it.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "lock.h"
#include "lock_loop.h"

_Static_assert(sizeof(pthread_rwlock_t) <= CGT_LOCK_PRIV_SIZE, "pthread-rwlock state too large");

static void prw_check(int err, const char *what)
{
	if (unlikely(err)) {
		fprintf(stderr, "cgtorture: pthread-rwlock %s failed: error %d\n", what, err);
		abort();
	}
}

static void prw_init(struct cgt_lock *lock)
{
	prw_check(pthread_rwlock_init(cgt_lock_priv(lock, pthread_rwlock_t), NULL), "init");
}

static void prw_rdlock(struct cgt_lock *lock)
{
	prw_check(pthread_rwlock_rdlock(cgt_lock_priv(lock, pthread_rwlock_t)), "rdlock");
}

static void prw_wrlock(struct cgt_lock *lock)
{
	prw_check(pthread_rwlock_wrlock(cgt_lock_priv(lock, pthread_rwlock_t)), "wrlock");
}

static void prw_unlock(struct cgt_lock *lock)
{
	prw_check(pthread_rwlock_unlock(cgt_lock_priv(lock, pthread_rwlock_t)), "unlock");
}

static void prw_destroy(struct cgt_lock *lock)
{
	pthread_rwlock_destroy(cgt_lock_priv(lock, pthread_rwlock_t));
}

CGT_LOCK_LOOPS(prw, prw_rdlock, prw_unlock, prw_wrlock, prw_unlock);

const struct cgt_lock_ops pthread_rwlock_lock_ops = {
	.name		= "pthread-rwlock",
	.desc		= "sleeping reader/writer (glibc's default pthread_rwlock_t), reader-preferring",
	.sleeps		= true,
	.shared		= true,
	.bug		= "reader-pref-rwlock",
	.policy		= CGT_POLICY_READER_FIRST,
	.init		= prw_init,
	.read_lock	= prw_rdlock,
	.read_unlock	= prw_unlock,
	.write_lock	= prw_wrlock,
	.write_unlock	= prw_unlock,
	.destroy	= prw_destroy,
	.loops		= &prw_loops,
	.reference	= "pthread_rwlock",
};
