// SPDX-License-Identifier: GPL-2.0
/*
 * summary.txt, the report told for a person: the settings, the command that runs it again,
 * each failure with its evidence, the story, and the last events of each thread that
 * matters. The threads are read from the report's own "threads" array: the JSON writer
 * has already chosen and copied them, while the threads were still there.
 */
#include <stdio.h>

#include "summary.h"
#include "story.h"
#include "columns.h"
#include "../base/build.h"

char *cgt_summary_text(const struct cgt_run_config *cfg, const struct cgt_run_result *res,
		       const struct cgt_failure *f, int nf, json_t *threads)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	size_t i;
	json_t *t;

	if (!m)
		return NULL;
	fprintf(m, "cgtorture report %s: %s (%s build), seed %llu\n\n", res->run_id,
		res->pass ? "PASS" : "FAIL", cgt_build_name(), (unsigned long long)cfg->seed);
	fprintf(m, "%s\nto run it again: %s\n\n", cfg->banner ? cfg->banner : "",
		cfg->command ? cfg->command : "");
	for (int k = 0; k < nf; k++) {
		fprintf(m, "[%.3f s] %s: %s\n", (double)f[k].ns / 1e9,
			cgt_detector_names[f[k].detector], f[k].summary);
		if (f[k].evidence)
			fprintf(m, "%s\n", f[k].evidence);
	}
	if (res->failures > nf)
		fprintf(m, "... %ld failures in all; the first %d are above\n", res->failures, nf);
	if (cgt_story())
		fprintf(m, "How it came about (%s):\n%s\n",
			cfg->sched ? "decisions of the controlled run; T<n>: its thread n" :
			"ms into the run; thread <n>: the harness thread", cgt_story());
	if (cgt_columns())
		fprintf(m, "\nThread by thread (a row per event; *: a turn that began with a preemption):\n%s",
			cgt_columns());
	fprintf(m, "\nThe story: the last events of each thread that matters\n");
	json_array_foreach(threads, i, t) {
		json_t *ev;
		size_t k;

		fprintf(m, "\nthread %lld (%s, tid %lld, %s)\n",
			json_integer_value(json_object_get(t, "id")),
			json_string_value(json_object_get(t, "role")),
			json_integer_value(json_object_get(t, "tid")),
			json_string_value(json_object_get(t, "state")));
		json_array_foreach(json_object_get(t, "events"), k, ev) {
			json_t *tid = json_object_get(ev, "tid"), *obj = json_object_get(ev, "object");

			if (json_object_get(ev, "step"))
				fprintf(m, "  step %8lld  %-16s",
					json_integer_value(json_object_get(ev, "step")),
					json_string_value(json_object_get(ev, "point")));
			else
				fprintf(m, "  %10.3f ms  %-16s",
					json_real_value(json_object_get(ev, "t_ms")),
					json_string_value(json_object_get(ev, "point")));
			if (tid)
				fprintf(m, " tid %lld", json_integer_value(tid));
			if (obj)
				fprintf(m, " %s", json_string_value(obj));
			fputc('\n', m);
		}
	}
	fclose(m);
	return buf;
}
