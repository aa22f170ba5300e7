// SPDX-License-Identifier: GPL-2.0
/*
 * rwlock: a spinning reader/writer lock, as rwlock_t is since the queued rwlock
 * (kernel/locking/qrwlock.c).
 *
 * Fairness: readers get in at once only while no writer holds or waits; otherwise every
 * waiter, reader or writer, queues in FIFO order on a ticket lock (the qrwlock's wait_lock),
 * so a waiting writer is never passed by readers that came after it, and writers among
 * themselves are served in order. Waiters next in line spin, the rest sleep (spin.c).
 */
#include <stdint.h>

#include "lock.h"
#include "lock_loop.h"
#include "spin.h"

#define QW_LOCKED	1u	/* a writer holds the lock */
#define QW_WAITING	2u	/* the writer at the head of the queue waits for readers to go */
#define QW_WMASK	3u
#define QR_BIAS		4u	/* one reader, counted from bit 2 up */

struct qrwlock {
	uint32_t cnts;
	struct ticket_lock wait_lock;	/* the queue of waiters */
};
_Static_assert(sizeof(struct qrwlock) <= CGT_LOCK_PRIV_SIZE, "rwlock state too large");

static void rwlock_init(struct cgt_lock *lock)
{
	struct qrwlock *q = cgt_lock_priv(lock, struct qrwlock);

	q->cnts = 0;
	ticket_init(&q->wait_lock);
}

/* queued_read_lock / queued_read_lock_slowpath */
static void rwlock_read_lock(struct cgt_lock *lock)
{
	struct qrwlock *q = cgt_lock_priv(lock, struct qrwlock);
	unsigned int spins = 0;

	if (!(lk_add_fetch(&q->cnts, QR_BIAS, __ATOMIC_ACQUIRE) & QW_WMASK))
		return;
	lk_fetch_sub(&q->cnts, QR_BIAS, __ATOMIC_RELAXED);
	ticket_lock(&q->wait_lock);
	lk_fetch_add(&q->cnts, QR_BIAS, __ATOMIC_RELAXED);
	/* at the head of the queue: only a writer that holds the lock keeps us out */
	while (lk_load(&q->cnts, __ATOMIC_ACQUIRE) & QW_LOCKED)
		spin_wait(&spins);
	ticket_unlock(&q->wait_lock);
}

static void rwlock_read_unlock(struct cgt_lock *lock)
{
	lk_fetch_sub(&cgt_lock_priv(lock, struct qrwlock)->cnts, QR_BIAS, __ATOMIC_RELEASE);
}

/* queued_write_lock / queued_write_lock_slowpath */
static void rwlock_write_lock(struct cgt_lock *lock)
{
	struct qrwlock *q = cgt_lock_priv(lock, struct qrwlock);
	unsigned int spins = 0;
	uint32_t c = 0;

	if (lk_cmpxchg(&q->cnts, &c, QW_LOCKED, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return;
	ticket_lock(&q->wait_lock);
	lk_fetch_or(&q->cnts, QW_WAITING, __ATOMIC_RELAXED);
	cgt_lock_writer_queued(lock);
	for (;;) {
		c = QW_WAITING;
		if (lk_cmpxchg(&q->cnts, &c, QW_LOCKED, true, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			break;
		spin_wait(&spins);
	}
	ticket_unlock(&q->wait_lock);
}

static void rwlock_write_unlock(struct cgt_lock *lock)
{
	lk_fetch_and(&cgt_lock_priv(lock, struct qrwlock)->cnts, ~QW_LOCKED, __ATOMIC_RELEASE);
}

CGT_LOCK_LOOPS(rwlock, rwlock_read_lock, rwlock_read_unlock, rwlock_write_lock,
	       rwlock_write_unlock);

const struct cgt_lock_ops rwlock_lock_ops = {
	.name		= "rwlock",
	.desc		= "spinning reader/writer (queued rwlock_t), FIFO once contended",
	.sleeps		= false,
	.shared		= true,
	.steps		= true,
	.policy		= CGT_POLICY_FIFO,
	.init		= rwlock_init,
	.read_lock	= rwlock_read_lock,
	.read_unlock	= rwlock_read_unlock,
	.write_lock	= rwlock_write_lock,
	.write_unlock	= rwlock_write_unlock,
	.loops		= &rwlock_loops,
	.reference	= "ck_rwlock",
};
