// SPDX-License-Identifier: GPL-2.0
/*
 * A short counterexample told whole, thread by thread, as Lincheck prints an interleaving:
 * a column per thread, a row per event of the thread that ran (its turn: a run of
 * decisions), from its own events; the first row of a turn that began with a preemption is
 * marked. Told only when the schedule up to the failure is short enough to read whole: a
 * shrunk one, usually.
 *
 *   decision   | T2 (tid 2)                     | T3 (tid 3)
 *   38         |                                | took cgroup_mutex
 *   47         |                                | cgroup_attach_task: group collected
 *   57*        | copy_process: task allocated   |
 */
#include <stdio.h>
#include <string.h>

#include "columns.h"
#include "../core/failure.h"
#include "../core/thread.h"
#include "../sched/sched.h"

#define MAX_TURNS	40	/* a schedule longer than this is told by the story alone */
#define MAX_COLUMNS	5
#define WIDTH		150	/* characters a row takes at most */
#define MAX_ROWS	80

static char columns[8192];

struct turn {
	int col;
	long from, to;		/* decisions, both in */
	bool preempted;		/* it began with a preemption of the one before */
};

/* An event as a cell shows it: short, its lock or task named. */
static int label(char *buf, size_t len, const struct cgt_event *e, const struct cgt_thread *t)
{
	switch (e->point) {
	case CGT_PT_LOCK_HELD:
		return snprintf(buf, len, "took %s", e->name ? e->name : "a lock");
	case CGT_PT_LOCK_RELEASE:
		return snprintf(buf, len, "dropped %s", e->name ? e->name : "a lock");
	case CGT_PT_RCU_ENTER:
		return snprintf(buf, len, "rcu_read_lock");
	default:
		if (e->pid && e->pid != t->pid)
			return snprintf(buf, len, "%s: tid %d", cgt_point_info[e->point].desc, e->pid);
		return snprintf(buf, len, "%s", cgt_point_info[e->point].desc);
	}
}

/* One row: @what in column @col (none after it), at decision @when marked @mark. */
static size_t row(char *buf, size_t len, long when, const char *mark, int col, int width,
		  const char *what)
{
	char at[24] = "";
	size_t off;

	if (when >= 0)
		snprintf(at, sizeof(at), "%ld%s", when, mark);
	off = (size_t)snprintf(buf, len, "\n%-10s", at);
	for (int c = 0; c <= col && off < len; c++)
		off += (size_t)snprintf(buf + off, len - off, " | %-*.*s", c < col ? width : 0,
					width, c == col ? what : "");
	return off;
}

/*
 * The rows of one turn of @t, decisions @from..@to: a row per event, a repeat counted
 * ("x3"); the end of an operation, the wait before a lock and the end of a read-side
 * section left out (the story has them); a turn with none that began with a preemption
 * says it ran on.
 */
static size_t turn_rows(char *buf, size_t len, const struct cgt_thread *t,
			const struct turn *tu, int width, int *rows)
{
	uint32_t head = t ? t->ring_head : 0, have = head < CGT_RING_SIZE ? head : CGT_RING_SIZE;
	char last[128] = "", now[128];
	long at = -1;
	int repeat = 0;
	size_t off = 0;
	bool first = true;

	for (uint32_t i = head - have; i != head + 1 && off < len; i++) {
		const struct cgt_event *e = i != head ? &t->ring[i & (CGT_RING_SIZE - 1)] : NULL;

		/* an event's time is the decisions made so far: decision ns - 1 let it run */
		if (e && (e->point >= CGT_NR_POINTS || e->point == CGT_PT_LOOP ||
			  e->point == CGT_PT_LOCK_WAIT || e->point == CGT_PT_RCU_EXIT ||
			  (long)e->ns - 1 < tu->from || (long)e->ns - 1 > tu->to))
			continue;
		if (e)
			label(now, sizeof(now), e, t);
		if (e && !strcmp(now, last)) {
			repeat++;
			continue;
		}
		if (last[0]) {
			char what[160];

			snprintf(what, sizeof(what), repeat ? "%s x%d" : "%s", last, repeat + 1);
			off += row(buf + off, len - off, at, first && tu->preempted ? "*" : "",
				   tu->col, width, what);
			first = false;
			(*rows)++;
		}
		if (!e)
			break;
		memcpy(last, now, sizeof(last));
		at = (long)e->ns;
		repeat = 0;
	}
	if (first && tu->preempted && off < len) {
		off += row(buf + off, len - off, tu->from, "*", tu->col, width, "(runs on)");
		(*rows)++;
	}
	return off;
}

void cgt_columns_tell(const struct cgt_capture *c)
{
	const struct cgt_schedule *s = cgt_sched_recorded();
	const struct cgt_preemption *pre;
	long npre = cgt_sched_preemptions(&pre), upto = (long)c->at - 1, pi = 0;
	struct turn turns[MAX_TURNS];
	int ids[MAX_COLUMNS], ncols = 0, nturns = 0, width, rows = 0;
	size_t off = 0;

	columns[0] = '\0';
	/* the failure is seen after c->at decisions, by the thread the last of them chose */
	if (upto >= s->len)
		upto = s->len - 1;
	if (!c->controlled || upto < 0)
		return;
	for (long k = 0; k <= upto; k++) {
		int col;

		if (k && s->choice[k] == s->choice[k - 1]) {
			turns[nturns - 1].to = k;
			continue;
		}
		for (col = 0; col < ncols && ids[col] != s->choice[k]; col++)
			;
		if (col == ncols && ncols == MAX_COLUMNS)
			return;
		if (col == ncols)
			ids[ncols++] = s->choice[k];
		if (nturns == MAX_TURNS)
			return;
		while (pi < npre && pre[pi].step < k)
			pi++;
		turns[nturns++] = (struct turn){ col, k, k, pi < npre && pre[pi].step == k };
	}
	turns[nturns - 1].to = upto;
	width = (WIDTH - 10) / ncols - 3;
	off += (size_t)snprintf(columns + off, sizeof(columns) - off, "%-10s", "decision");
	for (int col = 0; col < ncols && off < sizeof(columns); col++) {
		const struct cgt_thread *t = cgt_capture_sched_thread(c, ids[col]);
		char head[40];

		if (t)
			cgt_capture_who(head, sizeof(head), t);
		else
			snprintf(head, sizeof(head), "T%d", ids[col]);
		off += (size_t)snprintf(columns + off, sizeof(columns) - off, " | %-*s",
					col < ncols - 1 ? width : 0, head);
	}
	for (int i = 0; i < nturns && off < sizeof(columns); i++)
		off += turn_rows(columns + off, sizeof(columns) - off,
				 cgt_capture_sched_thread(c, ids[turns[i].col]), &turns[i], width,
				 &rows);
	if (off < sizeof(columns)) {
		char what[64];

		snprintf(what, sizeof(what), "fails: %s", cgt_detector_names[c->failure.detector]);
		off += row(columns + off, sizeof(columns) - off, (long)c->at, "", turns[nturns - 1].col,
			   width, what);
	}
	if (rows > MAX_ROWS || off >= sizeof(columns)) {
		columns[0] = '\0';		/* too long to read whole: the story tells it */
		return;
	}
	snprintf(columns + off, sizeof(columns) - off, "\n");
}

const char *cgt_columns(void)
{
	return columns[0] ? columns : NULL;
}

void cgt_columns_reset(void)
{
	columns[0] = '\0';
}
