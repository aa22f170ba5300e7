// SPDX-License-Identifier: GPL-2.0
/*
 * Telling how a failure came about. The failing thread and the threads involved with it
 * (capture.c) name the tasks and locks in question; the events of every thread that concern
 * those tasks or locks, in order (decisions of a controlled run, else time), are the
 * interleaving, of which the last few are told, without the walk steps and the loop:
 *
 *   step 3926  T3 (walker) starts a thread-group walk at tid 33
 *   step 3990  T12 (tid 33) do_exit: PF_EXITING set
 *   step 4011  T12 (tid 33) release_task: unhashed
 *   step 5066  T3 (walker) livelock: while_each walk from tid 33 went 80 steps ...
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "story.h"
#include "interest.h"
#include "capture.h"
#include "columns.h"
#include "../core/failure.h"
#include "../core/thread.h"
#include "../sched/sched.h"

#define MAX_LINES	8
#define MAX_LINES_FREE	16	/* a free-running run's threads interleave more */
#define MAX_TIDS	(CGT_CAPTURE_INVOLVED + 8)
#define MAX_NAMES	24
#define STORY_SETTLE_S	2	/* within the crash handler's grace (detect/crash.c) */

static char story[4096];

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
 * question and waited for grace periods, and what the involved threads themselves waited for.
 */
