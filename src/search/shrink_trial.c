// SPDX-License-Identifier: GPL-2.0
/*
 * One trial of shrink: a child run of a smaller configuration or schedule, kept as the new
 * best if it fails the same way and is smaller (shrink_size.c); every pass of shrink is made
 * of these, and the progress line is drawn after each.
 */
#include <stdio.h>
#include <string.h>

#include "search.h"
#include "shrink.h"
#include "../base/clock.h"

bool shrink_can_try(const struct shrink *sh)
{
	return sh->runs < sh->budget && cgt_now() < sh->deadline && !cgt_run_interrupted();
}

static void progress(const struct shrink *sh)
{
	if (sh->tty)
		fprintf(stderr, "\r\033[Kshrink: %s: %ld/%ld trials; threads %d, walkers %d; "
			"ran %ld, operations %ld, decisions %ld, preemptions %ld", sh->pass,
			sh->runs, sh->budget, sh->cfg->threads, sh->cfg->walkers, sh->size.ran,
			sh->size.ops, sh->size.dec, sh->size.pre);
}

/*
 * Whether @res, of size @size, is the new best: the same failure, smaller in the order (or as
 * small, of a smaller configuration: @cfg_cut), and never bigger than the report's own run in
 * any key, whatever an earlier key gained. The first trial's is.
 */
static bool better(const struct shrink *sh, const struct cgt_child_result *res,
		   const struct shrink_size *size, bool cfg_cut)
{
	int cmp;

	if (!res->ran || res->detector != sh->target)
		return false;
	if (!sh->kind[0])
		return true;
	cmp = shrink_size_cmp(size, &sh->size, !cfg_cut);
	return !strcmp(res->kind, sh->kind) && (cmp < 0 || (!cmp && cfg_cut)) &&
	       shrink_size_within(size, &sh->found);
}

bool shrink_try(struct shrink *sh, const struct cgt_run_config *cfg,
		const struct cgt_schedule *follow, bool cfg_cut)
{
	struct cgt_run_config c = *cfg;
	struct cgt_child_result res;
	struct shrink_size size;
	bool same;

	if (!shrink_can_try(sh))
		return false;
	sh->runs++;
	c.follow = follow;
	c.lenient = true;
	c.no_report = true;
	if (cgt_run_child(&c, true, &res))
		return false;
	size = shrink_size_of(&res);
	same = better(sh, &res, &size, cfg_cut);
	if (same) {
		cgt_schedule_free(&sh->best);
		sh->best = res.schedule;
		res.schedule = (struct cgt_schedule){ 0 };
		sh->best_stop = res.stop_step;
		sh->best_step = res.step;
		sh->best_pre = res.preemptions;
		free(sh->best_at);
		sh->best_at = res.preempted;
		res.preempted = NULL;
		sh->size = size;
		if (!sh->kind[0]) {
			sh->found = size;
			snprintf(sh->kind, sizeof(sh->kind), "%s", res.kind);
		}
		*sh->cfg = c;
	}
	cgt_child_result_free(&res);
	progress(sh);
	return same;
}

bool shrink_prefix(const struct cgt_schedule *s, long n, struct cgt_schedule *out)
{
	memset(out, 0, sizeof(*out));
	for (long k = 0; k < n && k < s->len; k++)
		if (cgt_schedule_push(out, s->choice[k])) {
			cgt_schedule_free(out);
			return false;
		}
	return true;
}
