// SPDX-License-Identifier: GPL-2.0
/*
 * A search's preemption bound, as CHESS's iterative context bounding raises it: the
 * schedules are cut into blocks of equal size, K = 0 first, so that the first failure a
 * search finds is one with as few preemptions as it could find.
 */
#include <string.h>

#include "search.h"

void cgt_search_bound(struct cgt_run_config *cfg, int kmax, long i, long runs)
{
	if (!cfg->sched || strcmp(cfg->sched->name, "bounded") || runs < 1)
		return;
	cfg->sched_tunables.preemptions = (int)(i * (kmax + 1) / runs);
}
