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
#include "report_read.h"
#include "../core/failure.h"
#include "../core/thread.h"

/*
 * @s with every run of digits (and a 0x address) as "N", and every cgroup ("cpu:/g2") as
 * "CGROUP": which one a migration chose is the run's, not the bug's; at most @len bytes.
 */
static void numbers_out(const char *s, char *buf, size_t len)
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

/* "cycle: a, b": the resources marked @on, in name order (a cycle has no first lock). */
static void write_names(char names[][48], int n, bool *on, char *buf, size_t len)
{
	size_t o = (size_t)snprintf(buf, len, "cycle:");

	for (bool any = true; any && o < len; ) {
		int best = -1;

		for (int i = 0; i < n; i++)
			if (on[i] && (best < 0 || strcmp(names[i], names[best]) < 0))
				best = i;
		any = best >= 0;
		if (any) {
			on[best] = false;
			o += (size_t)snprintf(buf + o, len - o, "%s %s", o > 6 ? "," : "", names[best]);
		}
	}
}

/* The resources of @edge that reach themselves (Warshall), written as write_names does. */
static bool class_cycle(char names[][48], int n, bool edge[][MAX_RES], char *buf, size_t len)
{
	bool on[MAX_RES] = { false }, found = false;

	for (int k = 0; k < n; k++)
		for (int i = 0; i < n; i++)
			for (int j = 0; j < n; j++)
				edge[i][j] |= edge[i][k] && edge[k][j];
	for (int i = 0; i < n; i++)
		found |= on[i] = edge[i][i];
	if (found)
		write_names(names, n, on, buf, len);
	return found;
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
	const char *cycle = evidence ? strstr(evidence, "deadlock cycle:") : NULL;
	char names[MAX_RES][48];
	bool edge[MAX_RES][MAX_RES] = { { false } }, on[MAX_RES] = { false };
	int n = 0, found = 0;

	/*
	 * The cycle the detector found, when it says one: the resource each of its threads
	 * waits for is held by the next, which waits for the next resource, round.
	 */
	for (const char *p = cycle; p && *p; p += strcspn(p, "\n"), p += *p == '\n') {
		const char *w = strstr(p, " waits for ");
		int r;

		if (strncmp(p, "  thread ", 9) || !w || w > p + strcspn(p, "\n"))
			continue;
		w += 11;
		r = !strncmp(w, "an RCU", 6) ? res_index(names, &n, "rcu", 3) :
			res_index(names, &n, w, strcspn(w, " ,"));
		if (r >= 0 && !on[r]) {
			on[r] = true;
			found++;
		}
	}
	/* else a cycle of the picture (a large picture may be cut short in the evidence) */
	for (const char *p = found ? NULL : evidence; p && *p;
	     p += strcspn(p, "\n"), p += *p == '\n') {
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
	if (found)
		write_names(names, n, on, buf, len);
	return found || class_cycle(names, n, edge, buf, len);
}

/* The kind of a hang from the threads themselves: the lock classes on a wait-for cycle. */
bool cgt_threads_cycle(const struct cgt_thread *v, int nv, char *buf, size_t len)
{
	char names[MAX_RES][48];
	bool edge[MAX_RES][MAX_RES] = { { false } };
	int n = 0;

	for (int k = 0; k < nv; k++) {
		const struct cgt_thread *t = &v[k];
		int waits;

		if (!t->wait_obj || (t->wait_kind != CGT_WAIT_READ && t->wait_kind != CGT_WAIT_WRITE &&
				     t->wait_kind != CGT_WAIT_GP))
			continue;
		waits = t->wait_kind == CGT_WAIT_GP ? res_index(names, &n, "rcu", 3) :
			res_index(names, &n, t->wait_name, strlen(t->wait_name));
		for (int i = 0; i < t->nheld && i < CGT_MAX_HELD && waits >= 0; i++) {
			int h = res_index(names, &n, t->held[i].name, strlen(t->held[i].name));

			if (h >= 0 && h != waits)
				edge[h][waits] = true;
		}
		if (t->rcu_depth && waits >= 0) {
			int h = res_index(names, &n, "rcu", 3);

			if (h >= 0 && h != waits)
				edge[h][waits] = true;
		}
	}
	return class_cycle(names, n, edge, buf, len);
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
	struct cgt_report_in in;
	char err[256];
	json_t *r, *f;
	int ret = -1;
	size_t i;

	/* the kind the capture took as the failure was seen, from the threads themselves */
	if (!cgt_report_read(path, &in, err, sizeof(err))) {
		bool taken = in.timeline_detector == detector && in.kind[0];

		if (taken)
			snprintf(buf, len, "%s", in.kind);
		cgt_report_in_free(&in);
		if (taken)
			return 0;
	}
	r = json_load_file(path, 0, NULL);

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
