// SPDX-License-Identifier: GPL-2.0
/*
 * hang: a thread blocked too long, reported as the kernel's hung-task report would be, with
 * the wait-for picture over every model lock and the RCU grace period (who holds what, who
 * waits for what) and the deadlock cycle when there is one. A free-running run reports a
 * wait past --stall (watch); a controlled run, the moment no model thread can run (stuck).
 * A lock that others keep taking is busy, not hung (unfair at worst), and is left to the
 * starvation detector.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "detect.h"
#include "../locks/lock.h"

static double stall_s;

/* Does @h stand in @w's way? Holding what @w waits for, or (an RCU reader) its grace period. */
static bool blocks(const struct cgt_thread *w, const struct cgt_thread *h)
{
	if (w == h || !w->wait_obj)
		return false;
	if (w->wait_kind == CGT_WAIT_GP)
		return h->rcu_depth > 0 && h->rcu_since_ns <= w->wait_since_ns;
	if (w->wait_kind != CGT_WAIT_READ && w->wait_kind != CGT_WAIT_WRITE)
		return false;
	for (int i = 0; i < h->nheld && i < CGT_MAX_HELD; i++)
		if (h->held[i].lock == w->wait_obj &&
		    (w->wait_kind == CGT_WAIT_WRITE || h->held[i].write))
			return true;
	/* a writer-preferring lock makes new readers queue behind a waiting writer */
	return w->wait_kind == CGT_WAIT_READ && h->wait_obj == w->wait_obj &&
	       h->wait_kind == CGT_WAIT_WRITE && h->wait_since_ns < w->wait_since_ns;
}

/*
 * Depth-first search from @at for a cycle in the wait-for graph; the hung thread need not be
 * on it (it may wait on a cycle). Fills @path with the cycle and returns its length, or 0.
 */
static int find_cycle(const struct cgt_thread *v, int n, int at, int *stack, int depth, char *state,
		      int *path)
{
	if (depth >= 32)
		return 0;
	stack[depth] = at;
	state[at] = 1;			/* on the stack */
	for (int j = 0; j < n; j++) {
		if (!blocks(&v[at], &v[j]))
			continue;
		if (state[j] == 1) {
			int k = depth, len;

			while (stack[k] != j)
				k--;
			len = depth - k + 1;
			memcpy(path, &stack[k], sizeof(int) * (size_t)len);
			return len;
		}
		if (!state[j]) {
			int len = find_cycle(v, n, j, stack, depth + 1, state, path);

			if (len)
				return len;
		}
	}
	state[at] = 2;			/* done: no cycle through here */
	return 0;
}

static size_t describe(char *buf, size_t len, const struct cgt_thread *t, uint64_t now)
{
	size_t off = 0;

#define put(...) do { if (off < len) off += (size_t)snprintf(buf + off, len - off, __VA_ARGS__); } while (0)
	put("  thread %d (%s", t->id, cgt_role_name(t->role));
	if (t->pid)
		put(", tid %d", t->pid);
	put(")");
	if (t->rcu_depth)
		put(" in rcu_read_lock for %.2f s;", (double)cgt_age_ns(now, t->rcu_since_ns) / 1e9);
	for (int i = 0; i < t->nheld && i < CGT_MAX_HELD; i++)
		put(" holds %s (%s) for %.2f s;", t->held[i].name,
		    t->held[i].write ? "write" : "read", (double)cgt_age_ns(now, t->held[i].since_ns) / 1e9);
	if (t->wait_obj)
		put(" waits for %s (%s) for %.2f s", t->wait_name, cgt_wait_name(t->wait_kind),
		    (double)cgt_age_ns(now, t->wait_since_ns) / 1e9);
	if (t->walk_active)
		put(" walking from tid %d, %ld steps", t->walk_start_pid, t->walk_steps);
	put("\n");
#undef put
	return off;
}

/* Only the threads that wait, hold a model lock or read under RCU are in the picture. */
static size_t picture(char *buf, size_t len, const struct cgt_thread *v, int n, uint64_t now)
{
	size_t off = 0;

	for (int i = 0; i < n && off < len; i++) {
		const struct cgt_thread *t = &v[i];

		if (t->wait_obj || t->nheld || t->rcu_depth)
			off += describe(buf + off, len - off, t, now);
	}
	return off;
}

