// SPDX-License-Identifier: GPL-2.0
/*
 * pthread-rwlock-wpref: glibc's pthread_rwlock_t of the writer-preferring kind
 * (PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP), as user code asks for one: waiters sleep on
 * a futex. Fairness: a writer that has registered keeps new readers out, and a releasing
 * writer hands the lock to a registered waiting writer ahead of any waiting reader
 * (glibc's nptl/pthread_rwlock_common.c, writer--writer hand-over); so readers cannot starve
 * a writer. Not the kernel's rw_semaphore, which queues in arrival order (rwsem.c).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "lock.h"
#include "lock_loop.h"

_Static_assert(sizeof(pthread_rwlock_t) <= CGT_LOCK_PRIV_SIZE, "pthread-rwlock-wpref state too large");

static void wpref_check(int err, const char *what)
{
	if (unlikely(err)) {
		fprintf(stderr, "cgtorture: pthread-rwlock-wpref %s failed: error %d\n", what, err);
		abort();
	}
}

static void wpref_init(struct cgt_lock *lock)
{
	pthread_rwlockattr_t attr;

	pthread_rwlockattr_init(&attr);
	pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	wpref_check(pthread_rwlock_init(cgt_lock_priv(lock, pthread_rwlock_t), &attr), "init");
	pthread_rwlockattr_destroy(&attr);
}

static void wpref_rdlock(struct cgt_lock *lock)
{
	wpref_check(pthread_rwlock_rdlock(cgt_lock_priv(lock, pthread_rwlock_t)), "rdlock");
}

static void wpref_wrlock(struct cgt_lock *lock)
{
	wpref_check(pthread_rwlock_wrlock(cgt_lock_priv(lock, pthread_rwlock_t)), "wrlock");
}

static void wpref_unlock(struct cgt_lock *lock)
{
	wpref_check(pthread_rwlock_unlock(cgt_lock_priv(lock, pthread_rwlock_t)), "unlock");
}

static void wpref_destroy(struct cgt_lock *lock)
{
	pthread_rwlock_destroy(cgt_lock_priv(lock, pthread_rwlock_t));
}

CGT_LOCK_LOOPS(wpref, wpref_rdlock, wpref_unlock, wpref_wrlock, wpref_unlock);

const struct cgt_lock_ops pthread_rwlock_wpref_lock_ops = {
	.name		= "pthread-rwlock-wpref",
	.desc		= "sleeping reader/writer (glibc's pthread_rwlock_t, writer-preferring kind)",
	.sleeps		= true,
	.shared		= true,
	.policy		= CGT_POLICY_WRITER_FIRST,
	.init		= wpref_init,
	.read_lock	= wpref_rdlock,
	.read_unlock	= wpref_unlock,
	.write_lock	= wpref_wrlock,
	.write_unlock	= wpref_unlock,
	.destroy	= wpref_destroy,
	.loops		= &wpref_loops,
	.reference	= "pthread_rwlock_wpref",
};
