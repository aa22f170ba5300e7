// SPDX-License-Identifier: GPL-2.0
/*
 * reproduce of a report.json: a free-running failure made exactly replayable. The report's
 * command with controlled options after it (its one bug's catalogued explore options, or
 * REPRODUCE_DEFAULT) is searched seed after seed (reproduce.c) until the same detector
 * fires with the same kind of evidence (report/kind.c); the schedule found is replayed
 * exactly and shrunk.
 */
#include <stdlib.h>
#include <string.h>

#include "search.h"
#include "../base/files.h"
#include "../report/kind.h"
#include "../run/catalogue.h"
#include "../run/options.h"

/* The report's command, with the controlled options after it (the later word wins). */
static int controlled_config(const struct cgt_report_in *r, const struct cgt_run_config *orig,
			     const char *out, const char *sched, struct cgt_run_config *cfg)
{
	const char *more = REPRODUCE_DEFAULT;
	char err[256], **argv, **all, *words, *w, *save;
	int argc, n, bug = -1, ret = CGT_EXIT_USAGE;

	for (int b = 0; b < CGT_NR_BUGS; b++)
		if (orig->bugs & (1UL << b))
			bug = bug == -1 ? b : -2;
	if (bug >= 0)
		more = cgt_bug_catalogue[bug].explore;
	if (cgt_command_argv(r->command, &argc, &argv, err, sizeof(err))) {
		fprintf(stderr, "cgtorture: %s\n", err);
		return CGT_EXIT_USAGE;
	}
	words = strdup(more);
	all = calloc((size_t)argc + strlen(more) + 7, sizeof(*all));
	if (words && all) {
		n = 0;
		for (int i = 1; i < argc; i++)
			all[n++] = argv[i];
		for (w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save))
			all[n++] = w;
		/*
		 * The model's locks: a schedule whose seed changes here, unparsed, must not take
		 * the era a parse of its command would draw for a run stepping through the code.
		 */
		if (sched[0]) {
			all[n++] = "--sched";
			all[n++] = (char *)sched;
		}
		all[n++] = "--locks";
		all[n++] = "model";
		all[n++] = "--out";
		all[n++] = (char *)out;
		ret = cgt_search_config(n, all, cfg);
	}
	free(all);
	free(words);
	cgt_argv_free(argc, argv);
	return ret;
}

/* the report's failure: its detector and the same kind of evidence (report/kind.h) */
static bool same_kind(const char *path, int detector, void *arg, char *got, size_t len)
{
	return !cgt_report_failure_kind(path, detector, got, len) && !strcmp(got, arg);
}

int cgt_reproduce_report(const struct cgt_reproduce_opts *o)
{
	struct cgt_run_config orig = { 0 }, cfg = { 0 };
	struct cgt_report_in r = { 0 };
	char kind[256], what[300], found[600], *out = NULL;
	int ret, i;

	ret = cgt_report_config(o->report, &r, &orig);
	if (ret)
		goto out;
	ret = CGT_EXIT_USAGE;
	i = cgt_report_interest(&r, orig.stop_on);
	if (r.controlled) {
		fprintf(stderr, "cgtorture: %s is a controlled run's: it replays exactly already "
			"(cgtorture replay %s)\n", o->report, o->report);
		goto out;
	}
	if (i < 0) {
		fprintf(stderr, "cgtorture: %s holds no failure to reproduce\n", o->report);
		goto out;
	}
	if (cgt_report_failure_kind(o->report, r.failure[i].detector, kind, sizeof(kind))) {
		fprintf(stderr, "cgtorture: %s: its failure has no evidence to match\n", o->report);
		goto out;
	}
	out = cgt_path_join(o->out_given ? o->out : r.dir, "reproduce");
	ret = cgt_search_folder("reproduce", out ? out : "", o->out_given ? "" :
				" (--out DIR puts the search in a folder you can write)");
	if (!ret)
		ret = controlled_config(&r, &orig, out, o->sched, &cfg);
	if (ret)
		goto out;
	snprintf(what, sizeof(what), "kind \"%s\"", kind);
	ret = cgt_reproduce(&cfg, r.failure[i].detector, what, same_kind, kind, o->runs, found,
			    sizeof(found));
	if (!ret)
		ret = cgt_reproduce_exact(found, o->shrink);
out:
	cgt_run_render_free(&cfg);
	cgt_run_render_free(&orig);
	cgt_report_in_free(&r);
	free(out);
	return ret;
}