static bool telling(const struct interest *in, const struct cgt_thread *me, bool involved,
		    bool controlled, const struct cgt_thread *t, const struct cgt_event *e)
{
	switch (e->point) {
	case CGT_PT_SIGLOCK:
		return t->id == me->id;
	case CGT_PT_LOCK_WAIT:
	case CGT_PT_RCU_ENTER:
		return (t->id == me->id || involved) &&
		       (e->point == CGT_PT_RCU_ENTER || has_name(in, e->name));
	case CGT_PT_LOCK_HELD:
	case CGT_PT_LOCK_RELEASE:
	case CGT_PT_GP_WAIT:
		/* a free-running run's many threads: only the involved ones' turns at the lock */
		return has_name(in, e->name) && (controlled || involved);
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

static int by_time(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;

	if (x->e->ns != y->e->ns)
		return x->e->ns < y->e->ns ? -1 : 1;
	return x->t->id - y->t->id;
}

static size_t when(char *buf, size_t len, bool controlled, uint64_t t)
{
	if (controlled)
		return (size_t)snprintf(buf, len, "step %6llu  ", (unsigned long long)t);
	return (size_t)snprintf(buf, len, "%10.3f ms  ", (double)t / 1e6);
}

static void add_names(struct interest *in, const struct cgt_thread *t)
{
	if (t->wait_obj && in->nnames + 2 <= MAX_NAMES) {
		in->names[in->nnames++] = t->wait_name;
		in->names[in->nnames++] = "rcu grace period";
	}
	for (int i = 0; i < t->nheld && i < CGT_MAX_HELD && in->nnames < MAX_NAMES; i++)
		in->names[in->nnames++] = t->held[i].name;
}

/* The walk's path from the linkage picture: what the walker kept stepping round. */
static size_t tell_walk(char *buf, size_t len, const struct cgt_linkage *l)
{
	const struct cgt_snap_walk *w = &l->walk;
	size_t off;

	if (!l->taken || !w->valid || w->npath < 2)
		return 0;
	off = (size_t)snprintf(buf, len, "%*s  the walk's path: next_thread() from tid %d:",
			       12, "", w->start.tid);
	for (int i = 1; i < w->npath && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, " %d", w->path[i].tid);
	if (off < len)
		off += (size_t)snprintf(buf + off, len - off, w->start_on_ring ?
					" and back to %d\n" :
					" and round to %d again: tid %d is no longer on the ring\n",
					w->loops_to, w->start.tid);
	return off;
}

/*
 * "step 2013  T4 (walker) preempted after steps to the next thread; T11 ran instead": a
 * preemption of a thread the story tells of, where it stopped and who took its place.
 */
static size_t tell_preemption(char *buf, size_t len, const struct cgt_capture *c,
			      const struct cgt_preemption *p)
{
	const struct cgt_thread *t = cgt_capture_sched_thread(c, p->from);
	const struct cgt_thread *to = cgt_capture_sched_thread(c, p->to);
	const struct cgt_event *last = NULL;
	size_t off;

	if (!t)
		return 0;
	for (uint32_t i = 0; i < CGT_RING_SIZE && i < t->ring_head; i++) {
		const struct cgt_event *e = &t->ring[(t->ring_head - 1 - i) & (CGT_RING_SIZE - 1)];

		if (e->ns <= (uint64_t)p->step && e->point < CGT_NR_POINTS) {
			last = e;
			break;
		}
	}
	off = when(buf, len, true, (uint64_t)p->step);
	if (off < len)
		off += cgt_capture_who(buf + off, len - off, t);
	if (off < len)
		off += (size_t)snprintf(buf + off, len - off, " preempted%s%s; ",
					last ? " after " : "",
					last ? cgt_point_info[last->point].desc : "");
	if (off < len && to)
		off += cgt_capture_who(buf + off, len - off, to);
	else if (off < len)
		off += (size_t)snprintf(buf + off, len - off, "T%d", p->to);
	if (off < len)
		off += (size_t)snprintf(buf + off, len - off, " ran instead\n");
	return off;
}

/* Whether T@id is one the story's lines from @first on tell of. */
static bool told(const struct ev *evs, int first, int nev, int id)
{
	for (int i = first; i < nev; i++)
		if (evs[i].t->sched_id == id)
			return true;
	return false;
}

static void tell(const struct cgt_capture *c)
{
	const struct cgt_preemption *pre = NULL;
	long npre = 0, pi = 0;
	const struct cgt_failure *f = &c->failure;
	const struct cgt_thread *me;
	struct ev *evs;
	struct interest in = { 0 };
	size_t off = 0;
	int nev = 0, first, lines = c->controlled ? MAX_LINES : MAX_LINES_FREE;

	if (!c->ninvolved)
		return;
	me = &c->threads[c->involved[0]];
	evs = calloc((size_t)c->nthreads * CGT_RING_SIZE, sizeof(*evs));
	if (!evs)
		return;
	add_tid(&in, me->pid);
	if (me->walk_active)
		add_tid(&in, me->walk_start_pid);
	/* a controlled run's failing thread names what it dealt with in its own last events */
	for (uint32_t i = 0; c->controlled && i < CGT_RING_SIZE && i < me->ring_head; i++)
		add_tid(&in, me->ring[(me->ring_head - 1 - i) & (CGT_RING_SIZE - 1)].pid);
	for (int k = 0; k < c->ninvolved; k++) {
		add_tid(&in, c->threads[c->involved[k]].pid);
		add_names(&in, &c->threads[c->involved[k]]);
	}

	for (int k = 0; k < c->nthreads; k++) {
		const struct cgt_thread *t = &c->threads[k];
		uint32_t head = t->ring_head, have = head < CGT_RING_SIZE ? head : CGT_RING_SIZE;
		bool involved = cgt_capture_is_involved(c, k);

		if (c->controlled && !t->sched_id)
			continue;
		uint32_t from = head - have;

		/* a task in question tells only its last operation: its path to the failure */
		for (uint32_t i = head - have; has_tid(&in, t->pid) && i != head; i++)
			if (t->ring[i & (CGT_RING_SIZE - 1)].point == CGT_PT_LOOP &&
			    t->ring[i & (CGT_RING_SIZE - 1)].ns <= c->at)
				from = i;
		for (uint32_t i = from; i != head; i++) {
			const struct cgt_event *e = &t->ring[i & (CGT_RING_SIZE - 1)];

			if (e->ns <= c->at && e->point < CGT_NR_POINTS &&
			    telling(&in, me, involved, c->controlled, t, e))
				evs[nev++] = (struct ev){ t, e };
		}
	}
	qsort(evs, (size_t)nev, sizeof(*evs), by_time);
	/* of the failing thread's read-side sections, only the last one it entered matters */
	for (int i = nev - 1, last = -1; i >= 0; i--) {
		if (evs[i].e->point != CGT_PT_RCU_ENTER || evs[i].t->id != me->id)
			continue;
		if (last >= 0)
			memmove(&evs[i], &evs[i + 1], sizeof(*evs) * (size_t)(--nev - i));
		last = i;
	}
	first = nev > lines - 1 ? nev - (lines - 1) : 0;
	/* the preemptions of the threads told of, from the first line told on */
	if (c->controlled && nev)
		npre = cgt_sched_preemptions(&pre);
	while (pi < npre && (uint64_t)pre[pi].step < evs[first].e->ns)
		pi++;
	/* the failing thread's last preemption is its story's start, however long ago */
	for (long k = pi - 1; k >= 0; k--)
		if (pre[k].from == me->sched_id) {
			off += tell_preemption(story + off, sizeof(story) - off, c, &pre[k]);
			break;
		}
	for (int i = first; i <= nev && off < sizeof(story); i++) {
		uint64_t until = i < nev ? evs[i].e->ns : c->at;

		for (; pi < npre && (uint64_t)pre[pi].step <= until && off < sizeof(story); pi++)
			if (told(evs, first, nev, pre[pi].from) || pre[pi].from == me->sched_id)
				off += tell_preemption(story + off, sizeof(story) - off, c, &pre[pi]);
		if (i == nev || off >= sizeof(story))
			break;

		const struct cgt_event *e = evs[i].e;

		off += when(story + off, sizeof(story) - off, c->controlled, e->ns);
		if (off < sizeof(story))
			off += cgt_capture_who(story + off, sizeof(story) - off, evs[i].t);
		if (off < sizeof(story))
			off += (size_t)snprintf(story + off, sizeof(story) - off, " %s",
						cgt_point_info[e->point].desc);
		if (off < sizeof(story) && e->name)
			off += (size_t)snprintf(story + off, sizeof(story) - off, ": %s", e->name);
		if (off < sizeof(story) && e->pid && e->pid != evs[i].t->pid)
			off += (size_t)snprintf(story + off, sizeof(story) - off, "%s tid %d",
						e->name ? "," : ":", e->pid);
		if (off < sizeof(story))
			story[off++] = '\n';
	}
	if (off < sizeof(story))
		off += tell_walk(story + off, sizeof(story) - off, &c->linkage);
	if (off < sizeof(story)) {
		off += when(story + off, sizeof(story) - off, c->controlled, c->at);
		if (off < sizeof(story))
			off += cgt_capture_who(story + off, sizeof(story) - off, me);
		if (off < sizeof(story))
			snprintf(story + off, sizeof(story) - off, " %s: %s\n",
				 cgt_detector_names[f->detector], f->summary);
	}
	free(evs);
}

static pthread_mutex_t teller = PTHREAD_MUTEX_INITIALIZER;

/*
 * A run's story is of its failure of interest, told as that failure is seen: the first
 * failure, then again if a later one is the first of the --stop-on detector. The capture
 * (capture.c) is taken then too, for the timeline and the linkage picture.
 */
void cgt_story_failure(const struct cgt_run_config *cfg, enum cgt_detector det, long nth)
{
	/*
	 * Two threads can fail at once (two starved writers in one look): the copies, the
	 * story and the capture are one each, told by one at a time. A crash in a controlled
	 * run comes from a signal handler, which must not wait for the thread it interrupted.
	 */
	static struct cgt_failure f[CGT_MAX_FAILURES];
	int nf, which;

	/* a free-running crash is reported from its signal handler: no copies, no pictures */
	if (nth > CGT_MAX_FAILURES || (det == CGT_DET_CRASH && !cfg->sched))
		return;
	if (det == CGT_DET_CRASH ? pthread_mutex_trylock(&teller) : pthread_mutex_lock(&teller))
		return;
	nf = cgt_failures_get(f, CGT_MAX_FAILURES);
	if (nf > nth)
		nf = (int)nth;		/* one seen since is for its own call */
	which = (int)nth - 1;
	if (nf > which && cgt_failures_of_interest(cfg->stop_on, f, nf) == which &&
	    !(cfg->sched && f[which].step < 0)) {
		story[0] = '\0';
		cgt_capture_take(&f[which], cfg->sched != NULL);
		if (cgt_capture()) {
			tell(cgt_capture());
			cgt_columns_tell(cgt_capture());
		}
	}
	pthread_mutex_unlock(&teller);
}

/*
 * A story half told is none: a crash that ends the run a few milliseconds after its failure
 * of interest writes the report while that failure's capture is still being taken. Wait for
 * it, a bounded while: the teller may be the thread that crashed.
 */
void cgt_story_settle(void)
{
	struct timespec until;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += STORY_SETTLE_S;
	if (!pthread_mutex_timedlock(&teller, &until))
		pthread_mutex_unlock(&teller);
}

const char *cgt_story(void)
{
	return story[0] ? story : NULL;
}

void cgt_story_begin(const struct cgt_run_config *cfg)
{
	(void)cfg;
	story[0] = '\0';
	cgt_columns_reset();
	cgt_capture_reset();
}
