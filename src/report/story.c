// SPDX-License-Identifier: GPL-2.0
/*
 * Telling how a controlled failure came about. The failing thread's last events name the
 * tasks and locks it was dealing with; the events of every thread that concern those tasks
 * or locks, in decision order, are the interleaving, of which the last few are told:
 *
 *   step 3926  T3 (walker) starts a thread-group walk at tid 33
 *   step 3990  T12 (tid 33) do_exit: PF_EXITING set
 *   step 4011  T12 (tid 33) release_task: unhashed
 *   step 5066  T3 (walker) livelock: while_each walk from tid 33 went 80 steps ...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "story.h"
#include "interest.h"
#include "../core/failure.h"
#include "../core/thread.h"

#define MAX_THREADS	4096
#define MAX_LINES	8
#define MAX_TIDS	16
#define MAX_NAMES	(CGT_MAX_HELD + 2)

static char story[4096];

static const char *const point_descs[CGT_NR_POINTS] = {
#define X(id, desc) [CGT_PT_##id] = desc,
	CGT_POINTS(X)
#undef X
};

struct ev {
	const struct cgt_thread *t;
	const struct cgt_event *e;
};

struct interest {
	int tids[MAX_TIDS], ntids;
	const char *names[MAX_NAMES];
	int nnames;
};

static void add_tid(struct interest *in, int tid)
{
	for (int i = 0; i < in->ntids; i++)
		if (in->tids[i] == tid)
			return;
	if (tid > 0 && in->ntids < MAX_TIDS)
		in->tids[in->ntids++] = tid;
}

static bool has_tid(const struct interest *in, int tid)
{
	for (int i = 0; i < in->ntids; i++)
		if (in->tids[i] == tid)
			return true;
	return false;
}

static bool has_name(const struct interest *in, const char *name)
{
	for (int i = 0; i < in->nnames; i++)
		if (name && in->names[i] && !strcmp(in->names[i], name))
			return true;
	return false;
}

/*
 * The steps of the lives of the tasks in question, who took and let go of the locks in
 * question and waited for grace periods, and what the failing thread itself waited for.
 */
static bool telling(const struct interest *in, const struct cgt_thread *me,
		    const struct cgt_thread *t, const struct cgt_event *e)
{
	switch (e->point) {
	case CGT_PT_SIGLOCK:
		return t->id == me->id;
	case CGT_PT_LOCK_WAIT:
	case CGT_PT_RCU_ENTER:
		return t->id == me->id && (e->point == CGT_PT_RCU_ENTER || has_name(in, e->name));
	case CGT_PT_LOCK_HELD:
	case CGT_PT_LOCK_RELEASE:
	case CGT_PT_GP_WAIT:
		return has_name(in, e->name);
	case CGT_PT_LOOP:
	case CGT_PT_WALK_STEP:
	case CGT_PT_ITER_STEP:
	case CGT_PT_PGRP_STEP:
	case CGT_PT_READDIR_STEP:
		return false;
	default:
		return has_tid(in, e->pid) || has_tid(in, t->pid);
	}
}

static int by_step(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;

	if (x->e->ns != y->e->ns)
		return x->e->ns < y->e->ns ? -1 : 1;
	return x->t->sched_id - y->t->sched_id;
}

static size_t who(char *buf, size_t len, const struct cgt_thread *t)
{
	if (t->role == CGT_ROLE_WALKER)
		return (size_t)snprintf(buf, len, "T%d (walker)", t->sched_id);
	return (size_t)snprintf(buf, len, "T%d (tid %d)", t->sched_id, t->pid);
}

