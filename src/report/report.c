// SPDX-License-Identifier: GPL-2.0
/*
 * The report of a failed run: results/<run-id>/report.json (jansson; schema in docs/reports.md) and
 * summary.txt (summary.c), each written to a temporary file and renamed into place, so a
 * reader never sees half a report. It holds the whole configuration and seed, the build,
 * every detector's evidence, the state of the threads that matter and the last events of
 * each (their story).
 */
#include <errno.h>
#include <jansson.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report.h"
#include "report_read.h"
#include "../base/files.h"
#include "story.h"
#include "columns.h"
#include "summary.h"
#include "capture.h"
#include "linkage.h"
#include "page.h"
#include "trace.h"
#include "../base/build.h"

#define MAX_REPORT_THREADS	64

static json_t *config_json(const struct cgt_run_config *cfg)
{
	json_t *mix = json_object(), *bugs = json_array();

	for (int op = 0; op < CGT_NR_OPS; op++)
		json_object_set_new(mix, cgt_op_names[op], json_integer(cfg->mix[op]));
	for (int b = 0; b < CGT_NR_BUGS; b++)
		if (cfg->bugs & (1UL << b))
			json_array_append_new(bugs, json_string(cgt_bug_catalogue[b].name));
	return json_pack("{s:f, s:s, s:i, s:i, s:s, s:s, s:s, s:o, s:i, s:i, s:f, s:f, s:f, s:i,"
			 " s:o, s:s, s:s, s:i, s:i}",
			 "duration_s", cfg->duration,
			 "seed", "", "threads", cfg->threads, "walkers", cfg->walkers,
			 "iter", cgt_iter_name(cfg->iter), "css_lock", cfg->css_lock->name,
			 "tasklist_lock", cfg->tasklist_lock->name, "mix", mix,
			 "clone_thread_pct", cfg->clone_thread_pct, "stack_kib", cfg->stack_kib,
			 "stall_s", cfg->stall, "starve_s", cfg->starve,
			 "check_interval_s", cfg->check_interval, "perturb_permille", cfg->perturb,
			 "bugs", bugs, "stop_on", cfg->stop_on == CGT_STOP_ON_NONE ? "none" :
			 cfg->stop_on == CGT_STOP_ON_ANY ? "any" : cgt_detector_names[cfg->stop_on],
			 "sched", cfg->sched ? cfg->sched->name : "none", "depth", cfg->sched_tunables.depth,
			 "steps", cfg->steps);
}

/* The swarm's dimensions and the phases the log still holds (run/swarm.h), oldest first. */
static json_t *swarm_json(const struct cgt_run_config *cfg)
{
	json_t *dims = json_array(), *phases = json_array();
	int total = cgt_phases_begun();

	for (int d = 0; d < CGT_NR_SWARM_DIMS; d++)
		if (cfg->swarm & (1u << d))
			json_array_append_new(dims, json_string(cgt_swarm_dim_names[d]));
	for (int k = total - CGT_PHASE_LOG; k < total; k++) {
		const struct cgt_phase *p = cgt_phase_get(k);
		json_t *mix, *reads;

		if (!p)
			continue;
		mix = json_object();
		reads = json_object();
		for (int op = 0; op < CGT_NR_OPS; op++)
			json_object_set_new(mix, cgt_op_names[op], json_integer(p->mix[op]));
		for (int r = 0; r < CGT_NR_READS; r++)
			json_object_set_new(reads, cgt_read_names[r], json_integer(p->reads[r]));
		json_array_append_new(phases, json_pack("{s:i, s:f, s:I, s:i, s:o, s:i, s:i, s:i, s:f, s:i, s:o}",
			"index", p->index, "start_s", p->start_s, "start_step", (json_int_t)p->start_step,
			"threads", p->threads, "mix", mix, "clone_thread_pct", p->clone_thread_pct,
			"perturb_permille", p->perturb, "reap_delay", p->reap_delay,
			"off_cpu_s", p->off_cpu_s, "walkers", p->walkers, "reads", reads));
	}
	return json_pack("{s:o, s:i, s:o}", "dimensions", dims, "phases_total", total,
			 "phases", phases);
}

