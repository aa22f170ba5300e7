/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel, mapped onto the model (kmap.c): one registry, beside the catalogue of bugs,
 * saying for each kernel function which model operation or reader it is (or that it is a
 * lock's slow path, or scheduler and reporting frames to look past), for each lockdep lock
 * name which model lock it is, for each kind of record which detectors can show it, for each
 * kernel version which era, and for each catalogued bug the functions its reports show.
 * Adding a kernel function is one line of its table.
 */
#ifndef CGT_KMAP_H
#define CGT_KMAP_H

#include <stdbool.h>

#include "klog.h"
#include "../core/failure.h"

#define CGT_KMAP_CANDIDATES	8

/* What one frame or lock of a record is in the model. */
struct cgt_kmap_item {
	const char *kernel;		/* as the record names it (points into the record) */
	const char *model;		/* "do_exit (exit)", or NULL: not modelled */
	bool skipped;			/* scheduler, entry, reporting frames: not counted */
	bool primitive;			/* a lock's slow path or a grace-period wait */
};

/* A search for the record: a catalogued bug (or none: the era as it shipped) and a detector. */
struct cgt_kmap_candidate {
	int bug;			/* enum cgt_bug, or -1 */
	bool off_cpu;			/* the era with a holder kept off the CPU (--off-cpu) */
	enum cgt_detector detector;
	int score;			/* functions of the bug's signature the record shows */
};

/* What a search is, for people: "walk-from-exiting", "the era as it shipped", ... */
const char *cgt_kmap_candidate_name(const struct cgt_kmap_candidate *c);

struct cgt_kmap {
	const struct cgt_klog_record *rec;
	int version;			/* the record's kernel, major*100+minor, or -1 */
	const char *era;		/* --kernel of the record's version (3.15 if none) */
	const char *era_why;		/* "5.10 is 4.5 or later", "no version: the default" */
	char era_floor[96];		/* else the why, when a name in the record gave the era */
	int nframes, nmapped, nskipped;
	struct cgt_kmap_item frames[CGT_KLOG_FRAMES];
	int nlocks;
	struct cgt_kmap_item locks[CGT_KLOG_LOCKS];
	const char *waits_for;		/* the model lock the record's first stack waits for */
	char waits_side;		/* 'r' or 'w', 0 if unknown */
	const char *walk;		/* the model walk the record is in (find_lock_task_mm) */
	bool off_cpu;			/* a backtrace of the log is in direct reclaim or throttled */
	bool mix[5];			/* fork, exec, exit, migrate, observe seen */
	int ncandidates;
	struct cgt_kmap_candidate cand[CGT_KMAP_CANDIDATES];
};

/* The kernel function a log line's message is printed by (cgt_klog_said_fn), or NULL. */
const char *cgt_kmap_said(const char *line);

/*
 * Map record @i of @log onto the model; 0, or -1 if nothing in it is modelled. The bugs to
 * search for are scored on every record of the log: the tasks of one hang are reported
 * one record each.
 */
int cgt_kmap_record(const struct cgt_klog *log, int i, struct cgt_kmap *map);

/*
 * kmap_source.c: @report (a report.json) rewritten with "source": @m's record, what each of
 * its frames and locks is in the model, and @c, the search that reproduced it. 0, or -1 with
 * a reason.
 */
int cgt_kmap_write_source(const char *report, const char *log_path, const struct cgt_kmap *m,
			  const struct cgt_kmap_candidate *c, char *why, size_t len);

#endif
