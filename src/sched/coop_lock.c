// SPDX-License-Identifier: GPL-2.0
/*
 * Model locks in a controlled run. A variant's own code would spin or sleep on a holder that
 * the scheduler never lets run, so the scheduler keeps the lock instead: who holds it, and
 * who may have it next by the variant's fairness policy (FIFO tickets, waiting writers
 * first, readers first, or whoever asks). A waiter blocks in the scheduler; a release wakes
 * the waiters that may now take it. ThreadSanitizer is told of each acquire and release, so
 * it orders what the lock orders and nothing else.
 */
#include <stdio.h>
#include <stdlib.h>

#include "sched.h"
#include "../locks/lock.h"

#ifdef CGT_TSAN
#include <sanitizer/tsan_interface.h>
/* Writers release into the lock's first byte, readers into its second: readers stay unordered. */
#define tsan_acquire(lock, side) do {					\
		__tsan_acquire((char *)(lock));				\
		if ((side) == CGT_WRITE)				\
			__tsan_acquire((char *)(lock) + 1);		\
	} while (0)
#define tsan_release(lock, side) __tsan_release((char *)(lock) + ((side) == CGT_READ))
#else
#define tsan_acquire(lock, side) do { } while (0)
#define tsan_release(lock, side) do { } while (0)
#endif

/* May a thread that queued with @ticket take @lock on @side now? */
static bool coop_can(const struct cgt_lock *lock, int side, long ticket)
{
	if (!lock->ops->shared)
		side = CGT_WRITE;
	if (lock->coop_writer || (side == CGT_WRITE && lock->coop_readers))
		return false;
	switch (lock->ops->policy) {
	case CGT_POLICY_FIFO:
		return ticket == lock->coop_serving;
	case CGT_POLICY_WRITER_FIRST:
		return side == CGT_WRITE || !lock->coop_writers_waiting;
	case CGT_POLICY_READER_FIRST:
	case CGT_POLICY_UNFAIR:
		break;
	}
	return true;
}

static bool waiter_can(struct cgt_sched_ent *e)
{
	return coop_can(e->lock_wait, e->lock_side, e->lock_ticket);
}

void cgt_coop_lock(struct cgt_lock *lock, int side)
{
	CGT_UNSEEN();
	struct cgt_sched_ent *me = cgt_sched_self;
	long ticket = lock->coop_next++;
	bool counted = false;

	while (!coop_can(lock, side, ticket)) {
		if (!me) {
			/* the driver checks a model at rest: nobody can be holding it */
			fprintf(stderr, "cgtorture: %s is held while the model is at rest\n",
				lock->name);
			abort();
		}
		if (side == CGT_WRITE && !counted) {
			lock->coop_writers_waiting++;
			counted = true;
		}
		me->lock_wait = lock;
		me->lock_side = side;
		me->lock_ticket = ticket;
		cgt_sched_block(lock);
	}
	if (me)
		me->lock_wait = NULL;
	if (counted)
		lock->coop_writers_waiting--;
	if (side == CGT_WRITE || !lock->ops->shared)
		lock->coop_writer = 1;
	else
		lock->coop_readers++;
	lock->coop_serving++;
	/* the next in a FIFO line may be a reader that can share it */
	if (lock->ops->policy == CGT_POLICY_FIFO && !lock->coop_writer)
		cgt_sched_wake_if(lock, waiter_can);
	tsan_acquire(lock, side);
}

void cgt_coop_unlock(struct cgt_lock *lock, int side)
{
	CGT_UNSEEN();
	tsan_release(lock, side);
	if (side == CGT_WRITE || !lock->ops->shared)
		lock->coop_writer = 0;
	else
		lock->coop_readers--;
	cgt_sched_wake_if(lock, waiter_can);
}
