/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kind of a failure (kind.c): what must be the same for two failures to be the same
 * bug, whatever the numbers: a livelock's start thread fate, a hang's lock cycle (or the
 * lock waited for), an invariant's broken rule, a sanitizer's error class.
 */
#ifndef CGT_KIND_H
#define CGT_KIND_H

#include <stdbool.h>
#include <stddef.h>

/* The kind of a failure of @detector with @summary and @evidence, into @buf. */
void cgt_failure_kind(int detector, const char *summary, const char *evidence, char *buf,
		      size_t len);
struct cgt_thread;
/* "cycle: css_set_lock, rcu": the lock classes on a wait-for cycle of @n threads, if any. */
bool cgt_threads_cycle(const struct cgt_thread *v, int n, char *buf, size_t len);
/*
 * The kind of the first failure of @detector in the report @path (its "timeline"."kind" if
 * the timeline is that failure's): 0, or -1 if none.
 */
int cgt_report_failure_kind(const char *path, int detector, char *buf, size_t len);

#endif
