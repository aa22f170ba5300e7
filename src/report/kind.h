/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kind of a failure in a report (kind.c): what must be the same for two failures to be
 * the same bug, whatever the numbers (detect.h's cgt_failure_kind).
 */
#ifndef CGT_KIND_H
#define CGT_KIND_H

#include <stddef.h>

/*
 * The kind of the first failure of @detector in the report @path (its "timeline"."kind" if
 * the timeline is that failure's): 0, or -1 if none.
 */
int cgt_report_failure_kind(const char *path, int detector, char *buf, size_t len);

#endif
