/* SPDX-License-Identifier: GPL-2.0 */
/* The catalogue of known bugs (catalogue.c), and the listings of bugs and lock variants. */
#ifndef CGT_RUN_CATALOGUE_H
#define CGT_RUN_CATALOGUE_H

#include <stdbool.h>
#include <stdio.h>

#include "../model/model.h"

struct cgt_bug_info {
	const char *name;
	const char *history;		/* the kernel's story */
	enum cgt_detector detector;	/* what must catch it */
	const char *build;		/* plain, tsan or asan */
	const char *twin;		/* what the fixed twin does instead */
	const char *options;		/* options that make it show quickly */
	const char *explore;		/* options that let cgtorture explore find it */
};
extern const struct cgt_bug_info cgt_bug_catalogue[CGT_NR_BUGS];
void cgt_bugs_print(FILE *f, bool tsv);
void cgt_locks_print(FILE *f);

#endif
