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
#include <stddef.h>

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
struct cgt_kmap_judgement;

struct cgt_kmap_candidate {
	int bug;			/* enum cgt_bug, or -1 */
	const char *era;		/* the --kernel it runs in */
	bool off_cpu;			/* the era with a holder kept off the CPU (--off-cpu) */
	enum cgt_detector detector;
	int score;			/* functions of the bug's signature the record shows */
};

/* What a search is, for people: "walk-from-exiting", "the era as it shipped", ... */
const char *cgt_kmap_candidate_name(const struct cgt_kmap_candidate *c);

/* Where the record's era came from: its own version, names only some kernels have, or none. */
enum cgt_kmap_era_from { CGT_ERA_NAMED, CGT_ERA_FROM_NAMES, CGT_ERA_GUESSED };

#define CGT_KMAP_WANTS		8

/*
 * The record's mechanism in the model's terms: what a failure must show to be this report
 * (kmap_judge.c), and what the model lacks to show all of it.
 */
struct cgt_kmap_mechanism {
	const char *lock;		/* the lock the blocked or spinning task waits for */
	char side;			/* 'r' or 'w' */
	bool spinning;			/* that lock spins: a wait on it is CPU-bound (lockups) */
	const char *walk;		/* the model walk the record is in */
	int nfns;			/* the model functions on the record's stacks, first */
	const char *fns[CGT_KMAP_WANTS];	/* stack first (the family a failure must name) */
	int ncycle;			/* lockdep: the cycle's lock classes, in the model */
	const char *cycle[CGT_KMAP_WANTS];
	bool same_check;		/* a BUG/WARN: only an invariant is the same check */
	char lacks[200];		/* what the model does not have of it ("" if nothing) */
};

struct cgt_kmap {
	const struct cgt_klog_record *rec;
	int version;			/* the record's kernel, major*100+minor, or -1 */
	int floor, ceiling;		/* from names only some kernels have; -1 if none */
	enum cgt_kmap_era_from era_from;
	const char *era;		/* --kernel of the record's kernel */
	char era_why[200];		/* "5.15: no era of its own, the nearest: ..." */
	int nframes, nmapped, nskipped;
	struct cgt_kmap_item frames[CGT_KLOG_FRAMES];
	int nlocks;
	struct cgt_kmap_item locks[CGT_KLOG_LOCKS];
	const char *waits_for;		/* the model lock the record's first stack waits for */
	char waits_side;		/* 'r' or 'w', 0 if unknown */
	const char *walk;		/* the model walk the record is in (find_lock_task_mm) */
	bool off_cpu;			/* a backtrace of the log is in direct reclaim or throttled */
	bool mix[5];			/* fork, exec, exit, migrate, observe seen */
	struct cgt_kmap_mechanism want;
	int ncandidates;
	struct cgt_kmap_candidate cand[CGT_KMAP_CANDIDATES];
};

/* A record's side of a lock, 'r' or 'w', as words: "read" or "write". */
const char *cgt_kmap_side_name(char side);

/* What kernel function @fn is in the model ("oom_badness (the OOM killer)"), or NULL. */
const char *cgt_kmap_model_of(const char *fn);

/* The kernel function a log line's message is printed by (cgt_klog_said_fn), or NULL. */
const char *cgt_kmap_said(const char *line);

/*
 * Map record @i of @log onto the model: 0 with at least one search; -1 if nothing in it is
 * modelled; -2 if parts are but not its mechanism (@map's want.lacks says what is missing:
 * a lockdep cycle through a lock the model has not). The bugs to search for are scored on
 * every record of the log: the tasks of one hang are reported one record each. A catalogued
 * bug is searched only when its own functions are on the record's stacks and its kernels
 * include the record's; a detector only when it can show the record's kind of failure.
 */
int cgt_kmap_record(const struct cgt_klog *log, int i, struct cgt_kmap *map);

/* A found failure held against the record's mechanism (kmap_judge.c). */
enum cgt_kmap_grade {
	CGT_KMAP_OTHER,			/* another failure: not the record's */
	CGT_KMAP_IN_PART,		/* some of its mechanism, and what the model lacks */
	CGT_KMAP_REPRODUCED,		/* its mechanism, in its kernel */
};

/* One column of the judgement: 1 yes, 0 no, -1 not asked of this kind of record. */
struct cgt_kmap_judgement {
	enum cgt_kmap_grade grade;
	int detector, lock, functions, era;
	char got[256];			/* what the failure showed, for people */
	char lacks[300];		/* for a grade below reproduced: why */
	/*
	 * in part for good: what it lacks no other run of the model can give (the era a guess,
	 * the kernel's own check not the model's); else another run may show it whole
	 */
	bool settled;
};

/*
 * The failures of detector @det in @report (a report.json) judged against @m's record, the
 * best of them in @j (a run may show the record's mechanism in its third livelock): 0, or -1
 * if the report cannot be read or has no such failure.
 */
int cgt_kmap_judge(const struct cgt_kmap *m, const char *report, int det,
		   struct cgt_kmap_judgement *j);

/* The judgement's columns as "detector yes, lock yes, functions -, era guessed". */
void cgt_kmap_judgement_columns(const struct cgt_kmap_judgement *j, char *buf, size_t len);

/*
 * kmap_source.c: @report (a report.json) rewritten with "source": @m's record, what each of
 * its frames and locks is in the model, @c, the search that reproduced it, and @j, how far
 * (the verdict, each column, what the model lacks). 0, or -1 with a reason.
 */
int cgt_kmap_write_source(const char *report, const char *log_path, const struct cgt_kmap *m,
			  const struct cgt_kmap_candidate *c, const struct cgt_kmap_judgement *j,
			  char *why, size_t len);

#endif
