/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run in a child process: a fresh model, fresh globals, and a crash or a sanitizer's abort
 * that stays in the child. What the run found comes back through a pipe. cgtorture run is
 * one; explore, replay, shrink, reproduce and --check-determinism are made of these.
 */
#ifndef CGT_CHILD_H
#define CGT_CHILD_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "../report/report.h"

struct cgt_child_result {
	/*
	 * the run's exit status; for one dead of a signal, CGT_EXIT_FAIL, or the exit policy's
	 * for the report its parent wrote for it
	 */
	int status;
	int signal;			/* the signal it died of, or 0 */
	bool ran;			/* it finished and said what it found */
	bool pass;
	/* the first failure of the run's --stop-on detector, else its first failure */
	int detector;			/* or -1 if none */
	long step;			/* its decision (controlled), or -1 */
	char summary[256];
	char kind[256];			/* what must be the same for it to be the same bug */
	long steps, stop_step, diverged;
	long preemptions;		/* of the controlled run */
	long *preempted;		/* the decisions they were at (malloc'd), in order */
	long ops;			/* operations the model threads completed */
	char why[160];			/* why a followed schedule stopped fitting */
	char report_dir[512];		/* where its report went, if it wrote one */
	struct cgt_schedule schedule;	/* the choices it made (controlled) */
};

struct cgt_child_opts {
	bool quiet;			/* the child's stdout goes to /dev/null */
	/*
	 * cgtorture run's: SIGINT, SIGTERM, SIGHUP and SIGPIPE are passed on to the child, whose
	 * run ends early on all but SIGHUP, and a second one kills it. Without, the child keeps the
	 * handlers it inherits, and a terminal's ^C reaches it and its parent alike.
	 */
	bool forward;
	/* a finished run leaves by exit(), its handlers and LSan's leak check run; else _exit */
	bool exit_clean;
	double grace_s;			/* past cgt_run_deadline_s(cfg) to the kill; 0: 20 s */
	/*
	 * The child's work, its exit status returned: NULL is the run of @cfg. Another sends
	 * what it found with cgt_child_send.
	 */
	int (*body)(const struct cgt_run_config *cfg, const struct cgt_child_opts *opts);
};

/* Run @cfg in a child as @opts say; what it found goes to @out. 0, or -errno (fork). */
int cgt_child_run(const struct cgt_run_config *cfg, const struct cgt_child_opts *opts,
		  struct cgt_child_result *out);

/*
 * A search's run: its summary goes to stdout unless @quiet; a signal ends it as it ends
 * `cgtorture run`, and the search with it (cgt_run_interrupted()).
 */
static inline int cgt_run_child(const struct cgt_run_config *cfg, bool quiet,
				struct cgt_child_result *out)
{
	const struct cgt_child_opts opts = { .quiet = quiet, .forward = true };

	return cgt_child_run(cfg, &opts, out);
}

/* In the child: @r to the parent, once. */
void cgt_child_send(const struct cgt_child_result *r);
void cgt_child_result_free(struct cgt_child_result *r);
/* "livelock at decision 5066" (or "no failure"), for the commands' messages */
const char *cgt_child_failure(const struct cgt_child_result *r, char *buf, size_t len);

/* child_result.c: @r as one JSON object on @fd (0, or -1); and back, @r->ran set (0, or -1) */
int cgt_child_result_write(int fd, const struct cgt_child_result *r);
int cgt_child_result_parse(const char *text, size_t len, struct cgt_child_result *r);

/* child_report.c: how a child died, for the report its parent writes for it */
struct cgt_child_death {
	pid_t pid;
	int sig;			/* the signal it died of */
	double killed_past;		/* killed this long past its deadline, or -1 */
	int interrupted;		/* the signal passed on to it first, or 0 */
	double elapsed;			/* seconds from its fork */
};
/* Did child @pid write its own report (cfg->out/<stamp>-<pid>/report.json)? */
bool cgt_child_reported(const struct cgt_run_config *cfg, pid_t pid);
/* Write @d's report, its summary to @summary (if any), and take what it says into @out. */
void cgt_child_report(const struct cgt_run_config *cfg, const struct cgt_child_death *d,
		      FILE *summary, struct cgt_child_result *out);

#endif
