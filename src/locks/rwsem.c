// SPDX-License-Identifier: GPL-2.0
/*
 * rwsem: a sleeping reader/writer lock, as struct rw_semaphore is in the kernels whose
 * css_set_rwsem (96d365e0b86e) and signal->group_rwsem the model runs: rwsem-xadd,
 * kernel/locking/rwsem-xadd.c at v3.15 and v4.4.
 *
 * One count word, as the kernel's: its active part counts the holders and those trying to
 * get in, and RWSEM_WAITING_BIAS is in it while anyone is queued, so a new reader gets in by
 * its own add only while nobody waits (down_read); else it queues at the tail of the one FIFO
 * wait list (rwsem_down_read_failed). A release that leaves the lock idle with waiters wakes
 * the head (rwsem_wake, __rwsem_do_wake): readers at the head are granted together, up to the
 * first writer, before they run; a writer at the head is woken but not granted, so a running
 * writer may take the idle lock first: a writer in rwsem_down_write_failed that finds no
 * active holder takes it, wherever it stands in the queue (writer lock stealing, 3.10). 4.4's
 * writers also spin while the owner runs and steal the same idle lock before queueing
 * (rwsem_optimistic_spin): the same rule for who gets in, so the spin is not modelled.
 *
 * wait_lock is a ticket lock (the kernel's raw spinlock); a waiter sleeps on a futex word of
 * its own, on its stack as the kernel's struct rwsem_waiter is. There is no downgrade_write
 * in the model, so no RWSEM_WAKE_READ_OWNED.
 */
#include <stdbool.h>
#include <stdint.h>

#include "lock.h"
#include "lock_loop.h"
#include "spin.h"

#define RWSEM_ACTIVE_MASK	0xffffffffL
#define RWSEM_ACTIVE_BIAS	1L
#define RWSEM_WAITING_BIAS	(-RWSEM_ACTIVE_MASK - 1)
#define RWSEM_ACTIVE_READ_BIAS	RWSEM_ACTIVE_BIAS
#define RWSEM_ACTIVE_WRITE_BIAS	(RWSEM_WAITING_BIAS + RWSEM_ACTIVE_BIAS)

enum rwsem_wake_type {
	RWSEM_WAKE_ANY,		/* whatever is at the head of the queue */
	RWSEM_WAKE_READERS,	/* readers at the head only */
};

struct rwsem_list {
	struct rwsem_list *next, *prev;
};

struct rwsem_waiter {
	struct rwsem_list list;	/* first: a node of the list is its waiter */
	bool writer;
	uint32_t granted;	/* a reader: a waker counted it in (the kernel's waiter.task = NULL) */
	uint32_t woken;		/* a writer: bumped by each wake_up_process */
};

struct rw_semaphore {
	long count;
	struct ticket_lock wait_lock;
	struct rwsem_list wait_list;	/* under wait_lock */
};
_Static_assert(sizeof(struct rw_semaphore) <= CGT_LOCK_PRIV_SIZE, "rwsem state too large");

static struct rw_semaphore *sem_of(struct cgt_lock *lock)
{
	return cgt_lock_priv(lock, struct rw_semaphore);
}

static void rwsem_init(struct cgt_lock *lock)
{
	struct rw_semaphore *sem = sem_of(lock);

	sem->count = 0;
	ticket_init(&sem->wait_lock);
	sem->wait_list.next = sem->wait_list.prev = &sem->wait_list;
}

static bool list_empty(const struct rwsem_list *head)
{
	return head->next == head;
}

static bool list_is_singular(const struct rwsem_list *head)
{
	return !list_empty(head) && head->next == head->prev;
}

static void list_add_tail(struct rwsem_list *node, struct rwsem_list *head)
{
	node->prev = head->prev;
	node->next = head;
	head->prev->next = node;
	head->prev = node;
}

static void list_del(struct rwsem_list *node)
{
	node->prev->next = node->next;
	node->next->prev = node->prev;
}

static struct rwsem_waiter *waiter_of(struct rwsem_list *node)
{
	return (struct rwsem_waiter *)(void *)node;
}

static long count_add(struct rw_semaphore *sem, long adjustment)
{
	return lk_add_fetch(&sem->count, adjustment, __ATOMIC_SEQ_CST);
}

