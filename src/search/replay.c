// SPDX-License-Identifier: GPL-2.0
/*
 * replay: a report's run again. A controlled run follows the recorded schedule and must
 * reach the same failure at the same decision; a free-running one is tried a number of
 * times with the same seed, and says how often the failure came back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search.h"
#include "child.h"
#include "../base/files.h"
#include "../report/interest.h"
#include "../run/options.h"

int cgt_report_interest(const struct cgt_report_in *r, int stop_on)
{
	int detector[CGT_MAX_FAILURES];

	for (int i = 0; i < r->nfailures; i++)
		detector[i] = r->failure[i].known ? -1 : r->failure[i].detector;
	return cgt_failure_of_interest(stop_on, detector, r->nfailures);
}

static int replay_controlled(const char *path, const struct cgt_report_in *r,
			     struct cgt_run_config *cfg)
{
	struct cgt_child_result res;
	int ret, i = cgt_report_interest(r, cfg->stop_on);
	char got[96], want[96];

	cfg->follow = &r->schedule;
	cfg->follow_stop_step = r->stop_step;
	if (cgt_run_child(cfg, true, &res))
		return CGT_EXIT_TOOL;
	cgt_child_failure(&res, got, sizeof(got));
	if (i < 0)
		snprintf(want, sizeof(want), "no failure");
	else
		snprintf(want, sizeof(want), "%s at decision %ld",
			 cgt_detector_names[r->failure[i].detector], r->failure[i].step);
	if (cgt_search_unwritten("replay", cfg, &res)) {
		ret = CGT_EXIT_TOOL;
	} else if (res.status >= CGT_EXIT_SIGNAL && res.detector < 0) {
		ret = cgt_search_interrupted("replay", res.steps, r->schedule.len, "decisions");
	} else if (!res.ran) {
		printf("replay: the run gave no result (exit status %d)\n", res.status);
		ret = CGT_EXIT_FAIL;
	} else if (res.diverged >= 0 || res.schedule.len != r->schedule.len) {
		if (res.diverged >= 0)
			printf("replay: diverged at step %ld: %s\n", res.diverged, res.why);
		else
			printf("replay: diverged at step %ld: the run ended there, the recorded one "
			       "made %ld decisions\n", res.schedule.len, r->schedule.len);
		/* the model is deterministic under a schedule: the run is not the one recorded */
		printf("replay: the report's command no longer matches its recorded schedule (was "
		       "it edited, or is this another cgtorture?): a tool error, not a verdict\n");
		ret = CGT_EXIT_TOOL;
	} else if (strcmp(got, want)) {
		printf("replay: NOT reproduced: %s recorded %s, the replay found %s\n", path, want,
		       got);
		/* the failure recorded not found (3), or one where a pass was recorded (1) */
		ret = i >= 0 ? CGT_EXIT_MISSED : CGT_EXIT_FAIL;
	} else {
		printf("replay: reproduced: %s, as recorded (%ld decisions followed exactly)\n", got,
		       res.schedule.len);
		if (res.report_dir[0])
			printf("replay: report %s/report.json\n", res.report_dir);
		ret = CGT_EXIT_PASS;
	}
	cgt_child_result_free(&res);
	return ret;
}

static int replay_free(const struct cgt_report_in *r, struct cgt_run_config *cfg, long tries)
{
	int fi = cgt_report_interest(r, cfg->stop_on), det = fi >= 0 ? r->failure[fi].detector : -1;
	const char *want = det >= 0 ? cgt_detector_names[det] : NULL;
	long hits = 0, first = 0, i;

	printf("replay: a free-running run: the same seed and configuration, %ld times\n", tries);
	for (i = 0; i < tries && !cgt_run_interrupted(); i++) {
		struct cgt_child_result res;
		bool hit;

		if (cgt_run_child(cfg, true, &res))
			return CGT_EXIT_TOOL;
		if (cgt_search_unwritten("replay", cfg, &res)) {
			cgt_child_result_free(&res);
			return CGT_EXIT_TOOL;
		}
		if (res.status >= CGT_EXIT_SIGNAL && res.detector < 0) {
			cgt_child_result_free(&res);
			break;		/* cut short: not a try */
		}
		hit = want ? res.detector == det : res.pass;
		if (hit && !hits++)
			first = i + 1;
		printf("replay: try %ld: %s%s\n", i + 1,
		       res.detector >= 0 ? cgt_detector_names[res.detector] : "no failure",
		       hit ? " (as recorded)" : "");
		cgt_child_result_free(&res);
	}
	if (cgt_run_interrupted() && i < tries) {
		printf("replay: reproduced %ld of the %ld tries run\n", hits, i);
		return cgt_search_interrupted("replay", i, tries, "tries");
	}
	printf("replay: reproduced %ld of %ld (%.0f%%): %s", hits, tries,
	       100.0 * (double)hits / (double)tries, want ? want : "a pass");
	if (hits)
		printf(", first at try %ld", first);
	putchar('\n');
	return hits ? CGT_EXIT_PASS : want ? CGT_EXIT_MISSED : CGT_EXIT_FAIL;
}

int cgt_replay(const char *path, const struct cgt_report_in *r, struct cgt_run_config *cfg,
	       long tries)
{
	char *out = cgt_path_join(r->dir, "replay");
	int ret;

	cfg->out = out;
	cgt_run_render(cfg);
	ret = cgt_search_folder("replay", out, " (copy the report's folder where you can "
				"write, and replay the copy)");
	if (!ret)
		ret = r->controlled ? replay_controlled(path, r, cfg) : replay_free(r, cfg, tries);
	cfg->out = NULL;
	free(out);
	return ret;
}