static json_t *failures_json(const struct cgt_failure *f, int n)
{
	json_t *a = json_array();

	for (int i = 0; i < n; i++) {
		json_t *o = json_pack("{s:s, s:f, s:I, s:i, s:s, s:o}",
				"detector", cgt_detector_names[f[i].detector],
				"time_s", (double)f[i].ns / 1e9, "step", (json_int_t)f[i].step,
				"thread", f[i].thread_id,
				"summary", f[i].summary, "evidence", cgt_json_lines(f[i].evidence));

		/* the era's catalogued behaviour: counted, not what failed the run */
		if (f[i].known[0])
			json_object_set_new(o, "known", json_string(f[i].known));
		json_array_append_new(a, o);
	}
	return a;
}

/*
 * The choices of a controlled run, run-length encoded: enough to replay it exactly. Its
 * preemptions are counted, and listed (decision, from, to) when few enough to read.
 */
#define CGT_REPORT_PREEMPTIONS	100
static json_t *schedule_json(const struct cgt_run_config *cfg, const struct cgt_run_result *res)
{
	const struct cgt_schedule *s = cgt_sched_recorded();
	const struct cgt_preemption *pre;
	long npre = cgt_sched_preemptions(&pre);
	char *choices = cgt_schedule_encode(s);
	json_t *o;

	if (!choices)
		return NULL;
	o = json_pack("{s:s, s:s, s:i, s:I, s:I, s:i, s:I, s:I, s:s}", "scheduler",
		      cfg->sched->name, "locks", cgt_run_lock_code(cfg) ? "code" : "model",
		      "depth", cfg->sched_tunables.depth, "steps", (json_int_t)s->len,
		      "stop_step", (json_int_t)res->stop_step, "threads", cgt_sched_max_id(),
		      "switches", (json_int_t)cgt_schedule_switches(s),
		      "preemptions", (json_int_t)npre, "choices", choices);
	free(choices);
	if (o && npre <= CGT_REPORT_PREEMPTIONS) {
		json_t *a = json_array();

		for (long i = 0; i < npre; i++)
			json_array_append_new(a, json_pack("{s:I, s:i, s:i}", "decision",
							   (json_int_t)pre[i].step, "from",
							   pre[i].from, "to", pre[i].to));
		json_object_set_new(o, "preempted", a);
	}
	return o;
}

static json_t *stats_json(const struct cgt_stats *s, double elapsed)
{
	json_t *ops = json_object(), *out;

	for (int op = 0; op < CGT_NR_OPS; op++)
		json_object_set_new(ops, cgt_op_names[op], json_integer(s->ops[op]));
	static const struct { const char *key; size_t off; } keyed[] = {
#define X(field, key, what) { key, offsetof(struct cgt_stats, field) },
		CGT_STATS(X)
#undef X
	};

	out = json_pack("{s:o, s:f}", "ops", ops, "elapsed_s", elapsed);
	for (size_t i = 0; out && i < ARRAY_SIZE(keyed); i++)
		if (keyed[i].key)
			json_object_set_new(out, keyed[i].key,
					    json_integer(*(const long *)((const char *)s + keyed[i].off)));
	/* a free run's ramp (free.c): its target, and when it got there (null: it did not) */
	if (out && s->ramp_target) {
		json_object_set_new(out, "ramp_target", json_integer(s->ramp_target));
		json_object_set_new(out, "ramp_s", s->ramp_ms >= 0 ?
				    json_real(cgt_stats_ramp_s(s)) : json_null());
	}
	return out;
}

/* {"points": {name: count}, "paths": {name: count}}: what the run exercised */
static json_t *coverage_json(const struct cgt_cover *c)
{
	json_t *points = json_object(), *paths = json_object();

	for (int i = 0; i < CGT_NR_POINTS; i++)
		json_object_set_new(points, cgt_point_names[i],
				    json_integer((json_int_t)cgt_cover_point(c, i)));
	for (int i = 0; i < CGT_NR_PATHS; i++)
		json_object_set_new(paths, cgt_path_names[i],
				    json_integer((json_int_t)cgt_cover_path(c, i)));
	return json_pack("{s:o, s:o}", "points", points, "paths", paths);
}

