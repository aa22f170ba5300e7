/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading a run's report.json back (schema cgtorture-report, version 2): strict, since what
 * it yields (the command, the schedule, the step of the first failure) is used to run the
 * same thing again, and a report that does not hold together would replay something else.
 * Any input, however broken, gives -1 and a one-line reason naming the file and the field.
 */
#ifndef CGT_REPORT_READ_H
#define CGT_REPORT_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/failure.h"
#include "../sched/schedule.h"

/* the schema's version, as report.c writes it and report_read.c reads it */
#define CGT_REPORT_VERSION	2
#define CGT_REPORT_MAX_BYTES	(256L << 20)	/* a larger file is refused unread */
#define CGT_REPORT_INVOLVED	16	/* "timeline"."involved" at most (capture.h) */

struct cgt_report_in {
	char build[16];			/* "plain", "tsan", "asan" */
	char *command;			/* malloc'd: "cgtorture run ..." */
	bool pass;			/* verdict */
	bool interrupted;		/* verdict INTERRUPTED: a partial run, nothing found */
	int first_detector;		/* enum cgt_detector of failures[0], or -1 */
	long first_step;		/* failures[0].step, or -1 */
	char first_summary[256];
	int nfailures;			/* the failures the report keeps, in order */
	struct {
		int detector;
		bool known;		/* the era's known behaviour: "known" names it */
		long step;
		char summary[256];
	} failure[CGT_MAX_FAILURES];
	long failures_total;
	bool controlled;		/* has "schedule"; the fields below are then set */
	char scheduler[16];		/* a scheduler's name (cgt_sched_find) */
	bool lock_code;			/* "locks": "code" (a report without the key: model) */
	int depth;
	long stop_step;
	int threads;
	long preemptions;		/* -1: the report does not say */
	struct cgt_schedule schedule;	/* decoded choices */
	char dir[512];			/* the folder holding the report; "" from a buffer */
	char *story;			/* malloc'd: "story", a line each, or NULL */
	bool has_timeline;		/* "timeline" (trace.json beside the report): */
	bool timeline_decisions;	/* its unit: decisions, else microseconds */
	double window_from, failure_at;	/* the window complete for every involved thread */
	int involved[CGT_REPORT_INVOLVED];	/* the threads involved, the failing one first */
	int timeline_detector;		/* the failure it is of (enum cgt_detector), or -1 */
	char kind[256];			/* that failure's kind (report/kind.h), or "" */
	int ninvolved;
};

/* Read and validate @path; 0, or -1 with a one-line reason in @err (never crashes or exits). */
int cgt_report_read(const char *path, struct cgt_report_in *out, char *err, size_t errlen);
/* The same from a buffer. On -1 @out holds nothing to free (cgt_report_in_free is harmless). */
int cgt_report_parse(const char *buf, size_t len, struct cgt_report_in *out, char *err,
		     size_t errlen);
void cgt_report_in_free(struct cgt_report_in *r);

/*
 * Split @command into argv words (cgt_run_options_command writes it space-separated, no
 * quoting); argv[0] is "cgtorture", argv[1] "run", argv[*argc] NULL. 0, or -1 with a reason.
 * Caller frees with cgt_argv_free.
 */
int cgt_command_argv(const char *command, int *argc, char ***argv, char *err, size_t errlen);
void cgt_argv_free(int argc, char **argv);

#endif
