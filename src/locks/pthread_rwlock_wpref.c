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

/*
 * glibc's words (nptl/pthread_rwlock_common.c, the rwlock of glibc 2.25 on): __readers holds
 * the phase (WP), the primary writer's bit (WL) and the readers (R); __writers the waiting
 * writers registered for hand-over.
 */
#if !__GLIBC_PREREQ(2, 25)
#error "pthread-rwlock-wpref reads the words of glibc's rwlock as 2.25 rewrote it"
#endif
#define GLIBC_RWLOCK_WRPHASE		1u
#define GLIBC_RWLOCK_WRLOCKED		2u
#define GLIBC_RWLOCK_READER_SHIFT	3

/*
 * Whether a reader asking now must let a writer in first, by glibc's writer-preferring rules:
 * readers hold it and a primary writer waits for them (state #4: new readers wait for the
 * write phase). A primary writer with no reader in (state #3) races a new reader by glibc's
 * design, so it does not count. Nor does a write phase with writers registered in
 * __writers: the holder's release reads __writers once to choose between handing over and
 * a read phase, and writers that registered after it read 0 lose to the readers already
 * registered (a night at load 60 saw it: a read phase with five writers registered).
 */
static bool wpref_writer_registered(struct cgt_lock *lock)
{
	pthread_rwlock_t *rw = cgt_lock_priv(lock, pthread_rwlock_t);
	unsigned int r = __atomic_load_n(&rw->__data.__readers, __ATOMIC_SEQ_CST);

	return (r & GLIBC_RWLOCK_WRLOCKED) && !(r & GLIBC_RWLOCK_WRPHASE) &&
	       r >> GLIBC_RWLOCK_READER_SHIFT;
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
	.writer_registered = wpref_writer_registered,
	.init		= wpref_init,
	.read_lock	= wpref_rdlock,
	.read_unlock	= wpref_unlock,
	.write_lock	= wpref_wrlock,
	.write_unlock	= wpref_unlock,
	.destroy	= wpref_destroy,
	.loops		= &wpref_loops,
	.reference	= "pthread_rwlock_wpref",
};
