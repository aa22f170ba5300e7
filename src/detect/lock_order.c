// SPDX-License-Identifier: GPL-2.0
/*
 * lock-order: lockdep's check_prev_add. As a thread is about to take a lock, every class it
 * holds is ordered before the class it takes; a pair of classes seen in both orders is an
 * ABBA deadlock waiting for two threads to meet, and a class taken while one of its own is
 * held is possible recursive locking. Each is reported the first time it is seen, even in a
 * run where the deadlock never comes.
 */
#include <stdio.h>
#include <string.h>

#include "detect.h"
#include "../locks/lock.h"

/* order[a][b]: class b was taken while class a was held */
static unsigned char order[CGT_MAX_LOCK_CLASSES][CGT_MAX_LOCK_CLASSES];

static const char *side_name(int side)
{
	return side == CGT_WRITE ? "write" : "read";
}

static int lock_order_start(const struct cgt_detect_config *cfg)
{
	(void)cfg;
	memset(order, 0, sizeof(order));
	return 0;
}

static void lock_order_resume(enum cgt_point_id id, const void *obj)
{
	const struct cgt_lock_op *op = obj;
	struct cgt_thread *t = cgt_self;
	const struct cgt_lock *lock;
	int b;

	if (id != CGT_PT_LOCK_WAIT || !t)
		return;
	lock = op->lock;
	b = cgt_lock_class_id(lock->class);
	for (int i = 0; i < READ_ONCE(t->nheld); i++) {
		const struct cgt_lock *held = t->held[i].lock;
		int a = cgt_lock_class_id(held->class);
		char evidence[512];

		if (a == b) {
			if (__atomic_exchange_n(&order[a][a], 1, __ATOMIC_RELAXED))
				continue;
			snprintf(evidence, sizeof(evidence),
				 "thread %d holds %s (%s) and takes another %s (%s)\n",
				 t->id, held->name, side_name(t->held[i].write), lock->name,
				 side_name(op->side));
			cgt_fail(CGT_DET_LOCK_ORDER, t->id, evidence,
				 "possible recursive locking: %s taken while one is held", lock->name);
			continue;
		}
		if (__atomic_exchange_n(&order[a][b], 1, __ATOMIC_RELAXED))
			continue;
		if (__atomic_load_n(&order[b][a], __ATOMIC_RELAXED)) {
			snprintf(evidence, sizeof(evidence),
				 "thread %d (tid %d) takes %s (%s) while holding %s (%s);\n"
				 "another thread earlier took %s while holding %s\n",
				 t->id, READ_ONCE(t->pid), lock->name, side_name(op->side), held->name,
				 side_name(t->held[i].write), held->name, lock->name);
			cgt_fail(CGT_DET_LOCK_ORDER, t->id, evidence,
				 "possible circular locking: %s -> %s and %s -> %s",
				 held->name, lock->name, lock->name, held->name);
		}
	}
}

const struct cgt_detector_ops lock_order_detector = {
	.id	= CGT_DET_LOCK_ORDER,
	.start	= lock_order_start,
	.resume	= lock_order_resume,
};
