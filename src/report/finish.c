// SPDX-License-Identifier: GPL-2.0
/*
 * How a run ends: the report of a failure, the summary on the terminal, and the exit status
 * the run gets from what it expected and what it found (the exit policy).
 */
#include <stdio.h>

#include "report.h"
#include "story.h"

int cgt_exit_status(const struct cgt_run_config *cfg, const struct cgt_run_result *res)
{
	bool failed = !res->pass;

	if (res->unwritten)
		return CGT_EXIT_TOOL;
	if (cgt_run_partial(res))
		return CGT_EXIT_SIGNAL + res->interrupted;
	if (cfg->expect == CGT_EXPECT_FAIL)
		return failed ? CGT_EXIT_PASS : CGT_EXIT_MISSED;
	if (cfg->expect == CGT_EXPECT_KNOWN && !failed && !res->known)
		return CGT_EXIT_MISSED;
	return failed ? CGT_EXIT_FAIL : CGT_EXIT_PASS;
}

/*
 * Write the report of a failure, print the summary to @out, and choose the exit status.
 * Once per run: its caller keeps a run's second path (deadline, ASan) out.
 */
int cgt_run_finish(const struct cgt_run_config *cfg, struct cgt_run_result *res, FILE *out)
{
	bool failed = !res->pass;
	int status;

	cgt_story_settle();
	if ((failed || res->interrupted) && !cfg->no_report)
		res->unwritten = cgt_report_write(cfg, res) != 0;
	status = cgt_exit_status(cfg, res);
	if (!out)
		return status;
	cgt_print_summary(out, cfg, res);
	fflush(out);
	if (res->unwritten)
		fprintf(out, "the report could not be written: the run's result is above only\n");
	else if (status == CGT_EXIT_MISSED)
		fprintf(out, "expected %s, found none\n", cfg->expect == CGT_EXPECT_KNOWN ?
			"the era's known behaviour" : "a failure");
	return status;
}
