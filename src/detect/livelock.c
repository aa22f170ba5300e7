// SPDX-License-Identifier: GPL-2.0
/*
 * livelock: a thread-group walk that cannot end (while_each_thread from a thread that left
 * the ring). A walk that met a thread a second time (it went round a ring without its end),
 * one that has taken more steps than its group could ever hold (the model's walk_limit), or
 * one older than --stall (seen by the watchdog in a free-running run) that has gone further
 * than its group or lost its start thread, is stopped through the model's own interface at
 * its next step and reported from inside it, still under rcu_read_lock, with what became
 * of its start thread; so the run goes on.
 */
#include <stdio.h>
#include <string.h>

#include "detect.h"
#include "../model/model.h"

#define WALK_TOO_OLD	"the livelock watchdog found it older than --stall"

static uint64_t stall_ns;

static int livelock_start(const struct cgt_detect_config *cfg)
{
	stall_ns = (uint64_t)(cfg->stall * 1e9);
	return 0;
}

/*
 * A walk told it is old that has taken no more steps than its start thread's group holds,
 * that start still hashed, is still going through a big group, slowly (thousands of threads
 * on a loaded machine): progress, not a walk that cannot end. Under the walk's RCU section.
 */
static bool walk_in_reach(const struct cgt_walk *w)
{
	return pid_alive(w->start) && w->old_steps <= READ_ONCE(w->start->signal->nr_threads);
}

/*
 * Who waits for a lock the walker holds: the kernel's exits spinning in write_lock_irq behind
 * an endless walk under tasklist_lock. A line each, the first few, into @buf.
 */
static void behind_walk(const struct cgt_thread *self, char *buf, size_t len)
{
	int n = 0, shown = 4;
	size_t o = 0;

	buf[0] = '\0';
	if (!self || !self->nheld)
		return;
	cgt_threads_lock();
	for (const struct cgt_thread *t = cgt_threads_first(); t; t = t->next) {
		const void *obj = READ_ONCE(t->wait_obj);
		int kind = READ_ONCE(t->wait_kind);

		if (t == self || (kind != CGT_WAIT_READ && kind != CGT_WAIT_WRITE))
			continue;
		for (int i = 0; i < self->nheld; i++) {
			if (self->held[i].lock != obj)
				continue;
			if (n++ < shown && o < len)
				o += snprintf(buf + o, len - o, "behind it: thread %d (tid %d) waits for "
					      "%s (%s), which the walker holds (%s)\n", t->id,
					      READ_ONCE(t->pid), self->held[i].name,
					      cgt_wait_name(kind), self->held[i].write ? "write" :
					      "read");
			break;
		}
	}
	cgt_threads_unlock();
	if (n > shown && o < len)
		snprintf(buf + o, len - o, "behind it: %d more\n", n - shown);
}

static void livelock_resume(enum cgt_point_id id, const void *obj)
{
	struct cgt_walk *w = (struct cgt_walk *)obj;
	struct cgt_thread *self = cgt_self;
	char evidence[1024], behind[640];

	/* a walk its walker bounds (khungtaskd's lock break) ends by itself */
	if (id != CGT_PT_WALK_STEP || w->bounded)
		return;
	if (w->looped && !cgt_walk_holds_on(w))
		cgt_walk_stop(w, CGT_WALK_LOOPED);
	else if (w->old_steps >= cgt_model_cfg()->walk_limit)
		cgt_walk_stop(w, CGT_WALK_TOO_LONG);
	else if (self && READ_ONCE(self->walk_abort) && !walk_in_reach(w))
		cgt_walk_stop(w, WALK_TOO_OLD);
	else if (self && READ_ONCE(self->walk_abort))
		WRITE_ONCE(self->walk_abort, 0);	/* the watchdog asks again at its next look */
	else
		return;
	if (!w->overran)
		return;
	behind_walk(self, behind, sizeof(behind));
	snprintf(evidence, sizeof(evidence),
		 "walk: %s in %s from tid %d (%s)\nsteps: %ld\nstart thread: %s\nwhy: %s\n%s",
		 cgt_iter_name(w->iter), w->fn, w->start_pid,
		 thread_group_leader(w->start) ? "group leader" : "not the group leader",
		 w->steps, w->fate, w->why, behind);
	cgt_fail(CGT_DET_LIVELOCK, self ? self->id : 0, evidence,
		 "%s walk in %s from tid %d went %ld steps without ending; the start thread %s",
		 cgt_iter_name(w->iter), w->fn, w->start_pid, w->steps, w->fate);
}

/* A walk older than --stall is asked to stop; its own thread reports it at its next step. */
static void livelock_watch(const struct cgt_thread *v, int n, uint64_t now)
{
	for (int i = 0; i < n; i++)
		if (v[i].walk_active && !v[i].walk_abort &&
		    cgt_age_ns(now, v[i].walk_since_ns) > stall_ns)
			cgt_thread_abort_walk(v[i].id, v[i].walk_since_ns);
}

/* A livelock's kind: what became of its start thread (the walk and lock vary with the run). */
static void livelock_kind(const char *summary, const char *evidence, char *buf, size_t len)
{
	const char *p = strstr(summary, "the start thread ");

	(void)evidence;
	cgt_kind_numbers_out(p ? p : summary, buf, len);
}

const struct cgt_detector_ops livelock_detector = {
	.id	= CGT_DET_LIVELOCK,
	.start	= livelock_start,
	.resume	= livelock_resume,
	.watch	= livelock_watch,
	.kind	= livelock_kind,
};
