// SPDX-License-Identifier: GPL-2.0
/*
 * The time axis of report.html's timeline (axis.h). A step of 1, 2 or 5 times a power of ten
 * is the one a person counts in; it is the smallest such step that gives at most @most ticks,
 * so the span always holds at least two of them. A decision is a whole number, so a
 * controlled run's step is never below 1.
 */
#include <math.h>
#include <stdio.h>

#include "axis.h"

void cgt_axis_make(struct cgt_axis *a, double from, double to, bool decisions, int most)
{
	static const double mult[] = { 1, 2, 5, 10 };
	double raw, mag, first;

	if (most < 2)
		most = 2;
	if (most > CGT_AXIS_MAX_TICKS - 1)
		most = CGT_AXIS_MAX_TICKS - 1;
	if (!(to > from))
		to = from + (decisions ? 1 : 1e-3);
	a->from = from;
	a->to = to;
	a->decisions = decisions;
	raw = (to - from) / most;
	mag = pow(10, floor(log10(raw)));
	a->step = 10 * mag;
	for (size_t i = 0; i < sizeof(mult) / sizeof(mult[0]); i++) {
		if (mult[i] * mag >= raw) {
			a->step = mult[i] * mag;
			break;
		}
	}
	if (decisions && a->step < 1)
		a->step = 1;
	/* each tick from its index, not by adding steps: no error piles up */
	first = ceil(from / a->step - 1e-9);
	a->nticks = 0;
	while (a->nticks < CGT_AXIS_MAX_TICKS &&
	       (first + a->nticks) * a->step <= to + a->step * 1e-9) {
		a->ticks[a->nticks] = (first + a->nticks) * a->step;
		a->nticks++;
	}
	/* a span shorter than a step (a single decision): end it on the next tick */
	while (a->nticks < 2) {
		a->ticks[a->nticks] = (first + a->nticks) * a->step;
		a->to = a->ticks[a->nticks++];
	}
	a->decimals = 0;
	if (!decisions)
		for (double s = a->step / 1e6; s < 1 - 1e-9 && a->decimals < 9; s *= 10)
			a->decimals++;
}

void cgt_axis_label(const struct cgt_axis *a, double v, int more, char *buf, size_t len)
{
	if (a->decisions)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.*f", a->decimals + more, v / 1e6);
}

const char *cgt_axis_unit(const struct cgt_axis *a)
{
	return a->decisions ? "decision" : "seconds since the run began";
}
