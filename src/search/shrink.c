// SPDX-License-Identifier: GPL-2.0
/*
 * shrink: a controlled failure's schedule cut down while the same detector still fires:
 * the decisions past the failure, threads and walkers, then switches (delta debugging over
 * the runs of one thread). Each trial is a child run following the schedule as far as it
 * fits; the result is replayed exactly once more and its report put beside the original.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "search.h"
#include "child.h"
#include "../base/files.h"
#include "../run/options.h"

struct shrink {
	struct cgt_run_config *cfg;	/* the smallest configuration so far */
	struct cgt_schedule best;	/* the choices that made the failure under it */
	long best_stop, best_step;
	int target;
	long runs, budget;
};

/*
 * One trial: @cfg following @follow as far as it fits. Kept if the failure came back, and,
 * for a trial of a shorter schedule (@fewer), if the run it made has no more decisions and
 * no more switches than the best so far, and fewer of one of them.
 */
static bool shrink_try(struct shrink *sh, const struct cgt_run_config *cfg,
		       const struct cgt_schedule *follow, bool fewer)
{
	struct cgt_run_config c = *cfg;
	struct cgt_child_result res;
	bool same;

	if (sh->runs >= sh->budget)
		return false;
	sh->runs++;
	c.follow = follow;
	c.lenient = true;
	c.no_report = true;
	if (cgt_run_child(&c, true, &res))
		return false;
	same = res.ran && res.detector == sh->target;
	if (same && fewer) {
		long sw = cgt_schedule_switches(&res.schedule), best_sw = cgt_schedule_switches(&sh->best);

		same = sw <= best_sw && res.schedule.len <= sh->best.len &&
		       (sw < best_sw || res.schedule.len < sh->best.len);
	}
	if (same) {
		cgt_schedule_free(&sh->best);
		sh->best = res.schedule;
		res.schedule = (struct cgt_schedule){ 0 };
		sh->best_stop = res.stop_step;
		sh->best_step = res.step;
		*sh->cfg = c;
	}
	cgt_child_result_free(&res);
	return same;
}

/* The first @n choices of @s (the decisions up to the failure). */
static bool schedule_prefix(const struct cgt_schedule *s, long n, struct cgt_schedule *out)
{
	memset(out, 0, sizeof(*out));
	for (long k = 0; k < n && k < s->len; k++)
		if (cgt_schedule_push(out, s->choice[k]))
			return false;
	return true;
}

/*
 * The shortest prefix of the schedule that still leads to the failure, the rest left to the
 * lenient follower (the running thread goes on while it can): most switches of a random
 * schedule have nothing to do with the failure. A binary search, as the failure need not
 * come back for every longer prefix.
 */
static void shrink_prefix(struct shrink *sh)
{
	long lo = 0, hi = sh->best_step + 1;

	while (lo + 1 < hi && sh->runs < sh->budget && !cgt_run_interrupted()) {
		long mid = lo + (hi - lo) / 2;
		struct cgt_schedule cand;

		if (!schedule_prefix(&sh->best, mid, &cand))
			return;
		if (shrink_try(sh, sh->cfg, &cand, true))
			hi = sh->best_step + 1 < mid ? sh->best_step + 1 : mid;
		else
			lo = mid;
		cgt_schedule_free(&cand);
	}
}

/*
 * Fewer switches, as delta debugging over the runs of one thread: a chunk of runs is given
 * to the thread that ran just before it, coarse chunks first, finer while nothing goes.
 */
static void shrink_switches(struct shrink *sh)
{
	for (long chunks = 2; sh->runs < sh->budget && !cgt_run_interrupted(); ) {
		long nseg = cgt_schedule_switches(&sh->best) + 1, size;
		bool cut = false;

		if (nseg < 2)
			return;
		if (chunks > nseg)
			chunks = nseg;
		size = (nseg + chunks - 1) / chunks;
		for (long c = 0; c < chunks && !cut && sh->runs < sh->budget; c++) {
			struct cgt_schedule cand;
			long seg = 0, lo = c * size, hi = lo + size;
			int before = 0;

			if (!schedule_prefix(&sh->best, sh->best.len, &cand))
				return;
			for (long k = 0; k < cand.len; k++) {
				if (k && sh->best.choice[k] != sh->best.choice[k - 1])
					seg++;
				if (seg < lo)
					before = cand.choice[k];
				else if (seg < hi && before)
					cand.choice[k] = before;
			}
			cut = shrink_try(sh, sh->cfg, &cand, true);
			cgt_schedule_free(&cand);
		}
		if (cut)
			chunks = chunks > 2 ? chunks - 1 : 2;
		else if (chunks >= nseg)
			return;
		else
			chunks *= 2;
	}
}

/* Move the final run's report beside the original. */
/*
 * The shrunk run's report beside the original, as report.shrunk.json and summary.shrunk.txt
 * (hard links), and its whole folder (trace, linkage picture, page) as shrunk/.
 */
