// SPDX-License-Identifier: GPL-2.0
/*
 * The moment a failure of interest is seen (capture.h). The threads involved are the one
 * that saw it, those the report names (its "tid N" and "thread N"), the walk's start thread,
 * and, following the wait-for edges, whoever holds what an involved thread waits for (or,
 * for a grace period, reads under RCU). Each thread's ring holds its last CGT_RING_SIZE
 * events; the window is from the newest of the involved threads' oldest events to the
 * failure, so no involved thread's events are missing inside it.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "../detect/detect.h"
#include "../run/points.h"

#define MAX_THREADS	4096

static struct cgt_capture capture;

const struct cgt_capture *cgt_capture(void)
{
	return capture.taken ? &capture : NULL;
}

void cgt_capture_reset(void)
{
	free(capture.threads);
	memset(&capture, 0, sizeof(capture));
}

bool cgt_capture_is_involved(const struct cgt_capture *c, int index)
{
	for (int i = 0; i < c->ninvolved; i++)
		if (c->involved[i] == index)
			return true;
	return false;
}

const struct cgt_thread *cgt_capture_sched_thread(const struct cgt_capture *c, int id)
{
	for (int k = 0; k < c->nthreads; k++)
		if (c->threads[k].sched_id == id)
			return &c->threads[k];
	return NULL;
}

size_t cgt_capture_who(char *buf, size_t len, const struct cgt_thread *t)
{
	int n = t->sched_id ? t->sched_id : t->id;
	const char *fmt = t->sched_id ? "T%d" : "thread %d";
	size_t off = (size_t)snprintf(buf, len, fmt, n);

	if (off >= len)
		return off;
	if (t->role == CGT_ROLE_WALKER)
		return off + (size_t)snprintf(buf + off, len - off, " (walker)");
	return off + (size_t)snprintf(buf + off, len - off, " (tid %d)", t->pid);
}

static void involve(struct cgt_capture *c, int index)
{
	if (index >= 0 && !cgt_capture_is_involved(c, index) && c->ninvolved < CGT_CAPTURE_INVOLVED)
		c->involved[c->ninvolved++] = index;
}

/* The thread with harness id @id, or with model tid @tid (the live one, else the latest gone). */
static int find(const struct cgt_capture *c, int id, int tid)
{
	for (int i = 0; i < c->nthreads; i++)
		if ((id && c->threads[i].id == id) ||
		    (tid > 0 && c->threads[i].pid == tid && c->threads[i].role == CGT_ROLE_ACTOR))
			return i;
	return -1;
}

/* Every "tid N" and "thread N" in @text. */
static void involve_named(struct cgt_capture *c, const char *text, int *tids, int *ntids,
			  int max)
{
	for (const char *p = text; p && *p; p++) {
		bool tid = !strncmp(p, "tid ", 4), thread = !strncmp(p, "thread ", 7);
		long n;

		if (!tid && !thread)
			continue;
		p += tid ? 4 : 7;
		if (!isdigit((unsigned char)*p))
			continue;
		n = strtol(p, NULL, 10);
		if (tid && *ntids < max)
			tids[(*ntids)++] = (int)n;
		involve(c, tid ? find(c, 0, (int)n) : find(c, (int)n, 0));
	}
}

/* Holders of what an involved thread waits for, until no one new comes in. */
static void involve_blockers(struct cgt_capture *c)
{
	for (int k = 0; k < c->ninvolved; k++) {
		const struct cgt_thread *w = &c->threads[c->involved[k]];

		if (!w->wait_obj)
			continue;
		for (int i = 0; i < c->nthreads; i++) {
			const struct cgt_thread *h = &c->threads[i];

			if (w->wait_kind == CGT_WAIT_GP) {
				if (h->rcu_depth && h != w)
					involve(c, i);
				continue;
			}
			for (int j = 0; j < h->nheld && j < CGT_MAX_HELD; j++)
				if (h->held[j].lock == w->wait_obj && h != w)
					involve(c, i);
		}
	}
}

