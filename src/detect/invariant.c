// SPDX-License-Identifier: GPL-2.0
/*
 * invariant: the model's linkage broken. The model knows its invariants (model/invariants.c:
 * list consistency, refcounts, nr_threads, one css_set per task); this detector says when
 * they are checked: whenever every model thread is held still, and once the model has gone,
 * when nothing may have leaked. A migration checks its own group as it ends and reports a
 * split group through the failure list itself; and as each lock is taken, that it excludes
 * what it should (lock.c).
 */
#include "detect.h"
#include "../locks/lock.h"
#include "../model/model.h"

static int exclusion_reported;

static int invariant_start(const struct cgt_detect_config *cfg)
{
	(void)cfg;
	exclusion_reported = 0;
	return 0;
}

/* A lock that let a thread in beside its writer (lock.c checks as it is taken): once a run. */
static void invariant_point(enum cgt_point_id id, const void *obj)
{
	const struct cgt_lock_op *op = obj;

	if (id != CGT_PT_LOCK_HELD || !op->excluded ||
	    __atomic_exchange_n(&exclusion_reported, 1, __ATOMIC_RELAXED))
		return;
	cgt_fail(CGT_DET_INVARIANT, cgt_self ? cgt_self->id : 0, NULL,
		 "mutual exclusion broken: %s (%s) taken for %s while thread %d held it for writing",
		 op->lock->name, op->lock->ops->name, op->side == CGT_WRITE ? "writing" : "reading",
		 op->excluded);
}

static void invariant_at_rest(void)
{
	char why[256];

	if (cgt_check_invariants(why, sizeof(why)))
		cgt_fail(CGT_DET_INVARIANT, cgt_self ? cgt_self->id : 0, NULL, "%s", why);
}

static void invariant_after_exit(void)
{
	char why[256];

	if (cgt_check_leaks(why, sizeof(why)))
		cgt_fail(CGT_DET_INVARIANT, cgt_self ? cgt_self->id : 0, NULL, "%s", why);
}

const struct cgt_detector_ops invariant_detector = {
	.id		= CGT_DET_INVARIANT,
	.start		= invariant_start,
	.point		= invariant_point,
	.at_rest	= invariant_at_rest,
	.after_exit	= invariant_after_exit,
};
