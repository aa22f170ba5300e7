// SPDX-License-Identifier: GPL-2.0
/*
 * report.html: everything a person needs to see a failure, in one file with no outside
 * resource (its style, its script and both pictures are inline). The timeline is drawn from
 * trace.json: a lane per model thread (its "process" in the trace), a row per track in it,
 * slices as bars, marked points as ticks, each detector report as a red marker with its
 * summary, and the wait-for edges of a hang as arrows between lanes; the mouse wheel zooms
 * it and dragging pans. Lanes and markers carry data- attributes, so a test can find them.
 */
#include <errno.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "page.h"
#include "../base/files.h"

#define LANE_LABEL	260	/* px: the lane names' column */
#define PLOT_WIDTH	1100
#define ROW		14

static void esc(FILE *m, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", m); break;
		case '>': fputs("&gt;", m); break;
		case '&': fputs("&amp;", m); break;
		case '"': fputs("&quot;", m); break;
		default: fputc(*s, m);
		}
	}
}

static const char *str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

static void lines(FILE *m, json_t *a)
{
	size_t i;
	json_t *v;

	json_array_foreach(a, i, v) {
		esc(m, json_string_value(v));
		fputc('\n', m);
	}
}

struct lane {
	int pid;
	const char *name;
	int tids[16], ntids;
	int y;
};

static struct lane *lane_of(struct lane *l, int n, int pid)
{
	for (int i = 0; i < n; i++)
		if (l[i].pid == pid)
			return &l[i];
	return NULL;
}

static int row_of(struct lane *l, int tid)
{
	for (int i = 0; i < l->ntids; i++)
		if (l->tids[i] == tid)
			return i;
	if (l->ntids == 16)
		return 15;
	l->tids[l->ntids] = tid;
	return l->ntids++;
}

static double num(json_t *e, const char *key)
{
	return json_number_value(json_object_get(e, key));
}

/* The lanes, in the trace's sort order; how many. */
static int lanes(json_t *events, struct lane *l, int max)
{
	size_t i;
	json_t *e;
	int n = 0;

	json_array_foreach(events, i, e) {
		if (strcmp(str(e, "ph"), "M") || strcmp(str(e, "name"), "process_name") ||
		    !json_integer_value(json_object_get(e, "pid")) || n == max)
			continue;
		l[n].pid = (int)json_integer_value(json_object_get(e, "pid"));
		l[n].name = json_string_value(json_object_get(json_object_get(e, "args"), "name"));
		l[n].ntids = 0;
		n++;
	}
	/* rows: the operations first, then rcu, then the locks, as the tracks are numbered */
	json_array_foreach(events, i, e) {
		struct lane *ln = lane_of(l, n, (int)json_integer_value(json_object_get(e, "pid")));

		if (ln && !strcmp(str(e, "ph"), "M") && !strcmp(str(e, "name"), "thread_name"))
			row_of(ln, (int)json_integer_value(json_object_get(e, "tid")));
	}
	return n;
}

/* The timeline's frame: its lanes, the span it shows and how a time maps onto x. */
struct plot {
	json_t *events;
	struct lane l[64];
	int n;			/* lanes */
	int height;		/* below the last lane */
	double t0, t1, scale;
	const char *unit;
};

static double plot_x(const struct plot *p, json_t *e)
{
	return LANE_LABEL + (num(e, "ts") - p->t0) * p->scale;
}

