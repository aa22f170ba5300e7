/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The detectors: one file each, one ops table each, registered in one table (registry.c,
 * made from CGT_DETECTORS in core/failure.h), as the lock variants are. They watch the model
 * and the locks from above: through the marked points the model and the locks pass, through
 * the state every harness thread publishes (core/thread.h), and through the run's own calls
 * when the model is held still or has gone. They report through core's failure list.
 *
 * One path serves both kinds of run. A free-running run's time-based checks are made by a
 * watchdog thread ten times a second (watch); a controlled run counts decisions instead, and
 * its checks are made at decisions (decision) or when no thread can run (stuck). What a
 * marked point shows (point) and what a model at rest shows (at_rest) are the same in both.
 */
#ifndef CGT_DETECT_H
#define CGT_DETECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/failure.h"
#include "../core/point.h"
#include "../core/thread.h"

struct cgt_detect_config {
	double stall;			/* seconds: a walk older, or a wait longer, is reported */
	double starve;			/* seconds: a writer passed over this long is starved */
	double deadline;		/* seconds since the run started: the hard end (0: none) */
	bool controlled;		/* a controlled run: decisions, not time, except the deadline */
	/* the run must end now (past the deadline, or ASan about to abort): write and leave */
	void (*on_abort)(void);
};

struct cgt_detector_ops {
	enum cgt_detector id;		/* the failures it reports (name and what it catches) */
	/* a run starts: take the configuration (0, or -1) */
	int (*start)(const struct cgt_detect_config *cfg);
	/*
	 * A thread at marked point @id, where control may pass to another: @point sees what it
	 * has just done (a lock now held), before control passes; @resume what it is about to
	 * do (take a lock, step a walk), once it runs again. So a failure is stamped with the
	 * same decision in a controlled run as the thread's own view of it.
	 */
	void (*point)(enum cgt_point_id id, const void *obj);
	void (*resume)(enum cgt_point_id id, const void *obj);
	/* free-running: every harness thread as it was a moment ago (@n copies), at @now */
	void (*watch)(const struct cgt_thread *v, int n, uint64_t now);
	/* controlled: a decision is being made (in the baton holder) */
	void (*decision)(long step);
	/* controlled: no model thread can run at decision @step */
	void (*stuck)(long step);
	/* every model thread is held still between operations */
	void (*at_rest)(void);
	/* the model did not come to rest within @timeout seconds when asked to */
	void (*no_rest)(double timeout);
	/* every model thread has gone and grace periods have passed: the model's last check */
	void (*after_exit)(void);
	/* the run is over: a last look */
	void (*stop)(void);
	/* watched by time in a controlled run too: the deadline is wall-clock in every run */
	bool wall_clock;
	/*
	 * The kind of its failure from the summary and evidence it wrote (kind.c): what two
	 * failures of the same bug share whatever the numbers. NULL: the summary, numbers out.
	 */
	void (*kind)(const char *summary, const char *evidence, char *buf, size_t len);
};

/* The run's calls: each passes the event to every detector that has the hook. */
/* start: the detectors armed, before anything that can reach a marked point; watch: the
 * watchdog thread started, once the model it looks at is up. */
int cgt_detect_start(const struct cgt_detect_config *cfg);
int cgt_detect_watch(void);
void cgt_detect_stop(void);
void cgt_detect_point(enum cgt_point_id id, const void *obj);
void cgt_detect_resume(enum cgt_point_id id, const void *obj);
void cgt_detect_decision(long step);
void cgt_detect_stuck(long step);
void cgt_detect_at_rest(void);
void cgt_detect_no_rest(double timeout);
void cgt_detect_after_exit(void);
/* The run ends early (its deadline, a crash): what the detectors saw but did not yet say. */
void cgt_detect_last_look(void);

/* registry.c */
extern const struct cgt_detector_ops *const cgt_detectors[CGT_NR_DETECTORS];

/*
 * registry.c: "DETECTOR: KIND", the kind of a failure of @detector with @summary and
 * @evidence (its ops' kind), for reproduce to know that a controlled schedule found the same
 * thing as a free-running report. kind.c: @s with its numbers (and cgroups) out, the kind
 * most detectors' failures have; a sanitizer's error class.
 */
void cgt_failure_kind(int detector, const char *summary, const char *evidence, char *buf,
		      size_t len);
void cgt_kind_numbers_out(const char *s, char *buf, size_t len);
void cgt_kind_error_class(const char *summary, const char *evidence, char *buf, size_t len);

/*
 * hang_kind.c. A hang's evidence gives its deadlock cycle, when there is one, under
 * CGT_HANG_CYCLE: a line per thread on it, the resource it waits for and who holds it.
 */
#define CGT_HANG_CYCLE		"deadlock cycle:"
void cgt_hang_kind(const char *summary, const char *evidence, char *buf, size_t len);
/* Where @evidence gives the cycle, or NULL. */
const char *cgt_hang_cycle(const char *evidence);
/* "cycle: css_set_lock, rcu": the lock classes on a wait-for cycle of @n threads, if any. */
bool cgt_threads_cycle(const struct cgt_thread *v, int n, char *buf, size_t len);

/*
 * In a controlled run, a writer that this many reads passed while it waited is starved: a
 * fair lock (FIFO, or waiting writers first) lets none pass at all.
 */
#define CGT_STARVE_READS	8

#endif
