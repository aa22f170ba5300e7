// SPDX-License-Identifier: GPL-2.0
/*
 * The timeline of a failure in the Chrome Trace Event format (the "JSON Object Format":
 * {"traceEvents": [...]}), drawn from the capture's event rings. Each model thread shown is
 * a process of the trace, named by its role and tid, with tracks (the trace's threads):
 * "operations" (fork, exec, exit, migrate, observe, each with its kernel functions nested in
 * it, of category "function" so a reader tells them apart), one per model lock (its waits
 * and holds, with the side), and "rcu" (read-side sections, grace periods waited for). Slices are complete events ("X"), nested on each
 * track; the marked points are instants ("i"), each detector report an instant with its
 * evidence; a wait-for edge of a hang is a flow arrow ("s" to "f") from the waiter to the
 * thread in its way. Timestamps are microseconds in a free-running run, decisions in a
 * controlled one (the trace says which in "otherData"). No rcu_read_unlock is a marked
 * point, so a read-side section is drawn to the end of its operation.
 */
#include <stdlib.h>
#include <string.h>

#include "trace.h"

#define TRACK_OPS	1
#define TRACK_RCU	2
#define TRACK_LOCKS	3	/* and up: one per lock name */
#define MAX_LOCKS	8
#define MAX_SLICES	1024

struct slice {
	int track;
	bool function;			/* a kernel function inside its operation */
	double ts, end;
	char name[64];
	json_t *args;
};

struct thread_trace {
	const struct cgt_capture *c;
	const struct cgt_thread *t;
	int pid;			/* the trace's pid: the harness thread id */
	bool finished;			/* gone before the capture */
	const char *locks[MAX_LOCKS];
	int nlocks;
	struct slice s[MAX_SLICES];
	int n;
	/* what is open as the events are read */
	int op, fn, rcu[4], nrcu, gp;	/* slice indexes, or -1 */
	int hold[MAX_LOCKS][4], nhold[MAX_LOCKS], wait[MAX_LOCKS];
	double op_start;		/* where its current operation began */
};

const char *cgt_trace_unit(const struct cgt_capture *c)
{
	return c->controlled ? "decisions" : "us";
}

static double ts_of(const struct cgt_capture *c, uint64_t t)
{
	return c->controlled ? (double)t : (double)t / 1e3;
}

/* The operation and the kernel function a marked point belongs to, or NULL. */
static const char *op_of(int point, const char **fn)
{
	switch (point) {
	case CGT_PT_FORK_ALLOC: case CGT_PT_FORK_LINKED:
		*fn = "copy_process";
		return "fork";
	case CGT_PT_EXIT_SIGNALS: case CGT_PT_EXIT_CGROUP:
		*fn = "do_exit";
		return "exit";
	case CGT_PT_EXIT_NOTIFY:
		*fn = "exit_notify";
		return "exit";
	case CGT_PT_RELEASE:
		*fn = "release_task";
		return "exit";
	case CGT_PT_EXEC_ZAP: case CGT_PT_EXEC_WAIT: case CGT_PT_EXEC_SWITCH:
		*fn = "de_thread";
		return "exec";
	case CGT_PT_ATTACH_SNAPSHOT: case CGT_PT_ATTACH_MOVE:
		*fn = "cgroup_attach_task";
		return "migrate";
	case CGT_PT_WALK_START:
		*fn = "thread-group walk";
		return "observe";
	case CGT_PT_READDIR_STEP:
		*fn = "proc_task_readdir";
		return "observe";
	default:
		return NULL;
	}
}

static int open_slice(struct thread_trace *tt, int track, double ts, const char *name)
{
	struct slice *s;

	if (tt->n == MAX_SLICES)
		return -1;
	s = &tt->s[tt->n];
	s->track = track;
	s->function = false;
	s->ts = ts;
	s->end = -1;
	s->args = json_object();
	snprintf(s->name, sizeof(s->name), "%s", name);
	return tt->n++;
}

static void close_slice(struct thread_trace *tt, int *i, double ts)
{
	if (*i >= 0 && tt->s[*i].end < 0)
		tt->s[*i].end = ts;
	*i = -1;
}

