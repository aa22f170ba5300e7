// SPDX-License-Identifier: GPL-2.0
/*
 * reproduce: a free-running failure made exactly replayable. Controlled schedules with the
 * report's configuration and bugs (and the controlled options the command line adds: the
 * catalogue's explore options for its bug) are tried, seed after seed, until the same
 * detector fires and the caller's @match takes the failure for the one it looks for (the
 * same kind of evidence as a report's, report/kind.c; or what a kernel's report shows).
 * Replaying that schedule exactly and shrinking it are the caller's next steps. A kernel's
 * report is first looked for free-running, where many threads and the clock decide.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "search.h"
#include "child.h"
#include "../run/options.h"

/* A search's runs: quiet, stopping at @detector, judged here rather than by --expect. */
static void search_config(struct cgt_run_config *cfg, int detector, char *found)
{
	found[0] = '\0';
	cfg->stop_on = detector;
	cfg->quiet = true;
	cfg->expect = CGT_EXPECT_NONE;
	cfg->check_determinism = false;
}

int cgt_reproduce(struct cgt_run_config *cfg, int detector, const char *what,
		  cgt_match_fn match, void *arg, long runs, char *found, size_t len)
{
	long other = 0, i;
	int kmax = cfg->sched_tunables.preemptions;

	search_config(cfg, detector, found);
	if (cfg->duration < 60)
		cfg->duration = 60;	/* a controlled run ends by its decisions, not the clock */
	printf("reproduce: looking for %s (%s) in up to %ld %s schedules of %d decisions\n",
	       cgt_detector_names[detector], what, runs, cfg->sched->name, cfg->steps);
	for (i = 0; i < runs && !cgt_run_interrupted(); i++) {
		struct cgt_child_result r;
		char got[256], path[600];
		bool same;
		long step, pre;

		cfg->seed = 1 + (uint64_t)i;	/* from seed 1: the same count every time */
		cgt_search_bound(cfg, kmax, i, runs);
		cgt_run_render(cfg);
		if (cgt_run_child(cfg, true, &r))
			return CGT_EXIT_TOOL;
		if (cgt_search_unwritten("reproduce", cfg, &r)) {
			cgt_child_result_free(&r);
			return CGT_EXIT_TOOL;
		}
		if (r.status >= CGT_EXIT_SIGNAL && r.detector < 0) {
			cgt_child_result_free(&r);
			break;		/* cut short: not a schedule tried */
		}
		snprintf(path, sizeof(path), "%s/report.json", r.report_dir);
		snprintf(got, sizeof(got), "no report");
		same = r.detector == detector && r.report_dir[0] &&
		       match(path, detector, arg, got, sizeof(got));
		if (r.detector == detector && !same) {
			if (!other++)
				printf("reproduce: schedule %ld (seed %llu): %s, but another kind: %s\n",
				       i + 1, (unsigned long long)cfg->seed,
				       cgt_detector_names[detector], got);
		}
		step = r.step;
		pre = r.preemptions;
		cgt_child_result_free(&r);
		if (same) {
			printf("reproduce: found after %ld schedule(s) (seed %llu, %s, %ld "
			       "preemptions): %s at decision %ld%s\n", i + 1,
			       (unsigned long long)cfg->seed, cfg->sched->name, pre,
			       cgt_detector_names[detector], step,
			       other ? "; earlier ones of another kind were passed over" : "");
			snprintf(found, len, "%s", path);
			return CGT_EXIT_PASS;
		}
	}
	if (cgt_run_interrupted())
		return cgt_search_interrupted("reproduce", i, runs, "schedules");
	printf("reproduce: no schedule of %ld gave %s of that kind (%ld gave another kind)\n",
	       runs, cgt_detector_names[detector], other);
	return CGT_EXIT_MISSED;
}

int cgt_reproduce_free(struct cgt_run_config *cfg, int detector, const char *what,
		       cgt_match_fn match, void *arg, char *found, size_t len)
{
	struct cgt_child_result r;
	char got[256] = "no report", path[600];
	bool same;

	search_config(cfg, detector, found);
	/* the whole run: @match weighs every failure of @detector in it, not the first */
	cfg->stop_on = CGT_STOP_ON_NONE;
	printf("reproduce: looking for %s (%s) free-running for %g s (seed %llu)\n",
	       cgt_detector_names[detector], what, cfg->duration, (unsigned long long)cfg->seed);
	fflush(stdout);
	cgt_run_render(cfg);
	if (cgt_run_child(cfg, true, &r))
		return CGT_EXIT_TOOL;
	if (cgt_search_unwritten("reproduce", cfg, &r)) {
		cgt_child_result_free(&r);
		return CGT_EXIT_TOOL;
	}
	snprintf(path, sizeof(path), "%s/report.json", r.report_dir);
	snprintf(got, sizeof(got), "no %s", cgt_detector_names[detector]);
	same = r.report_dir[0] && match(path, detector, arg, got, sizeof(got));
	if (same)
		printf("reproduce: free-running: %s: %s\n", got, path);
	else
		printf("reproduce: free-running: %s\n", got);
	if (same)
		snprintf(found, len, "%s", path);
	cgt_child_result_free(&r);
	return same ? CGT_EXIT_PASS : CGT_EXIT_FAIL;
}

int cgt_reproduce_exact(const char *found, long shrink)
{
	struct cgt_run_config rcfg = { 0 };
	struct cgt_report_in found_r = { 0 };
	int ret;

	/* exact: the schedule found, followed again decision by decision */
	ret = cgt_report_config(found, &found_r, &rcfg);
	if (!ret)
		ret = cgt_replay(found, &found_r, &rcfg, 1);
	if (!ret && shrink) {
		ret = cgt_shrink_report(found, shrink, CGT_SHRINK_SECONDS);
		if (ret && ret < CGT_EXIT_SIGNAL) {
			printf("reproduce: the schedule found stays as it is\n");
			ret = CGT_EXIT_PASS;
		}
	}
	if (!ret || ret >= CGT_EXIT_SIGNAL)
		printf("reproduce: exact replay: cgtorture replay %s\nreproduce: the page: "
		       "%s/report.html\n", found, found_r.dir);
	cgt_run_render_free(&rcfg);
	cgt_report_in_free(&found_r);
	return ret;
}
