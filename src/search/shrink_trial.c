// SPDX-License-Identifier: GPL-2.0
/*
 * One trial of shrink: a child run of a smaller configuration or schedule, kept as the new
 * best if it fails the same way and is smaller; every pass of shrink is made of these, and
 * the progress line is drawn after each.
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
		fprintf(stderr, "\r\033[Kshrink: %s: %ld/%ld trials; threads %d, walkers %d, "
			"decisions %ld, preemptions %ld", sh->pass, sh->runs, sh->budget,
			sh->cfg->threads, sh->cfg->walkers, sh->best.len, sh->best_pre);
}

bool shrink_try(struct shrink *sh, const struct cgt_run_config *cfg,
		const struct cgt_schedule *follow,
		bool (*better)(const struct shrink *sh, const struct cgt_child_result *res))
{
	struct cgt_run_config c = *cfg;
	struct cgt_child_result res;
	bool same;

	if (!shrink_can_try(sh))
		return false;
	sh->runs++;
	c.follow = follow;
	c.lenient = true;
	c.no_report = true;
	if (cgt_run_child(&c, true, &res))
		return false;
	same = res.ran && res.detector == sh->target &&
	       (!sh->kind[0] || !strcmp(res.kind, sh->kind)) && (!better || better(sh, &res));
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
		sh->best_ops = res.ops;
		if (!sh->kind[0])
			snprintf(sh->kind, sizeof(sh->kind), "%s", res.kind);
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
