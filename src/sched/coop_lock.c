// SPDX-License-Identifier: GPL-2.0
/*
 * Model locks in a controlled run. A variant's own code would spin or sleep on a holder that
 * the scheduler never lets run, so the scheduler keeps the lock instead: who holds it, and
 * who may have it next by the variant's fairness policy (FIFO tickets, waiting writers
 * first, readers first, or whoever asks). A waiter blocks in the scheduler; a release wakes
 * the waiters that may now take it. ThreadSanitizer is told of each acquire and release, so
 * it orders what the lock orders and nothing else.
 *
 * The state of each lock lives here, in a table keyed by the lock's address, not in the
 * lock: an entry exists while the lock is held or waited for, so a lock at rest has none and
 * a new lock at a freed one's address starts afresh.
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

#define COOP_HASH_BITS	8

struct coop {
	const struct cgt_lock *lock;
	int readers, writer, writers_waiting;
	long next, serving;		/* FIFO tickets: the next to hand out, the one served */
	struct coop *chain;
};

static struct coop *coop_hash[1 << COOP_HASH_BITS];

static struct coop **coop_slot(const struct cgt_lock *lock)
{
	uintptr_t h = (uintptr_t)lock;

	h ^= h >> 17;
	h *= 0x9e3779b97f4a7c15ULL;
	return &coop_hash[h >> (64 - COOP_HASH_BITS)];
}

static struct coop *coop_get(const struct cgt_lock *lock)
{
	struct coop **slot = coop_slot(lock), *c;

	for (c = *slot; c; c = c->chain)
		if (c->lock == lock)
			return c;
	c = calloc(1, sizeof(*c));
	if (!c) {
		fprintf(stderr, "cgtorture: out of memory in the scheduler\n");
		abort();
	}
	c->lock = lock;
	c->chain = *slot;
	*slot = c;
	return c;
}

/* Forget @lock's state: it is at rest, or its memory is being used for a new lock. */
static void coop_drop(const struct cgt_lock *lock)
{
	for (struct coop **pp = coop_slot(lock); *pp; pp = &(*pp)->chain) {
		struct coop *c = *pp;

		if (c->lock == lock) {
			*pp = c->chain;
			free(c);
			return;
		}
	}
}

void cgt_coop_reset(void)
{
	CGT_UNSEEN();
	for (size_t i = 0; i < ARRAY_SIZE(coop_hash); i++)
		while (coop_hash[i])
			coop_drop(coop_hash[i]->lock);
}

void cgt_coop_init(struct cgt_lock *lock)
{
	CGT_UNSEEN();
	coop_drop(lock);
}

/* May a thread that queued with @ticket take @lock on @side now? */
static bool coop_can(const struct cgt_lock *lock, const struct coop *c, int side, long ticket)
{
	if (!lock->ops->shared)
		side = CGT_WRITE;
	if (c->writer || (side == CGT_WRITE && c->readers))
		return false;
	switch (lock->ops->policy) {
	case CGT_POLICY_FIFO:
		return ticket == c->serving;
	case CGT_POLICY_WRITER_FIRST:
		return side == CGT_WRITE || !c->writers_waiting;
	case CGT_POLICY_READER_FIRST:
	case CGT_POLICY_UNFAIR:
		break;
	}
	return true;
}

static bool waiter_can(struct cgt_sched_ent *e)
{
	const struct cgt_lock *lock = e->lock_wait;

	return coop_can(lock, coop_get(lock), e->lock_side, e->lock_ticket);
}

void cgt_coop_lock(struct cgt_lock *lock, int side)
{
	CGT_UNSEEN();
	struct cgt_sched_ent *me = cgt_sched_self;
	struct coop *c = coop_get(lock);
	long ticket = c->next++;
	bool counted = false;

	while (!coop_can(lock, c, side, ticket)) {
		if (!me) {
			/* the driver checks a model at rest: nobody can be holding it */
			fprintf(stderr, "cgtorture: %s is held while the model is at rest\n",
				lock->name);
			abort();
		}
		if (side == CGT_WRITE && !counted) {
			c->writers_waiting++;
			counted = true;
		}
		me->lock_wait = lock;
		me->lock_side = side;
		me->lock_ticket = ticket;
		cgt_sched_block(lock);
		c = coop_get(lock);
	}
	if (me)
		me->lock_wait = NULL;
	if (counted)
		c->writers_waiting--;
	if (side == CGT_WRITE || !lock->ops->shared)
		c->writer = 1;
	else
		c->readers++;
	c->serving++;
	/* the next in a FIFO line may be a reader that can share it */
	if (lock->ops->policy == CGT_POLICY_FIFO && !c->writer)
		cgt_sched_wake_if(lock, waiter_can);
	tsan_acquire(lock, side);
}

void cgt_coop_unlock(struct cgt_lock *lock, int side)
{
	CGT_UNSEEN();
	struct coop *c = coop_get(lock);

	tsan_release(lock, side);
	if (side == CGT_WRITE || !lock->ops->shared)
		c->writer = 0;
	else
		c->readers--;
	cgt_sched_wake_if(lock, waiter_can);
	if (!c->readers && !c->writer && !c->writers_waiting && c->next == c->serving)
		coop_drop(lock);
}
