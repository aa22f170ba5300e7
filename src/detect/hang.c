// SPDX-License-Identifier: GPL-2.0
/*
 * hang: a wait-for chain that stopped, reported as the kernel's hung-task report would be,
 * with the chain (who waits for whom, down to the holders at its end and what they are
 * doing), the wait-for picture over every model lock and the RCU grace period, and the
 * deadlock cycle when there is one. A free-running run judges by progress, not time alone:
 * a thread that has waited past --stall is hung only if nothing along its chain has moved
 * within the stall (no lock on it was taken, no thread on it passed a marked point, none at
 * its end is runnable). A long queue that keeps moving is a convoy: counted per lock class,
 * never a failure (the kernel's hung_task waits 120 s for the same reason). A controlled run
 * reports the moment no model thread can run (stuck).
 */
#include <stdint.h>
#include <stdlib.h>

#include "hang.h"
#include "../locks/lock.h"

static double stall_s;

static void hang_stuck(long step)
{
	struct cgt_thread *v = NULL;
	struct graph g;
	int cap = 0, n, first = -1;

	n = cgt_threads_snapshot(&v, &cap);
	if (n < 0 || hang_graph_build(&g, v, n)) {
		cgt_fail(CGT_DET_HANG, 0, NULL, "at decision %ld no model thread can run", step);
		free(v);
		return;
	}
	/* the lowest thread number among the waiters: the same one in every run */
	for (int i = 0; i < n; i++)
		if (v[i].wait_obj && !v[i].parked &&
		    (first < 0 || v[i].sched_id < v[first].sched_id))
			first = i;
	if (first >= 0)
		hang_report(&g, first, cgt_clock_ns(), step, stall_s);
	else
		cgt_fail(CGT_DET_HANG, 0, NULL, "at decision %ld no model thread can run", step);
	hang_graph_free(&g);
	free(v);
}

/* Threads waiting per lock class in this look, and those past the stall in a moving queue. */
static void note_queues(const struct graph *g, uint64_t now, uint64_t stall)
{
	enum { MAX_NAMES = 32 };
	const char *name[MAX_NAMES];
	int waiters[MAX_NAMES] = { 0 }, convoy[MAX_NAMES] = { 0 }, nnames = 0;

	for (int i = 0; i < g->n; i++) {
		const struct cgt_thread *t = &g->v[i];
		int k;

		if (!t->wait_obj || (t->wait_kind != CGT_WAIT_READ && t->wait_kind != CGT_WAIT_WRITE))
			continue;
		for (k = 0; k < nnames && name[k] != t->wait_name; k++)
			;
		if (k == nnames) {
			if (nnames == MAX_NAMES)
				continue;
			name[nnames++] = t->wait_name;
		}
		waiters[k]++;
		if (cgt_age_ns(now, t->wait_since_ns) > stall && g->moves[i] == MOVES)
			convoy[k]++;
	}
	for (int k = 0; k < nnames; k++)
		cgt_lock_class_note_queue(name[k], waiters[k], convoy[k]);
}

/* Does @w's chain reach a wait already reported: the same episode, grown longer? */
static bool reaches_reported(const struct graph *g, int w)
{
	int *queue = malloc(sizeof(int) * (size_t)g->n);
	char *seen = calloc((size_t)g->n, 1);
	int head = 0, tail = 0;
	bool found = false;

	if (!queue || !seen)
		goto out;
	queue[tail++] = w;
	seen[w] = 1;
	while (head < tail && !found) {
		int u = queue[head++];

		found = u != w && g->v[u].wait_obj && (g->v[u].wait_reported & CGT_REPORTED_HANG);
		for (int k = 0; k < g->nout[u]; k++) {
			int h = g->to[g->first[u] + k];

			if (!seen[h]) {
				seen[h] = 1;
				queue[tail++] = h;
			}
		}
	}
out:
	free(queue);
	free(seen);
	return found;
}

/* A waiter past the stall, not yet reported, whose chain stopped: a hang, if the copy holds. */
static bool stopped_candidate(const struct graph *g, int i, uint64_t now, uint64_t stall)
{
	const struct cgt_thread *t = &g->v[i];

	return t->wait_obj && !t->parked && !(t->wait_reported & CGT_REPORTED_HANG) &&
	       cgt_age_ns(now, t->wait_since_ns) > stall && g->moves[i] != MOVES;
}

/*
 * A chain judged stopped on the copy is judged again on the live threads: one that moved
 * since it was copied (woken, run, and asleep in its next wait by the time /proc was read)
 * moves, and so does every chain through it. Only when some chain stopped: one pass over
 * the registry.
 */
static void recheck_stopped(struct graph *g, uint64_t now, uint64_t stall)
{
	char *moved;
	int i;

	for (i = 0; i < g->n && !stopped_candidate(g, i, now, stall); i++)
		;
	if (i == g->n || !(moved = malloc((size_t)g->n)))
		return;
	if (!cgt_threads_moved(g->v, g->n, moved)) {
		for (i = 0; i < g->n; i++)
			if (moved[i])
				g->moves[i] = MOVES;
		hang_graph_progress(g, now, stall);
	}
	free(moved);
}

/*
 * One report per episode: every thread blocked past the stall with nothing moving along its
 * chain is in its picture, and only the first is reported; each is marked so that it is not
 * reported again for the same wait, and a waiter that joins a reported chain later (it began
 * to wait a moment after) is marked without a report of its own.
 */
static void hang_watch(const struct cgt_thread *v, int n, uint64_t now)
{
	uint64_t stall = (uint64_t)(stall_s * 1e9);
	struct graph g;
	int hung = -1;
	bool any = false;

	for (int i = 0; i < n && !any; i++)
		any = v[i].wait_obj != NULL;
	if (!any || hang_graph_build(&g, v, n))
		return;
	hang_note_in_way(&g, now);
	hang_graph_progress(&g, now, stall);
	recheck_stopped(&g, now, stall);
	note_queues(&g, now, stall);
	for (int i = 0; i < n; i++) {
		const struct cgt_thread *t = &v[i];

		if (!stopped_candidate(&g, i, now, stall))
			continue;
		cgt_thread_mark_wait(t->id, t->wait_since_ns, CGT_REPORTED_HANG);
		if (hung < 0 && !reaches_reported(&g, i))
			hung = i;
	}
	if (hung >= 0)
		hang_report(&g, hung, now, -1, stall_s);
	hang_graph_free(&g);
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
	hang_judge_reset();
	return 0;
}

const struct cgt_detector_ops hang_detector = {
	.id		= CGT_DET_HANG,
	.start		= hang_start,
	.watch		= hang_watch,
	.stuck		= hang_stuck,
	.no_rest	= hang_no_rest,
	.kind		= cgt_hang_kind,
};
