// SPDX-License-Identifier: GPL-2.0
/*
 * invariant: the model's linkage broken. The model knows its invariants (model/invariants.c:
 * list consistency, refcounts, nr_threads, one css_set per task); this detector says when
 * they are checked: whenever every model thread is held still, and once the model has gone,
 * when nothing may have leaked. A migration checks its own group as it ends and reports a
 * split group through the failure list itself.
 */
#include "detect.h"
#include "../model/model.h"

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
	.at_rest	= invariant_at_rest,
	.after_exit	= invariant_after_exit,
};