/*
 * __rwsem_do_wake, under wait_lock, the queue not empty: a writer at the head is woken, not
 * granted; readers at the head, up to the first writer, are granted before they are woken.
 */
static void rwsem_do_wake(struct rw_semaphore *sem, enum rwsem_wake_type wake_type)
{
	struct rwsem_list *node = sem->wait_list.next, *next;
	struct rwsem_waiter *waiter = waiter_of(node);
	long oldcount, woken, loop, adjustment;

	if (waiter->writer) {
		if (wake_type == RWSEM_WAKE_ANY) {
			lk_fetch_add(&waiter->woken, 1, __ATOMIC_SEQ_CST);
			lk_futex_wake(&waiter->woken, 1);
		}
		return;
	}
	/* a writer may steal the lock before the first reader is granted: then leave it */
	adjustment = RWSEM_ACTIVE_READ_BIAS;
	for (;;) {
		oldcount = count_add(sem, adjustment) - adjustment;
		if (oldcount >= RWSEM_WAITING_BIAS)
			break;
		if (count_add(sem, -adjustment) & RWSEM_ACTIVE_MASK)
			return;
	}
	woken = 0;
	do {
		woken++;
		node = node->next;
	} while (node != &sem->wait_list && !waiter_of(node)->writer);
	adjustment = woken * RWSEM_ACTIVE_READ_BIAS - adjustment;
	if (node == &sem->wait_list)
		adjustment -= RWSEM_WAITING_BIAS;	/* the queue is emptied */
	if (adjustment)
		count_add(sem, adjustment);
	/* each reader may run, and its waiter go, as soon as it is granted: next read first */
	next = sem->wait_list.next;
	loop = woken;
	do {
		waiter = waiter_of(next);
		next = waiter->list.next;
		lk_store(&waiter->granted, 1, __ATOMIC_RELEASE);
		lk_futex_wake(&waiter->granted, 1);
	} while (--loop);
	sem->wait_list.next = next;
	next->prev = &sem->wait_list;
}

/* rwsem_down_read_failed: queue at the tail, wake the head if the lock is idle, sleep. */
static void rwsem_down_read_failed(struct rw_semaphore *sem)
{
	struct rwsem_waiter waiter = { .writer = false };
	long count, adjustment = -RWSEM_ACTIVE_READ_BIAS;

	ticket_lock(&sem->wait_lock);
	if (list_empty(&sem->wait_list))
		adjustment += RWSEM_WAITING_BIAS;
	list_add_tail(&waiter.list, &sem->wait_list);
	count = count_add(sem, adjustment);
	/*
	 * No active holder: wake the head. No writer holding it and we are the only waiter:
	 * join the readers in.
	 */
	if (count == RWSEM_WAITING_BIAS ||
	    (count > RWSEM_WAITING_BIAS && adjustment != -RWSEM_ACTIVE_READ_BIAS))
		rwsem_do_wake(sem, RWSEM_WAKE_ANY);
	ticket_unlock(&sem->wait_lock);
	while (!lk_load(&waiter.granted, __ATOMIC_ACQUIRE))
		lk_futex_wait(&waiter.granted, 0);
}

/* __down_read */
static void rwsem_down_read(struct cgt_lock *lock)
{
	struct rw_semaphore *sem = sem_of(lock);

	if (unlikely(lk_add_fetch(&sem->count, RWSEM_ACTIVE_READ_BIAS, __ATOMIC_ACQUIRE) <= 0))
		rwsem_down_read_failed(sem);
}

/* rwsem_wake: a release left the lock idle with waiters. */
static void rwsem_wake(struct rw_semaphore *sem)
{
	ticket_lock(&sem->wait_lock);
	if (!list_empty(&sem->wait_list))
		rwsem_do_wake(sem, RWSEM_WAKE_ANY);
	ticket_unlock(&sem->wait_lock);
}

/* __up_read */
static void rwsem_up_read(struct cgt_lock *lock)
{
	struct rw_semaphore *sem = sem_of(lock);
	long tmp = lk_add_fetch(&sem->count, -RWSEM_ACTIVE_READ_BIAS, __ATOMIC_RELEASE);

	if (unlikely(tmp < -1 && !(tmp & RWSEM_ACTIVE_MASK)))
		rwsem_wake(sem);
}

