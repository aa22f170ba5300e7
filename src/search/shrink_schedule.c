// SPDX-License-Identifier: GPL-2.0
/*
 * shrink's cuts of the schedule, once the configuration is as small as it goes: a search
 * under the bounded scheduler if the failure has more preemptions than CHESS's bound, then
 * the decisions past the shortest prefix that still fails (the rest left to the lenient
 * follower, which lets the running thread go on), the threads that run, each preemption
 * undone, turns taken out and switches (delta debugging over the runs of one thread). A cut
 * is kept if its run is smaller in shrink_size.c's order, preemptions past the bound first.
 */
#include "search.h"
#include "shrink.h"

/*
 * The shortest prefix that still leads to the failure: most switches of a random schedule
 * have nothing to do with it. A binary search, as the failure need not come back for every
 * longer prefix.
 */
static void cut_prefix(struct shrink *sh)
{
	long lo = 0, hi = sh->best_step + 1;

	sh->pass = "decisions";
	while (lo + 1 < hi && shrink_can_try(sh)) {
		long mid = lo + (hi - lo) / 2;
		struct cgt_schedule cand;

		if (!shrink_prefix(&sh->best, mid, &cand))
			return;
		if (shrink_try(sh, sh->cfg, &cand, false))
			hi = sh->best_step + 1 < mid ? sh->best_step + 1 : mid;
		else
			lo = mid;
		cgt_schedule_free(&cand);
	}
}

/*
 * Fewer threads: every decision of one thread taken out of the schedule, the youngest first
 * (a thread forked late has forked the fewest others, whose numbers would shift without
 * it); where what is left does not fit, the lenient follower goes on.
 */
static void cut_threads(struct shrink *sh)
{
	int max = 0;

	sh->pass = "threads that run";
	for (long k = 0; k < sh->best.len; k++)
		max = sh->best.choice[k] > max ? sh->best.choice[k] : max;
	for (int id = max; id > 0 && shrink_can_try(sh); id--) {
		struct cgt_schedule cand = { 0 };
		bool ran = false, ok = true;

		for (long k = 0; k <= sh->best_step && k < sh->best.len && ok; k++) {
			ran |= sh->best.choice[k] == id;
			if (sh->best.choice[k] != id)
				ok = !cgt_schedule_push(&cand, sh->best.choice[k]);
		}
		if (ran && ok)
			shrink_try(sh, sh->cfg, &cand, false);
		cgt_schedule_free(&cand);
	}
}

/*
 * Each preemption undone, the latest first: the thread preempted goes on where another took
 * its place, for as long as that one's run lasted. After a cut the new best's preemptions
 * are tried from its latest again.
 */
static void cut_preemptions(struct shrink *sh)
{
	sh->pass = "preemptions";
	for (long i = sh->best_pre - 1; i >= 0 && sh->best_at && shrink_can_try(sh); i--) {
		long k = sh->best_at[i];
		struct cgt_schedule cand;
		int from, to;

		if (k < 1 || k > sh->best_step || !shrink_prefix(&sh->best, sh->best_step + 1, &cand))
			continue;
		from = cand.choice[k - 1];
		to = cand.choice[k];
		for (long j = k; j < cand.len && cand.choice[j] == to; j++)
			cand.choice[j] = from;
		if (shrink_try(sh, sh->cfg, &cand, false))
			i = sh->best_pre;
		cgt_schedule_free(&cand);
	}
}

/*
 * A failure with more preemptions than CHESS finds most bugs within is looked for again
 * under the bounded scheduler, K from 1 to SHRINK_BOUND, in runs of 300 decisions, then
 * 1,000, then the run's own length: a random walk's failure has hundreds of preemptions, of
 * which undoing one at a time would take as many trials.
 */
#define REFIND		120

static void refind_bounded(struct shrink *sh)
{
	struct cgt_run_config c = *sh->cfg;
	uint64_t seed = sh->cfg->seed;

	if (sh->size.pre <= SHRINK_BOUND)
		return;
	sh->pass = "preemptions (bounded search)";
	c.sched = cgt_sched_find("bounded");
	/* short runs first: a failure they find comes early, in few decisions */
	for (int j = 0; j < REFIND && shrink_can_try(sh); j++) {
		c.seed = seed + 1 + (uint64_t)j;
		c.sched_tunables.preemptions = 1 + j % SHRINK_BOUND;
		c.steps = j < REFIND / 3 ? 300 : j < 2 * REFIND / 3 ? 1000 : sh->cfg->steps;
		if (c.steps > sh->cfg->steps)
			c.steps = sh->cfg->steps;
		if (shrink_try(sh, &c, NULL, false))
			return;
	}
}

/*
 * Delta debugging over the turns up to the failure (a turn: a run of one thread): @make
 * builds the candidate that changes turns [lo, hi), coarse chunks first, finer while nothing
 * goes, as Zeller's ddmin cuts an input.
 */
typedef bool (*chunk_fn)(const struct shrink *sh, long lo, long hi, struct cgt_schedule *cand);

static void delta_debug(struct shrink *sh, const char *pass, chunk_fn make)
{
	sh->pass = pass;
	for (long chunks = 2; shrink_can_try(sh); ) {
		long n = 1, size;
		bool cut = false;

		for (long k = 1; k <= sh->best_step && k < sh->best.len; k++)
			n += sh->best.choice[k] != sh->best.choice[k - 1];
		if (n < 2)
			return;
		if (chunks > n)
			chunks = n;
		size = (n + chunks - 1) / chunks;
		for (long c = 0; c < chunks && !cut && shrink_can_try(sh); c++) {
			struct cgt_schedule cand = { 0 };

			cut = make(sh, c * size, c * size + size, &cand) &&
			      shrink_try(sh, sh->cfg, &cand, false);
			cgt_schedule_free(&cand);
		}
		if (cut)
			chunks = chunks > 2 ? chunks - 1 : 2;
		else if (chunks >= n)
			return;
		else
			chunks *= 2;
	}
}

/* Fewer switches: turns [lo, hi) given to the thread that ran just before them. */
static bool give_back(const struct shrink *sh, long lo, long hi, struct cgt_schedule *cand)
{
	long turn = 0;
	int before = 0;

	for (long k = 0; k <= sh->best_step && k < sh->best.len; k++) {
		int id = sh->best.choice[k];

		if (k && id != sh->best.choice[k - 1])
			turn++;
		if (turn < lo)
			before = id;
		else if (turn < hi && before)
			id = before;
		if (cgt_schedule_push(cand, id))
			return false;
	}
	return true;
}

/*
 * Fewer turns: turns [lo, hi) taken out, a bystander's operation that the failure did not
 * need done then.
 */
static bool take_out(const struct shrink *sh, long lo, long hi, struct cgt_schedule *cand)
{
	long turn = 0;

	for (long k = 0; k <= sh->best_step && k < sh->best.len; k++) {
		if (k && sh->best.choice[k] != sh->best.choice[k - 1])
			turn++;
		if ((turn < lo || turn >= hi) && cgt_schedule_push(cand, sh->best.choice[k]))
			return false;
	}
	return true;
}

void shrink_schedule(struct shrink *sh)
{
	struct shrink_size before;

	refind_bounded(sh);
	/* each pass again while a round cuts: a cut can open the way to another's */
	do {
		before = sh->size;
		cut_prefix(sh);
		cut_threads(sh);
		cut_preemptions(sh);
		delta_debug(sh, "turns", take_out);
		delta_debug(sh, "switches", give_back);
	} while (shrink_size_cmp(&sh->size, &before, true) < 0 && shrink_can_try(sh));
}
