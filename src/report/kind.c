// SPDX-License-Identifier: GPL-2.0
/*
 * The kind of a failure, for reproduce to know that a controlled schedule found the same
 * thing as a free-running report: the numbers (tids, thread numbers, steps, seconds,
 * addresses) are left out, and a hang is known by the locks of its deadlock cycle (their
 * names sorted, as lockdep knows a cycle by its classes: how many threads wait, and on which
 * side, varies with the run) or else by what it waits for; the two wordings of a hang
 * (free-running and controlled) give the same kind.
 */
#include <ctype.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kind.h"
#include "../core/failure.h"

/* @s with every run of digits (and a 0x address) as "N"; at most @len bytes. */
static void numbers_out(const char *s, char *buf, size_t len)
{
	size_t o = 0;

	while (*s && o + 2 < len) {
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

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* "cycle: css_set_lock, rcu grace period": the distinct locks of the evidence's cycle lines. */
static bool hang_cycle(const char *evidence, char *buf, size_t len)
{
	const char *p = evidence ? strstr(evidence, "deadlock cycle:") : NULL;
	char *what[32], line[160];
	int n = 0;
	size_t o;

	if (!p)
		return false;
	for (p = strchr(p, '\n'); p && *++p && n < 32; p = strchr(p, '\n')) {
		const char *w = strstr(p, " waits for ");
		bool seen = false;

		if (!w || w > p + strcspn(p, "\n"))
			continue;
		w += strlen(" waits for ");
		if (!strncmp(w, "an RCU grace period", 19))
			snprintf(line, sizeof(line), "rcu grace period");
		else	/* the lock's name: its side and how many wait for it vary with the run */
			snprintf(line, sizeof(line), "%.*s", (int)strcspn(w, " ,\n"), w);
		for (int i = 0; i < n; i++)
			seen |= !strcmp(what[i], line);
		if (!seen && (what[n] = strdup(line)))
			n++;
	}
	qsort(what, (size_t)n, sizeof(what[0]), by_name);
	o = (size_t)snprintf(buf, len, "cycle:");
	for (int i = 0; i < n; i++) {
		if (o < len)
			o += (size_t)snprintf(buf + o, len - o, "%s %s", i ? "," : "", what[i]);
		free(what[i]);
	}
	return n > 0;
}

void cgt_failure_kind(int detector, const char *summary, const char *evidence, char *buf,
		      size_t len)
{
	const char *p;
	char norm[256];
	size_t o = (size_t)snprintf(buf, len, "%s: ",
				    detector >= 0 && detector < CGT_NR_DETECTORS ?
				    cgt_detector_names[detector] : "?");

	if (o >= len)
		return;
	buf += o;
	len -= o;
	summary = summary ? summary : "";
	switch (detector) {
	case CGT_DET_LIVELOCK:
		p = strstr(summary, "the start thread ");
		numbers_out(p ? p : summary, buf, len);
		return;
	case CGT_DET_HANG:
		if (hang_cycle(evidence, buf, len))
			return;
		p = strstr(summary, "wait");	/* "waits for" or "waiting for" */
		p = p ? strstr(p, " for ") : NULL;
		numbers_out(p ? p + 5 : summary, norm, sizeof(norm));
		snprintf(buf, len, "waits for %s", norm);
		return;
	case CGT_DET_STARVATION:
		/* "... for LOCK while" (at the write) or "... to write LOCK while" (while waiting) */
		p = strstr(summary, " while ");
		while (p && p > summary && p[-1] != ' ')
			p--;
		snprintf(buf, len, "a writer of %.*s starved", p ? (int)strcspn(p, " ") : 1,
			 p ? p : "?");
		return;
	case CGT_DET_ASAN:
	case CGT_DET_TSAN:
		/* the error class: "heap-use-after-free", "data race" */
		numbers_out(summary, norm, sizeof(norm));
		snprintf(buf, len, "%.*s", (int)strcspn(norm, " "), norm);
		return;
	default:
		numbers_out(summary, buf, len);
	}
}

int cgt_report_failure_kind(const char *path, int detector, char *buf, size_t len)
{
	json_t *r = json_load_file(path, 0, NULL), *f;
	int ret = -1;
	size_t i;

	json_array_foreach(json_object_get(r, "failures"), i, f) {
		json_t *ev = json_object_get(f, "evidence"), *line;
		char *evidence = NULL;
		size_t elen = 0, k;
		FILE *m;

		if (strcmp(json_string_value(json_object_get(f, "detector")) ?: "",
			   cgt_detector_names[detector]))
			continue;
		m = open_memstream(&evidence, &elen);
		if (!m)
			break;
		json_array_foreach(ev, k, line)
			fprintf(m, "%s\n", json_string_value(line) ?: "");
		fclose(m);
		cgt_failure_kind(detector, json_string_value(json_object_get(f, "summary")),
				 evidence, buf, len);
		free(evidence);
		ret = 0;
		break;
	}
	json_decref(r);
	return ret;
}
