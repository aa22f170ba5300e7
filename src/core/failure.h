/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where every detector reports: a failure names its detector, when it was seen, a one-line
 * summary and its evidence (free text, several lines). The report writer reads them back.
 */
#ifndef CGT_FAILURE_H
#define CGT_FAILURE_H

#include <stdbool.h>
#include <stdint.h>

struct cgt_thread;

/*
 * The detectors, in the order they run: each is a file under src/detect/ whose ops table is
 * named by the second column (src/detect/registry.c makes the table from this list). A
 * failure names the detector that saw it.
 */
#define CGT_DETECTORS(X)							\
	X(LIVELOCK,	livelock,	"livelock",	"a walk that cannot end")	\
	X(HANG,		hang,		"hang",		"a thread blocked past --stall") \
	X(LOCK_ORDER,	lock_order,	"lock-order",	"two locks taken in both orders") \
	X(RCU_NESTING,	rcu_nesting,	"rcu-nesting",	"a sleeping lock inside rcu_read_lock") \
	X(RCU_LIFETIME,	rcu_lifetime,	"rcu-lifetime",	"an object used past its RCU protection") \
	X(STARVATION,	starvation,	"starvation",	"a writer passed over past --starve") \
	X(INVARIANT,	invariant,	"invariant",	"the model's linkage broken")	\
	X(TSAN,		tsan,		"tsan",		"a data race (ThreadSanitizer)") \
	X(ASAN,		asan,		"asan",		"a memory error (AddressSanitizer)") \
	X(CRASH,	crash,		"crash",	"a fatal signal (SIGSEGV, SIGBUS, SIGABRT, ...)") \
	X(DEADLINE,	deadline,	"deadline",	"the run overran its hard deadline")

enum cgt_detector {
#define X(id, sym, name, desc) CGT_DET_##id,
	CGT_DETECTORS(X)
#undef X
	CGT_NR_DETECTORS
};

extern const char *const cgt_detector_names[CGT_NR_DETECTORS];
extern const char *const cgt_detector_descs[CGT_NR_DETECTORS];

#define CGT_MAX_FAILURES	32

#define CGT_FAILURE_INVOLVED	32

struct cgt_failure {
	enum cgt_detector detector;
	uint64_t ns;			/* since the run started */
	long step;			/* the controlled run's decision, or -1 */
	int thread_id;			/* harness thread that saw it, 0 if none */
	char summary[256];
	char subject[48];		/* the lock class it is about, or "" */
	char known[48];			/* the catalogue entry it is known as, or "" */
	char *evidence;			/* malloc'd, may be NULL */
	struct cgt_thread *thread;	/* malloc'd copy of that thread as it was then, or NULL */
	/* the harness threads it is about, as data (a hang's deadlock cycle); 0: its words say */
	int involved[CGT_FAILURE_INVOLVED];
	int ninvolved;
};

/*
 * Record a failure about @subject (a lock class, or NULL); the thread @thread_id is copied as
 * it is now (not with the registry locked).
 */
void cgt_fail_on(enum cgt_detector det, int thread_id, const char *subject, const char *evidence,
		 const char *fmt, ...) __attribute__((format(printf, 5, 6)));
#define cgt_fail(det, thread_id, evidence, ...) \
	cgt_fail_on(det, thread_id, NULL, evidence, __VA_ARGS__)
/* cgt_fail, and the @n harness threads @involved it is about (the first CGT_FAILURE_INVOLVED) */
void cgt_fail_involving(enum cgt_detector det, int thread_id, const int *involved, int n,
			const char *evidence, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/*
 * Until the next reset, a failure of @det about @subject is the known behaviour @as (a
 * catalogue entry the run's configuration chose, such as an era's reader-first lock): it is
 * counted and kept, and does not fail the run.
 */
void cgt_failure_know(enum cgt_detector det, const char *subject, const char *as);
bool cgt_failure_is_known(enum cgt_detector det, const char *subject);
/* Whether a failure of @det about @subject is among those kept (the first CGT_MAX_FAILURES). */
bool cgt_failure_about(enum cgt_detector det, const char *subject);
/* Counts per detector, and the first failures kept in full; caller frees nothing. */
long cgt_failure_count(enum cgt_detector det);
long cgt_failures_total(void);
long cgt_failure_count_known(enum cgt_detector det);
long cgt_failures_known(void);
int cgt_failures_get(struct cgt_failure *out, int max);
void cgt_failures_reset(void);
/* Called after each failure is recorded (e.g. to stop a run early). */
void cgt_failure_set_hook(void (*hook)(enum cgt_detector det, bool known));

#endif
