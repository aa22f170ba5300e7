/* SPDX-License-Identifier: GPL-2.0 */
/* The exit statuses of cgtorture, one set for every command and every run. */
#ifndef CGT_EXIT_STATUS_H
#define CGT_EXIT_STATUS_H

#define CGT_EXIT_PASS	0	/* as expected */
#define CGT_EXIT_FAIL	1	/* a failure nobody expected */
#define CGT_EXIT_USAGE	2	/* bad usage: options, a report that does not fit */
#define CGT_EXIT_MISSED	3	/* an expected failure was not found */

#endif