static int shrink_publish(const char *dir, const struct cgt_child_result *res)
{
	static const char *const names[][2] = {
		{ "report.json", "report.shrunk.json" }, { "summary.txt", "summary.shrunk.txt" },
		{ NULL, "shrunk" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		char *from = names[i][0] ? cgt_path_join(res->report_dir, names[i][0]) :
					   strdup(res->report_dir);
		char *to = cgt_path_join(dir, names[i][1]);
		int ret = -1;

		if (from && to) {
			unlink(to);
			ret = names[i][0] ? link(from, to) : rename(from, to);
		}
		if (ret)
			fprintf(stderr, "cgtorture: shrink: cannot %s %s to %s: %s\n",
				names[i][0] ? "link" : "move", from, to, strerror(errno));
		free(from);
		free(to);
		if (ret && names[i][0])
			return -1;
	}
	return 0;
}

int cgt_shrink(const char *path, const struct cgt_report_in *r, struct cgt_run_config *cfg,
	       long budget)
{
	struct shrink sh = { .cfg = cfg, .budget = budget };
	struct cgt_child_result fin;
	struct cgt_schedule first;
	char *out = NULL, got[96];
	int ret, threads0, walkers0, fi;

	fi = cgt_report_interest(r, cfg->stop_on);
	if (!r->controlled || fi < 0 || r->failure[fi].step < 0) {
		fprintf(stderr, "cgtorture: shrink: %s is not a controlled run's failure\n", path);
		return CGT_EXIT_USAGE;
	}
	out = cgt_path_join(r->dir, "shrink");
	ret = cgt_search_folder("shrink", out, " (copy the report's folder where you can "
				"write, and shrink the copy)");
	if (ret)
		goto out;
	sh.cfg->out = out;
	sh.target = r->failure[fi].detector;
	sh.cfg->stop_on = sh.target;
	threads0 = sh.cfg->threads;
	walkers0 = sh.cfg->walkers;

	/* the decisions up to the failure, and whatever it takes to end the run */
	ret = CGT_EXIT_MISSED;
	if (!schedule_prefix(&r->schedule, r->failure[fi].step + 1, &first) ||
	    !shrink_try(&sh, sh.cfg, &first, false)) {
		if (cgt_run_interrupted())
			ret = cgt_search_interrupted("shrink", sh.runs, sh.budget, "trial runs");
		else
			printf("shrink: the failure does not come back following %s's schedule\n",
			       path);
		cgt_schedule_free(&first);
		goto out;
	}
	cgt_schedule_free(&first);
	shrink_prefix(&sh);
	for (struct cgt_run_config c = *sh.cfg; c.threads > 1 && !cgt_run_interrupted(); ) {
		c.threads /= 2;
		if (!shrink_try(&sh, &c, &sh.best, false))
			break;
	}
	for (struct cgt_run_config c = *sh.cfg; c.walkers > 0 && !cgt_run_interrupted(); ) {
		c.walkers /= 2;
		if (!shrink_try(&sh, &c, &sh.best, false))
			break;
	}
	if (!cgt_run_interrupted())
		shrink_switches(&sh);
	if (cgt_run_interrupted()) {
		ret = cgt_search_interrupted("shrink", sh.runs, sh.budget, "trial runs");
		goto out;
	}

	/* the result, replayed exactly, with its report */
	sh.cfg->follow = &sh.best;
	sh.cfg->follow_stop_step = sh.best_stop;
	sh.cfg->lenient = false;
	sh.cfg->no_report = false;
	cgt_run_render(sh.cfg);
	ret = CGT_EXIT_TOOL;	/* what stops it from here on is the tool's */
	if (cgt_run_child(sh.cfg, true, &fin))
		goto out;
	cgt_child_failure(&fin, got, sizeof(got));
	if (fin.detector != sh.target || fin.step != sh.best_step || fin.diverged >= 0 ||
	    !fin.report_dir[0]) {
		printf("shrink: the shrunk schedule did not replay exactly (%s%s%s)\n", got,
		       fin.diverged >= 0 ? "; " : "", fin.diverged >= 0 ? fin.why : "");
	} else if (!shrink_publish(r->dir, &fin)) {
		printf("shrink: %s at decision %ld -> %ld; decisions %ld -> %ld; switches %ld -> %ld; "
		       "threads %d -> %d; walkers %d -> %d; %ld trial runs\n",
		       cgt_detector_names[sh.target], r->failure[fi].step, fin.step, r->schedule.len,
		       fin.schedule.len, cgt_schedule_switches(&r->schedule),
		       cgt_schedule_switches(&fin.schedule), threads0, sh.cfg->threads, walkers0,
		       sh.cfg->walkers, sh.runs);
		printf("shrink: wrote %s/report.shrunk.json; cgtorture replay %s/report.shrunk.json\n",
		       r->dir, r->dir);
		ret = CGT_EXIT_PASS;
	}
	cgt_child_result_free(&fin);
	rmdir(out);
out:
	cgt_schedule_free(&sh.best);
	free(out);
	return ret;
}
