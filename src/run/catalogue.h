/* SPDX-License-Identifier: GPL-2.0 */
/* The listings of the catalogue of known bugs (src/model/bugs.h) and of the lock variants. */
#ifndef CGT_RUN_CATALOGUE_H
#define CGT_RUN_CATALOGUE_H

#include <stdbool.h>
#include <stdio.h>

#include "../model/model.h"

void cgt_bugs_print(FILE *f, bool tsv);
void cgt_locks_print(FILE *f);

#endif
