/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exit statuses of cgtorture, one set for every command and every run (README.md's
 * table): what was found first, then what stopped the work. Work cut short by a signal
 * exits 128 + the signal, says how far it got ("interrupted after 4 of 200 schedules"),
 * and keeps what it did; a failure it had found by then is still a failure found (1).
 */
#ifndef CGT_EXIT_STATUS_H
#define CGT_EXIT_STATUS_H

#define CGT_EXIT_PASS	0	/* as expected: a pass, a failure reproduced or replayed */
#define CGT_EXIT_FAIL	1	/* a failure nobody expected */
#define CGT_EXIT_USAGE	2	/* bad usage: options, unreadable input, a report that does not fit */
#define CGT_EXIT_MISSED	3	/* an expected failure was not found */
#define CGT_EXIT_TOOL	4	/* the tool could not do its work: cannot write, cannot fork,
				 * a replay whose recording no longer fits its command */
#define CGT_EXIT_SIGNAL	128	/* + the signal that interrupted the work */

#endif
