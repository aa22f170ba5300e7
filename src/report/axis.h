/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The timeline's time axis (axis.c): ticks at round steps (1, 2 or 5 times a power of ten)
 * over the span drawn, and their labels: whole decisions in a controlled run (a decision has
 * no fraction), seconds in a free-running one (whose trace counts microseconds).
 */
#ifndef CGT_AXIS_H
#define CGT_AXIS_H

#include <stdbool.h>
#include <stddef.h>

#define CGT_AXIS_MAX_TICKS	16

struct cgt_axis {
	double from, to;		/* the span drawn, in the trace's unit */
	bool decisions;
	double step;
	double ticks[CGT_AXIS_MAX_TICKS];
	int nticks;
	int decimals;			/* of a label in seconds */
};

/* The ticks over @from..@to, about @most of them (at least 2, at most CGT_AXIS_MAX_TICKS). */
void cgt_axis_make(struct cgt_axis *a, double from, double to, bool decisions, int most);
/* @v (in the trace's unit) as the axis writes it: "4054", or "0.925" seconds with @more decimals */
void cgt_axis_label(const struct cgt_axis *a, double v, int more, char *buf, size_t len);
/* "decision" or "seconds since the run began": what the labels count */
const char *cgt_axis_unit(const struct cgt_axis *a);

#endif
