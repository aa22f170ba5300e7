// SPDX-License-Identifier: GPL-2.0
/*
 * When a cell's ratios mean little (docs/compare.md, "When a ratio means little"). The
 * ratios are CPU time per acquisition of one context over another's, paired within each
 * repeat; the repeats are the only measure of their noise. So a ratio is not to be read when
 * there is nothing to judge it by (one repeat: a lock holder kept off the CPU once can make
 * x73 of x1.5, and nothing shows it), when its repeats disagree by more than half its median,
 * or when each measurement was too short to hold more than a few of the scheduler's periods
 * (a preemption or two of a lock holder then decides it).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "compare.h"

/* (max - min) / median, or NaN */
static double spread(const struct cgt_cmp_stat *s)
{
	return s->median > 0 ? (s->max - s->min) / s->median : NAN;
}

/* @fmt appended to @why, cut short rather than past @len */
static void say(char *why, size_t len, const char *fmt, ...)
{
	size_t at = strlen(why);
	va_list ap;

	if (at)
		at += (size_t)snprintf(why + at, len - at, "; ");
	if (at >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(why + at, len - at, fmt, ap);
	va_end(ap);
}

bool cgt_cmp_config_noisy(const struct cgt_compare_config *cfg, char *why, size_t len)
{
	why[0] = '\0';
	if (cfg->repeat < 2)
		say(why, len, "one repeat, no spread to judge them by");
	if (cfg->duration < CGT_CMP_MIN_SECONDS)
		say(why, len, "measurements of %g s, under %g s", cfg->duration, CGT_CMP_MIN_SECONDS);
	return why[0];
}

bool cgt_cmp_cell_noisy(const struct cgt_cmp_cell *c, char *why, size_t len)
{
	const struct {
		const char *name;
		const struct cgt_cmp_stat *s;
	} ratios[] = {
		{ "bare/lim", &c->vs_limit },
		{ "harn/bare", &c->overhead },
		{ "lim/ref", &c->vs_reference },
	};

	why[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(ratios) && c->repeats > 1; i++)
		if (spread(ratios[i].s) > CGT_CMP_MAX_SPREAD)
			say(why, len, "%s x%.2f to x%.2f over %d repeats", ratios[i].name,
			    ratios[i].s->min, ratios[i].s->max, c->repeats);
	return why[0];
}

bool cgt_cmp_noise(const struct cgt_compare_config *cfg, const struct cgt_cmp_cell *c,
		   char *why, size_t len)
{
	char own[256];

	cgt_cmp_config_noisy(cfg, why, len);
	if (cgt_cmp_cell_noisy(c, own, sizeof(own)))
		say(why, len, "%s", own);
	return why[0];
}
