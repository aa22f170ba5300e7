// SPDX-License-Identifier: GPL-2.0
/*
 * The figures of a comparison: the three contexts' names, each figure's key, heading and unit,
 * and a figure formatted in its unit. The tables, the files and the plots all read them.
 */
#include <math.h>
#include <stdio.h>

#include "compare.h"

const char *const cgt_cmp_ctx_names[CGT_CMP_NR_CTX] = {
	"bare", "harness", "limit", "loop", "reference"
};

const struct cgt_cmp_fig_info cgt_cmp_figs[CGT_CMP_NR_FIGS] = {
#define X(id, key, head, unit, high) [CGT_FIG_##id] = { key, head, unit, high },
	CGT_CMP_FIGURES(X)
#undef X
};

/* Three significant digits and a unit: 850ns, 12.3us, 4.56M; whole ns as they are (31ns). */
static void si(char *buf, size_t len, double v, const char *const *unit, int nunits, double step)
{
	int u = 0;

	while (u < nunits - 1 && fabs(v) >= step - 0.5)
		v /= step, u++;
	snprintf(buf, len, "%.*f%s", !u && v == floor(v) ? 0 : fabs(v) >= 99.95 ? 0 :
		 fabs(v) >= 9.995 ? 1 : 2, v, unit[u]);
}

void cgt_cmp_format(char *buf, size_t len, enum cgt_cmp_unit unit, double v)
{
	static const char *const ns[] = { "ns", "us", "ms", "s" };
	static const char *const count[] = { "", "k", "M", "G" };

	if (isnan(v))
		snprintf(buf, len, "-");
	else if (unit == CGT_UNIT_NS)
		si(buf, len, v, ns, 4, 1000);
	else if (unit == CGT_UNIT_S)
		snprintf(buf, len, "%.2f", v);
	else
		si(buf, len, v, count, 4, 1000);
}
