// SPDX-License-Identifier: GPL-2.0
/*
 * shrink: a controlled failure cut down until no smaller run fails the same way, as
 * QuickCheck and Hypothesis shrink an input and syzkaller's repro a program: the
 * configuration first (threads, walkers, kinds of operation: shrink_config.c), then the
 * schedule (decisions, preemptions, switches: shrink_schedule.c). Each trial is a child run;
 * the budget is --runs trials and --time seconds. The result is replayed exactly once more
 * and its report put beside the original; interrupted, the smallest run so far is, named
 * partial.
 */
#define _GNU_SOURCE	/* sigabbrev_np */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "search.h"
#include "shrink.h"
#include "../base/clock.h"
#include "../base/files.h"
#include "../run/options.h"

/*
 * The shrunk run's report beside the original, as report.shrunk@suffix.json and
 * summary.shrunk@suffix.txt (hard links), and its whole folder (trace, linkage picture,
 * page) as shrunk@suffix/.
 */
static int shrink_publish(const char *dir, const struct cgt_child_result *res,
			  const char *suffix)
{
	static const char *const names[][3] = {
		{ "report.json", "report.shrunk", ".json" },
		{ "summary.txt", "summary.shrunk", ".txt" },
		{ NULL, "shrunk", "" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		char *from = names[i][0] ? cgt_path_join(res->report_dir, names[i][0]) :
					   strdup(res->report_dir);
		char name[64], *to;
		int ret = -1;

		snprintf(name, sizeof(name), "%s%s%s", names[i][1], suffix, names[i][2]);
		to = cgt_path_join(dir, name);
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

/* What the first trial (the report's own schedule, up to its failure) made. */
struct shrink_start {
	struct shrink_size size;
	long step;
	int threads, walkers;
	double t0;
};

/*
 * The smallest run, replayed exactly with its report and published (@partial: the search
 * was cut short by a signal); 0 or an exit status.
 */
static int shrink_finish(struct shrink *sh, const struct cgt_report_in *r,
			 const struct shrink_start *s0, int sig)
{
	const char *suffix = sig ? "-partial" : "";
	struct cgt_child_result fin;
	struct shrink_size size;
	char got[96];
	int ret = CGT_EXIT_TOOL;	/* what stops it from here on is the tool's */

	sh->cfg->follow = &sh->best;
	sh->cfg->follow_stop_step = sh->best_stop;
	sh->cfg->lenient = false;
	sh->cfg->no_report = false;
	cgt_run_render(sh->cfg);
	if (cgt_run_child(sh->cfg, true, &fin))
		return ret;
	cgt_child_failure(&fin, got, sizeof(got));
	if (fin.detector != sh->target || fin.step != sh->best_step || fin.diverged >= 0 ||
	    !fin.report_dir[0]) {
		printf("shrink: the shrunk schedule did not replay exactly (%s%s%s)\n", got,
		       fin.diverged >= 0 ? "; " : "", fin.diverged >= 0 ? fin.why : "");
	} else if (!shrink_publish(r->dir, &fin, suffix)) {
		size = shrink_size_of(&fin);
		printf("shrink: %s at decision %ld -> %ld; threads %d -> %d; walkers %d -> %d; "
		       "threads that ran %ld -> %ld; operations %ld -> %ld; decisions %ld -> %ld; "
		       "preemptions %ld -> %ld; switches %ld -> %ld; %ld trial runs, %.0f s%s\n",
		       cgt_detector_names[sh->target], s0->step, fin.step, s0->threads,
		       sh->cfg->threads, s0->walkers, sh->cfg->walkers, s0->size.ran, size.ran,
		       s0->size.ops, size.ops, s0->size.dec, size.dec, s0->size.pre, size.pre,
		       s0->size.switches, size.switches, sh->runs, cgt_now() - s0->t0,
		       sig ? " (partial: interrupted)" : sh->runs >= sh->budget ?
		       " (the --runs budget ended it)" : cgt_now() >= sh->deadline ?
		       " (the --time budget ended it)" : "");
		printf("shrink: wrote %s/report.shrunk%s.json; cgtorture replay "
		       "%s/report.shrunk%s.json\n", r->dir, suffix, r->dir, suffix);
		ret = sig ? CGT_EXIT_SIGNAL + sig : CGT_EXIT_PASS;
	}
	cgt_child_result_free(&fin);
	return ret;
}

int cgt_shrink(const char *path, const struct cgt_report_in *r, struct cgt_run_config *cfg,
	       long budget, double seconds)
{
	struct shrink sh = { .cfg = cfg, .budget = budget, .tty = isatty(STDERR_FILENO),
			     .pass = "the report's schedule" };
	struct shrink_start s0 = { .t0 = cgt_now() };
	struct cgt_schedule first = { 0 };
	char *out = NULL;
	int ret, fi, sig;

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
	sh.deadline = s0.t0 + seconds;
	s0.threads = sh.cfg->threads;
	s0.walkers = sh.cfg->walkers;
	s0.step = r->failure[fi].step;

	/* the decisions up to the failure, and whatever it takes to end the run */
	ret = CGT_EXIT_MISSED;
	if (!shrink_prefix(&r->schedule, s0.step + 1, &first))
		goto out;
	if (!shrink_try(&sh, sh.cfg, &first, false)) {
		if (cgt_run_interrupted())
			ret = cgt_search_interrupted("shrink", sh.runs, sh.budget, "trial runs");
		else
			printf("shrink: the failure does not come back following %s's schedule\n",
			       path);
		goto out;
	}
	s0.size = sh.size;
	shrink_config(&sh);
	shrink_schedule(&sh);
	if (sh.tty)
		fputs("\r\033[K", stderr);
	sig = cgt_run_interrupted();
	if (sig) {
		printf("shrink: interrupted by SIG%s after %ld trial runs: the smallest run so far "
		       "follows, as a partial result\n", sigabbrev_np(sig) ? sigabbrev_np(sig) : "?",
		       sh.runs);
		cgt_run_interrupt(0);	/* its replay must run; a second signal still ends it */
	}
	ret = shrink_finish(&sh, r, &s0, sig);
	if (sig && ret != CGT_EXIT_SIGNAL + sig)
		ret = CGT_EXIT_SIGNAL + sig;
	rmdir(out);
out:
	cgt_schedule_free(&first);
	cgt_schedule_free(&sh.best);
	free(sh.best_at);
	free(out);
	return ret;
}

int cgt_shrink_report(const char *path, long budget, double seconds)
{
	struct cgt_run_config cfg = { 0 };
	struct cgt_report_in r = { 0 };
	int ret = cgt_report_config(path, &r, &cfg);

	if (!ret)
		ret = cgt_shrink(path, &r, &cfg, budget, seconds);
	cgt_run_render_free(&cfg);
	cgt_report_in_free(&r);
	return ret;
}