/* @blocked_step: a controlled run where no thread can run, at this decision; else -1. */
static void report_hang(const struct cgt_thread *v, int n, int i, uint64_t now, long blocked_step)
{
	const struct cgt_thread *t = &v[i];
	static char state[CGT_SNAP_MAX];
	int stack[32], path[32], len;
	size_t off = 0, cap = 16384;
	char *ev = malloc(cap);

	if (!ev)
		return;
	memset(state, 0, (size_t)n);
	len = find_cycle(v, n, i, stack, 0, state, path);
	if (blocked_step >= 0)
		off += (size_t)snprintf(ev + off, cap - off,
					"INFO: at decision %ld no model thread can run; thread %d (%s, tid %d)\n"
					"waits for %s (%s)\n\nwait-for picture:\n", blocked_step,
					t->id, cgt_role_name(t->role), t->pid, t->wait_name,
					cgt_wait_name(t->wait_kind));
	else
		off += (size_t)snprintf(ev + off, cap - off,
					"INFO: thread %d (%s, tid %d) blocked for more than %g seconds,\n"
					"waiting for %s (%s)\n\nwait-for picture:\n",
					t->id, cgt_role_name(t->role), t->pid, stall_s, t->wait_name,
					cgt_wait_name(t->wait_kind));
	off += picture(ev + off, cap - off, v, n, now);
	if (len && off < cap) {
		off += (size_t)snprintf(ev + off, cap - off, "\ndeadlock cycle:");
		for (int k = 0; k < len && off < cap; k++)
			off += (size_t)snprintf(ev + off, cap - off, " thread %d ->", v[path[k]].id);
		if (off < cap)
			off += (size_t)snprintf(ev + off, cap - off, " thread %d\n", v[path[0]].id);
		for (int k = 0; k < len && off < cap; k++) {
			const struct cgt_thread *a = &v[path[k]], *b = &v[path[(k + 1) % len]];

			if (a->wait_kind == CGT_WAIT_GP)
				off += (size_t)snprintf(ev + off, cap - off,
					"  thread %d waits for an RCU grace period, held up by thread %d inside rcu_read_lock\n",
					a->id, b->id);
			else
				off += (size_t)snprintf(ev + off, cap - off,
					"  thread %d waits for %s (%s), %s thread %d\n", a->id,
					a->wait_name, cgt_wait_name(a->wait_kind),
					b->wait_obj == a->wait_obj ? "queued behind the write of" :
					"held by", b->id);
		}
	}
	if (blocked_step >= 0)
		cgt_fail(CGT_DET_HANG, t->id, ev,
			 "no thread can run: thread %d (%s, tid %d) waits for %s (%s)%s",
			 t->id, cgt_role_name(t->role), t->pid, t->wait_name,
			 cgt_wait_name(t->wait_kind), len ? "; deadlock cycle found" : "");
	else
		cgt_fail(CGT_DET_HANG, t->id, ev,
			 "thread %d (%s, tid %d) blocked %.1f s waiting for %s (%s)%s",
			 t->id, cgt_role_name(t->role), t->pid,
			 (double)cgt_age_ns(now, t->wait_since_ns) / 1e9,
			 t->wait_name, cgt_wait_name(t->wait_kind),
			 len ? "; deadlock cycle found" : "");
	free(ev);
}

static void hang_stuck(long step)
{
	struct cgt_thread *v = calloc(CGT_SNAP_MAX, sizeof(*v));
	int n, first = -1;

	if (!v)
		return;
	n = cgt_threads_snapshot(v, CGT_SNAP_MAX);
	/* the lowest thread number among the waiters: the same one in every run */
	for (int i = 0; i < n; i++)
		if (v[i].wait_obj && !v[i].parked &&
		    (first < 0 || v[i].sched_id < v[first].sched_id))
			first = i;
	if (first >= 0)
		report_hang(v, n, first, cgt_clock_ns(), step);
	else
		cgt_fail(CGT_DET_HANG, 0, NULL, "at decision %ld no model thread can run", step);
	free(v);
}

/* Has the static lock @t waits for been taken by anyone since @t began to wait? */
static bool lock_moved(const struct cgt_thread *t)
{
	if (!t->wait_static || (t->wait_kind != CGT_WAIT_READ && t->wait_kind != CGT_WAIT_WRITE))
		return false;
	return cgt_lock_acquisitions(t->wait_obj) != t->wait_acq_seen;
}

/*
 * Does the group @t waits for in de_thread still move? A thread of it that passed a marked
 * point within the stall, waits in a queue that moves, or waits for nothing but a CPU (a
 * loaded machine), is on its way out; a group whose every thread is asleep and silent (or
 * that has none left: a lost wakeup) does not.
 */
static bool group_moves(const struct cgt_thread *v, int n, const struct cgt_thread *t,
			uint64_t now, uint64_t stall)
{
	if (t->wait_kind != CGT_WAIT_GROUP_EXIT)
		return false;
	for (int i = 0; i < n; i++) {
		const struct cgt_thread *u = &v[i];

		if (u == t || u->group != t->wait_obj)
			continue;
		if (cgt_age_ns(now, u->heartbeat_ns) <= stall || lock_moved(u) ||
		    (!u->wait_obj && cgt_thread_runnable(u->os_tid)))
			return true;
	}
	return false;
}

/*
 * One report per episode: every thread blocked past the stall is in its picture. Every wait
 * is judged by the one stall; a wait in a queue, or for a group, that still moves is not a
 * hang, and a thread that really hangs in it is reported for itself.
 */
static void hang_watch(const struct cgt_thread *v, int n, uint64_t now)
{
	uint64_t stall = (uint64_t)(stall_s * 1e9);
	int hung = -1;

	for (int i = 0; i < n; i++) {
		const struct cgt_thread *t = &v[i];

		if (!t->wait_obj || t->parked || (t->wait_reported & CGT_REPORTED_HANG) ||
		    cgt_age_ns(now, t->wait_since_ns) <= stall || lock_moved(t) ||
		    group_moves(v, n, t, now, stall))
			continue;
		cgt_thread_mark_wait(t->id, t->wait_since_ns, CGT_REPORTED_HANG);
		if (hung < 0)
			hung = i;
	}
	if (hung >= 0)
		report_hang(v, n, hung, now, -1);
}

/* Someone never came to park: stuck in the model, though perhaps not in any wait we see. */
static void hang_no_rest(double timeout)
{
	cgt_fail(CGT_DET_HANG, cgt_self ? cgt_self->id : 0, NULL,
		 "the model did not come to rest within %gs for the final check", timeout);
}

static int hang_start(const struct cgt_detect_config *cfg)
{
	stall_s = cfg->stall;
	return 0;
}

const struct cgt_detector_ops hang_detector = {
	.id		= CGT_DET_HANG,
	.start		= hang_start,
	.watch		= hang_watch,
	.stuck		= hang_stuck,
	.no_rest	= hang_no_rest,
};
