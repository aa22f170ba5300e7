// SPDX-License-Identifier: GPL-2.0
/*
 * report.html's timeline (report/timeline.c) from a small trace.json: a lane per involved
 * thread and one for the rest with their count, the window's marker kept inside the span
 * (a window from 0, a whole life in the ring, is drawn at the span's start and said so),
 * whole decisions, and a legend key for each kind of mark drawn.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/report/timeline.h"

static int count(const char *s, const char *what)
{
	int n = 0;

	for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
		n++;
	return n;
}

/* threads 6 and 19 involved, 33 and 31 not; the window from @window */
static char *draw(const char *unit, double window, const char *involved)
{
	json_error_t err;
	char trace[2048], *html = NULL;
	size_t len = 0;
	json_t *t, *inv = json_loads(involved, 0, &err);
	FILE *m = open_memstream(&html, &len);

	snprintf(trace, sizeof(trace), "{\"traceEvents\": ["
		"{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 0, \"args\": {\"name\": \"run\"}},"
		"{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 6, \"args\": {\"name\": \"walker (T4) - involved\"}},"
		"{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 19, \"args\": {\"name\": \"actor tid 13 (T17) - involved\"}},"
		"{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 33, \"args\": {\"name\": \"actor tid 27 (T31)\"}},"
		"{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 31, \"args\": {\"name\": \"actor tid 25 (T29)\"}},"
		"{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 6, \"tid\": 1, \"args\": {\"name\": \"operations\"}},"
		"{\"name\": \"observe\", \"cat\": \"operation\", \"ph\": \"X\", \"ts\": 2639, \"dur\": 1416, \"pid\": 6, \"tid\": 1},"
		"{\"name\": \"hold css_set_lock (read)\", \"cat\": \"lock\", \"ph\": \"X\", \"ts\": 3000, \"dur\": 12, \"pid\": 19, \"tid\": 3},"
		"{\"name\": \"exit\", \"cat\": \"operation\", \"ph\": \"X\", \"ts\": 100, \"dur\": 3000, \"pid\": 33, \"tid\": 1},"
		"{\"name\": \"livelock: a walk\", \"cat\": \"detector\", \"ph\": \"i\", \"s\": \"p\", \"ts\": 4054, \"pid\": 6, \"tid\": 1,"
		" \"args\": {\"detector\": \"livelock\", \"failure_of_interest\": true}}],"
		"\"otherData\": {\"time_unit\": \"%s\", \"window_from\": %g}}", unit, window);
	t = json_loads(trace, 0, &err);
	cr_assert_not_null(t, "%s", err.text);
	cr_assert_not_null(m);
	cgt_timeline_write(m, t, inv);
	fclose(m);
	json_decref(t);
	json_decref(inv);
	return html;
}

Test(timeline, the_uninvolved_fold_into_one_lane_with_their_count)
{
	char *h = draw("decisions", 2900, "[6, 19]");

	cr_assert_eq(count(h, "<g class='lane'"), 3, "%s", h);
	cr_assert_eq(count(h, "data-other='2'"), 1);
	cr_assert_not_null(strstr(h, ">other threads (2)<"));
	cr_assert_null(strstr(h, "data-thread='33'"));
	cr_assert_null(strstr(h, " - involved"), "every lane is involved: the mark says nothing");
	cr_assert_not_null(strstr(h, "<g class='window' data-ts='2900'>"));
	cr_assert_not_null(strstr(h, "complete from 2900 decisions (dashed line)"));
	free(h);
}

Test(timeline, a_window_before_the_span_is_drawn_at_its_start)
{
	char *h = draw("decisions", 0, "[6, 19]");
	const char *from = strstr(h, "<g id='axis' data-from='");
	double t0;

	cr_assert_not_null(from);
	t0 = strtod(from + strlen("<g id='axis' data-from='"), NULL);
	/* the span is the involved threads': the other thread's exit from 100 is cut */
	cr_assert_geq(t0, 2600);
	cr_assert_leq(t0, 2639);
	cr_assert_not_null(strstr(h, "complete over the whole span"));
	cr_assert_null(strstr(h, "'mark shade'"), "nothing is before the window");
	{
		char want[64];

		snprintf(want, sizeof(want), "<g class='window' data-ts='%.17g'>", t0);
		cr_assert_not_null(strstr(h, want), "%s not in the page", want);
	}
	free(h);
}

Test(timeline, decisions_are_whole_and_every_mark_has_its_key)
{
	char *h = draw("decisions", 2900, "[6, 19]");
	static const char *const kinds[] = { "operation", "hold", "other", "report", "window",
					     "shade" };

	cr_assert_null(strstr(h, ".000"), "a decision with a fraction");
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		char mark[64], key[64];

		snprintf(mark, sizeof(mark), "'mark %s'", kinds[i]);
		snprintf(key, sizeof(key), "data-key='%s'", kinds[i]);
		cr_assert_not_null(strstr(h, mark), "no %s drawn", kinds[i]);
		cr_assert_not_null(strstr(h, key), "no key for %s", kinds[i]);
	}
	cr_assert_null(strstr(h, "data-key='flow'"), "a key for a mark not drawn");
	free(h);
}

Test(timeline, no_involved_list_draws_every_thread)
{
	char *h = draw("us", 0, "[]");

	cr_assert_eq(count(h, "<g class='lane'"), 4);
	cr_assert_null(strstr(h, "data-other"));
	cr_assert_not_null(strstr(h, "seconds since the run began"));
	free(h);
}
