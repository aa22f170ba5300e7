// SPDX-License-Identifier: GPL-2.0
/*
 * The kind of a hang (detect.h): the lock classes on a cycle of its wait-for picture, read
 * from the evidence hang.c writes or from the threads themselves, or else what it waits for.
 * The two wordings of a hang (free-running and controlled) give the same kind.
 */
#include <stdio.h>
#include <string.h>

#include "detect.h"

const char *cgt_hang_cycle(const char *evidence)
{
	return evidence ? strstr(evidence, CGT_HANG_CYCLE) : NULL;
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
	const char *cycle = cgt_hang_cycle(evidence);
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

void cgt_hang_kind(const char *summary, const char *evidence, char *buf, size_t len)
{
	const char *p;
	char norm[256];

	if (hang_cycle(evidence, buf, len))
		return;
	p = strstr(summary, "wait");	/* "waits for" or "waiting for" */
	p = p ? strstr(p, " for ") : NULL;
	cgt_kind_numbers_out(p ? p + 5 : summary, norm, sizeof(norm));
	snprintf(buf, len, "waits for %s", norm);
}
