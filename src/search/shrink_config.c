// SPDX-License-Identifier: GPL-2.0
/*
 * shrink's cuts of the configuration, largest first, as syzkaller's repro drops threads and
 * calls before it minimises the program: the cap on model threads, the walkers, then each
 * kind of operation (its weight in --mix to 0), then the swarm's remaining draws. A cut
 * pins what it cuts: a dimension the swarm drew is drawn no more.
 *
 * A smaller configuration makes another run, whose thread numbers name other threads, so
 * the best schedule rarely fits it. A cut is tried following that schedule as far as it fits,
 * then by a search of its own, and kept with the first run that fails the same way and is no
 * bigger than the best so far by (threads that ran, operations, decisions, preemptions): its
 * configuration is smaller. Preemptions past CHESS's bound do not come first here, as in the
 * schedule's cuts: a search's run has many, and the bounded search after cuts them.
 */
#include "search.h"
#include "shrink.h"

/*
 * Schedules a cut's search tries: a count's cut, and each kind of operation's (five of
 * them, each cut as likely to lose the failure).
 */
#define COUNT_SEARCH	12
#define OPS_SEARCH	6

/*
 * The search of a cut: @tries schedules, seeds after the configuration's, its schedulers in
 * turn: the random walk (it finds a small configuration's failure in the fewest schedules;
 * its preemptions are the schedule passes' to cut), the report's own (a failure only it
 * finds) and the bounded, K from 1 to SHRINK_BOUND (one with few preemptions at once).
 */
static bool cut(struct shrink *sh, struct cgt_run_config *c, int tries)
{
	const struct cgt_sched_ops *sched[] = { cgt_sched_find("random"), c->sched,
						cgt_sched_find("bounded") };
	const struct cgt_sched_tunables own = c->sched_tunables;
	uint64_t seed = sh->cfg->seed;

	if (shrink_try(sh, c, &sh->best, true))
		return true;
	for (int j = 0; j < tries && shrink_can_try(sh); j++) {
		c->seed = seed + 1 + (uint64_t)j;
		c->sched = sched[j % 3];
		c->sched_tunables = own;
		if (j % 3 == 2)
			c->sched_tunables.preemptions = 1 + j / 3 % SHRINK_BOUND;
		if (shrink_try(sh, c, NULL, true))
			return true;
	}
	return false;
}

/*
 * The smallest of @from, 2 @from, 4 @from ... below *@field that still fails (tried in that
 * order: the largest cut first), with the swarm's @dim pinned; @tries schedules each.
 */
static void cut_count(struct shrink *sh, const char *pass, size_t off, int from, int dim,
		      int tries)
{
	sh->pass = pass;
	for (int v = from; shrink_can_try(sh); v = v ? v * 2 : 1) {
		struct cgt_run_config c = *sh->cfg;
		int *field = (int *)((char *)&c + off);

		if (v >= *field)
			return;
		*field = v;
		c.swarm &= ~(1u << dim);
		if (cut(sh, &c, tries))
			return;
	}
}

/* Each kind of operation left out in turn, the most frequent first. */
static void cut_ops(struct shrink *sh)
{
	bool tried[CGT_NR_OPS] = { 0 };

	sh->pass = "operations";
	for (;;) {
		struct cgt_run_config c;
		int op = -1;

		for (int k = 0; k < CGT_NR_OPS; k++)
			if (!tried[k] && sh->cfg->mix[k] && (op < 0 || sh->cfg->mix[k] > sh->cfg->mix[op]))
				op = k;
		if (op < 0 || !shrink_can_try(sh))
			return;
		tried[op] = true;
		c = *sh->cfg;
		c.mix[op] = 0;
		c.swarm &= ~(1u << CGT_SWARM_MIX);
		cut(sh, &c, OPS_SEARCH);
	}
}

void shrink_config(struct shrink *sh)
{
	cut_count(sh, "threads", offsetof(struct cgt_run_config, threads), 2, CGT_SWARM_THREADS,
		  COUNT_SEARCH);
	cut_count(sh, "walkers", offsetof(struct cgt_run_config, walkers), 0, CGT_SWARM_WALKERS,
		  COUNT_SEARCH);
	cut_ops(sh);
	if (sh->cfg->swarm && shrink_can_try(sh)) {
		struct cgt_run_config c = *sh->cfg;

		sh->pass = "swarm";
		c.swarm = 0;
		cut(sh, &c, OPS_SEARCH);
	}
}
