// SPDX-License-Identifier: GPL-2.0
/*
 * rwlock: a spinning reader/writer lock, as rwlock_t (queued rwlock).
 *
 * Fairness: writer-preferring. A writer first raises WAITING, which stops new readers, then
 * spins until the readers inside have left; so readers can never starve a writer (the fix for
 * tasklist_lock's old weakness), while a stream of writers can delay readers. Writers among
 * themselves are unordered. Waiters spin (spin.h), never sleep.
 */
#include <stdint.h>

#include "lock.h"
#include "spin.h"

#define RW_LOCKED	1u	/* a writer holds the lock */
#define RW_WAITING	2u	/* a writer waits: new readers hold back */
#define RW_READER	4u	/* one reader, counted from bit 2 up */

struct rwlock {
	uint32_t cnts;
};
_Static_assert(sizeof(struct rwlock) <= CGT_LOCK_PRIV_SIZE, "rwlock state too large");

static void rwlock_init(struct cgt_lock *lock)
{
	cgt_lock_priv(lock, struct rwlock)->cnts = 0;
}

static void rwlock_read_lock(struct cgt_lock *lock)
{
	struct rwlock *rw = cgt_lock_priv(lock, struct rwlock);
	unsigned int spins = 0;
	uint32_t c = __atomic_load_n(&rw->cnts, __ATOMIC_RELAXED);

	for (;;) {
		if (!(c & (RW_LOCKED | RW_WAITING)) &&
		    __atomic_compare_exchange_n(&rw->cnts, &c, c + RW_READER, true,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return;
		spin_wait(&spins);
		c = __atomic_load_n(&rw->cnts, __ATOMIC_RELAXED);
	}
}

static void rwlock_read_unlock(struct cgt_lock *lock)
{
	__atomic_fetch_sub(&cgt_lock_priv(lock, struct rwlock)->cnts, RW_READER, __ATOMIC_RELEASE);
}

static void rwlock_write_lock(struct cgt_lock *lock)
{
	struct rwlock *rw = cgt_lock_priv(lock, struct rwlock);
	unsigned int spins = 0;
	uint32_t c;

	/* Claim the single WAITING slot; another waiting writer makes us spin for it. */
	c = __atomic_load_n(&rw->cnts, __ATOMIC_RELAXED);
	for (;;) {
		if (!(c & RW_WAITING) &&
		    __atomic_compare_exchange_n(&rw->cnts, &c, c | RW_WAITING, true,
						__ATOMIC_RELAXED, __ATOMIC_RELAXED))
			break;
		spin_wait(&spins);
		c = __atomic_load_n(&rw->cnts, __ATOMIC_RELAXED);
	}
	/* Readers drain and the holder leaves; then WAITING becomes LOCKED. */
	for (;;) {
		c = RW_WAITING;
		if (__atomic_compare_exchange_n(&rw->cnts, &c, RW_LOCKED, true,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return;
		spin_wait(&spins);
	}
}

static void rwlock_write_unlock(struct cgt_lock *lock)
{
	__atomic_fetch_and(&cgt_lock_priv(lock, struct rwlock)->cnts, ~RW_LOCKED, __ATOMIC_RELEASE);
}

const struct cgt_lock_ops rwlock_lock_ops = {
	.name		= "rwlock",
	.desc		= "spinning reader/writer (rwlock_t), writer-preferring",
	.sleeps		= false,
	.shared		= true,
	.init		= rwlock_init,
	.read_lock	= rwlock_read_lock,
	.read_unlock	= rwlock_read_unlock,
	.write_lock	= rwlock_write_lock,
	.write_unlock	= rwlock_write_unlock,
};
