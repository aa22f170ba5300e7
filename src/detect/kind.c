// SPDX-License-Identifier: GPL-2.0
/*
 * What the kinds of failures are made of (detect.h): what a detector wrote with the numbers
 * (tids, thread numbers, steps, seconds, addresses) left out. Each detector's own reading of
 * its words is its ops' kind; registry.c asks the right one.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "detect.h"

/*
 * @s with every run of digits (and a 0x address) as "N", and every cgroup ("cpu:/g2") as
 * "CGROUP": which one a migration chose is the run's, not the bug's; at most @len bytes.
 */
void cgt_kind_numbers_out(const char *s, char *buf, size_t len)
{
	size_t o = 0;

	while (*s && o + 2 < len) {
		size_t word = strcspn(s, " ,;()");
		const char *cg = strstr(s, ":/");

		if ((o == 0 || buf[o - 1] == ' ') && cg && cg < s + word && o + 7 < len) {
			memcpy(buf + o, "CGROUP", 6);
			o += 6;
			s += word;
			continue;
		}
		if (isdigit((unsigned char)*s)) {
			if (s[0] == '0' && s[1] == 'x')
				s += 2;
			while (isxdigit((unsigned char)*s) || *s == '.')
				s++;
			buf[o++] = 'N';
			continue;
		}
		buf[o++] = *s++;
	}
	buf[o] = '\0';
}

/* A sanitizer's failure: its error class ("heap-use-after-free", "ThreadSanitizer"). */
void cgt_kind_error_class(const char *summary, const char *evidence, char *buf, size_t len)
{
	char norm[256];

	(void)evidence;
	cgt_kind_numbers_out(summary, norm, sizeof(norm));
	snprintf(buf, len, "%.*s", (int)strcspn(norm, " "), norm);
}
