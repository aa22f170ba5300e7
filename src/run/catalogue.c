// SPDX-License-Identifier: GPL-2.0
/*
 * The listings of the catalogue of known bugs (src/model/bugs.h), of the lock variants and of
 * the kernel eras (src/model/era.c).
 */
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

/*
 * One line per era (its name, what it sets), or with @table the eras' behaviours as the
 * markdown table docs/model.md carries: behaviour by behaviour, what the model does in each
 * era and the kernel function, tree and commit it follows.
 */
void cgt_eras_print(FILE *f, bool table)
{
	char buf[128];

	if (!table) {
		for (size_t i = 0; i < cgt_nr_kernel_eras; i++)
			fprintf(f, "%s\t%s\n", cgt_kernel_eras[i].name, cgt_kernel_eras[i].desc);
		return;
	}
	fprintf(f, "| behaviour | era | the model | the kernel |\n|---|---|---|---|\n");
	for (int b = 0; b < CGT_NR_ERA_BEHAVIOURS; b++)
		for (size_t i = 0; i < cgt_nr_kernel_eras; i++) {
			const struct cgt_kernel_era *e = &cgt_kernel_eras[i];

			fprintf(f, "| %s | %s | %s | %s |\n", cgt_era_behaviour_names[b], e->name,
				cgt_era_value(e, (enum cgt_era_behaviour)b, buf, sizeof(buf)),
				e->kernel[b]);
		}
}