static int lock_track(struct thread_trace *tt, const char *name)
{
	for (int i = 0; i < tt->nlocks; i++)
		if (!strcmp(tt->locks[i], name))
			return i;
	if (tt->nlocks == MAX_LOCKS)
		return -1;
	tt->wait[tt->nlocks] = -1;
	tt->locks[tt->nlocks] = name;
	return tt->nlocks++;
}

static void end_op(struct thread_trace *tt, double ts)
{
	close_slice(tt, &tt->fn, ts);
	close_slice(tt, &tt->op, ts);
	/* no marked point at rcu_read_unlock: a section ends with its operation at the latest */
	while (tt->nrcu)
		close_slice(tt, &tt->rcu[--tt->nrcu], ts);
	tt->op_start = ts;
}

static void lock_event(struct thread_trace *tt, const struct cgt_event *e, double ts)
{
	int k = e->name ? lock_track(tt, e->name) : -1;
	const char *side = e->side == 1 ? "write" : e->side == 0 ? "read" : "?";
	char name[64];

	if (k < 0)
		return;
	switch (e->point) {
	case CGT_PT_LOCK_WAIT:
		close_slice(tt, &tt->wait[k], ts);
		snprintf(name, sizeof(name), "wait %s (%s)", e->name, side);
		tt->wait[k] = open_slice(tt, TRACK_LOCKS + k, ts, name);
		break;
	case CGT_PT_LOCK_HELD:
		close_slice(tt, &tt->wait[k], ts);
		snprintf(name, sizeof(name), "hold %s (%s)", e->name, side);
		if (tt->nhold[k] < 4)
			tt->hold[k][tt->nhold[k]++] = open_slice(tt, TRACK_LOCKS + k, ts, name);
		break;
	default:	/* LOCK_RELEASE */
		if (tt->nhold[k])
			close_slice(tt, &tt->hold[k][--tt->nhold[k]], ts);
		break;
	}
	if (tt->n && tt->s[tt->n - 1].end < 0 && e->point != CGT_PT_LOCK_RELEASE) {
		json_object_set_new(tt->s[tt->n - 1].args, "lock", json_string(e->name));
		json_object_set_new(tt->s[tt->n - 1].args, "side", json_string(side));
	}
}

static json_t *instant(const struct thread_trace *tt, int track, double ts, const char *name,
		       json_t *args)
{
	return json_pack("{s:s, s:s, s:s, s:f, s:i, s:i, s:o}", "name", name, "ph", "i",
			 "s", "t", "ts", ts, "pid", tt->pid, "tid", track, "args", args);
}