static json_t *locks_json(void)
{
	struct cgt_lock_class c[16];
	int n = cgt_lock_classes(c, 16);
	json_t *a = json_array();

	for (int i = 0; i < n; i++)
		json_array_append_new(a, json_pack("{s:s, s:b, s:I, s:I, s:f, s:f, s:I, s:I, s:I, s:I, s:I}",
				"name", c[i].name, "sleeps", c[i].sleeps,
				"read_acquisitions", (json_int_t)c[i].acquired[CGT_READ],
				"write_acquisitions", (json_int_t)c[i].acquired[CGT_WRITE],
				"worst_read_wait_ms", (double)c[i].wait_max_ns[CGT_READ] / 1e6,
				"worst_write_wait_ms", (double)c[i].wait_max_ns[CGT_WRITE] / 1e6,
				"readers_passed_writers", (json_int_t)c[i].passed_over,
				"worst_passed_one_writer", (json_int_t)c[i].worst_writer_passed,
				"worst_passed_one_queued_writer", (json_int_t)c[i].worst_queued_passed,
				"longest_queue", (json_int_t)c[i].queue_max,
				"most_waiting_past_stall", (json_int_t)c[i].convoy_max));
	return a;
}

/* [{"lock", "start_s", "length_s", "starved"}]: reader pressure the driver applied */
static json_t *presses_json(const struct cgt_run_result *res)
{
	json_t *a = json_array();

	for (int i = 0; i < res->npresses; i++)
		json_array_append_new(a, json_pack("{s:s, s:f, s:f, s:b}",
				"lock", res->presses[i].lock, "start_s", res->presses[i].start_s,
				"length_s", res->presses[i].length_s,
				"starved", res->presses[i].starved));
	return a;
}

static json_t *events_json(const struct cgt_thread *t)
{
	json_t *a = json_array();
	uint32_t head = t->ring_head;
	uint32_t n = head < CGT_RING_SIZE ? head : CGT_RING_SIZE;

	for (uint32_t i = head - n; i != head; i++) {
		const struct cgt_event *e = &t->ring[i & (CGT_RING_SIZE - 1)];
		json_t *ev;

		if (e->point >= CGT_NR_POINTS)
			continue;
		ev = json_pack("{s:o, s:s}", t->sched_id ? "step" : "t_ms",
			       t->sched_id ? json_integer((json_int_t)e->ns) :
					     json_real((double)e->ns / 1e6),
			       "point", cgt_point_names[e->point]);

		if (e->pid)
			json_object_set_new(ev, "tid", json_integer(e->pid));
		if (e->name)
			json_object_set_new(ev, "object", json_string(e->name));
		json_array_append_new(a, ev);
	}
	return a;
}

static json_t *thread_json(const struct cgt_thread *t, bool finished, uint64_t now)
{
	json_t *held = json_array();
	json_t *o = json_pack("{s:i, s:s, s:i, s:s}", "id", t->id, "role", cgt_role_name(t->role),
			      "tid", t->pid,
			      "state", finished ? "finished" : t->parked ? "parked" :
				       t->wait_obj ? "waiting" : "running");

	for (int i = 0; i < t->nheld && i < CGT_MAX_HELD; i++)
		json_array_append_new(held, json_pack("{s:s, s:s, s:f}", "lock", t->held[i].name,
				"side", t->held[i].write ? "write" : "read",
				"for_s", (double)cgt_age_ns(now, t->held[i].since_ns) / 1e9));
	json_object_set_new(o, "holds", held);
	if (t->sched_id)
		json_object_set_new(o, "sched_id", json_integer(t->sched_id));
	if (t->wait_obj)
		json_object_set_new(o, "waits_for", json_pack("{s:s, s:s, s:f}", "what",
				t->wait_name, "kind", cgt_wait_name(t->wait_kind),
				"for_s", (double)cgt_age_ns(now, t->wait_since_ns) / 1e9));
	if (t->rcu_depth)
		json_object_set_new(o, "rcu_read_depth", json_integer(t->rcu_depth));
	if (t->walk_active)
		json_object_set_new(o, "walk", json_pack("{s:s?, s:i, s:I, s:f}", "function",
				t->walk_fn, "start_tid", t->walk_start_pid,
				"steps", (json_int_t)t->walk_steps,
				"for_s", (double)cgt_age_ns(now, t->walk_since_ns) / 1e9));
	json_object_set_new(o, "events", events_json(t));
	return o;
}

