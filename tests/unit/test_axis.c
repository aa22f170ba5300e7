// SPDX-License-Identifier: GPL-2.0
/*
 * The timeline's time axis (report/axis.c): round steps, at least two ticks inside the span,
 * whole decisions in a controlled run and seconds with the decimals the step needs in a
 * free-running one. The spans are those of real reports (walk-from-exiting, explore --sched
 * pct seed 1, and a free-running run of it).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "../../src/report/axis.h"

static void inside(const struct cgt_axis *a)
{
	cr_assert_geq(a->nticks, 2, "%d ticks", a->nticks);
	for (int i = 0; i < a->nticks; i++) {
		cr_assert_geq(a->ticks[i], a->from, "tick %g before %g", a->ticks[i], a->from);
		cr_assert_leq(a->ticks[i], a->to, "tick %g after %g", a->ticks[i], a->to);
	}
}

Test(axis, decisions_are_whole)
{
	struct cgt_axis a;
	char buf[32];

	cgt_axis_make(&a, 2639, 4055, true, 8);
	inside(&a);
	cr_assert_eq(a.step, 200);
	cr_assert_eq(a.ticks[0], 2800);
	for (int i = 0; i < a.nticks; i++) {
		cgt_axis_label(&a, a.ticks[i], 0, buf, sizeof(buf));
		cr_assert_null(strchr(buf, '.'), "label %s", buf);
	}
	cgt_axis_label(&a, 4054, 1, buf, sizeof(buf));
	cr_assert_str_eq(buf, "4054");
}

Test(axis, a_short_controlled_span_steps_by_one_decision)
{
	struct cgt_axis a;

	cgt_axis_make(&a, 10, 13, true, 8);
	inside(&a);
	cr_assert_eq(a.step, 1);
	cr_assert_eq(a.nticks, 4);
}

Test(axis, a_span_within_one_decision_still_has_two_ticks)
{
	struct cgt_axis a;

	cgt_axis_make(&a, 5.2, 5.8, true, 8);
	inside(&a);
	cr_assert_eq(a.ticks[0], 6);
	cr_assert_eq(a.ticks[1], 7);
}

Test(axis, free_running_in_seconds)
{
	struct cgt_axis a;
	char buf[32];

	/* microseconds: 0.9196 s to 0.9529 s */
	cgt_axis_make(&a, 919620.659, 952874.249, false, 8);
	inside(&a);
	cr_assert_float_eq(a.step, 5000, 1e-6);
	cr_assert_eq(a.decimals, 3);
	cgt_axis_label(&a, a.ticks[0], 0, buf, sizeof(buf));
	cr_assert_str_eq(buf, "0.920");
	cgt_axis_label(&a, 919620.659, 1, buf, sizeof(buf));
	cr_assert_str_eq(buf, "0.9196");
	cgt_axis_make(&a, 0, 3e6, false, 8);
	inside(&a);
	cr_assert_eq(a.decimals, 1);
	cgt_axis_label(&a, a.ticks[1], 0, buf, sizeof(buf));
	cr_assert_str_eq(buf, "0.5");
}

Test(axis, never_more_ticks_than_asked_and_room)
{
	struct cgt_axis a;

	for (double span = 1; span < 1e7; span *= 1.7) {
		cgt_axis_make(&a, 123.4, 123.4 + span, false, 8);
		inside(&a);
		cr_assert_leq(a.nticks, 9, "%d ticks over %g", a.nticks, span);
	}
}