/* The slices and instants of one thread's ring, appended to @out; open slices end at @end. */
static void thread_events(struct thread_trace *tt, json_t *out, double end)
{
	const struct cgt_thread *t = tt->t;
	uint32_t head = t->ring_head, have = head < CGT_RING_SIZE ? head : CGT_RING_SIZE;
	bool first = true;

	tt->op = tt->fn = tt->gp = -1;
	for (uint32_t i = head - have; i != head; i++) {
		const struct cgt_event *e = &t->ring[i & (CGT_RING_SIZE - 1)];
		double ts = ts_of(tt->c, e->ns);
		const char *fn = NULL, *op = e->point < CGT_NR_POINTS ? op_of(e->point, &fn) : NULL;

		if (e->point >= CGT_NR_POINTS)
			continue;
		if (e->point == CGT_PT_WALK_START && e->name)
			fn = e->name;		/* the kernel function that walks */
		if (first) {
			tt->op_start = ts;
			first = false;
		}
		close_slice(tt, &tt->gp, ts);	/* whatever it does next, the wait is over */
		switch (e->point) {
		case CGT_PT_LOOP:
			end_op(tt, ts);
			continue;
		case CGT_PT_LOCK_WAIT: case CGT_PT_LOCK_HELD: case CGT_PT_LOCK_RELEASE:
			lock_event(tt, e, ts);
			continue;
		case CGT_PT_RCU_ENTER:
			if (tt->nrcu < 4)
				tt->rcu[tt->nrcu++] = open_slice(tt, TRACK_RCU, ts,
								 "rcu_read_lock section");
			continue;
		case CGT_PT_GP_WAIT:
			tt->gp = open_slice(tt, TRACK_RCU, ts, "synchronize_rcu: grace period");
			continue;
		default:
			break;
		}
		/* a migration (or an exit, an exec) walks its group too: the walk does not name it */
		if (op && tt->op >= 0 && !strcmp(tt->s[tt->op].name, "observe") &&
		    strcmp(op, "observe"))
			snprintf(tt->s[tt->op].name, sizeof(tt->s[tt->op].name), "%s", op);
		if (op && tt->op < 0) {
			tt->op = open_slice(tt, TRACK_OPS, tt->op_start, op);
			if (tt->op >= 0 && i == head - have && head > CGT_RING_SIZE)
				json_object_set_new(tt->s[tt->op].args, "begun_before_the_ring",
						    json_true());
		}
		if (fn && (tt->fn < 0 || strcmp(tt->s[tt->fn].name, fn))) {
			close_slice(tt, &tt->fn, ts);
			tt->fn = open_slice(tt, TRACK_OPS, ts, fn);
			if (tt->fn >= 0)
				tt->s[tt->fn].function = true;
			if (tt->fn >= 0 && e->point == CGT_PT_WALK_START)
				json_object_set_new(tt->s[tt->fn].args, "start_tid",
						    json_integer(e->pid));
		}
		json_array_append_new(out, instant(tt, TRACK_OPS, ts, cgt_point_info[e->point].desc,
				      e->pid ? json_pack("{s:i}", "tid", e->pid) : json_object()));
	}
	/*
	 * What is still going on at the capture: drawn to its end, and said to be open; a
	 * thread that had finished ended with its last event.
	 */
	if (tt->op < 0 && !first)
		tt->op = open_slice(tt, TRACK_OPS, tt->op_start, "operation");
	if (tt->finished && have)
		end = ts_of(tt->c, t->ring[(head - 1) & (CGT_RING_SIZE - 1)].ns);
	for (int i = 0; i < tt->n; i++) {
		if (tt->s[i].end >= 0)
			continue;
		tt->s[i].end = end;
		json_object_set_new(tt->s[i].args, tt->finished ? "ended_with_the_thread" :
				    "open_at_capture", json_true());
	}
}

static int by_start(const void *a, const void *b)
{
	const struct slice *x = a, *y = b;

	if (x->track != y->track)
		return x->track - y->track;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->end > y->end ? -1 : x->end < y->end;	/* the longer one outside */
}

/* Slices on one track must nest: one that would cross its parent's end is cut there. */
static void nest(struct thread_trace *tt)
{
	double stack[64];
	int depth = 0, track = -1;

	qsort(tt->s, (size_t)tt->n, sizeof(tt->s[0]), by_start);
	for (int i = 0; i < tt->n; i++) {
		struct slice *s = &tt->s[i];

		if (s->track != track) {
			depth = 0;
			track = s->track;
		}
		while (depth && stack[depth - 1] <= s->ts)
			depth--;
		if (depth && s->end > stack[depth - 1]) {
			s->end = stack[depth - 1];
			json_object_set_new(s->args, "cut_at_parent_end", json_true());
		}
		if (depth < 64)
			stack[depth++] = s->end;
	}
}

static json_t *meta(const char *what, int pid, int tid, const char *key, json_t *value)
{
	json_t *m = json_pack("{s:s, s:s, s:i, s:i, s:{s:o}}", "name", what, "ph", "M", "pid", pid,
			      "tid", tid, "args", key, value);
	return m;
}