/* The span of the lanes' own events (a report on no lane may lie outside it), and the rows. */
static void plot_frame(struct plot *p, json_t *trace)
{
	size_t i;
	json_t *e;

	p->events = json_object_get(trace, "traceEvents");
	p->n = lanes(p->events, p->l, 64);
	p->unit = str(json_object_get(trace, "otherData"), "time_unit");
	p->t0 = 1e300;
	p->t1 = -1e300;
	json_array_foreach(p->events, i, e) {
		double ts = num(e, "ts"), end = ts + num(e, "dur");

		if (!strcmp(str(e, "ph"), "M") || !json_integer_value(json_object_get(e, "pid")))
			continue;
		p->t0 = ts < p->t0 ? ts : p->t0;
		p->t1 = end > p->t1 ? end : p->t1;
	}
	if (p->t1 <= p->t0)
		p->t1 = p->t0 + 1;
	p->scale = PLOT_WIDTH / (p->t1 - p->t0);
	p->height = 24;
	for (int k = 0; k < p->n; k++) {
		p->l[k].y = p->height;
		p->height += (p->l[k].ntids ? p->l[k].ntids : 1) * ROW + 10;
	}
}

/* Each lane's band and name. */
static void plot_lanes(FILE *m, const struct plot *p)
{
	for (int k = 0; k < p->n; k++) {
		const struct lane *l = &p->l[k];

		fprintf(m, "<g class=lane data-thread='%d' data-name='", l->pid);
		esc(m, l->name);
		fprintf(m, "'><rect x=0 y=%d width=%d height=%d fill='%s'/>"
			"<text x=4 y=%d class=lanename>", l->y - 2, LANE_LABEL + PLOT_WIDTH,
			(l->ntids ? l->ntids : 1) * ROW + 4, k % 2 ? "#f7f7f7" : "#eef3fa", l->y + 10);
		esc(m, l->name);
		fputs("</text></g>\n", m);
	}
}

/* A lane's slices (complete events), its reports (a diamond) and its points (a tick). */
static void plot_events(FILE *m, struct plot *p)
{
	size_t i;
	json_t *e;

	json_array_foreach(p->events, i, e) {
		const char *ph = str(e, "ph");
		struct lane *ln = lane_of(p->l, p->n, (int)json_integer_value(json_object_get(e, "pid")));
		double x = plot_x(p, e);
		int row;

		if (!ln || (strcmp(ph, "X") && strcmp(ph, "i")))
			continue;
		row = row_of(ln, (int)json_integer_value(json_object_get(e, "tid")));
		if (!strcmp(ph, "X")) {
			const char *cat = str(e, "cat");
			double w = num(e, "dur") * p->scale;

			fprintf(m, "<rect class='slice %s' x='%.2f' y=%d width='%.2f' height=%d><title>",
				cat, x, ln->y + row * ROW, w > 0.5 ? w : 0.5, ROW - 3);
			esc(m, str(e, "name"));
			fprintf(m, " (%s, %.3f %s)</title></rect>\n", cat, num(e, "dur"), p->unit);
		} else if (!strcmp(str(e, "cat"), "detector")) {
			fprintf(m, "<g class=detector data-detector='");
			esc(m, str(json_object_get(e, "args"), "detector"));
			fprintf(m, "'><path d='M%.2f,%d l6,7 l-6,7 l-6,-7 z' fill='#d00'/><title>", x,
				ln->y);
			esc(m, str(e, "name"));
			fputs("</title></g>\n", m);
		} else {
			fprintf(m, "<line class=point x1='%.2f' x2='%.2f' y1=%d y2=%d><title>", x, x,
				ln->y + row * ROW, ln->y + row * ROW + ROW - 3);
			esc(m, str(e, "name"));
			fputs("</title></line>\n", m);
		}
	}
}

/* Global instants (a report with no thread, the window) span every lane. */
static void plot_instants(FILE *m, const struct plot *p)
{
	size_t i;
	json_t *e;

	json_array_foreach(p->events, i, e) {
		double x = plot_x(p, e);

		if (strcmp(str(e, "ph"), "i") || strcmp(str(e, "s"), "g") || num(e, "ts") < p->t0 ||
		    num(e, "ts") > p->t1)
			continue;
		if (!strcmp(str(e, "cat"), "detector")) {
			fprintf(m, "<g class=detector data-detector='");
			esc(m, str(json_object_get(e, "args"), "detector"));
			fprintf(m, "'><line x1='%.2f' x2='%.2f' y1=10 y2=%d stroke='#d00'/><title>", x, x,
				p->height);
		} else {
			fprintf(m, "<g class=window><line x1='%.2f' x2='%.2f' y1=10 y2=%d stroke='#444' "
				"stroke-dasharray='4 3'/><title>", x, x, p->height);
		}
		esc(m, str(e, "name"));
		fputs("</title></g>\n", m);
	}
}