static void tell(struct cgt_thread *const *threads, int n, const struct cgt_failure *f)
{
	const struct cgt_thread *me = f->thread;
	struct ev *evs = calloc((size_t)n * CGT_RING_SIZE, sizeof(*evs));
	struct interest in = { 0 };
	size_t off = 0;
	int nev = 0, first;

	if (!evs)
		return;
	add_tid(&in, me->pid);
	if (me->walk_active)
		add_tid(&in, me->walk_start_pid);
	for (uint32_t i = 0; i < CGT_RING_SIZE && i < me->ring_head; i++)
		add_tid(&in, me->ring[(me->ring_head - 1 - i) & (CGT_RING_SIZE - 1)].pid);
	/* a lock waiter may be held up by a grace period its holder waits for */
	if (me->wait_obj) {
		in.names[in.nnames++] = me->wait_name;
		in.names[in.nnames++] = "rcu grace period";
	}
	for (int i = 0; i < me->nheld && i < CGT_MAX_HELD; i++)
		in.names[in.nnames++] = me->held[i].name;

	for (int k = 0; k < n; k++) {
		const struct cgt_thread *t = threads[k];
		uint32_t head = t->ring_head, have = head < CGT_RING_SIZE ? head : CGT_RING_SIZE;

		if (!t->sched_id)
			continue;
		for (uint32_t i = head - have; i != head; i++) {
			const struct cgt_event *e = &t->ring[i & (CGT_RING_SIZE - 1)];

			if (e->ns <= (uint64_t)f->step && e->point < CGT_NR_POINTS &&
			    telling(&in, me, t, e))
				evs[nev++] = (struct ev){ t, e };
		}
	}
	qsort(evs, (size_t)nev, sizeof(*evs), by_step);
	/* of the failing thread's read-side sections, only the last one it entered matters */
	for (int i = nev - 1, last = -1; i >= 0; i--) {
		if (evs[i].e->point != CGT_PT_RCU_ENTER)
			continue;
		if (last >= 0)
			memmove(&evs[i], &evs[i + 1], sizeof(*evs) * (size_t)(--nev - i));
		last = i;
	}
	first = nev > MAX_LINES - 1 ? nev - (MAX_LINES - 1) : 0;
	for (int i = first; i < nev && off < sizeof(story); i++) {
		const struct cgt_event *e = evs[i].e;

		off += (size_t)snprintf(story + off, sizeof(story) - off, "step %6llu  ",
					(unsigned long long)e->ns);
		if (off < sizeof(story))
			off += who(story + off, sizeof(story) - off, evs[i].t);
		if (off < sizeof(story))
			off += (size_t)snprintf(story + off, sizeof(story) - off, " %s",
						point_descs[e->point]);
		if (off < sizeof(story) && e->name)
			off += (size_t)snprintf(story + off, sizeof(story) - off, ": %s", e->name);
		else if (off < sizeof(story) && e->pid && e->pid != evs[i].t->pid)
			off += (size_t)snprintf(story + off, sizeof(story) - off, ": tid %d",
						e->pid);
		if (off < sizeof(story))
			story[off++] = '\n';
	}
	if (off < sizeof(story)) {
		off += (size_t)snprintf(story + off, sizeof(story) - off, "step %6ld  ", f->step);
		if (off < sizeof(story))
			off += who(story + off, sizeof(story) - off, me);
		if (off < sizeof(story))
			snprintf(story + off, sizeof(story) - off, " %s: %s\n",
				 cgt_detector_names[f->detector], f->summary);
	}
	free(evs);
}

/*
 * A controlled run's story is of its failure of interest, told as that failure is seen: the
 * first failure, then again if a later one is the first of the --stop-on detector.
 */
void cgt_story_failure(const struct cgt_run_config *cfg, enum cgt_detector det, long nth)
{
	static struct cgt_failure f[CGT_MAX_FAILURES];
	int detector[CGT_MAX_FAILURES];
	struct cgt_thread **threads, *copies;
	struct cgt_thread *t;
	int n = 0, nf, which;

	(void)det;
	if (!cfg->sched || nth > CGT_MAX_FAILURES)
		return;
	nf = cgt_failures_get(f, CGT_MAX_FAILURES);
	if (nf > nth)
		nf = (int)nth;		/* one seen since is for its own call */
	for (int i = 0; i < nf; i++)
		detector[i] = (int)f[i].detector;
	which = (int)nth - 1;
	if (nf <= which || cgt_failure_of_interest(cfg->stop_on, detector, nf) != which ||
	    f[which].step < 0 || !f[which].thread)
		return;
	story[0] = '\0';
	threads = calloc(MAX_THREADS, sizeof(*threads));
	copies = calloc(MAX_THREADS, sizeof(*copies));
	if (threads && copies) {
		/* copied with atomic loads: the other threads are where the scheduler left them */
		cgt_threads_lock();
		for (t = cgt_threads_first(); t && n < MAX_THREADS; t = t->next)
			threads[n++] = t;
		n += cgt_threads_graveyard(threads + n, MAX_THREADS - n);
		for (int i = 0; i < n; i++) {
			cgt_thread_copy(&copies[i], threads[i]);
			threads[i] = &copies[i];
		}
		cgt_threads_unlock();
		tell(threads, n, &f[which]);
	}
	free(threads);
	free(copies);
}

const char *cgt_story(void)
{
	return story[0] ? story : NULL;
}

void cgt_story_begin(const struct cgt_run_config *cfg)
{
	(void)cfg;
	story[0] = '\0';
}
