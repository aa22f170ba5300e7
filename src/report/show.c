// SPDX-License-Identifier: GPL-2.0
/*
 * cgtorture show REPORT: a report told on the terminal (its verdict, its failures, how the
 * failure of interest came about) and report.html written beside it, for a browser.
 */
#include <libgen.h>
#include <stdlib.h>
#include <string.h>

#include "page.h"
#include "report_read.h"
#include "../core/failure.h"
#include "../base/exit_status.h"

int cgt_report_show(const char *path, FILE *out)
{
	struct cgt_report_in r = { 0 };
	char err[320], *copy = strdup(path), *copy2 = strdup(path);
	int ret = CGT_EXIT_USAGE;

	if (!copy || !copy2) {
		fprintf(stderr, "cgtorture: out of memory\n");
		goto out;
	}
	if (cgt_report_read(path, &r, err, sizeof(err))) {
		fprintf(stderr, "cgtorture: %s\n", err);
		goto out;
	}
	fprintf(out, "%s: %s, %s build, %s run, %ld failure(s)\n", path,
		r.pass ? "PASS" : r.interrupted ? "INTERRUPTED (a partial run)" : "FAIL",
		r.build, r.controlled ? "controlled" : "free-running", r.failures_total);
	for (int i = 0; i < r.nfailures && i < 5; i++)
		fprintf(out, "  %s: %s\n", cgt_detector_names[r.failure[i].detector],
			r.failure[i].summary);
	if (r.story)
		fprintf(out, "\nhow it came about (%s):\n%s", r.controlled ?
			"decisions of the controlled run; T<n>: its thread n" :
			"ms into the run; thread <n>: the harness thread", r.story);
	else
		fprintf(out, "\n(no story in this report)\n");
	if (r.has_timeline)
		fprintf(out, "\ntimeline: trace.json, every involved thread's events complete from "
			"%.*f to the failure at %.*f %s\n", r.timeline_decisions ? 0 : 3,
			r.window_from, r.timeline_decisions ? 0 : 3, r.failure_at,
			r.timeline_decisions ? "(decisions)" : "us");
	if (cgt_page_write(dirname(copy), basename(copy2), err, sizeof(err))) {
		fprintf(stderr, "cgtorture: %s\n", err);
		ret = CGT_EXIT_TOOL;
		goto out;
	}
	fprintf(out, "page: %s/report.html\n", r.dir);
	ret = CGT_EXIT_PASS;
out:
	cgt_report_in_free(&r);
	free(copy);
	free(copy2);
	return ret;
}