/* Flow arrows: an "s" event to each "f" with the same id. */
static void plot_flows(FILE *m, struct plot *p)
{
	size_t i, j;
	json_t *e, *f;

	json_array_foreach(p->events, i, e) {
		if (strcmp(str(e, "ph"), "s"))
			continue;
		json_array_foreach(p->events, j, f) {
			struct lane *a, *b;

			if (strcmp(str(f, "ph"), "f") ||
			    json_integer_value(json_object_get(f, "id")) !=
			    json_integer_value(json_object_get(e, "id")))
				continue;
			a = lane_of(p->l, p->n, (int)json_integer_value(json_object_get(e, "pid")));
			b = lane_of(p->l, p->n, (int)json_integer_value(json_object_get(f, "pid")));
			if (!a || !b)
				continue;
			fprintf(m, "<line class=flow x1='%.2f' y1=%d x2='%.2f' y2=%d "
				"marker-end='url(#arrow)'><title>", plot_x(p, e), a->y + ROW / 2,
				plot_x(p, f), b->y + ROW / 2);
			esc(m, str(e, "name"));
			fputs("</title></line>\n", m);
		}
	}
}

static void timeline(FILE *m, json_t *trace)
{
	struct plot p;

	plot_frame(&p, trace);
	fprintf(m, "<p class=note>%d lanes, %.3f to %.3f %s; the window in which every involved "
		"thread's events are complete begins at %.3f (dashed line). Wheel: zoom; drag: pan; "
		"double-click: reset. Hover a bar for its name.</p>\n", p.n, p.t0, p.t1, p.unit,
		num(json_object_get(trace, "otherData"), "window_from"));
	fprintf(m, "<svg id=timeline xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' "
		"viewBox='0 0 %d %d'>\n", LANE_LABEL + PLOT_WIDTH + 10, p.height + 10,
		LANE_LABEL + PLOT_WIDTH + 10, p.height + 10);
	fprintf(m, "<defs><marker id=arrow viewBox='0 0 10 10' refX=9 refY=5 markerWidth=6 "
		"markerHeight=6 orient=auto><path d='M0,0 L10,5 L0,10 z' fill='#c00'/></marker>"
		"</defs>\n<g id=plot>\n");
	plot_lanes(m, &p);
	plot_events(m, &p);
	plot_instants(m, &p);
	plot_flows(m, &p);
	fputs("</g></svg>\n", m);
}

static const char style[] =
	"body{font-family:'DejaVu Sans',sans-serif;margin:1.5em;color:#222}"
	"h1{font-size:1.4em}h2{font-size:1.15em;border-bottom:1px solid #ccc;margin-top:1.6em}"
	"pre{background:#f6f6f6;padding:.6em;overflow-x:auto;font-size:12px}"
	".FAIL{color:#b00}.PASS{color:#070}.note{color:#555;font-size:.9em}"
	".lanename{font-size:11px;fill:#222}.slice.operation{fill:#5b8bd0}"
	".slice.lock{fill:#d9a030}.slice.rcu{fill:#60b060}.point{stroke:#333;stroke-width:1}"
	".flow{stroke:#c00;stroke-width:1.5}#timeline{border:1px solid #ccc;cursor:grab}"
	"#linkage svg{max-width:100%;height:auto}"
	".side{display:flex;gap:1em}.side>div{flex:1;min-width:0}.unmodelled{color:#999}"
	".slowpath{color:#a60}";

