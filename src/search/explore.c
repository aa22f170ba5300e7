// SPDX-License-Identifier: GPL-2.0
/*
 * explore: many controlled schedules, each with its own seed, until one fails; a hit is
 * the failure of the run's --stop-on detector, else of the one bug's catalogued detector.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "search.h"
#include "child.h"
#include "../base/build.h"
#include "../run/catalogue.h"
#include "../run/options.h"

/* The one catalogued bug a run puts back, or -1. */
static int only_bug(const struct cgt_run_config *cfg)
{
	int bug = -1;

	for (int b = 0; b < CGT_NR_BUGS; b++)
		if (cfg->bugs & (1UL << b)) {
			if (bug >= 0)
				return -1;
			bug = b;
		}
	return bug;
}

/* A schedule's era, drawn from its seed when nothing pins it (struct cgt_explore_opts). */
static void explore_era(struct cgt_run_config *cfg, const struct cgt_run_config *defaults)
{
	const struct cgt_kernel_era *e = cgt_swarm_era(cfg);

	cfg->era = e ? e : cgt_era_find(CGT_DEFAULT_ERA);
	cfg->kernel_given = e != NULL;
	cfg->css_lock = e ? cgt_lock_find(e->css_set_lock) : defaults->css_lock;
	cfg->tasklist_lock = e ? cgt_lock_find(e->tasklist_lock) : defaults->tasklist_lock;
}

int cgt_explore(struct cgt_run_config *cfg, const struct cgt_explore_opts *o)
{
	const struct cgt_sched_params params = cgt_run_sched_params(cfg);
	struct cgt_run_config defaults;
	const char *target_name;
	char first_report[600] = "";
	bool tty = isatty(STDERR_FILENO);
	long found = 0, first = 0, runs = o->runs, done = runs;
	int bug, target, kmax = cfg->sched_tunables.preemptions;
	bool bounded = !strcmp(cfg->sched->name, "bounded");
	uint64_t seed0;

	bug = only_bug(cfg);
	target = cfg->stop_on;
	if (target == CGT_STOP_ON_NONE)
		target = bug >= 0 ? (int)cgt_bug_catalogue[bug].detector : CGT_STOP_ON_ANY;
	cfg->stop_on = target;
	target_name = target == CGT_STOP_ON_ANY ? "any failure" : cgt_detector_names[target];
	/* a sanitizer's failure looked for in another build would be looked for in vain */
	if ((target == CGT_DET_TSAN || target == CGT_DET_ASAN) &&
	    strcmp(cgt_detector_names[target], cgt_build_name())) {
		fprintf(stderr, "cgtorture: explore: %s reports in the %s build only "
			"(build/%s/cgtorture; this is the %s build)\n", cgt_detector_names[target],
			cgt_detector_names[target], cgt_detector_names[target], cgt_build_name());
		return CGT_EXIT_USAGE;
	}
	if (bug >= 0 && strcmp(cgt_bug_catalogue[bug].build, cgt_build_name()))
		fprintf(stderr, "cgtorture: note: %s is caught in the %s build, this is the %s build\n",
			cgt_bug_catalogue[bug].name, cgt_bug_catalogue[bug].build, cgt_build_name());
	printf("explore: up to %ld schedules of %s, %d decisions each, looking for %s\n", runs,
	       cfg->sched->name, cfg->steps, target_name);
	if (cfg->sched->bound)
		printf("explore: PCT's bound for a bug of depth %d: at least 1/(n k^(d-1)) per "
		       "schedule = %.3g, with n = %d threads, k = %d decisions\n", cfg->sched_tunables.depth,
		       cfg->sched->bound(&params, cfg->threads + cfg->walkers + 1),
		       cfg->threads + cfg->walkers + 1, cfg->steps);
	if (bounded)
		printf("explore: bounded: at most 0 preemptions, then 1, ... up to %d, in blocks "
		       "of %ld schedules\n", kmax, (runs + kmax) / (kmax + 1));
	cgt_run_options_defaults(&defaults);
	seed0 = cfg->seed;
	for (long i = 0; i < runs; i++) {
		struct cgt_child_result r;
		char what[96];
		bool hit;

		cfg->seed = seed0 + (uint64_t)i;
		if (o->era_free)
			explore_era(cfg, &defaults);
		cgt_search_bound(cfg, kmax, i, runs);
		cgt_run_render(cfg);
		if (cgt_run_child(cfg, true, &r)) {
			fprintf(stderr, "cgtorture: cannot fork a run: %s\n", strerror(errno));
			return CGT_EXIT_TOOL;
		}
		if (cgt_search_unwritten("explore", cfg, &r)) {
			cgt_child_result_free(&r);
			return CGT_EXIT_TOOL;
		}
		hit = r.detector >= 0 && (target == CGT_STOP_ON_ANY || r.detector == target);
		/* it died: worth a look whatever it was; cut short by a signal, it is not done */
		if (!hit && (r.signal || (r.status > CGT_EXIT_TOOL && r.status < CGT_EXIT_SIGNAL)))
			hit = true;
		if (tty)
			fprintf(stderr, "\r\033[Kexplore: %ld/%ld schedules, %ld failed", i + 1, runs,
				found + hit);
		if (hit) {
			if (!found++)
				first = i + 1;
			if (tty)
				fputs("\r\033[K", stderr);
			printf("explore: schedule %ld (seed %llu, %ld preemption%s) failed: %s: %s\n",
			       i + 1, (unsigned long long)cfg->seed, r.preemptions,
			       r.preemptions == 1 ? "" : "s",
			       cgt_child_failure(&r, what, sizeof(what)), r.summary);
			if (r.report_dir[0])
				printf("  report: %s/report.json\n  replay: cgtorture replay %s/report.json\n",
				       r.report_dir, r.report_dir);
			if (found == 1 && r.report_dir[0])
				snprintf(first_report, sizeof(first_report), "%s/report.json",
					 r.report_dir);
		}
		cgt_child_result_free(&r);
		if (hit && !o->keep_going)
			break;
		if (cgt_run_interrupted()) {
			done = i + (r.status < CGT_EXIT_SIGNAL);
			break;
		}
	}
	if (tty)
		fputs("\r\033[K", stderr);
	if (done < runs && !found)
		return cgt_search_interrupted("explore", done, runs, "schedules");
	if (!found)
		printf("explore: no schedule of %ld failed\n", runs);
	else
		printf("explore: %s found after %ld schedule(s); %ld of the schedules run failed\n",
		       target_name, first, found);
	if (found && o->shrink && first_report[0]) {
		int ret = cgt_shrink_report(first_report, o->shrink, CGT_SHRINK_SECONDS);

		if (ret >= CGT_EXIT_SIGNAL)
			return ret;
	}
	if (cfg->expect == CGT_EXPECT_FAIL)
		return found ? CGT_EXIT_PASS : CGT_EXIT_MISSED;
	return found ? CGT_EXIT_FAIL : CGT_EXIT_PASS;
}

