/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The searches over controlled schedules, each made of child runs (child.c): the
 * determinism check, explore, replay and shrink, one file each. The command line parses
 * their options and prepares @cfg; @render remakes @cfg's banner and command line after
 * the search changes it, as each run's report shows them.
 */
#ifndef CGT_SEARCH_H
#define CGT_SEARCH_H

#include <stdbool.h>

#include "../report/report.h"
#include "../report/report_read.h"

typedef void (*cgt_render_fn)(struct cgt_run_config *cfg);

/* determinism.c: the same controlled run twice; the two schedules must be the same */
int cgt_check_determinism(const struct cgt_run_config *cfg);
/* explore.c: up to @runs schedules, seeds from cfg->seed on; the exit status */
int cgt_explore(struct cgt_run_config *cfg, long runs, bool keep_going, cgt_render_fn render);
/* replay.c: the report @r (read from @path) run again, @tries times if free-running */
int cgt_replay(const char *path, const struct cgt_report_in *r, struct cgt_run_config *cfg,
	       long tries);
/* The index of the failure of interest among @r's failures, or -1. */
int cgt_report_interest(const struct cgt_report_in *r, int stop_on);
/* shrink.c: @r's failing schedule cut down in at most @budget trials; @cfg ends as the smallest */
int cgt_shrink(const char *path, const struct cgt_report_in *r, struct cgt_run_config *cfg,
	       long budget, cgt_render_fn render);

/*
 * Whether the failure of @detector in the report @path is the one looked for; what it is
 * goes to @got either way, for the log.
 */
typedef bool (*cgt_match_fn)(const char *path, int detector, void *arg, char *got,
			     size_t len);
/*
 * reproduce.c: controlled schedules of @cfg (seeds 1, 2, ..., at most @runs, quiet, each
 * given a minute of wall clock) until one fails with @detector and @match(…, @arg) takes it
 * (@what says what is looked for); its report's path goes to @found. The exit status: 0
 * found, 1 not.
 */
int cgt_reproduce(struct cgt_run_config *cfg, int detector, const char *what,
		  cgt_match_fn match, void *arg, long runs, cgt_render_fn render, char *found,
		  size_t len);
/*
 * reproduce.c: one free-running run of @cfg (its --duration, its seed) that stops at
 * @detector; 0 if it failed so and @match took the failure, its report's path in @found.
 */
int cgt_reproduce_free(struct cgt_run_config *cfg, int detector, const char *what,
		       cgt_match_fn match, void *arg, cgt_render_fn render, char *found,
		       size_t len);

#endif