static uint64_t oldest_event(const struct cgt_thread *t)
{
	if (t->ring_head <= CGT_RING_SIZE)
		return 0;	/* its whole life is there */
	return t->ring[(t->ring_head - CGT_RING_SIZE) & (CGT_RING_SIZE - 1)].ns;
}

void cgt_capture_take(const struct cgt_failure *f, bool controlled)
{
	struct cgt_thread *dead[1024];
	int tids[CGT_CAPTURE_INVOLVED], ntids = 0, ndead, me;
	char cycle[200];
	const struct cgt_walk *walk;

	cgt_capture_reset();
	capture.threads = calloc(MAX_THREADS, sizeof(*capture.threads));
	if (!capture.threads)
		return;
	capture.controlled = controlled;
	capture.failure = *f;
	capture.failure.evidence = NULL;
	capture.failure.thread = NULL;
	snprintf(capture.evidence, sizeof(capture.evidence), "%s", f->evidence ? f->evidence : "");
	capture.at = controlled ? (uint64_t)(f->step > 0 ? f->step : 0) : f->ns;
	cgt_threads_lock();
	for (struct cgt_thread *t = cgt_threads_first(); t && capture.nthreads < MAX_THREADS;
	     t = t->next)
		cgt_thread_copy(&capture.threads[capture.nthreads++], t);
	capture.nlive = capture.nthreads;
	ndead = cgt_threads_graveyard(dead, 1024);
	/* the graveyard's copies are written under the registry lock only: nothing records */
	for (int i = 0; i < ndead && capture.nthreads < MAX_THREADS; i++)
		capture.threads[capture.nthreads++] = *dead[i];
	cgt_threads_unlock();

	me = find(&capture, f->thread_id, 0);
	involve(&capture, me);
	if (me >= 0 && capture.threads[me].walk_active) {
		tids[ntids++] = capture.threads[me].walk_start_pid;
		involve(&capture, find(&capture, 0, capture.threads[me].walk_start_pid));
	}
	involve_named(&capture, f->summary, tids, &ntids, CGT_CAPTURE_INVOLVED);
	/*
	 * The threads a detector handed over (a hang's deadlock cycle: a hang's picture names
	 * every thread that waits or holds, and the cycle is the story); else every thread the
	 * evidence names.
	 */
	for (int k = 0; k < f->ninvolved; k++)
		involve(&capture, find(&capture, f->involved[k], 0));
	if (!f->ninvolved)
		involve_named(&capture, f->evidence, tids, &ntids, CGT_CAPTURE_INVOLVED);
	involve_blockers(&capture);
	for (int k = 0; k < capture.ninvolved; k++) {
		const struct cgt_thread *t = &capture.threads[capture.involved[k]];
		uint64_t from = oldest_event(t);

		if (t->pid > 0 && ntids < CGT_CAPTURE_INVOLVED)
			tids[ntids++] = t->pid;
		if (from > capture.window_from)
			capture.window_from = from;
	}
	/* a hang's cycle from the threads themselves: its evidence may be cut short */
	if (f->detector == CGT_DET_HANG &&
	    cgt_threads_cycle(capture.threads, capture.nthreads, cycle, sizeof(cycle)))
		snprintf(capture.kind, sizeof(capture.kind), "hang: %s", cycle);
	else
		cgt_failure_kind(f->detector, f->summary, f->evidence, capture.kind,
				 sizeof(capture.kind));
	/* a crash's handler must not read a model it may have broken */
	if (f->detector != CGT_DET_CRASH) {
		bool guest = !cgt_self || cgt_self->role == CGT_ROLE_WATCHDOG;

		walk = f->detector == CGT_DET_LIVELOCK ? cgt_events_walk() : NULL;
		if (guest)
			cgt_rcu_register_thread();
		cgt_linkage_snapshot(&capture.linkage, tids, ntids, walk, controlled);
		if (guest)
			cgt_rcu_unregister_thread();
	}
	capture.taken = true;
}
