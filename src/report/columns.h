/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A short controlled counterexample, thread by thread (columns.c): told with the story, at
 * the failure, from the same capture.
 */
#ifndef CGT_COLUMNS_H
#define CGT_COLUMNS_H

#include "capture.h"

void cgt_columns_tell(const struct cgt_capture *c);
const char *cgt_columns(void);		/* a row per turn, or NULL when too long to read */
void cgt_columns_reset(void);

#endif