/* Wheel zooms the timeline's x axis around the pointer, dragging pans, double-click resets. */
static const char script[] =
	"(function(){var s=document.getElementById('timeline');if(!s)return;"
	"var v=s.viewBox.baseVal,x0=v.x,w0=v.width,drag=null;"
	"s.addEventListener('wheel',function(e){e.preventDefault();"
	"var r=s.getBoundingClientRect(),px=v.x+(e.clientX-r.left)/r.width*v.width,"
	"k=e.deltaY<0?0.8:1.25;v.width=Math.min(w0,Math.max(20,v.width*k));"
	"v.x=px-(px-v.x)*(v.width/(v.width/k));},{passive:false});"
	"s.addEventListener('mousedown',function(e){drag=[e.clientX,v.x];});"
	"window.addEventListener('mouseup',function(){drag=null;});"
	"s.addEventListener('mousemove',function(e){if(!drag)return;var r=s.getBoundingClientRect();"
	"v.x=drag[1]-(e.clientX-drag[0])/r.width*v.width;});"
	"s.addEventListener('dblclick',function(){v.x=x0;v.width=w0;});})();";

/*
 * A reproduction of a kernel's report: the kernel's backtrace, each frame with what it is in
 * the model, beside the model's story of the failure that stands for it.
 */
static void kernel_side(FILE *m, json_t *r, json_t *src)
{
	json_t *f;
	size_t i;
	long stack = -1;

	static const char *const head[][2] = {
		{ "<h2>The kernel's report beside the model's</h2>\n<div class=side id=kernel>"
		  "<div><h3>", "kind" }, { ": ", "title" }, { "</h3><p class=note>", "file" },
		{ ", kernel ", "kernel" }, { ", run as --kernel ", "era" },
		{ "; reproduced as ", "reproduced_as" }, { " (", "detector" },
	};

	for (size_t k = 0; k < sizeof(head) / sizeof(head[0]); k++) {
		const char *v = str(src, head[k][1]);

		fputs(head[k][0], m);
		esc(m, v[0] ? v : "not named");
	}
	fputs(")</p><pre id=kernel-stack>", m);
	json_array_foreach(json_object_get(src, "frames"), i, f) {
		const char *model = str(f, "model");

		if (json_is_true(json_object_get(f, "looked_past")))
			continue;
		if (stack >= 0 && json_integer_value(json_object_get(f, "stack")) != stack)
			fputs("--\n", m);
		stack = (long)json_integer_value(json_object_get(f, "stack"));
		fprintf(m, "<span class=%s>", !model[0] ? "unmodelled" :
			json_is_true(json_object_get(f, "slow_path")) ? "slowpath" : "modelled");
		esc(m, str(f, "kernel"));
		if (model[0]) {
			fputs("  -> ", m);
			esc(m, model);
		}
		fputs("</span>\n", m);
	}
	fputs("</pre></div><div><h3>the model's story</h3><pre>", m);
	lines(m, json_object_get(r, "story"));
	fputs("</pre></div></div>\n", m);
}

static void commands(FILE *m, json_t *r, const char *dir, const char *report)
{
	bool controlled = json_object_get(r, "schedule") != NULL;
	const char *build = str(r, "build");
	char bin[64];

	snprintf(bin, sizeof(bin), !strcmp(build, "plain") ? "./cgtorture" : "build/%s/cgtorture",
		 build);
	fputs("<h2>Run it again</h2><pre>", m);
	fputs("# the same configuration and seed\n", m);
	esc(m, str(r, "command"));
	fprintf(m, "\n# %s\n%s replay ", controlled ? "the same schedule, decision by decision" :
		"the same seed, ten times, with the rate it comes back", bin);
	esc(m, dir);
	fprintf(m, "/%s\n", report);
	if (controlled) {
		fprintf(m, "# a smaller schedule that still fails\n%s shrink ", bin);
		esc(m, dir);
	} else {
		fprintf(m, "# a controlled schedule with the same failure: an exact replay\n"
			"%s reproduce ", bin);
		esc(m, dir);
	}
	fprintf(m, "/%s\n# this page and the story again\n%s show ", report, bin);
	esc(m, dir);
	fprintf(m, "/%s\n</pre>\n", report);
}

