// SPDX-License-Identifier: GPL-2.0
/*
 * What a child run found, as one JSON object on the pipe to its parent: every field a
 * caller reads, by name, the schedule in its run-length text as report.json holds it.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "child.h"

int cgt_child_result_write(int fd, const struct cgt_child_result *r)
{
	char *choices = cgt_schedule_encode(&r->schedule);
	json_t *o = NULL;
	int ret = -1;

	if (choices)
		o = json_pack("{s:i, s:b, s:i, s:I, s:s, s:s, s:I, s:I, s:I, s:I, s:I, s:s, s:s, s:s}",
			      "status", r->status, "pass", r->pass, "detector", r->detector,
			      "step", (json_int_t)r->step, "summary", r->summary, "kind", r->kind,
			      "preemptions", (json_int_t)r->preemptions, "ops", (json_int_t)r->ops,
			      "steps", (json_int_t)r->steps, "stop_step", (json_int_t)r->stop_step,
			      "diverged", (json_int_t)r->diverged, "why", r->why,
			      "report_dir", r->report_dir, "schedule", choices);
	if (o) {
		json_t *a = json_array();

		/* a run without its list (out of memory) says none: a search loses a hint only */
		for (long i = 0; r->preempted && i < r->preemptions; i++)
			json_array_append_new(a, json_integer(r->preempted[i]));
		json_object_set_new(o, "preempted", a);
		ret = json_dumpfd(o, fd, JSON_COMPACT);
	}
	json_decref(o);
	free(choices);
	return ret;
}

static int preempted_parse(json_t *a, struct cgt_child_result *r)
{
	size_t n = json_array_size(a);

	r->preempted = NULL;
	if (!n)
		return 0;
	r->preempted = calloc(n, sizeof(*r->preempted));
	if (!r->preempted)
		return -1;
	for (size_t i = 0; i < n; i++)
		r->preempted[i] = (long)json_integer_value(json_array_get(a, i));
	r->preemptions = (long)n;
	return 0;
}

int cgt_child_result_parse(const char *text, size_t len, struct cgt_child_result *r)
{
	json_t *o = json_loadb(text, len, 0, NULL);
	const char *summary, *kind, *why, *dir, *choices;
	json_int_t step, preemptions, ops, steps, stop_step, diverged;
	int status, pass, detector, ret = -1;
	char err[160];

	if (o && !json_unpack(o, "{s:i, s:b, s:i, s:I, s:s, s:s, s:I, s:I, s:I, s:I, s:I, s:s, s:s, s:s}",
			      "status", &status, "pass", &pass, "detector", &detector,
			      "step", &step, "summary", &summary, "kind", &kind,
			      "preemptions", &preemptions, "ops", &ops, "steps", &steps,
			      "stop_step", &stop_step, "diverged", &diverged, "why", &why,
			      "report_dir", &dir, "schedule", &choices) &&
	    !cgt_schedule_decode(choices, CGT_SCHEDULE_MAX, &r->schedule, err, sizeof(err))) {
		/* nothing is set from a half-read object */
		r->status = status;
		r->pass = pass;
		r->detector = detector;
		r->step = (long)step;
		r->steps = (long)steps;
		r->preemptions = (long)preemptions;
		r->ops = (long)ops;
		r->stop_step = (long)stop_step;
		r->diverged = (long)diverged;
		snprintf(r->summary, sizeof(r->summary), "%s", summary);
		snprintf(r->kind, sizeof(r->kind), "%s", kind);
		snprintf(r->why, sizeof(r->why), "%s", why);
		snprintf(r->report_dir, sizeof(r->report_dir), "%s", dir);
		r->ran = true;
		ret = preempted_parse(json_object_get(o, "preempted"), r);
	}
	json_decref(o);
	return ret;
}
