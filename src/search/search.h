/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The searches over controlled schedules, each made of child runs (child.c): the
 * determinism check, explore, replay and shrink, one file each. The command line parses
 * their options and prepares @cfg; a search that changes @cfg renders it again
 * (cgt_run_render), as each run's report shows it.
 */
#ifndef CGT_SEARCH_H
#define CGT_SEARCH_H

#include <stdbool.h>

#include "../report/report.h"
#include "../report/report_read.h"

/*
 * report_config.c: @path read (one line and CGT_EXIT_USAGE if bad), its run configured from
 * the command it keeps, rendered, and made quiet for a search's child runs.
 */
int cgt_report_config(const char *path, struct cgt_report_in *r, struct cgt_run_config *cfg);
/*
 * report_config.c: a search's run from the words @argv of a command line (the run's table
 * alone; argv[0] its name), then ready to run (cgt_run_options_ready); 0 or a status.
 */
int cgt_search_config(int argc, char **argv, struct cgt_run_config *cfg);
/* determinism.c: the same controlled run twice; the two schedules must be the same */
int cgt_check_determinism(const struct cgt_run_config *cfg);
/*
 * bound.c: the @i-th of @runs schedules of a search: under the bounded scheduler, its
 * preemption bound, from 0 up to @kmax in equal blocks of schedules; else nothing.
 */
void cgt_search_bound(struct cgt_run_config *cfg, int kmax, long i, long runs);
/* explore's schedules */
struct cgt_explore_opts {
	long runs;			/* at most */
	bool keep_going;		/* past the first failure: count them all */
	long shrink;			/* trial runs to shrink the first failure found; 0: none */
	/*
	 * No --kernel, lock option or bug pins the era: each schedule that steps through the
	 * locks' code draws it from its own seed, as `cgtorture run` with that seed would;
	 * the others keep the default era and locks.
	 */
	bool era_free;
};
/* explore.c: up to o->runs schedules, seeds from cfg->seed on; the exit status */
int cgt_explore(struct cgt_run_config *cfg, const struct cgt_explore_opts *o);
/*
 * replay.c: the report @r (read from @path) run again, @tries times if free-running; the
 * replays' reports go to its folder/replay, as shrink's go to its folder/shrink.
 */
int cgt_replay(const char *path, const struct cgt_report_in *r, struct cgt_run_config *cfg,
	       long tries);
/* The index of the failure of interest among @r's failures, or -1. */
int cgt_report_interest(const struct cgt_report_in *r, int stop_on);
/* shrink's time budget, unless told: the target for a catalogued bug */
#define CGT_SHRINK_SECONDS	60
/*
 * shrink.c: @r's failure cut down in at most @budget trials and @seconds; @cfg ends as the
 * smallest run's. 0, or an exit status (128 + N: interrupted, the partial result written).
 */
int cgt_shrink(const char *path, const struct cgt_report_in *r, struct cgt_run_config *cfg,
	       long budget, double seconds);
/* shrink.c: the same, of the report @path, configured from it (cgt_report_config) */
int cgt_shrink_report(const char *path, long budget, double seconds);

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
 * found, 3 not, 4 its reports unwritable, 128 + N interrupted (said so).
 */
int cgt_reproduce(struct cgt_run_config *cfg, int detector, const char *what,
		  cgt_match_fn match, void *arg, long runs, char *found, size_t len);
/*
 * reproduce.c: one free-running run of @cfg (its --duration, its seed), to its end; 0 if
 * @match took a failure of @detector in its report (it weighs them all), the report's path
 * in @found; 4 if its report could not be written, else 1.
 */
int cgt_reproduce_free(struct cgt_run_config *cfg, int detector, const char *what,
		       cgt_match_fn match, void *arg, char *found, size_t len);

/*
 * reproduce.c: the schedule found (a report.json) replayed exactly, then shrunk in @shrink
 * trials; reproduce's last steps, for a report.json and a kernel log alike.
 */
int cgt_reproduce_exact(const char *found, long shrink);

struct cgt_child_result;
/*
 * stop.c: a search stopped by a signal (cgt_run_interrupted()) after @done of @total
 * @what ("schedules"): "CMD: interrupted by SIGINT after 4 of 200 schedules" printed, and its
 * exit status (128 + the signal) returned. Every search's loop ends so when interrupted with
 * nothing found.
 */
int cgt_search_interrupted(const char *cmd, long done, long total, const char *what);
/*
 * stop.c: whether a child run's report was due and could not be written (its status
 * CGT_EXIT_TOOL); if so, said on stderr: the search stops with that status.
 */
bool cgt_search_unwritten(const char *cmd, const struct cgt_run_config *cfg,
			  const struct cgt_child_result *r);
/*
 * stop.c: @dir made and writable, 0; else said on stderr, with @instead after (what would
 * work, or ""), and CGT_EXIT_TOOL: a search checks its folder before its first run.
 */
int cgt_search_folder(const char *cmd, const char *dir, const char *instead);

/* reproduce's options */
struct cgt_reproduce_opts {
	const char *report;		/* a report.json, or a kernel log ("-": stdin) */
	long runs;			/* controlled schedules at most */
	long shrink;			/* trial runs to shrink the one found */
	const char *sched;		/* the controlled searches' scheduler, or "" */
	double free_s;			/* a kernel log: free-running seconds per search */
	const char *out;
	bool out_given;			/* a report.json's search goes there, not to its folder */
	bool map;			/* a kernel log: map it, search nothing */
	/* a record handed in by hand, for a write-up with none: its frames, innermost first */
	const char *functions;
	const char *kind;		/* its kind: hung-task, soft-lockup, ... */
	const char *version;		/* its kernel, if known */
	const char *locks;		/* a lockdep record's locks */
};
/* Used when a report puts back no single catalogued bug: small, and switching often. */
#define REPRODUCE_DEFAULT	"--sched random --threads 8 --steps 5000"
/* reproduce_report.c: a free-running failure's report.json made an exact replay */
int cgt_reproduce_report(const struct cgt_reproduce_opts *o);
/* reproduce_klog.c: a kernel's own report mapped, searched and made an exact replay */
int cgt_reproduce_klog(const struct cgt_reproduce_opts *o);

#endif
