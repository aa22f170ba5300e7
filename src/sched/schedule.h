/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A schedule: the sequence of choices a controlled run made, one thread number (T1, T2, ...
 * in the order the scheduler first met them) per decision. In a report it is a run-length
 * string, "3*12 5 3*4": T3 twelve times, then T5 once, then T3 four times.
 */
#ifndef CGT_SCHEDULE_H
#define CGT_SCHEDULE_H

#include <stddef.h>
#include <stdint.h>

#define CGT_SCHEDULE_MAX	(64L << 20)	/* decisions a schedule may hold */

struct cgt_schedule {
	int *choice;			/* choice[k]: the thread picked at decision k */
	long len, cap;
};

int cgt_schedule_push(struct cgt_schedule *s, int id);
void cgt_schedule_free(struct cgt_schedule *s);
/* The run-length string, malloc'd; NULL if out of memory. */
char *cgt_schedule_encode(const struct cgt_schedule *s);
/* Parse @text, at most @max decisions; 0, or -1 with a one-line reason in @err. */
int cgt_schedule_decode(const char *text, long max, struct cgt_schedule *s, char *err,
			size_t errlen);
/* How many times the running thread changed. */
long cgt_schedule_switches(const struct cgt_schedule *s);

#endif
