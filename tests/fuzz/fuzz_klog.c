// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the kernel-log reader and the registry (make fuzz): any bytes must
 * give records or -1 with a one-line reason, and every record must map or be refused,
 * never a crash, a leak, undefined behaviour or a string past its field.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/klog/kmap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct cgt_klog log;
	static struct cgt_kmap map;
	FILE *f = fmemopen((void *)data, size ? size : 1, "r");
	char err[256];

	if (!f)
		return 0;
	if (!size)
		fgetc(f);			/* fmemopen refuses a size of 0: read it empty */
	if (cgt_klog_read(f, &log, cgt_kmap_said, err, sizeof(err))) {
		if (!err[0] || strchr(err, '\n'))
			__builtin_trap();
		fclose(f);
		return 0;
	}
	fclose(f);
	for (int i = 0; i < log.nrecords; i++) {
		const struct cgt_klog_record *r = &log.rec[i];

		if (r->nframes > CGT_KLOG_FRAMES || r->nlocks > CGT_KLOG_LOCKS ||
		    strlen(r->title) >= sizeof(r->title))
			__builtin_trap();
		if (!cgt_kmap_record(&log, i, &map) && map.ncandidates < 1)
			__builtin_trap();	/* a mapped record always has a search */
	}
	return 0;
}
