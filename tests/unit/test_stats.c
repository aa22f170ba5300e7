// SPDX-License-Identifier: GPL-2.0
/*
 * The stats line (src/run/stats.c): "!!!" flags failures, never the era's known behaviour,
 * which is counted beside them; the peak it shows is never below the live count.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/run/stats.h"

/* The stats line of @s with @failures and @known, into a string the caller frees. */
static char *stats_line(const struct cgt_stats *s, long failures, long known)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert_not_null(f);
	cgt_print_stats(f, s, 1.0, failures, known, NULL);
	fclose(f);
	return buf;
}

Test(stats, known_behaviour_is_not_flagged)
{
	struct cgt_stats s = { .live = 3, .peak = 5 };
	char *line = stats_line(&s, 0, 33);

	cr_assert(strstr(line, "failures 0 known 33"), "%s", line);
	cr_assert_null(strstr(line, "!!!"), "%s", line);
	free(line);
	line = stats_line(&s, 2, 33);
	cr_assert(strstr(line, "failures 2 known 33"), "%s", line);
	cr_assert(strstr(line, "!!!"), "%s", line);
	free(line);
	line = stats_line(&s, 0, 0);
	cr_assert_null(strstr(line, "known"), "%s", line);
	free(line);
}

/* A fork counts itself live before it raises the peak: a snapshot between the two. */
Test(stats, peak_is_never_below_live)
{
	struct cgt_stats running = { .live = 1403, .peak = 1358 }, s;

	cgt_stats_snapshot(&running, &s);
	cr_assert_eq(s.live, 1403);
	cr_assert_eq(s.peak, 1403);
}
