// SPDX-License-Identifier: GPL-2.0
/* Schedules as arrays of choices, and their run-length text form. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedule.h"

int cgt_schedule_push(struct cgt_schedule *s, int id)
{
	if (s->len == s->cap) {
		long cap = s->cap ? s->cap * 2 : 4096;
		int *c;

		if (cap > CGT_SCHEDULE_MAX)
			return -E2BIG;
		c = realloc(s->choice, (size_t)cap * sizeof(*c));
		if (!c)
			return -ENOMEM;
		s->choice = c;
		s->cap = cap;
	}
	s->choice[s->len++] = id;
	return 0;
}

void cgt_schedule_free(struct cgt_schedule *s)
{
	free(s->choice);
	memset(s, 0, sizeof(*s));
}

long cgt_schedule_switches(const struct cgt_schedule *s)
{
	long n = 0;

	for (long k = 1; k < s->len; k++)
		n += s->choice[k] != s->choice[k - 1];
	return n;
}

char *cgt_schedule_encode(const struct cgt_schedule *s)
{
	size_t cap = 64, off = 0;
	char *buf = malloc(cap);

	if (!buf)
		return NULL;
	buf[0] = '\0';
	for (long k = 0; k < s->len; ) {
		long run = 1;

		while (k + run < s->len && s->choice[k + run] == s->choice[k])
			run++;
		if (cap - off < 48) {
			char *b = realloc(buf, cap * 2);

			if (!b) {
				free(buf);
				return NULL;
			}
			buf = b;
			cap *= 2;
		}
		off += (size_t)snprintf(buf + off, cap - off, run > 1 ? "%s%d*%ld" : "%s%d",
					off ? " " : "", s->choice[k], run);
		k += run;
	}
	return buf;
}

/* A positive decimal number no larger than @max; advances *@p past it. */
static long parse_count(const char **p, long max)
{
	long v = 0;

	if (**p < '0' || **p > '9')
		return -1;
	while (**p >= '0' && **p <= '9') {
		v = v * 10 + (**p - '0');
		if (v > max)
			return -1;
		(*p)++;
	}
	return v;
}

int cgt_schedule_decode(const char *text, long max, struct cgt_schedule *s, char *err,
			size_t errlen)
{
	const char *p = text;
	long token = 0;

	memset(s, 0, sizeof(*s));
	while (*p) {
		long id, run = 1;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		token++;
		id = parse_count(&p, 1000000);
		if (id < 1)
			goto bad;
		if (*p == '*') {
			p++;
			run = parse_count(&p, CGT_SCHEDULE_MAX);
			if (run < 1)
				goto bad;
		}
		if (*p && *p != ' ')
			goto bad;
		/* checked before the run is spelled out: "1*67108864" costs nothing */
		if (s->len + run > max || s->len + run > CGT_SCHEDULE_MAX) {
			snprintf(err, errlen, "schedule longer than %ld decisions",
				 max < CGT_SCHEDULE_MAX ? max : CGT_SCHEDULE_MAX);
			goto fail;
		}
		while (run--)
			if (cgt_schedule_push(s, (int)id)) {
				snprintf(err, errlen, "out of memory reading the schedule");
				goto fail;
			}
	}
	return 0;
bad:
	snprintf(err, errlen, "schedule: token %ld is not THREAD or THREAD*COUNT", token);
fail:
	cgt_schedule_free(s);
	return -1;
}