static void thread_meta(struct thread_trace *tt, json_t *out, int order, bool involved)
{
	const struct cgt_thread *t = tt->t;
	char name[96], who[32];

	if (tt->c->controlled && t->sched_id)
		snprintf(who, sizeof(who), "T%d", t->sched_id);
	else
		snprintf(who, sizeof(who), "thread %d", t->id);
	if (t->role == CGT_ROLE_ACTOR)
		snprintf(name, sizeof(name), "actor tid %d (%s)%s", t->pid, who,
			 involved ? " - involved" : "");
	else
		snprintf(name, sizeof(name), "%s (%s)%s", cgt_role_name(t->role), who,
			 involved ? " - involved" : "");
	json_array_append_new(out, meta("process_name", tt->pid, 0, "name", json_string(name)));
	json_array_append_new(out, meta("process_sort_index", tt->pid, 0, "sort_index",
					json_integer(order)));
	json_array_append_new(out, meta("thread_name", tt->pid, TRACK_OPS, "name",
					json_string("operations")));
	json_array_append_new(out, meta("thread_name", tt->pid, TRACK_RCU, "name",
					json_string("rcu")));
	for (int k = 0; k < tt->nlocks; k++)
		json_array_append_new(out, meta("thread_name", tt->pid, TRACK_LOCKS + k, "name",
						json_string(tt->locks[k])));
}

static void thread_slices(struct thread_trace *tt, json_t *out)
{
	for (int i = 0; i < tt->n; i++) {
		struct slice *s = &tt->s[i];

		json_array_append_new(out, json_pack("{s:s, s:s, s:s, s:f, s:f, s:i, s:i, s:o}",
				"name", s->name, "cat", s->function ? "function" :
				s->track == TRACK_OPS ? "operation" :
				s->track == TRACK_RCU ? "rcu" : "lock", "ph", "X", "ts", s->ts,
				"dur", s->end - s->ts, "pid", tt->pid, "tid", s->track,
				"args", s->args));
		s->args = NULL;
	}
}

static bool in_window(const struct cgt_capture *c, const struct cgt_thread *t)
{
	return t->ring_head &&
	       t->ring[(t->ring_head - 1) & (CGT_RING_SIZE - 1)].ns >= c->window_from;
}

/* The threads drawn: the involved ones, then those with events in the window, newest first. */
static int choose(const struct cgt_capture *c, int *idx)
{
	int n = 0;

	for (int k = 0; k < c->ninvolved; k++)
		idx[n++] = c->involved[k];
	for (int i = 0; i < c->nthreads && n < CGT_TRACE_MAX_THREADS; i++)
		if (!cgt_capture_is_involved(c, i) && in_window(c, &c->threads[i]) &&
		    (!c->controlled || c->threads[i].sched_id))
			idx[n++] = i;
	return n;
}

/* Wait-for edges at the capture, from each involved waiter to each thread in its way. */
static void flows(const struct cgt_capture *c, const int *idx, int n,
		  struct thread_trace **tts, json_t *out)
{
	int id = 1;

	for (int a = 0; a < n; a++) {
		const struct cgt_thread *w = &c->threads[idx[a]];

		if (!w->wait_obj || !cgt_capture_is_involved(c, idx[a]))
			continue;
		for (int b = 0; b < n; b++) {
			const struct cgt_thread *h = &c->threads[idx[b]];
			bool in_way = false;
			double ts;
			char name[64];

			if (h == w)
				continue;
			if (w->wait_kind == CGT_WAIT_GP)
				in_way = h->rcu_depth > 0;
			for (int j = 0; j < h->nheld && j < CGT_MAX_HELD; j++)
				in_way |= h->held[j].lock == w->wait_obj;
			if (!in_way)
				continue;
			ts = tts[a]->op_start > tts[b]->op_start ? tts[a]->op_start :
								   tts[b]->op_start;
			snprintf(name, sizeof(name), "waits for %s", w->wait_name);
			json_array_append_new(out, json_pack("{s:s, s:s, s:s, s:i, s:f, s:i, s:i}",
					"name", name, "cat", "wait-for", "ph", "s", "id", id,
					"ts", ts, "pid", tts[a]->pid, "tid", TRACK_OPS));
			json_array_append_new(out, json_pack("{s:s, s:s, s:s, s:s, s:i, s:f, s:i, s:i}",
					"name", name, "cat", "wait-for", "ph", "f", "bp", "e",
					"id", id++, "ts", ts, "pid", tts[b]->pid, "tid", TRACK_OPS));
		}
	}
}

json_t *cgt_json_lines(const char *text)
{
	json_t *a = json_array();

	while (text && *text) {
		size_t n = strcspn(text, "\n");

		json_array_append_new(a, json_stringn(text, n));
		text += n + (text[n] == '\n');
	}
	return a;
}

