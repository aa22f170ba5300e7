/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace.json (trace.c): the capture's timeline in the Chrome Trace Event format, which
 * Perfetto UI, chrome://tracing and speedscope open.
 */
#ifndef CGT_TRACE_H
#define CGT_TRACE_H

#include <jansson.h>

#include "capture.h"

#define CGT_TRACE_MAX_THREADS	24	/* the involved threads first, then the latest busy */

/* The trace of @c, every failure of the run (@f, @nf) an instant in it; NULL if no memory. */
json_t *cgt_trace_json(const struct cgt_capture *c, const struct cgt_failure *f, int nf,
		       const char *run_id);
/* "us" or "decisions": the unit of the trace's timestamps */
const char *cgt_trace_unit(const struct cgt_capture *c);

/* @text as a JSON array of its lines (evidence, stories): one string per line. */
json_t *cgt_json_lines(const char *text);

#endif
