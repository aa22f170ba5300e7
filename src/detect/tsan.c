// SPDX-License-Identifier: GPL-2.0
/*
 * tsan: data races, as ThreadSanitizer reports them. The runtime calls __tsan_on_report for
 * every report it is about to print; we only count there (the runtime holds its own locks),
 * and the count is read in one place, poll(): by the watchdog in a free-running run, at every
 * decision in a controlled one (so the failure lands at the same decision every time), and
 * once more at the end. The reports themselves are on stderr.
 */
#include "detect.h"

static long reports;		/* made by the runtime */
static long seen;		/* of which turned into failures */

/* The watchdog and a run's last look (a crash, the deadline) may poll at once: one says it. */
static void poll(void)
{
	long n = __atomic_load_n(&reports, __ATOMIC_RELAXED);
	long prev = __atomic_load_n(&seen, __ATOMIC_RELAXED);

	while (n > prev && !__atomic_compare_exchange_n(&seen, &prev, n, false, __ATOMIC_RELAXED,
							 __ATOMIC_RELAXED))
		;
	if (n > prev)
		cgt_fail(CGT_DET_TSAN, cgt_self ? cgt_self->id : 0,
			 "the ThreadSanitizer reports are on stderr\n",
			 "ThreadSanitizer reported %ld data race(s) so far", n);
}

static int tsan_start(const struct cgt_detect_config *cfg)
{
	(void)cfg;
	__atomic_store_n(&seen, __atomic_load_n(&reports, __ATOMIC_RELAXED), __ATOMIC_RELAXED);
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
int __tsan_on_report(const void *report);
int __tsan_on_report(const void *report)
{
	(void)report;
	__atomic_fetch_add(&reports, 1, __ATOMIC_RELAXED);
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
