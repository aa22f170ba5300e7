// SPDX-License-Identifier: GPL-2.0
/* The listings of the catalogue of known bugs (src/model/bugs.h) and of the lock variants. */
#include <stdio.h>

#include "catalogue.h"

/*
 * Human-readable, or one tab-separated line per bug for scripts: name, detector, build,
 * options of a free-running run, options of cgtorture explore.
 */
void cgt_bugs_print(FILE *f, bool tsv)
{
	for (int i = 0; i < CGT_NR_BUGS; i++) {
		const struct cgt_bug_info *b = &cgt_bug_catalogue[i];

		if (tsv) {
			fprintf(f, "%s\t%s\t%s\t%s\t%s\n", b->name, cgt_detector_names[b->detector],
				b->build, b->options, b->explore);
			continue;
		}
		fprintf(f, "%s\n  caught by: %s (%s build)\n  kernel:    %s\n  twin:      %s\n"
			"  eras:      %s\n"
			"  try:       cgtorture run --bug %s%s%s --stop-on %s --expect fail\n"
			"  explore:   cgtorture explore --bug %s %s\n\n",
			b->name, cgt_detector_names[b->detector], b->build, b->history, b->twin,
			b->eras ? b->eras : "any", b->name, b->options[0] ? " " : "", b->options,
			cgt_detector_names[b->detector], b->name, b->explore);
	}
}

void cgt_locks_print(FILE *f)
{
	for (size_t i = 0; i < cgt_nr_lock_variants; i++) {
		const struct cgt_lock_ops *ops = cgt_lock_variants[i];

		/* the variants a stress run can take; cgtorture compare --help lists them all */
		if (ops->rcu_readers)
			continue;
		fprintf(f, "%-14s %-9s %-9s %s%s%s\n", ops->name,
			ops->sleeps ? "sleeping" : "spinning", ops->shared ? "shared" : "exclusive",
			ops->desc, ops->bug ? "; known bug: " : "", ops->bug ? ops->bug : "");
	}
}