int cgt_page_write(const char *dir, const char *report, char *why, size_t len)
{
	json_error_t jerr;
	json_t *r, *trace = NULL, *f;
	char *svg, *html = NULL, *tbuf;
	size_t svglen, hlen = 0, tlen, i;
	FILE *m;
	int ret;

	tbuf = cgt_read_file(dir, report, &tlen);
	r = tbuf ? json_loadb(tbuf, tlen, 0, &jerr) : NULL;
	free(tbuf);
	if (!r) {
		snprintf(why, len, "%s/%s cannot be read", dir, report);
		return -1;
	}
	tbuf = cgt_read_file(dir, "trace.json", &tlen);
	if (tbuf)
		trace = json_loadb(tbuf, tlen, 0, &jerr);
	free(tbuf);
	svg = cgt_read_file(dir, "linkage.svg", &svglen);
	m = open_memstream(&html, &hlen);
	if (!m) {
		snprintf(why, len, "no memory");
		json_decref(r);
		json_decref(trace);
		free(svg);
		return -1;
	}
	fputs("<!DOCTYPE html>\n<html lang=en><head><meta charset='utf-8'><title>cgtorture ", m);
	esc(m, str(r, "run_id"));
	fprintf(m, "</title><style>%s</style></head><body>\n<h1>cgtorture report ", style);
	esc(m, str(r, "run_id"));
	fprintf(m, ": <span class='%s' id=verdict>%s</span></h1>\n<p>", str(r, "verdict"),
		str(r, "verdict"));
	fprintf(m, "%s build, %s run, seed ", str(r, "build"),
		json_object_get(r, "schedule") ? "controlled" : "free-running");
	esc(m, str(json_object_get(r, "config"), "seed"));
	fprintf(m, ", %.3f s, %lld failure(s)</p>\n",
		json_number_value(json_object_get(r, "elapsed_s")),
		json_integer_value(json_object_get(r, "failures_total")));
	if (json_object_get(r, "source"))	/* a kernel's report reproduced: that first */
		kernel_side(m, r, json_object_get(r, "source"));
	fputs("<h2>What the detectors found</h2>\n", m);
	json_array_foreach(json_object_get(r, "failures"), i, f) {
		fprintf(m, "<h3 class=failure data-detector='%s'>", str(f, "detector"));
		esc(m, str(f, "detector"));
		fputs(": ", m);
		esc(m, str(f, "summary"));
		fputs("</h3>\n<pre>", m);
		lines(m, json_object_get(f, "evidence"));
		fputs("</pre>\n", m);
		if (i == 3) {
			fputs("<p class=note>(the other failures are in report.json)</p>\n", m);
			break;
		}
	}
	fputs("<h2>How it came about</h2>\n<pre id=story>", m);
	lines(m, json_object_get(r, "story"));
	fputs("</pre>\n<h2>Timeline</h2>\n", m);
	if (trace)
		timeline(m, trace);
	else
		fputs("<p>no trace.json beside the report</p>\n", m);
	fputs("<h2>The linkage when the detector fired</h2>\n<div id=linkage>", m);
	if (svg) {
		char *start = strstr(svg, "<svg");

		fputs(start ? start : "", m);
	} else {
		fputs("<p>no linkage.svg beside the report (linkage.dot has the picture as text)</p>", m);
	}
	fputs("</div>\n", m);
	commands(m, r, dir, report);
	fprintf(m, "<script>%s</script>\n</body></html>\n", script);
	fclose(m);
	ret = html ? cgt_write_atomic(dir, "report.html", html, hlen) : -ENOMEM;
	if (ret)
		snprintf(why, len, "cannot write %s/report.html: %s", dir, strerror(-ret));
	free(html);
	free(svg);
	json_decref(r);
	json_decref(trace);
	return ret ? -1 : 0;
}
