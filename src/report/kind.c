// SPDX-License-Identifier: GPL-2.0
/*
 * The kind of a failure in a report (detect/kind.c tells a failure's kind): the one its
 * capture took from the threads, or else its detector's reading of the summary and evidence.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kind.h"
#include "report_read.h"
#include "../detect/detect.h"

int cgt_report_failure_kind(const char *path, int detector, char *buf, size_t len)
{
	struct cgt_report_in in;
	char err[256];
	json_t *r, *f;
	int ret = -1;
	size_t i;

	/* the kind the capture took as the failure was seen, from the threads themselves */
	if (!cgt_report_read(path, &in, err, sizeof(err))) {
		bool taken = in.timeline_detector == detector && in.kind[0];

		if (taken)
			snprintf(buf, len, "%s", in.kind);
		cgt_report_in_free(&in);
		if (taken)
			return 0;
	}
	r = json_load_file(path, 0, NULL);

	json_array_foreach(json_object_get(r, "failures"), i, f) {
		json_t *ev = json_object_get(f, "evidence"), *line;
		char *evidence = NULL;
		size_t elen = 0, k;
		FILE *m;

		if (strcmp(json_string_value(json_object_get(f, "detector")) ?: "",
			   cgt_detector_names[detector]))
			continue;
		m = open_memstream(&evidence, &elen);
		if (!m)
			break;
		json_array_foreach(ev, k, line)
			fprintf(m, "%s\n", json_string_value(line) ?: "");
		fclose(m);
		cgt_failure_kind(detector, json_string_value(json_object_get(f, "summary")),
				 evidence, buf, len);
		free(evidence);
		ret = 0;
		break;
	}
	json_decref(r);
	return ret;
}
