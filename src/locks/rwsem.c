// SPDX-License-Identifier: GPL-2.0
/*
 * rwsem: a sleeping reader/writer lock, as struct rw_semaphore (css_set_rwsem, 96d365e0b86e).
 *
 * Built on glibc's pthread_rwlock with PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP: waiters
 * sleep on a futex. Fairness: writer-preferring, like the kernel's rwsem, whose queued writer
 * makes later readers queue behind it; so readers cannot starve a writer.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "lock.h"
#include "lock_loop.h"

_Static_assert(sizeof(pthread_rwlock_t) <= CGT_LOCK_PRIV_SIZE, "rwsem state too large");

static void rwsem_check(int err, const char *what)
{
	if (unlikely(err)) {
		fprintf(stderr, "cgtorture: rwsem %s failed: error %d\n", what, err);
		abort();
	}
}

static void rwsem_init(struct cgt_lock *lock)
{
	pthread_rwlockattr_t attr;

	pthread_rwlockattr_init(&attr);
	pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	rwsem_check(pthread_rwlock_init(cgt_lock_priv(lock, pthread_rwlock_t), &attr), "init");
	pthread_rwlockattr_destroy(&attr);
}

static void rwsem_down_read(struct cgt_lock *lock)
{
	rwsem_check(pthread_rwlock_rdlock(cgt_lock_priv(lock, pthread_rwlock_t)), "down_read");
}

static void rwsem_down_write(struct cgt_lock *lock)
{
	rwsem_check(pthread_rwlock_wrlock(cgt_lock_priv(lock, pthread_rwlock_t)), "down_write");
}

static void rwsem_up(struct cgt_lock *lock)
{
	rwsem_check(pthread_rwlock_unlock(cgt_lock_priv(lock, pthread_rwlock_t)), "up");
}

static void rwsem_destroy(struct cgt_lock *lock)
{
	pthread_rwlock_destroy(cgt_lock_priv(lock, pthread_rwlock_t));
}

CGT_LOCK_LOOPS(rwsem, rwsem_down_read, rwsem_up, rwsem_down_write, rwsem_up);

const struct cgt_lock_ops rwsem_lock_ops = {
	.name		= "rwsem",
	.desc		= "sleeping reader/writer (rw_semaphore), writer-preferring",
	.sleeps		= true,
	.shared		= true,
	.policy		= CGT_POLICY_WRITER_FIRST,
	.init		= rwsem_init,
	.read_lock	= rwsem_down_read,
	.read_unlock	= rwsem_up,
	.write_lock	= rwsem_down_write,
	.write_unlock	= rwsem_up,
	.destroy	= rwsem_destroy,
	.loops		= &rwsem_loops,
	.reference	= "pthread_rwlock_wpref",
};
