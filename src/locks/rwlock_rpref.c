// SPDX-License-Identifier: GPL-2.0
/*
 * rwlock-rpref: a spinning reader-preferring reader/writer lock, as the pre-qrwlock rwlock_t
 * (and tasklist_lock's old weakness). Fairness: none for writers. A writer gets in only when
 * the reader count drops to zero, and readers never hold back for a waiting writer; readers
 * that keep overlapping starve the writer for as long as they overlap. Waiters spin.
 */
#include <stdint.h>

#include "lock.h"
#include "lock_loop.h"
#include "spin.h"

#define RP_WRITER	1u		/* a writer holds the lock */
#define RP_READER	2u		/* one reader, counted from bit 1 up */

struct rwlock_rpref {
	uint32_t cnts;
};
_Static_assert(sizeof(struct rwlock_rpref) <= CGT_LOCK_PRIV_SIZE, "rwlock-rpref state too large");

static void rpref_init(struct cgt_lock *lock)
{
	cgt_lock_priv(lock, struct rwlock_rpref)->cnts = 0;
}

static void rpref_read_lock(struct cgt_lock *lock)
{
	struct rwlock_rpref *rw = cgt_lock_priv(lock, struct rwlock_rpref);
	unsigned int spins = 0;

	/* announce ourselves first: a waiting writer cannot get in while we are counted */
	while (lk_add_fetch(&rw->cnts, RP_READER, __ATOMIC_ACQUIRE) & RP_WRITER) {
		lk_fetch_sub(&rw->cnts, RP_READER, __ATOMIC_RELAXED);
		while (lk_load(&rw->cnts, __ATOMIC_RELAXED) & RP_WRITER)
			spin_wait(&spins);
	}
}

static void rpref_read_unlock(struct cgt_lock *lock)
{
	lk_fetch_sub(&cgt_lock_priv(lock, struct rwlock_rpref)->cnts, RP_READER, __ATOMIC_RELEASE);
}

static void rpref_write_lock(struct cgt_lock *lock)
{
	struct rwlock_rpref *rw = cgt_lock_priv(lock, struct rwlock_rpref);
	unsigned int spins = 0;
	uint32_t c;

	for (;;) {
		c = 0;
		if (lk_cmpxchg(&rw->cnts, &c, RP_WRITER, true, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return;
		if (!spins)
			cgt_lock_writer_queued(lock);	/* waiting: readers go on past */
		spin_wait(&spins);
	}
}

static void rpref_write_unlock(struct cgt_lock *lock)
{
	lk_fetch_and(&cgt_lock_priv(lock, struct rwlock_rpref)->cnts, ~RP_WRITER, __ATOMIC_RELEASE);
}

CGT_LOCK_LOOPS(rpref, rpref_read_lock, rpref_read_unlock, rpref_write_lock, rpref_write_unlock);

const struct cgt_lock_ops rwlock_rpref_lock_ops = {
	.name		= "rwlock-rpref",
	.desc		= "spinning reader/writer, reader-preferring: readers can starve writers",
	.sleeps		= false,
	.shared		= true,
	.steps		= true,
	.policy		= CGT_POLICY_READER_FIRST,
	.bug		= "reader-pref-rwlock",
	.init		= rpref_init,
	.read_lock	= rpref_read_lock,
	.read_unlock	= rpref_read_unlock,
	.write_lock	= rpref_write_lock,
	.write_unlock	= rpref_write_unlock,
	.loops		= &rpref_loops,
	.reference	= "ck_rwlock",
};
