// SPDX-License-Identifier: GPL-2.0
/*
 * asan: memory errors (use-after-free above all), as AddressSanitizer reports them. ASan
 * calls the error-report callback with the whole text just before it aborts: the failure is
 * recorded then, with that text as its evidence, and the run is told to write what it has
 * and leave (its on_abort), so an ASan failure has a report like any other.
 */
#include "detect.h"

static void (*on_abort)(void);

static int asan_start(const struct cgt_detect_config *cfg)
{
	on_abort = cfg->on_abort;
	return 0;
}

#if defined(CGT_ASAN)
#include <string.h>

#include <sanitizer/asan_interface.h>

static void asan_report(const char *text)
{
	const char *err = strstr(text, "ERROR: ");
	int len = 0;

	if (err) {
		err += strlen("ERROR: ");
		len = (int)strcspn(err, "\n");
	}
	cgt_fail(CGT_DET_ASAN, cgt_self ? cgt_self->id : 0, text, "%.*s", len,
		 err ? err : "AddressSanitizer report");
	if (on_abort)
		on_abort();
}

__attribute__((constructor)) static void asan_hook_install(void)
{
	__asan_set_error_report_callback(asan_report);
}
#endif

const struct cgt_detector_ops asan_detector = {
	.id	= CGT_DET_ASAN,
	.start	= asan_start,
	.kind	= cgt_kind_error_class,
};
