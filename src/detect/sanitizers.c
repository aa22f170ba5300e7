// SPDX-License-Identifier: GPL-2.0
/*
 * What the sanitizer runtimes found, told to the harness: TSan calls __tsan_on_report for
 * every report it is about to print (we only count: the runtime holds its own locks then);
 * ASan calls the error-report callback with the whole text before it aborts, so the run can
 * write its report first.
 */
#include "detect.h"
#include "../base/compiler.h"
#include "../core/failure.h"
#include "../core/thread.h"

static long sanitizer_reports;
static void (*fatal_hook)(void);

long cgt_sanitizer_reports(void)
{
	return __atomic_load_n(&sanitizer_reports, __ATOMIC_RELAXED);
}

void cgt_sanitizer_on_fatal(void (*fn)(void))
{
	fatal_hook = fn;
}

#if defined(CGT_TSAN)
const char *cgt_build_name(void)
{
	return "tsan";
}

int cgt_build_slowdown(void)
{
	return 8;
}

/*
 * The harness counts the reports and sets its own exit status (--expect fail must be able to
 * exit 0), so the runtime must not replace it; TSAN_OPTIONS may still say otherwise.
 */
const char *__tsan_default_options(void);
const char *__tsan_default_options(void)
{
	return "exitcode=0 halt_on_error=0 second_deadlock_stack=1";
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
	__atomic_fetch_add(&sanitizer_reports, 1, __ATOMIC_RELAXED);
	return 0;
}
#elif defined(CGT_ASAN)
#include <string.h>

#include <sanitizer/asan_interface.h>

const char *cgt_build_name(void)
{
	return "asan";
}

int cgt_build_slowdown(void)
{
	return 4;
}

static void asan_report(const char *text)
{
	const char *err = strstr(text, "ERROR: ");
	int len = 0;

	if (err) {
		err += strlen("ERROR: ");
		len = (int)strcspn(err, "\n");
	}
	__atomic_fetch_add(&sanitizer_reports, 1, __ATOMIC_RELAXED);
	cgt_fail(CGT_DET_ASAN, cgt_self ? cgt_self->id : 0, text, "%.*s", len,
		 err ? err : "AddressSanitizer report");
	if (fatal_hook)
		fatal_hook();
}

__attribute__((constructor)) static void asan_hook_install(void)
{
	__asan_set_error_report_callback(asan_report);
}
#else
const char *cgt_build_name(void)
{
	return "plain";
}

int cgt_build_slowdown(void)
{
	return 1;
}
#endif
