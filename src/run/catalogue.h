/* SPDX-License-Identifier: GPL-2.0 */
/* The listings of the catalogue of known bugs, of the lock variants and of the kernel eras. */
#ifndef CGT_RUN_CATALOGUE_H
#define CGT_RUN_CATALOGUE_H

#include <stdbool.h>
#include <stdio.h>

#include "../model/model.h"

void cgt_bugs_print(FILE *f, bool tsv);
void cgt_locks_print(FILE *f);
void cgt_eras_print(FILE *f, bool table);

#endif