static bool named_by_failure(const struct cgt_thread *t, const struct cgt_failure *f, int nf)
{
	for (int i = 0; i < nf; i++)
		if (f[i].thread_id == t->id)
			return true;
	return false;
}

/*
 * The threads worth reading: each failure's thread as it was when the failure was seen,
 * then the live threads that wait, hold a lock, read under RCU or walk, then the most
 * recently finished. At most MAX_REPORT_THREADS.
 */
static json_t *threads_json(const struct cgt_failure *f, int nf)
{
	struct cgt_thread *copy = malloc(sizeof(*copy)), *dead[16];
	json_t *a = json_array();
	uint64_t now = cgt_clock_ns();
	int n = 0, ndead;

	if (!copy)
		return a;
	for (int i = 0; i < nf && n < MAX_REPORT_THREADS; i++) {
		json_t *o;

		if (!f[i].thread || named_by_failure(f[i].thread, f, i))
			continue;
		o = thread_json(f[i].thread, false, f[i].ns);
		json_object_set_new(o, "state", json_string("as the failure was seen"));
		json_array_append_new(a, o);
		n++;
	}
	cgt_threads_lock();
	for (struct cgt_thread *t = cgt_threads_first(); t && n < MAX_REPORT_THREADS; t = t->next) {
		cgt_thread_copy(copy, t);
		if (named_by_failure(copy, f, nf) ||
		    (!copy->wait_obj && !copy->nheld && !copy->rcu_depth && !copy->walk_active))
			continue;
		json_array_append_new(a, thread_json(copy, false, now));
		n++;
	}
	ndead = cgt_threads_graveyard(dead, 16);
	for (int i = 0; i < ndead && n < MAX_REPORT_THREADS; i++, n++)
		json_array_append_new(a, thread_json(dead[i], true, now));
	cgt_threads_unlock();
	free(copy);
	return a;
}

/* "timeline": what trace.json holds and the window in which it is complete */
static json_t *timeline_json(const struct cgt_capture *c)
{
	json_t *ids = json_array();
	double unit = c->controlled ? 1 : 1e3;

	for (int k = 0; k < c->ninvolved; k++)
		json_array_append_new(ids, json_integer(c->threads[c->involved[k]].id));
	return json_pack("{s:s, s:s, s:f, s:f, s:o, s:i, s:s, s:s}", "trace", "trace.json",
			 "unit", cgt_trace_unit(c), "window_from", (double)c->window_from / unit,
			 "failure_at", (double)c->at / unit, "involved", ids,
			 "ring_events_per_thread", CGT_RING_SIZE,
			 "detector", cgt_detector_names[c->failure.detector], "kind", c->kind);
}

/*
 * Beside report.json: trace.json, linkage.dot and linkage.svg from the capture, then
 * report.html from all of them. A picture that cannot be made is said, not fatal.
 */
static void write_pictures(struct cgt_run_result *res, const struct cgt_failure *f, int nf)
{
	const struct cgt_capture *c = cgt_capture();
	char why[160], *text;
	json_t *trace;

	if (c) {
		trace = cgt_trace_json(c, f, nf, res->run_id);
		text = trace ? json_dumps(trace, JSON_COMPACT) : NULL;
		if (!text || cgt_write_atomic(res->report_dir, "trace.json", text, strlen(text)))
			fprintf(stderr, "cgtorture: cannot write %s/trace.json\n", res->report_dir);
		free(text);
		json_decref(trace);
		text = cgt_linkage_dot(c);
		if (!text || cgt_write_atomic(res->report_dir, "linkage.dot", text, strlen(text)))
			fprintf(stderr, "cgtorture: cannot write %s/linkage.dot\n", res->report_dir);
		else if (cgt_linkage_svg(res->report_dir, why, sizeof(why)))
			snprintf(res->pictures_note, sizeof(res->pictures_note),
				 "linkage.svg skipped: %s", why);
		free(text);
	}
	if (cgt_page_write(res->report_dir, "report.json", why, sizeof(why)))
		fprintf(stderr, "cgtorture: %s\n", why);
}

