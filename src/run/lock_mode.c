// SPDX-License-Identifier: GPL-2.0
/* --locks: whether a controlled run steps through the lock variants' own code (run.h). */
#include "run.h"

/* The catalogued bugs are told in the model's locks: a run that puts one back keeps them. */
bool cgt_run_lock_code(const struct cgt_run_config *cfg)
{
	if (!cfg->sched || cfg->lock_mode == CGT_LOCKS_MODEL)
		return false;
	return cfg->lock_mode == CGT_LOCKS_CODE || (!cfg->bugs && (cfg->seed & 1));
}
