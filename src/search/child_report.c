// SPDX-License-Identifier: GPL-2.0
/*
 * A child that dies of a signal before it wrote its own report (a heap too corrupt for its
 * crash handler, the handler ended by its alarm, a SIGKILL, a kill past its deadline) still
 * ends as a FAIL with a report: its parent writes it, naming the signal, from the
 * configuration it gave the child.
 */
#define _GNU_SOURCE	/* sigabbrev_np */
#include <glob.h>
#include <stdio.h>
#include <string.h>

#include "child.h"
#include "../base/files.h"

bool cgt_child_reported(const struct cgt_run_config *cfg, pid_t pid)
{
	char pattern[1100];
	glob_t g;
	bool found;

	snprintf(pattern, sizeof(pattern), "%s/*-%d/report.json", cfg->out, (int)pid);
	found = !glob(pattern, 0, NULL, &g) && g.gl_pathc > 0;
	globfree(&g);
	return found;
}

void cgt_child_report(const struct cgt_run_config *cfg, const struct cgt_child_death *d,
		      FILE *summary, struct cgt_child_result *out)
{
	struct cgt_run_result res;
	struct cgt_failure f;
	char when[32];

	memset(&res, 0, sizeof(res));
	cgt_time_stamp(when, sizeof(when));
	snprintf(res.run_id, sizeof(res.run_id), "%s-%d", when, (int)d->pid);
	res.elapsed = d->elapsed;
	res.first_failure = d->elapsed;
	res.failures = 1;
	res.interrupted = d->interrupted;
	cgt_failures_reset();	/* a search's parent reports each child of its own */
	if (d->killed_past >= 0)
		cgt_fail(CGT_DET_DEADLINE, 0, NULL,
			 "the run outlived its deadline by %.0f s, deaf to signals: its supervisor "
			 "killed it (SIGKILL) and wrote this report", d->killed_past);
	else
		cgt_fail(CGT_DET_CRASH, 0, NULL,
			 "the run died of SIG%s (signal %d) before it could write its own report; "
			 "its supervisor wrote this one (no thread, no events: the process is gone)",
			 sigabbrev_np(d->sig) ? sigabbrev_np(d->sig) : "?", d->sig);
	fprintf(stderr, "cgtorture: the run (pid %d) died of signal %d with no report of its own\n",
		(int)d->pid, d->sig);
	out->status = cgt_run_finish(cfg, &res, summary);
	cgt_failures_get(&f, 1);
	out->pass = false;
	out->detector = (int)f.detector;
	out->step = -1;
	snprintf(out->summary, sizeof(out->summary), "%s", f.summary);
	snprintf(out->report_dir, sizeof(out->report_dir), "%s", res.report_dir);
}
