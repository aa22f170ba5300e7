// SPDX-License-Identifier: GPL-2.0
/*
 * tsan: data races, as ThreadSanitizer reports them. The runtime calls __tsan_on_report for
 * every report it is about to print; we only count and copy there (it holds its own locks),
 * and the count is read in one place, poll(): by the watchdog in a free-running run, at every
 * decision in a controlled one (so the failure lands at the same decision every time), and
 * once more at the end. The reports themselves are on stderr; the first few are also kept
 * as their accesses' stacks, taken from the report the runtime hands over and named once
 * outside it, as the failure's evidence: what reproduce matches a kernel's KCSAN report by.
 */
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "detect.h"

static long reports;		/* made by the runtime */
static long seen;		/* of which turned into failures */
static long base;		/* made before this run began */

#if defined(CGT_TSAN)
#include <sanitizer/common_interface_defs.h>

/* tsan_debugging.cpp: the runtime's reading of a report, as a debugger's is */
int __tsan_get_report_data(void *report, const char **description, int *count,
			   int *stack_count, int *mop_count, int *loc_count, int *mutex_count,
			   int *thread_count, int *unique_tid_count, void **sleep_trace,
			   unsigned long trace_size);
int __tsan_get_report_mop(void *report, unsigned long idx, int *tid, void **addr, int *size,
			  int *write, int *atomic, void **trace, unsigned long trace_size);

#define KEPT		4	/* reports kept as stacks */
#define KEPT_MOPS	2	/* a race's two accesses */
#define KEPT_FRAMES	16

static struct kept {
	const char *what;		/* "data-race", ...: the runtime's own string */
	int nmops;
	struct {
		int tid, write, atomic, size;
		void *trace[KEPT_FRAMES];
	} mop[KEPT_MOPS];
	int ready;			/* written, release */
} kept[KEPT];

/*
 * Inside the runtime's report: copy, nothing more (no allocation, no lock, no symbolizing).
 * The runtime writes the accesses' fields itself; what this code stores is atomic, as TSan
 * does not see the report's release as one.
 */
static void keep(struct kept *k, void *report)
{
	const char *what = NULL;
	void *sleep[1];
	int count, stacks, mops = 0, locs, mutexes, threads, tids, n = 0;

	if (!__tsan_get_report_data(report, &what, &count, &stacks, &mops, &locs, &mutexes,
				    &threads, &tids, sleep, 1))
		mops = 0;
	__atomic_store_n(&k->what, what, __ATOMIC_RELAXED);
	for (int i = 0; i < mops && n < KEPT_MOPS; i++) {
		void *addr;

		n += __tsan_get_report_mop(report, (unsigned long)i, &k->mop[n].tid, &addr,
					   &k->mop[n].size, &k->mop[n].write, &k->mop[n].atomic,
					   k->mop[n].trace, KEPT_FRAMES) != 0;
	}
	__atomic_store_n(&k->nmops, n, __ATOMIC_RELAXED);
}

/* Kept report @k as its writer left it, once it is whole; false if it never was. */
static bool take(struct kept *k, struct kept *out)
{
	/* between the count and the copy: a few instructions, unless preempted */
	for (int spin = 0; spin < 10000 && !__atomic_load_n(&k->ready, __ATOMIC_ACQUIRE); spin++)
		sched_yield();
	if (!__atomic_load_n(&k->ready, __ATOMIC_ACQUIRE))
		return false;
	out->what = __atomic_load_n(&k->what, __ATOMIC_RELAXED);
	out->nmops = __atomic_load_n(&k->nmops, __ATOMIC_RELAXED);
	for (int m = 0; m < out->nmops; m++) {
		out->mop[m].tid = __atomic_load_n(&k->mop[m].tid, __ATOMIC_RELAXED);
		out->mop[m].write = __atomic_load_n(&k->mop[m].write, __ATOMIC_RELAXED);
		out->mop[m].atomic = __atomic_load_n(&k->mop[m].atomic, __ATOMIC_RELAXED);
		out->mop[m].size = __atomic_load_n(&k->mop[m].size, __ATOMIC_RELAXED);
		for (int f = 0; f < KEPT_FRAMES; f++)
			out->mop[m].trace[f] = __atomic_load_n(&k->mop[m].trace[f],
							       __ATOMIC_RELAXED);
	}
	return true;
}

/* A new run keeps its own first reports (explore runs many in one process). */
static void kept_forget(void)
{
	for (int r = 0; r < KEPT; r++)
		__atomic_store_n(&kept[r].ready, 0, __ATOMIC_RELAXED);
}

/* Each function of @pc, inlined ones first, as " <- f" on @buf. */
static size_t name_pc(void *pc, char *buf, size_t len, size_t off, int *named)
{
	char names[512];

	__sanitizer_symbolize_pc(pc, "%f", names, sizeof(names));
	for (const char *n = names; *n && off < len; n += strlen(n) + 1)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", (*named)++ ? " <- " : "", n);
	return off;
}

