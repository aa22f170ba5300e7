// SPDX-License-Identifier: GPL-2.0
/*
 * rcu-lifetime: an RCU-protected object used where its protection had already ended -- a
 * walk that left its read-side section and went on from a thread it held no reference to,
 * or an object found that was unlinked before the reader's section began (core/rcu.h). The
 * model checks it where it reads (model/window_checks.c), in every build: the memory need
 * not have been freed yet, nor the grace period have ended, for the mistake to show.
 */
#include "detect.h"

const struct cgt_detector_ops rcu_lifetime_detector = {
	.id	= CGT_DET_RCU_LIFETIME,
};
