// SPDX-License-Identifier: GPL-2.0
/*
 * --check-determinism: a controlled run made twice, each in a child process started from
 * nothing; the two must make the same decisions and find the same failure.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "search.h"
#include "child.h"

/* --check-determinism: the same controlled run twice; the two schedules must be the same. */
int cgt_check_determinism(const struct cgt_run_config *cfg0)
{
	struct cgt_run_config cfg = *cfg0;
	struct cgt_child_result r[2];
	char f0[96], f1[96];
	long k, n;
	int ret;

	cfg.check_determinism = false;
	for (int i = 0; i < 2; i++)
		if (cgt_run_child(&cfg, i == 1 || cfg.quiet, &r[i])) {
			fprintf(stderr, "cgtorture: cannot fork a run: %s\n", strerror(errno));
			return CGT_EXIT_FAIL;
		}
	n = r[0].schedule.len < r[1].schedule.len ? r[0].schedule.len : r[1].schedule.len;
	for (k = 0; k < n && r[0].schedule.choice[k] == r[1].schedule.choice[k]; k++)
		;
	cgt_child_failure(&r[0], f0, sizeof(f0));
	cgt_child_failure(&r[1], f1, sizeof(f1));
	if (!r[0].ran || !r[1].ran) {
		printf("determinism: a run gave no result (exit statuses %d and %d)\n",
		       r[0].status, r[1].status);
		ret = CGT_EXIT_FAIL;
	} else if (k < r[0].schedule.len || k < r[1].schedule.len) {
		printf("determinism: FAIL: the runs part at decision %ld (T%d, then T%d) of %ld and %ld\n",
		       k, k < r[0].schedule.len ? r[0].schedule.choice[k] : 0,
		       k < r[1].schedule.len ? r[1].schedule.choice[k] : 0, r[0].schedule.len,
		       r[1].schedule.len);
		ret = CGT_EXIT_FAIL;
	} else if (strcmp(f0, f1)) {
		printf("determinism: FAIL: the same %ld decisions, but %s, then %s\n", n, f0, f1);
		ret = CGT_EXIT_FAIL;
	} else {
		printf("determinism: PASS: both runs made the same %ld decisions (%ld switches); %s\n",
		       n, cgt_schedule_switches(&r[0].schedule), f0);
		ret = r[0].status;
	}
	cgt_child_result_free(&r[0]);
	cgt_child_result_free(&r[1]);
	return ret;
}
