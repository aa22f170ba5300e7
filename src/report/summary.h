/* SPDX-License-Identifier: GPL-2.0 */
/* summary.txt (summary.c): a report's text for a person. */
#ifndef CGT_SUMMARY_H
#define CGT_SUMMARY_H

#include <jansson.h>

#include "report.h"

/* The text of summary.txt, malloc'd; @threads: the report's "threads" array. NULL if no memory. */
char *cgt_summary_text(const struct cgt_run_config *cfg, const struct cgt_run_result *res,
		       const struct cgt_failure *f, int nf, json_t *threads);

#endif
