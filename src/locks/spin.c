// SPDX-License-Identifier: GPL-2.0
/*
 * The ticket lock's waiters. In the kernel a waiter spins with preemption off: a lock never
 * has more spinners than there are CPUs, and the one whose turn comes is already running.
 * Here thousands of pthreads queue on two CPUs, and a spinner that yields may wait a whole
 * time slice of another process before it runs again (at 2,000 threads, 600 exits queued on
 * tasklist_lock went at 4 ms a hand-over). So the CGT_TICKET_SPINNERS tickets next in line
 * spin for a while (CGT_TICKET_SPINS), then sleep, as the rest of the queue does from the
 * start; a release wakes the ticket whose turn it is and the one it brings near enough to
 * spin.
 *
 * Each ticket sleeps on its own turn word, one of CGT_TICKET_TURNS shared by every lock
 * (a lock's consecutive tickets take consecutive words, from a place given by the order the
 * locks were made in, not by their addresses: a controlled run stepping through the code
 * sees another lock's bump of a shared word, and must see it at the same step every run),
 * which a release bumps before its wake. On one word shared by the whole queue, each wake walked every sleeper in the
 * futex's hash bucket: 10,000 queued forks went at 300 a second. There are as many words
 * as a queue can be long at 30,000 threads: with 1,024, 25,000 exits queued on
 * tasklist_lock put about 25 sleepers on each word, every hand-over woke them all, and the
 * run's end went at 1,200 exits a second (7,000 with a word each).
 */
#include <stdint.h>

#include "spin.h"

#define CGT_TICKET_SPINNERS	4
#define CGT_TICKET_SPINS	1024
#define CGT_TICKET_TURNS	65536

#define CGT_TICKET_SPREAD	4096	/* words between two locks' first tickets */

static uint32_t turns[CGT_TICKET_TURNS];
static uint32_t ticket_ids;

static uint32_t *turn(const struct ticket_lock *t, uint32_t ticket)
{
	return &turns[(t->id * CGT_TICKET_SPREAD + ticket) % CGT_TICKET_TURNS];
}

void ticket_init(struct ticket_lock *t)
{
	t->next = t->owner = t->sleepers = 0;
	t->id = __atomic_fetch_add(&ticket_ids, 1, __ATOMIC_RELAXED);
}

/* Ticket @me was not served at once: spin near the head of the queue, sleep further back. */
void ticket_lock_slow(struct ticket_lock *t, uint32_t me)
{
	uint32_t owner, seen;
	unsigned int spins = 0;

	for (;;) {
		owner = lk_load(&t->owner, __ATOMIC_SEQ_CST);
		if (owner == me)
			return;
		if (me - owner <= CGT_TICKET_SPINNERS && spins < CGT_TICKET_SPINS) {
			if (!lk_spin())
				cpu_relax();
			spins++;
			continue;
		}
		seen = lk_load(turn(t, me), __ATOMIC_SEQ_CST);
		lk_fetch_add(&t->sleepers, 1, __ATOMIC_SEQ_CST);
		owner = lk_load(&t->owner, __ATOMIC_SEQ_CST);
		if (owner != me && (me - owner > CGT_TICKET_SPINNERS || spins >= CGT_TICKET_SPINS))
			lk_futex_wait(turn(t, me), seen);
		lk_fetch_sub(&t->sleepers, 1, __ATOMIC_RELAXED);
	}
}

static void ticket_wake(struct ticket_lock *t, uint32_t ticket)
{
	lk_fetch_add(turn(t, ticket), 1, __ATOMIC_SEQ_CST);
	lk_futex_wake(turn(t, ticket), INT32_MAX);
}

void ticket_wake_sleepers(struct ticket_lock *t, uint32_t owner)
{
	ticket_wake(t, owner);
	ticket_wake(t, owner + CGT_TICKET_SPINNERS);
}
