// SPDX-License-Identifier: GPL-2.0
/*
 * The kind of a failure, for reproduce to know that a controlled schedule found the same
 * thing as a free-running report: the numbers (tids, thread numbers, steps, seconds,
 * addresses) are left out, and a hang is known by the lock classes on a cycle of its wait-for
 * picture, or else by what it waits for; the two wordings of a hang (free-running and
 * controlled) give the same kind.
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

#define MAX_RES	32

/* The index of resource @name (a lock, or "rcu": read-side sections and grace periods). */
static int res_index(char names[][48], int *n, const char *name, size_t len)
{
	if (len >= 48)
		len = 47;
	for (int i = 0; i < *n; i++)
		if (strlen(names[i]) == len && !strncmp(names[i], name, len))
			return i;
	if (*n == MAX_RES)
		return -1;
	memcpy(names[*n], name, len);
	names[*n][len] = '\0';
	return (*n)++;
}

/*
 * "cycle: css_set_lock, rcu": the resources on a cycle of the wait-for picture taken by
 * class, as lockdep takes it: an edge A -> B for each thread that holds A (or reads under
 * RCU) and waits for B (a grace period is RCU's). Which threads and sides make the cycle
 * varies with the run (and a controlled run's hang may be reported from a thread that only
 * queues behind it); the classes on it do not.
 */
static bool hang_cycle(const char *evidence, char *buf, size_t len)
{
	char names[MAX_RES][48];
	bool edge[MAX_RES][MAX_RES] = { { false } }, on[MAX_RES] = { false };
	int n = 0, found = 0;
	size_t o;

	for (const char *p = evidence; p && *p; p += strcspn(p, "\n"), p += *p == '\n') {
		size_t l = strcspn(p, "\n");
		int held[16], nheld = 0, waits = -1;

		if (strncmp(p, "  thread ", 9))
			continue;
		for (const char *q = p; q < p + l; q++) {
			const char *name = NULL;

			if (!strncmp(q, " in rcu_read_lock", 17)) {
				if (nheld < 16)
					held[nheld++] = res_index(names, &n, "rcu", 3);
				continue;
			}
			if (!strncmp(q, " holds ", 7))
				name = q + 7;
			else if (!strncmp(q, " waits for ", 11))
				name = q + 11;
			else
				continue;
			if (!strncmp(name, "rcu grace period", 16) || !strncmp(name, "an RCU", 6)) {
				if (q[1] == 'w')
					waits = res_index(names, &n, "rcu", 3);
				continue;
			}
			if (q[1] == 'w')
				waits = res_index(names, &n, name, strcspn(name, " ,"));
			else if (nheld < 16)
				held[nheld++] = res_index(names, &n, name, strcspn(name, " ,"));
		}
		for (int i = 0; i < nheld && waits >= 0; i++)
			if (held[i] >= 0 && held[i] != waits)
				edge[held[i]][waits] = true;
	}
	/* Warshall: which resources reach which; one on a cycle reaches itself */
	for (int k = 0; k < n; k++)
		for (int i = 0; i < n; i++)
			for (int j = 0; j < n; j++)
				edge[i][j] |= edge[i][k] && edge[k][j];
	for (int i = 0; i < n; i++)
		found += on[i] = edge[i][i];
	if (!found)
		return false;
	o = (size_t)snprintf(buf, len, "cycle:");
	/* in name order: a cycle has no first lock */
	for (int k = 0; k < found && o < len; k++) {
		int best = -1;

		for (int i = 0; i < n; i++)
			if (on[i] && (best < 0 || strcmp(names[i], names[best]) < 0))
				best = i;
		on[best] = false;
		o += (size_t)snprintf(buf + o, len - o, "%s %s", k ? "," : "", names[best]);
	}
	return true;
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
