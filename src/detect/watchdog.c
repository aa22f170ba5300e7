// SPDX-License-Identifier: GPL-2.0
/*
 * The watchdog: a thread that looks at every harness thread ten times a second.
 *
 * livelock   a walk older than --stall is told to stop (the walker itself then reports,
 *            from inside its RCU section, what became of its start thread);
 * hang       a thread blocked longer than --stall is reported as the kernel's hung-task
 *            report would be, with the wait-for picture over every model lock and the RCU
 *            grace period, and the deadlock cycle when there is one;
 * starvation a writer waiting longer than --starve while readers keep passing it;
 * deadline   past the hard deadline, the run is told to write what it has and leave.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "detect.h"
#include "../core/failure.h"
#include "../core/thread.h"
#include "../locks/lock.h"

#define WATCH_PERIOD_NS	100000000L
#define MAX_SNAP	4096
#define MAX_STARVED	8	/* starved writers reported per look */

static struct cgt_detect_config dcfg;
static pthread_t watchdog;
static int watchdog_stop;
static bool watchdog_running;

/* A consistent-enough copy of every live thread, taken under the registry lock. */
struct snap {
	struct cgt_thread *live;	/* the thread itself, valid under the registry lock only */
	struct cgt_thread s;
};

static int snapshot(struct snap *out, int max)
{
	struct cgt_thread *t;
	int n = 0;

	for (t = cgt_threads_first(); t && n < max; t = t->next) {
		out[n].live = t;
		cgt_thread_copy(&out[n].s, t);
		n++;
	}
	return n;
}

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
static int find_cycle(struct snap *v, int n, int at, int *stack, int depth, char *state,
		      int *path)
{
	if (depth >= 32)
		return 0;
	stack[depth] = at;
	state[at] = 1;			/* on the stack */
	for (int j = 0; j < n; j++) {
		if (!blocks(&v[at].s, &v[j].s))
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
static size_t picture(char *buf, size_t len, struct snap *v, int n, uint64_t now)
{
	size_t off = 0;

	for (int i = 0; i < n && off < len; i++) {
		const struct cgt_thread *t = &v[i].s;

		if (t->wait_obj || t->nheld || t->rcu_depth)
			off += describe(buf + off, len - off, t, now);
	}
	return off;
}

void cgt_waitfor_picture(char *buf, size_t len)
{
	struct snap *v = calloc(MAX_SNAP, sizeof(*v));
	int n;

	buf[0] = '\0';
	if (!v)
		return;
	cgt_threads_lock();
	n = snapshot(v, MAX_SNAP);
	cgt_threads_unlock();
	picture(buf, len, v, n, cgt_clock_ns());
	free(v);
}

/* @blocked_step: a controlled run where no thread can run, at this decision; else -1. */
static void report_hang(struct snap *v, int n, int i, uint64_t now, long blocked_step)
{
	const struct cgt_thread *t = &v[i].s;
	static char state[MAX_SNAP];
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
					t->id, cgt_role_name(t->role), t->pid, dcfg.stall, t->wait_name,
					cgt_wait_name(t->wait_kind));
	off += picture(ev + off, cap - off, v, n, now);
	if (len && off < cap) {
		off += (size_t)snprintf(ev + off, cap - off, "\ndeadlock cycle:");
		for (int k = 0; k < len && off < cap; k++)
			off += (size_t)snprintf(ev + off, cap - off, " thread %d ->", v[path[k]].s.id);
		if (off < cap)
			off += (size_t)snprintf(ev + off, cap - off, " thread %d\n", v[path[0]].s.id);
		for (int k = 0; k < len && off < cap; k++) {
			const struct cgt_thread *a = &v[path[k]].s, *b = &v[path[(k + 1) % len]].s;

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

void cgt_report_deadlock(long step)
{
	struct snap *v = calloc(MAX_SNAP, sizeof(*v));
	int n, first = -1;

	if (!v)
		return;
	cgt_threads_lock();
	n = snapshot(v, MAX_SNAP);
	cgt_threads_unlock();
	/* the lowest thread number among the waiters: the same one in every run */
	for (int i = 0; i < n; i++)
		if (v[i].s.wait_obj && !v[i].s.parked &&
		    (first < 0 || v[i].s.sched_id < v[first].s.sched_id))
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
	const struct cgt_lock *l = t->wait_obj;

	if (!t->wait_static || (t->wait_kind != CGT_WAIT_READ && t->wait_kind != CGT_WAIT_WRITE))
		return false;
	return __atomic_load_n(&l->acquisitions, __ATOMIC_RELAXED) != t->wait_acq_seen;
}

static void watch_once(struct snap *v)
{
	uint64_t stall = (uint64_t)(dcfg.stall * 1e9), starve = (uint64_t)(dcfg.starve * 1e9);
	struct { int i; long reads; } starved[MAX_STARVED];
	int hung = -1, n, nstarved = 0;
	uint64_t now;

	cgt_threads_lock();
	n = snapshot(v, MAX_SNAP);
	now = cgt_clock_ns();
	for (int i = 0; i < n; i++) {
		struct cgt_thread *t = &v[i].s, *live = v[i].live;

		if (t->walk_active && cgt_age_ns(now, t->walk_since_ns) > stall && !t->walk_abort)
			WRITE_ONCE(live->walk_abort, 1);
		if (!t->wait_obj || t->parked)
			continue;
		if (starve && t->wait_kind == CGT_WAIT_WRITE && t->wait_static &&
		    cgt_age_ns(now, t->wait_since_ns) > starve && !(t->wait_reported & 2) &&
		    nstarved < MAX_STARVED) {
			const struct cgt_lock *l = t->wait_obj;
			long reads = __atomic_load_n(&l->reads, __ATOMIC_RELAXED) - t->wait_reads_seen;
			long writes = __atomic_load_n(&l->writes, __ATOMIC_RELAXED) - t->wait_writes_seen;

			/* readers keep coming and no writer gets in: the readers keep it out */
			if (reads > 0 && !writes) {
				WRITE_ONCE(live->wait_reported, t->wait_reported | 2);
				starved[nstarved].i = i;
				starved[nstarved++].reads = reads;
			}
		}
		/*
		 * One report per episode: every thread blocked past the stall is in its picture.
		 * A lock that others keep taking is busy, not hung (unfair at worst). An exec
		 * waits for threads that may themselves wait in long queues: it gets five stalls,
		 * and a thread that really hangs is reported for itself.
		 */
		if (cgt_age_ns(now, t->wait_since_ns) > (t->wait_kind == CGT_WAIT_GROUP_EXIT ? 5 : 1) * stall &&
		    !(t->wait_reported & 1) && !lock_moved(t)) {
			WRITE_ONCE(live->wait_reported, t->wait_reported | 1);
			if (hung < 0)
				hung = i;
		}
	}
	cgt_threads_unlock();
	/* reported with the registry unlocked: cgt_fail copies the thread it names */
	for (int k = 0; k < nstarved; k++) {
		const struct cgt_thread *t = &v[starved[k].i].s;

		cgt_fail(CGT_DET_STARVATION, t->id, NULL,
			 "thread %d (tid %d) has waited %.2f s to write %s while %ld reads got in and no writer did",
			 t->id, t->pid, (double)cgt_age_ns(now, t->wait_since_ns) / 1e9, t->wait_name,
			 starved[k].reads);
	}
	if (hung >= 0)
		report_hang(v, n, hung, now, -1);
}

/* A sanitizer report since the last look is a failure now, not only at the end. */
static void watch_sanitizers(struct cgt_thread *self, long *seen)
{
	long n = cgt_sanitizer_reports();

	if (n > *seen && !strcmp(cgt_build_name(), "tsan"))
		cgt_fail(CGT_DET_TSAN, self->id, "the ThreadSanitizer reports are on stderr\n",
			 "ThreadSanitizer reported %ld data race(s) so far", n);
	*seen = n;
}

static void *watchdog_main(void *arg)
{
	struct snap *v = calloc(MAX_SNAP, sizeof(*v));
	struct cgt_thread self;
	struct timespec ts = { 0, WATCH_PERIOD_NS };
	long sanitizer_seen = 0;

	(void)arg;
	cgt_thread_register(&self, CGT_ROLE_WATCHDOG, 0);
	while (v && !__atomic_load_n(&watchdog_stop, __ATOMIC_ACQUIRE)) {
		nanosleep(&ts, NULL);
		/* a controlled run's scheduler finds these itself, counting decisions, not time */
		if (!dcfg.controlled) {
			watch_once(v);
			watch_sanitizers(&self, &sanitizer_seen);
		}
		if (dcfg.deadline > 0 && cgt_clock_ns() > (uint64_t)(dcfg.deadline * 1e9)) {
			cgt_fail(CGT_DET_DEADLINE, self.id, NULL,
				 "the run did not end by its hard deadline (%.0f s)", dcfg.deadline);
			if (dcfg.on_deadline)
				dcfg.on_deadline();
			break;
		}
	}
	if (!dcfg.controlled)
		watch_sanitizers(&self, &sanitizer_seen);
	cgt_thread_unregister(&self);
	free(v);
	return NULL;
}

int cgt_detect_start(const struct cgt_detect_config *cfg)
{
	dcfg = *cfg;
	cgt_lock_set_starve_ns((uint64_t)(cfg->starve * 1e9));
	cgt_events_install(cfg->perturb, cfg->seed);
	__atomic_store_n(&watchdog_stop, 0, __ATOMIC_RELAXED);
	if (pthread_create(&watchdog, NULL, watchdog_main, NULL))
		return -1;
	watchdog_running = true;
	return 0;
}

void cgt_detect_stop(void)
{
	__atomic_store_n(&watchdog_stop, 1, __ATOMIC_RELEASE);
	if (watchdog_running)
		pthread_join(watchdog, NULL);
	watchdog_running = false;
	cgt_events_remove();
}
