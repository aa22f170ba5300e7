/* SPDX-License-Identifier: GPL-2.0 */
/* The report of a run (report.c), and what a finished run prints and exits with. */
#ifndef CGT_REPORT_H
#define CGT_REPORT_H

#include "../run/run.h"

/* finish.c: write the report of a failure, print the summary to @out (if any), say how to exit */
int cgt_run_finish(const struct cgt_run_config *cfg, struct cgt_run_result *res, FILE *out);
/* The exit policy: 128 + the signal of an interrupted run that found nothing, else by --expect. */
/* Cut short with nothing found but the era's known behaviour: neither a pass nor a failure. */
static inline bool cgt_run_partial(const struct cgt_run_result *res)
{
	return res->interrupted && res->failures == res->known;
}

/* PASS, FAIL, or INTERRUPTED (cgt_run_partial) */
static inline const char *cgt_verdict(const struct cgt_run_result *res)
{
	return cgt_run_partial(res) ? "INTERRUPTED" : res->pass ? "PASS" : "FAIL";
}

int cgt_exit_status(const struct cgt_run_config *cfg, const struct cgt_run_result *res);
/* report.c: report.json and summary.txt in a new folder under cfg->out; 0 or -errno */
int cgt_report_write(const struct cgt_run_config *cfg, struct cgt_run_result *res);
/* output.c: the summary printed at the end of a run */
void cgt_print_summary(FILE *f, const struct cgt_run_config *cfg, const struct cgt_run_result *r);

#endif
