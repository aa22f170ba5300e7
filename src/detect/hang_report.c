// SPDX-License-Identifier: GPL-2.0
/*
 * The hang detector's report, as the kernel's hung-task report would be: the chain, the
 * wait-for picture, and the deadlock cycle when there is one.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "hang.h"

#define CHAIN_LINES	24		/* threads of a chain named in a report */

#define put(...) do { if (off < len) off += (size_t)snprintf(buf + off, len - off, __VA_ARGS__); } while (0)

static size_t describe(char *buf, size_t len, const struct cgt_thread *t, uint64_t now)
{
	size_t off = 0;

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
		put(" walking (%s) from tid %d, %ld steps", t->walk_fn, t->walk_start_pid,
		    t->walk_steps);
	put("\n");
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

/*
 * The chain from @w, breadth first: each waiter and what stands in its way, then the
 * threads at its end (in nobody's way but their own work) and what each is doing, or that
 * nobody holds what the last waiters wait for (a lost wakeup, or a lock left locked).
 */
static size_t chain(char *buf, size_t len, const struct graph *g, int w, bool cycle,
		    uint64_t now)
{
	int *queue = malloc(sizeof(int) * (size_t)g->n);
	char *seen = calloc((size_t)g->n, 1);
	int head = 0, tail = 0, ends = 0, orphans = 0;
	char state[48];
	size_t off = 0;

	if (!queue || !seen)
		goto out;
	queue[tail++] = w;
	seen[w] = 1;
	put("wait-for chain (each waiter, then who is in its way):\n");
	while (head < tail) {
		int u = queue[head++];
		const struct cgt_thread *t = &g->v[u];

		if (!t->wait_obj)
			continue;
		if (head <= CHAIN_LINES) {
			put("  thread %d waits for %s (%s) for %.2f s:", t->id, t->wait_name,
			    cgt_wait_name(t->wait_kind), (double)cgt_age_ns(now, t->wait_since_ns) / 1e9);
			if (!g->nout[u])
				put(" nobody in its way holds it, and it is %s",
				    hang_cpu_state(t, state, sizeof(state)));
		}
		orphans += !g->nout[u];
		for (int k = 0; k < g->nout[u]; k++) {
			int h = g->to[g->first[u] + k];

			if (head <= CHAIN_LINES && k < 8)
				put(" thread %d", g->v[h].id);
			if (!seen[h] && tail < g->n) {
				seen[h] = 1;
				queue[tail++] = h;
			}
		}
		if (head <= CHAIN_LINES)
			put("%s\n", g->nout[u] > 8 ? " ..." : "");
	}
	put("at its end:\n");
	for (int k = 0; k < tail; k++) {
		const struct cgt_thread *t = &g->v[queue[k]];

		if (t->wait_obj || ends++ >= CHAIN_LINES)
			continue;
		off += describe(buf + off, off < len ? len - off : 0, t, now);
		put("    last marked point %.2f s ago; %s\n",
		    (double)cgt_age_ns(now, t->heartbeat_ns) / 1e9, hang_cpu_state(t, state, sizeof(state)));
	}
	if (!ends && orphans)
		put("  no thread holds what the chain waits for (%d waiter(s) with nobody in the way)\n",
		    orphans);
	else if (!ends && cycle)
		put("  none: the chain closes on itself (the deadlock cycle below)\n");
out:
	free(queue);
	free(seen);
	return off;
}
#undef put

/* @blocked_step: a controlled run where no thread can run, at this decision; else -1. */
void hang_report(const struct graph *g, int i, uint64_t now, long blocked_step,
		 double stall_s)
{
	const struct cgt_thread *v = g->v, *t = &v[i];
	char *state = calloc((size_t)g->n, 1);
	int stack[32], path[32], cycle[32], len = 0;
	size_t off = 0, cap = 16384;
	char *ev = malloc(cap);

	if (!ev || !state)
		goto out;
	len = hang_find_cycle(g, i, stack, 0, state, path);
	if (blocked_step >= 0)
		off += (size_t)snprintf(ev + off, cap - off,
					"INFO: at decision %ld no model thread can run; thread %d (%s, tid %d)\n"
					"waits for %s (%s)\n\n", blocked_step,
					t->id, cgt_role_name(t->role), t->pid, t->wait_name,
					cgt_wait_name(t->wait_kind));
	else
		off += (size_t)snprintf(ev + off, cap - off,
					"INFO: thread %d (%s, tid %d) blocked for more than %g seconds,\n"
					"waiting for %s (%s), and nothing along its wait-for chain moved\n\n",
					t->id, cgt_role_name(t->role), t->pid, stall_s, t->wait_name,
					cgt_wait_name(t->wait_kind));
	off += chain(ev + off, cap - off, g, i, len > 0, now);
	if (off < cap)
		off += (size_t)snprintf(ev + off, cap - off, "\nwait-for picture:\n");
	off += picture(ev + off, off < cap ? cap - off : 0, v, g->n, now);
	if (len && off < cap) {
		off += (size_t)snprintf(ev + off, cap - off, "\n" CGT_HANG_CYCLE);
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
	/* the cycle's threads, as data: the report's picture and timeline are theirs */
	for (int k = 0; k < len; k++)
		cycle[k] = v[path[k]].id;
	if (blocked_step >= 0)
		cgt_fail_involving(CGT_DET_HANG, t->id, cycle, len, ev,
				   "no thread can run: thread %d (%s, tid %d) waits for %s (%s)%s",
				   t->id, cgt_role_name(t->role), t->pid, t->wait_name,
				   cgt_wait_name(t->wait_kind), len ? "; deadlock cycle found" : "");
	else
		cgt_fail_involving(CGT_DET_HANG, t->id, cycle, len, ev,
				   "thread %d (%s, tid %d) blocked %.1f s waiting for %s (%s)%s",
				   t->id, cgt_role_name(t->role), t->pid,
				   (double)cgt_age_ns(now, t->wait_since_ns) / 1e9,
				   t->wait_name, cgt_wait_name(t->wait_kind),
				   len ? "; deadlock cycle found" : "");
out:
	free(state);
	free(ev);
}
