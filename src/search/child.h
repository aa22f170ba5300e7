/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run in a child process: a fresh model, fresh globals, and a crash or a sanitizer's abort
 * that stays in the child. What the run found comes back through a pipe. explore, replay,
 * shrink and --check-determinism are made of these.
 */
#ifndef CGT_CHILD_H
#define CGT_CHILD_H

#include <stdbool.h>

#include "../report/report.h"

struct cgt_child_result {
	int status;			/* the run's exit status; 128 + signal if it died of one */
	bool ran;			/* it finished and said what it found */
	bool pass;
	/* the first failure of the run's --stop-on detector, else its first failure */
	int detector;			/* or -1 if none */
	long step;			/* its decision (controlled), or -1 */
	char summary[256];
	long steps, stop_step, diverged;
	char why[160];			/* why a followed schedule stopped fitting */
	char report_dir[512];		/* where its report went, if it wrote one */
	struct cgt_schedule schedule;	/* the choices it made (controlled) */
};

/* Run @cfg in a child; its summary goes to stdout unless @quiet. 0, or -errno (fork). */
int cgt_run_child(const struct cgt_run_config *cfg, bool quiet, struct cgt_child_result *out);
void cgt_child_result_free(struct cgt_child_result *r);
/* "livelock at decision 5066" (or "no failure"), for the commands' messages */
const char *cgt_child_failure(const struct cgt_child_result *r, char *buf, size_t len);

/* child_result.c: @r as one JSON object on @fd (0, or -1); and back, @r->ran set (0, or -1) */
int cgt_child_result_write(int fd, const struct cgt_child_result *r);
int cgt_child_result_parse(const char *text, size_t len, struct cgt_child_result *r);

#endif
