// SPDX-License-Identifier: GPL-2.0
/*
 * rcu-nesting: "BUG: sleeping function called from invalid context". A lock whose waiters
 * sleep, taken inside an RCU read-side section, can deadlock against a writer that holds it
 * and waits for a grace period (the rwsem-inside-rcu bug). Reported once per lock class.
 */
#include <stdio.h>
#include <string.h>

#include "detect.h"
#include "../core/rcu.h"
#include "../locks/lock.h"

static unsigned char seen[CGT_MAX_LOCK_CLASSES];

static int rcu_nesting_start(const struct cgt_detect_config *cfg)
{
	(void)cfg;
	memset(seen, 0, sizeof(seen));
	return 0;
}

static void rcu_nesting_resume(enum cgt_point_id id, const void *obj)
{
	const struct cgt_lock_op *op = obj;
	struct cgt_thread *t = cgt_self;
	char evidence[256];

	if (id != CGT_PT_LOCK_WAIT || !t || !op->lock->ops->sleeps || !cgt_rcu_read_depth())
		return;
	if (__atomic_exchange_n(&seen[cgt_lock_class_id(op->lock->class)], 1, __ATOMIC_RELAXED))
		return;
	snprintf(evidence, sizeof(evidence),
		 "thread %d (tid %d) is inside rcu_read_lock (depth %d) and takes %s (%s),\n"
		 "which may sleep: a writer that waits for a grace period under it deadlocks\n",
		 t->id, READ_ONCE(t->pid), cgt_rcu_read_depth(), op->lock->name,
		 op->side == CGT_WRITE ? "write" : "read");
	cgt_fail(CGT_DET_RCU_NESTING, t->id, evidence,
		 "sleeping lock %s taken inside an RCU read-side section", op->lock->name);
}

const struct cgt_detector_ops rcu_nesting_detector = {
	.id	= CGT_DET_RCU_NESTING,
	.start	= rcu_nesting_start,
	.resume	= rcu_nesting_resume,
};