static void make_run_id(struct cgt_run_result *res)
{
	char when[32];

	if (res->run_id[0])
		return;
	cgt_time_stamp(when, sizeof(when));
	snprintf(res->run_id, sizeof(res->run_id), "%s-%d", when, (int)getpid());
}

int cgt_report_write(const struct cgt_run_config *cfg, struct cgt_run_result *res)
{
	static struct cgt_failure f[CGT_MAX_FAILURES];
	int nf = cgt_failures_get(f, CGT_MAX_FAILURES);
	json_t *root, *threads, *config;
	char seed[32], *text, *summary;
	int ret;

	make_run_id(res);
	snprintf(res->report_dir, sizeof(res->report_dir), "%s/%s", cfg->out, res->run_id);
	ret = cgt_mkdir_p(res->report_dir);
	if (ret)
		goto fail;
	snprintf(seed, sizeof(seed), "%llu", (unsigned long long)cfg->seed);
	config = config_json(cfg);
	json_object_set_new(config, "seed", json_string(seed));	/* u64: a string stays exact */
	threads = threads_json(f, nf);
	root = json_pack("{s:s, s:i, s:s, s:s, s:s, s:s, s:s*, s:o, s:f, s:f, s:b, s:b, s:b, s:I,"
			 " s:I, s:o, s:o, s:o, s:o, s:O}",
			 "schema", "cgtorture-report", "version", CGT_REPORT_VERSION,
			 "run_id", res->run_id, "verdict", cgt_verdict(res),
			 "command", cfg->command ? cfg->command : "",
			 "build", cgt_build_name(),
			 "expected", cfg->expect == CGT_EXPECT_FAIL ? "fail" :
				     cfg->expect == CGT_EXPECT_PASS ? "pass" :
				     cfg->expect == CGT_EXPECT_KNOWN ? "known" : NULL,
			 "config", config, "elapsed_s", res->elapsed,
			 "first_failure_s", res->first_failure, "quiesced", res->quiesced,
			 "finished", res->finished, "interrupted", res->interrupted,
			 "failures_total", (json_int_t)res->failures,
			 "failures_known", (json_int_t)res->known,
			 "failures", failures_json(f, nf), "stats", stats_json(&res->stats, res->elapsed),
			 "coverage", coverage_json(&res->cover), "locks", locks_json(),
			 "threads", threads);
	if (cgt_story())
		json_object_set_new(root, "story", cgt_json_lines(cgt_story()));
	if (cgt_columns())
		json_object_set_new(root, "story_columns", cgt_json_lines(cgt_columns()));
	if (cgt_capture())
		json_object_set_new(root, "timeline", timeline_json(cgt_capture()));
	if (cfg->sched) {
		json_t *sched = schedule_json(cfg, res);

		if (!sched) {
			json_decref(root);
			ret = -ENOMEM;
			goto fail;
		}
		json_object_set_new(root, "schedule", sched);
	}
	json_object_set_new(root, "swarm", swarm_json(cfg));
	json_object_set_new(root, "presses", presses_json(res));
	text = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	summary = cgt_summary_text(cfg, res, f, nf, threads);
	json_decref(root);
	json_decref(threads);
	ret = text ? cgt_write_atomic(res->report_dir, "report.json", text, strlen(text)) : -ENOMEM;
	if (!ret)
		ret = summary ? cgt_write_atomic(res->report_dir, "summary.txt", summary,
						 strlen(summary)) : -ENOMEM;
	free(text);
	free(summary);
	if (!ret) {
		write_pictures(res, f, nf);
		return 0;
	}
fail:
	fprintf(stderr, "cgtorture: cannot write the report in %s: %s\n", res->report_dir,
		strerror(-ret));
	res->report_dir[0] = '\0';
	return ret;
}
