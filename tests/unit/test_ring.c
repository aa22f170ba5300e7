// SPDX-License-Identifier: GPL-2.0
/*
 * A thread's event ring copied while the thread goes on recording (core/thread.c): the copy
 * holds the ring as it stood when the copy began, in order, and marks lost the oldest slots
 * the thread overwrote meanwhile. Before, those slots were read as old events carrying
 * later times, and a timeline drawn from such a copy had a slice ending before it began.
 * The writer numbers its events, so any slot out of place shows, however the copies and the
 * writes interleave.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <pthread.h>
#include <string.h>

#include "../../src/base/clock.h"
#include "../../src/core/thread.h"

#define COPIES		4000

static struct cgt_thread writer, copy;
static int stop, started;

static void *record(void *arg)
{
	(void)arg;
	cgt_thread_register(&writer, CGT_ROLE_ACTOR, 100);
	for (int k = 1; !__atomic_load_n(&stop, __ATOMIC_RELAXED); k++) {
		cgt_event_record(CGT_PT_LOOP, -1, k, NULL);
		if (k == CGT_RING_SIZE * 2)
			__atomic_store_n(&started, 1, __ATOMIC_RELEASE);
	}
	cgt_thread_unregister(&writer);
	return NULL;
}

/* The kept events of @t: numbered one after another, in time order, after any lost ones. */
static long check_copy(const struct cgt_thread *t)
{
	uint32_t head = t->ring_head, have = head < CGT_RING_SIZE ? head : CGT_RING_SIZE;
	const struct cgt_event *prev = NULL;
	long lost = 0;

	for (uint32_t i = head - have; i != head; i++) {
		const struct cgt_event *e = &t->ring[i & (CGT_RING_SIZE - 1)];

		if (e->point == CGT_PT_LOST) {
			cr_assert_null(prev, "a lost slot at %u follows a kept one", i);
			lost++;
			continue;
		}
		cr_assert_eq(e->point, CGT_PT_LOOP);
		cr_assert_eq((uint32_t)e->pid, i + 1, "slot %u holds event %d", i, e->pid);
		if (prev)
			cr_assert_geq(e->ns, prev->ns, "event %d is earlier than event %d",
				      e->pid, prev->pid);
		prev = e;
	}
	return lost;
}

Test(ring, a_copy_of_a_recording_thread_keeps_its_order, .timeout = 60)
{
	pthread_t tid;
	long lost = 0;

	cgt_clock_reset();
	cr_assert_eq(pthread_create(&tid, NULL, record, NULL), 0);
	while (!__atomic_load_n(&started, __ATOMIC_ACQUIRE))
		sched_yield();
	for (int n = 0; n < COPIES; n++) {
		cgt_thread_copy(&copy, &writer);
		lost += check_copy(&copy);
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	pthread_join(tid, NULL);
	/* a copier cannot tell a stopped writer from one half way through a slot */
	cgt_thread_copy(&copy, &writer);
	cr_assert_leq(check_copy(&copy), 1, "a thread that stopped recording lost one slot at most");
	cr_log_info("%d copies, %ld slots marked lost", COPIES, lost);
}
