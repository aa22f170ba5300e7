/* SPDX-License-Identifier: GPL-2.0 */
/* One row of a kernel-check program's output: key, value, then a free-form note (kcheck, model_check). */
#ifndef CGT_KCHECK_ROW_H
#define CGT_KCHECK_ROW_H

#include <stdarg.h>
#include <stdio.h>

static void row(const char *key, const char *value, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void row(const char *key, const char *value, const char *fmt, ...)
{
	va_list ap;

	printf("%s\t%s\t", key, value);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);	/* kcheck's rows come from forked children too */
}

#endif