/*
 * The write lock, under wait_lock, if nobody is active: wherever this writer is in the
 * queue (the steal), keeping the waiting bias for those left in it.
 */
static bool rwsem_try_write_lock(struct rw_semaphore *sem)
{
	long old = RWSEM_WAITING_BIAS, newcount = RWSEM_ACTIVE_WRITE_BIAS;

	if (!list_is_singular(&sem->wait_list))
		newcount += RWSEM_WAITING_BIAS;
	return lk_load(&sem->count, __ATOMIC_RELAXED) == RWSEM_WAITING_BIAS &&
	       lk_cmpxchg(&sem->count, &old, newcount, false, __ATOMIC_SEQ_CST,
			  __ATOMIC_RELAXED);
}

/*
 * rwsem_down_write_failed: queue at the tail (from then on new readers queue behind us),
 * wake readers at the head if readers hold it, and take the lock whenever it is idle.
 */
static void rwsem_down_write_failed(struct cgt_lock *lock, struct rw_semaphore *sem)
{
	struct rwsem_waiter waiter = { .writer = true };
	long count, adjustment = -RWSEM_ACTIVE_WRITE_BIAS;
	uint32_t seen;

	ticket_lock(&sem->wait_lock);
	if (list_empty(&sem->wait_list))
		adjustment += RWSEM_WAITING_BIAS;
	list_add_tail(&waiter.list, &sem->wait_list);
	count = count_add(sem, adjustment);
	cgt_lock_writer_queued(lock);
	if (count > RWSEM_WAITING_BIAS && adjustment == -RWSEM_ACTIVE_WRITE_BIAS)
		rwsem_do_wake(sem, RWSEM_WAKE_READERS);
	for (;;) {
		if (!(count & RWSEM_ACTIVE_MASK) && rwsem_try_write_lock(sem))
			break;
		seen = lk_load(&waiter.woken, __ATOMIC_SEQ_CST);
		ticket_unlock(&sem->wait_lock);
		/* asleep until woken with no active holder */
		do {
			lk_futex_wait(&waiter.woken, seen);
			seen = lk_load(&waiter.woken, __ATOMIC_SEQ_CST);
		} while ((count = lk_load(&sem->count, __ATOMIC_SEQ_CST)) & RWSEM_ACTIVE_MASK);
		ticket_lock(&sem->wait_lock);
	}
	list_del(&waiter.list);
	ticket_unlock(&sem->wait_lock);
}

/* __down_write */
static void rwsem_down_write(struct cgt_lock *lock)
{
	struct rw_semaphore *sem = sem_of(lock);

	if (unlikely(lk_add_fetch(&sem->count, RWSEM_ACTIVE_WRITE_BIAS, __ATOMIC_ACQUIRE) !=
		     RWSEM_ACTIVE_WRITE_BIAS))
		rwsem_down_write_failed(lock, sem);
}

/* __up_write */
static void rwsem_up_write(struct cgt_lock *lock)
{
	struct rw_semaphore *sem = sem_of(lock);

	if (unlikely(lk_add_fetch(&sem->count, -RWSEM_ACTIVE_WRITE_BIAS, __ATOMIC_RELEASE) < 0))
		rwsem_wake(sem);
}

CGT_LOCK_LOOPS(rwsem, rwsem_down_read, rwsem_up_read, rwsem_down_write, rwsem_up_write);

const struct cgt_lock_ops rwsem_lock_ops = {
	.name		= "rwsem",
	.desc		= "sleeping reader/writer (rw_semaphore, rwsem-xadd), FIFO queue, writers steal",
	.sleeps		= true,
	.shared		= true,
	.steps		= true,
	/*
	 * Not FIFO: a writer takes an idle lock past queued waiters. What it promises is
	 * that a waiting writer keeps new readers out.
	 */
	.policy		= CGT_POLICY_WRITER_FIRST,
	.init		= rwsem_init,
	.read_lock	= rwsem_down_read,
	.read_unlock	= rwsem_up_read,
	.write_lock	= rwsem_down_write,
	.write_unlock	= rwsem_up_write,
	.loops		= &rwsem_loops,
	.reference	= "pthread_rwlock_wpref",
};