/* The kept reports @from to @to (not counting), as evidence in @buf. */
static void kept_evidence(long from, long to, char *buf, size_t len)
{
	size_t off;

	if (from >= KEPT) {
		snprintf(buf, len, "the reports are on stderr (the first %d are also kept here, "
			 "in the run's first failures)\n", KEPT);
		return;
	}
	off = (size_t)snprintf(buf, len, "the whole reports are on stderr; their accesses, "
			       "innermost function first:\n");

	for (long r = from; r < to && r < KEPT && off < len; r++) {
		struct kept k;

		if (!take(&kept[r], &k))
			continue;
		off += (size_t)snprintf(buf + off, len - off, "report %ld: %s\n", r + 1,
					k.what ? k.what : "?");
		for (int m = 0; m < k.nmops && off < len; m++) {
			int named = 0;

			off += (size_t)snprintf(buf + off, len - off, "  %s%s of %d bytes by TSan's T%d: ",
						k.mop[m].atomic ? "atomic " : "",
						k.mop[m].write ? "write" : "read", k.mop[m].size,
						k.mop[m].tid);
			/* an inlined function's frames share its caller's pc: named once */
			for (int f = 0; f < KEPT_FRAMES && k.mop[m].trace[f] && off < len; f++)
				if (!f || k.mop[m].trace[f] != k.mop[m].trace[f - 1])
					off = name_pc(k.mop[m].trace[f], buf, len, off, &named);
			if (off < len)
				off += (size_t)snprintf(buf + off, len - off, "\n");
		}
	}
	if (to > KEPT && off < len)
		snprintf(buf + off, len - off, "(the first %d are kept here)\n", KEPT);
}
#else
static void kept_forget(void)
{
}

static void kept_evidence(long from, long to, char *buf, size_t len)
{
	(void)from;
	(void)to;
	snprintf(buf, len, "the ThreadSanitizer reports are on stderr\n");
}
#endif

/* The watchdog and a run's last look (a crash, the deadline) may poll at once: one says it. */
static void poll(void)
{
	long n = __atomic_load_n(&reports, __ATOMIC_RELAXED);
	long prev = __atomic_load_n(&seen, __ATOMIC_RELAXED);
	char evidence[8192];

	while (n > prev && !__atomic_compare_exchange_n(&seen, &prev, n, false, __ATOMIC_RELAXED,
							 __ATOMIC_RELAXED))
		;
	if (n <= prev)
		return;
	prev -= __atomic_load_n(&base, __ATOMIC_RELAXED);
	n -= __atomic_load_n(&base, __ATOMIC_RELAXED);
	kept_evidence(prev, n, evidence, sizeof(evidence));
	cgt_fail(CGT_DET_TSAN, cgt_self ? cgt_self->id : 0, evidence,
		 "ThreadSanitizer reported %ld data race(s) so far", n);
}

static int tsan_start(const struct cgt_detect_config *cfg)
{
	long n = __atomic_load_n(&reports, __ATOMIC_RELAXED);

	(void)cfg;
	kept_forget();
	__atomic_store_n(&base, n, __ATOMIC_RELAXED);
	__atomic_store_n(&seen, n, __ATOMIC_RELAXED);
	return 0;
}

static void tsan_watch(const struct cgt_thread *v, int n, uint64_t now)
{
	(void)v;
	(void)n;
	(void)now;
	poll();
}

static void tsan_decision(long step)
{
	(void)step;
	poll();
}

#if defined(CGT_TSAN)
/*
 * The harness counts the reports and sets its own exit status (--expect fail must be able to
 * exit 0), so the runtime must not replace it; TSAN_OPTIONS may still say otherwise. With
 * exitcode=0 a fatal signal the runtime handled itself would end the process with status 0:
 * those signals are left to the crash detector (crash.c), which makes them a failure. So
 * would the runtime's own death (a CHECK of its own failing, a suppressions file it cannot
 * read): abort_on_error makes it abort instead, a crash like any other.
 */
const char *__tsan_default_options(void);
const char *__tsan_default_options(void)
{
	return "exitcode=0 abort_on_error=1 halt_on_error=0 second_deadlock_stack=1 handle_segv=0 "
	       "handle_sigbus=0 handle_abort=0 handle_sigill=0 handle_sigfpe=0 report_signal_unsafe=0";
}

/* tsan-suppressions, built in (see the Makefile), so the binary needs no TSAN_OPTIONS. */
extern const char cgt_tsan_suppressions[];
const char *__tsan_default_suppressions(void);
const char *__tsan_default_suppressions(void)
{
	return cgt_tsan_suppressions;
}

/* Weak in the TSan runtime; returning 0 lets the report through. */
int __tsan_on_report(void *report);
int __tsan_on_report(void *report)
{
	long n = __atomic_fetch_add(&reports, 1, __ATOMIC_RELAXED) -
		 __atomic_load_n(&base, __ATOMIC_RELAXED);

	if (n >= 0 && n < KEPT) {
		keep(&kept[n], report);
		__atomic_store_n(&kept[n].ready, 1, __ATOMIC_RELEASE);
	}
	return 0;
}
#endif

const struct cgt_detector_ops tsan_detector = {
	.id		= CGT_DET_TSAN,
	.start		= tsan_start,
	.watch		= tsan_watch,
	.decision	= tsan_decision,
	.stop		= poll,
	.kind		= cgt_kind_error_class,
};
