// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the report.json reader (make fuzz): any bytes at all must give 0 or
 * -1 with a reason, never a crash, a leak or undefined behaviour. A report that is accepted
 * has its command split too, as the replay of it would.
 */
#include <stdint.h>
#include <string.h>

#include "../../src/report/report_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cgt_report_in r;
	char err[256], **argv;
	int argc;

	if (cgt_report_parse((const char *)data, size, &r, err, sizeof(err))) {
		/* a refusal always says why, on one line */
		if (!err[0] || strchr(err, '\n'))
			__builtin_trap();
		return 0;
	}
	if (!cgt_command_argv(r.command, &argc, &argv, err, sizeof(err)))
		cgt_argv_free(argc, argv);
	else
		__builtin_trap();	/* cgt_report_parse accepted only a command that splits */
	cgt_report_in_free(&r);
	return 0;
}