static void reports(const struct cgt_capture *c, const struct cgt_failure *f, int nf,
		    struct thread_trace **tts, int n, json_t *out)
{
	for (int i = 0; i < nf; i++) {
		bool interest = f[i].detector == c->failure.detector &&
				f[i].ns == c->failure.ns && f[i].thread_id == c->failure.thread_id;
		double ts = ts_of(c, c->controlled ? (uint64_t)(f[i].step > 0 ? f[i].step : 0) :
					       f[i].ns);
		const char *evidence = interest ? c->evidence : f[i].evidence;
		char name[320];
		json_t *e, *args = json_pack("{s:s, s:s, s:b, s:o}", "detector",
				cgt_detector_names[f[i].detector], "summary", f[i].summary,
				"failure_of_interest", interest, "evidence", cgt_json_lines(evidence));
		int pid = 0;

		for (int k = 0; k < n; k++)
			if (tts[k]->t->id == f[i].thread_id)
				pid = tts[k]->pid;
		snprintf(name, sizeof(name), "%s: %s", cgt_detector_names[f[i].detector],
			 f[i].summary);
		e = json_pack("{s:s, s:s, s:s, s:s, s:f, s:i, s:i, s:o}", "name", name,
			      "cat", "detector", "ph", "i", "s", pid ? "p" : "g", "ts", ts,
			      "pid", pid ? pid : 0, "tid", TRACK_OPS, "args", args);
		json_array_append_new(out, e);
	}
}

json_t *cgt_trace_json(const struct cgt_capture *c, const struct cgt_failure *f, int nf,
		       const char *run_id)
{
	int idx[CGT_TRACE_MAX_THREADS + CGT_CAPTURE_INVOLVED], n = choose(c, idx);
	struct thread_trace **tts = calloc((size_t)n, sizeof(*tts));
	json_t *events = json_array(), *root;
	double end = ts_of(c, c->at);

	if (!tts)
		return NULL;
	for (int k = 0; k < n; k++) {
		const struct cgt_thread *t = &c->threads[idx[k]];

		if (t->ring_head) {
			double last = ts_of(c, t->ring[(t->ring_head - 1) & (CGT_RING_SIZE - 1)].ns);

			if (last > end)
				end = last;
		}
	}
	end += 1;	/* what is open at the capture is open after the last event */
	json_array_append_new(events, meta("process_name", 0, 0, "name",
					   json_string("cgtorture: the run")));
	for (int k = 0; k < n; k++) {
		tts[k] = calloc(1, sizeof(**tts));
		if (!tts[k]) {
			n = k;
			break;
		}
		tts[k]->c = c;
		tts[k]->t = &c->threads[idx[k]];
		tts[k]->pid = tts[k]->t->id;
		tts[k]->finished = idx[k] >= c->nlive;
		thread_events(tts[k], events, end);
		nest(tts[k]);
		thread_meta(tts[k], events, k + 1, cgt_capture_is_involved(c, idx[k]));
		thread_slices(tts[k], events);
	}
	reports(c, f, nf, tts, n, events);
	flows(c, idx, n, tts, events);
	json_array_append_new(events, json_pack("{s:s, s:s, s:s, s:s, s:f, s:i, s:i}", "name",
			"window: every involved thread's events are complete from here", "cat",
			"window", "ph", "i", "s", "g", "ts", ts_of(c, c->window_from), "pid", 0,
			"tid", TRACK_OPS));
	root = json_pack("{s:o, s:s, s:{s:s, s:s, s:s, s:f, s:f, s:i, s:i}}", "traceEvents", events,
			 "displayTimeUnit", "ms", "otherData", "run_id", run_id, "time_unit",
			 cgt_trace_unit(c), "detector", cgt_detector_names[c->failure.detector],
			 "window_from", ts_of(c, c->window_from), "failure_at", ts_of(c, c->at),
			 "threads_involved", c->ninvolved, "ring_events_per_thread", CGT_RING_SIZE);
	for (int k = 0; k < n; k++) {
		for (int i = 0; i < tts[k]->n; i++)
			json_decref(tts[k]->s[i].args);
		free(tts[k]);
	}
	free(tts);
	return root;
}
