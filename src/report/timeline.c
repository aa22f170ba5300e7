// SPDX-License-Identifier: GPL-2.0
/*
 * report.html's timeline (timeline.h), drawn from trace.json as inline SVG. A person reads
 * it to see why the failure happened, so it shows only the threads involved (report.json's
 * timeline.involved: the failing thread, those its report names, the holders of what they
 * wait for), a lane each with a row per track, and folds every other thread into one lane
 * with their count: trace.json keeps each of them for Perfetto. The span drawn is the
 * involved threads' (and the failure's); a time axis with round ticks is above it, whole
 * decisions in a controlled run, seconds in a free-running one, and a legend names every
 * colour drawn. Every mark carries the class "mark", so a test can match each colour drawn
 * with the legend's; lanes and the window carry data- attributes for the same reason.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "axis.h"
#include "html.h"
#include "timeline.h"

#define LANE_LABEL	220	/* px: the lane and row names' column */
#define PLOT_WIDTH	1080
#define MARGIN		30	/* px right of the plot: the last tick's label */
#define AXIS		34	/* px above the first lane: the axis */
#define HEAD		15	/* px: a lane's name above its rows */
#define ROW		14
#define MAX_LANES	64
#define MAX_ROWS	16

/*
 * What a mark can be: its class (and data-key in the legend), the legend's swatch (a bar, a
 * line or a diamond), its look and its words. The style is written from this one table, so
 * a mark and its key cannot differ in colour.
 */
enum key {
	KEY_OPERATION, KEY_FUNCTION, KEY_HOLD, KEY_WAIT, KEY_RCU, KEY_GP, KEY_OTHER,
	KEY_POINT, KEY_REPORT, KEY_FLOW, KEY_WINDOW, KEY_SHADE, NR_KEYS
};

static const struct {
	const char *name;
	char shape;
	const char *look;
	const char *words;
} keys[NR_KEYS] = {
	[KEY_OPERATION]	= { "operation", 'r', "fill:#5b8bd0",
			    "operation: fork, exec, exit, migrate, observe" },
	[KEY_FUNCTION]	= { "function", 'r', "fill:#23457a", "the kernel function it is in" },
	[KEY_HOLD]	= { "hold", 'r', "fill:#d9a030", "lock held" },
	[KEY_WAIT]	= { "wait", 'r', "fill:#f0d49a", "lock waited for" },
	[KEY_RCU]	= { "rcu", 'r', "fill:#60b060", "RCU read-side section" },
	[KEY_GP]	= { "gp", 'r', "fill:#b8dfb0", "waiting for an RCU grace period" },
	/* translucent: where the other threads' operations overlap, the lane is darker */
	[KEY_OTHER]	= { "other", 'r', "fill:#888;fill-opacity:.35",
			    "another thread's operation" },
	[KEY_POINT]	= { "point", 'l', "stroke:#333", "marked point (hover for which)" },
	[KEY_REPORT]	= { "report", 'd', "fill:#d00;stroke:#d00;stroke-width:1.5",
			    "detector's report" },
	[KEY_FLOW]	= { "flow", 'l', "stroke:#8a2be2;stroke-width:1.5",
			    "waits for (wait-for edge)" },
	[KEY_WINDOW]	= { "window", 'l', "stroke:#444;stroke-dasharray:4 3;stroke-width:1.5",
			    "every involved thread's events complete from here" },
	[KEY_SHADE]	= { "shade", 'r', "fill:#777;fill-opacity:.13",
			    "before it, some involved thread's events are gone" },
};

static const char frame_style[] =
	"#timeline{border:1px solid #ccc;max-width:100%;height:auto}"
	".band{fill:#f3f6fa}.lane:nth-child(even) .band{fill:#fafafa}"
	".lanename{font-size:11px;fill:#222;font-weight:bold}.rowname{font-size:10px;fill:#777}"
	".axisline,.tickmark{stroke:#555}.grid{stroke:#000;stroke-opacity:.08}"
	".ticklabel{font-size:11px;fill:#333}.axisunit{font-size:11px;fill:#555}"
	".arrowhead{fill:#8a2be2}"
	"#legend{display:flex;flex-wrap:wrap;gap:.2em 1.4em;font-size:.85em;margin:.4em 0}"
	".key svg{vertical-align:middle}";

void cgt_timeline_style(FILE *m)
{
	fputs(frame_style, m);
	for (int k = 0; k < NR_KEYS; k++)
		fprintf(m, ".mark.%s{%s}", keys[k].name, keys[k].look);
}

struct lane {
	int pid;		/* the trace's pid; 0 for the other threads' lane */
	const char *name;
	int tids[MAX_ROWS], ntids;
	const char *rows[MAX_ROWS];
	int y;			/* of its first row */
};

struct plot {
	json_t *events;
	json_t *involved;	/* harness thread ids, or NULL: every thread has its lane */
	struct lane l[MAX_LANES + 1];
	int n;
	struct lane *other;	/* the folded lane, or NULL */
	int nother;
	struct cgt_axis axis;
	double t0, t1, scale;
	double window;		/* where its marker is drawn: inside t0..t1 */
	int height;		/* below the last lane */
	unsigned used;		/* 1 << key of each kind of mark drawn */
};

static int pid_of(json_t *e)
{
	return (int)json_integer_value(json_object_get(e, "pid"));
}

static bool is(json_t *e, const char *key, const char *value)
{
	return !strcmp(cgt_html_str(e, key), value);
}

static bool involved(const struct plot *p, int pid)
{
	size_t i;
	json_t *v;

	if (!p->involved)
		return true;
	json_array_foreach(p->involved, i, v)
		if (json_integer_value(v) == pid)
			return true;
	return false;
}

/* The lane of a thread of the trace: its own, the other threads', or NULL (the run itself). */
static struct lane *lane_of(struct plot *p, int pid)
{
	if (!pid)
		return NULL;
	for (int i = 0; i < p->n; i++)
		if (p->l[i].pid == pid)
			return &p->l[i];
	return involved(p, pid) ? NULL : p->other;
}

static int row_of(struct lane *l, int tid, const char *name)
{
	if (l->pid == 0)
		return 0;	/* the other threads' operations share one row */
	for (int i = 0; i < l->ntids; i++)
		if (l->tids[i] == tid)
			return i;
	if (l->ntids == MAX_ROWS)
		return MAX_ROWS - 1;
	l->tids[l->ntids] = tid;
	l->rows[l->ntids] = name;
	return l->ntids++;
}

/* The lanes in the trace's order (the involved threads come first), then the folded one. */
static void plot_lanes_find(struct plot *p)
{
	size_t i;
	json_t *e;

	json_array_foreach(p->events, i, e) {
		int pid = pid_of(e);

		if (!is(e, "ph", "M") || !is(e, "name", "process_name") || !pid)
			continue;
		if (!involved(p, pid)) {
			p->nother++;
			continue;
		}
		if (p->n == MAX_LANES)
			continue;
		p->l[p->n].pid = pid;
		p->l[p->n].name = cgt_html_str(json_object_get(e, "args"), "name");
		p->l[p->n++].ntids = 0;
	}
	if (p->nother) {
		p->other = &p->l[p->n++];
		p->other->pid = 0;
		p->other->name = NULL;
		p->other->ntids = 1;
		p->other->rows[0] = "operations";
	}
	/* rows: the operations first, then rcu, then the locks, as the tracks are numbered */
	json_array_foreach(p->events, i, e) {
		struct lane *ln = lane_of(p, pid_of(e));

		if (ln && ln->pid && is(e, "ph", "M") && is(e, "name", "thread_name"))
			row_of(ln, (int)json_integer_value(json_object_get(e, "tid")),
			       cgt_html_str(json_object_get(e, "args"), "name"));
	}
}

/* The span: the involved threads' events and the failure's report, on round ticks. */
static void plot_span(struct plot *p, bool decisions, double window_from)
{
	double t0 = 1e300, t1 = -1e300;
	size_t i;
	json_t *e;

	json_array_foreach(p->events, i, e) {
		double ts = cgt_html_num(e, "ts"), end = ts + cgt_html_num(e, "dur");
		struct lane *ln = lane_of(p, pid_of(e));
		bool report = is(e, "cat", "detector") &&
			      json_is_true(json_object_get(json_object_get(e, "args"),
							   "failure_of_interest"));

		if (is(e, "ph", "M") || (!report && (!ln || ln == p->other)))
			continue;
		t0 = ts < t0 ? ts : t0;
		t1 = end > t1 ? end : t1;
	}
	if (t1 < t0)
		t0 = t1 = 0;
	cgt_axis_make(&p->axis, t0, t1, decisions, 8);
	p->t0 = p->axis.from;
	p->t1 = p->axis.to;
	p->scale = PLOT_WIDTH / (p->t1 - p->t0);
	/* a window from before the span (the involved threads' whole lives): at its start */
	p->window = window_from < p->t0 ? p->t0 : window_from > p->t1 ? p->t1 : window_from;
	p->height = AXIS;
	for (int k = 0; k < p->n; k++) {
		p->l[k].y = p->height + HEAD;
		p->height += HEAD + (p->l[k].ntids ? p->l[k].ntids : 1) * ROW + 8;
	}
}

static double plot_x(const struct plot *p, double ts)
{
	return LANE_LABEL + (ts - p->t0) * p->scale;
}

static void mark_class(FILE *m, struct plot *p, enum key k)
{
	p->used |= 1u << k;
	fprintf(m, "class='mark %s'", keys[k].name);
}

static void plot_axis(FILE *m, const struct plot *p)
{
	char label[32];

	fprintf(m, "<g id='axis' data-from='%.17g' data-to='%.17g' data-unit='%s'>"
		"<line class='axisline' x1='%d' x2='%d' y1='%d' y2='%d'/>"
		"<text class='axisunit' x='%d' y='%d'>%s</text>\n",
		p->t0, p->t1, p->axis.decisions ? "decisions" : "seconds", LANE_LABEL,
		LANE_LABEL + PLOT_WIDTH, AXIS - 8, AXIS - 8, 4, AXIS - 12,
		cgt_axis_unit(&p->axis));
	for (int i = 0; i < p->axis.nticks; i++) {
		double x = plot_x(p, p->axis.ticks[i]);

		cgt_axis_label(&p->axis, p->axis.ticks[i], 0, label, sizeof(label));
		fprintf(m, "<g class='tick' data-value='%.17g'><line class='grid' x1='%.2f' "
			"x2='%.2f' y1='%d' y2='%d'/><line class='tickmark' x1='%.2f' x2='%.2f' "
			"y1='%d' y2='%d'/><text class='ticklabel' x='%.2f' y='%d' "
			"text-anchor='middle'>%s</text></g>\n",
			p->axis.ticks[i], x, x, AXIS - 8, p->height, x, x, AXIS - 12, AXIS - 4, x,
			AXIS - 14, label);
	}
	fputs("</g>\n", m);
}

/* Each lane's band, its name (the folded one's with its count) and its rows' names. */
static void plot_bands(FILE *m, const struct plot *p)
{
	for (int k = 0; k < p->n; k++) {
		const struct lane *l = &p->l[k];
		int rows = l->ntids ? l->ntids : 1;
		size_t len = strlen(l->name ? l->name : "");

		/* every lane drawn is involved: the trace's own mark of it says nothing here */
		if (len > 11 && !strcmp(l->name + len - 11, " - involved"))
			len -= 11;
		if (l->pid)
			fprintf(m, "<g class='lane' data-thread='%d'>", l->pid);
		else
			fprintf(m, "<g class='lane' data-other='%d'>", p->nother);
		fprintf(m, "<rect class='band' x='0' y='%d' width='%d' height='%d'/>"
			"<text x='4' y='%d' class='lanename'>", l->y - HEAD, LANE_LABEL + PLOT_WIDTH,
			HEAD + rows * ROW + 2, l->y - 4);
		if (l->pid) {
			char name[128];

			snprintf(name, sizeof(name), "%.*s", (int)len, l->name);
			cgt_html_esc(m, name);
		} else {
			fprintf(m, "other threads (%d)", p->nother);
		}
		fputs("</text>", m);
		for (int r = 0; r < rows && r < l->ntids; r++) {
			fprintf(m, "<text x='14' y='%d' class='rowname'>",
				l->y + r * ROW + ROW - 4);
			cgt_html_esc(m, l->rows[r]);
			fputs("</text>", m);
		}
		fputs("</g>\n", m);
	}
}

/* The name trace.json gives thread @pid. */
static const char *thread_name(const struct plot *p, int pid)
{
	size_t i;
	json_t *e;

	json_array_foreach(p->events, i, e)
		if (pid_of(e) == pid && is(e, "ph", "M") && is(e, "name", "process_name"))
			return cgt_html_str(json_object_get(e, "args"), "name");
	return "";
}

/* A slice's kind, by its category and, for a lock or rcu, its name as trace.c writes it. */
static enum key slice_key(json_t *e, const struct lane *ln)
{
	const char *cat = cgt_html_str(e, "cat"), *name = cgt_html_str(e, "name");

	if (!ln->pid)
		return KEY_OTHER;
	if (!strcmp(cat, "function"))
		return KEY_FUNCTION;
	if (!strcmp(cat, "lock"))
		return strncmp(name, "wait ", 5) ? KEY_HOLD : KEY_WAIT;
	if (!strcmp(cat, "rcu"))
		return strncmp(name, "synchronize_rcu", 15) ? KEY_RCU : KEY_GP;
	return KEY_OPERATION;
}

/* A slice, cut to the span; the other threads' lane shows only their operations. */
static void plot_slice(FILE *m, struct plot *p, json_t *e, struct lane *ln, int row)
{
	double ts = cgt_html_num(e, "ts"), dur = cgt_html_num(e, "dur"), end = ts + dur;
	enum key k = slice_key(e, ln);
	bool fn = k == KEY_FUNCTION;
	double x0, x1;

	if ((!ln->pid && !is(e, "cat", "operation")) || end < p->t0 || ts > p->t1)
		return;
	x0 = plot_x(p, ts > p->t0 ? ts : p->t0);
	x1 = plot_x(p, end < p->t1 ? end : p->t1);
	fputs("<rect ", m);
	mark_class(m, p, k);
	/* a function is drawn inside its operation's bar: both show */
	fprintf(m, " x='%.2f' y='%d' width='%.2f' height='%d'><title>", x0,
		ln->y + row * ROW + (fn ? 3 : 0), x1 - x0 > 0.5 ? x1 - x0 : 0.5,
		fn ? ROW - 9 : ROW - 3);
	if (!ln->pid) {
		cgt_html_esc(m, thread_name(p, pid_of(e)));
		fputs(": ", m);
	}
	cgt_html_esc(m, cgt_html_str(e, "name"));
	if (p->axis.decisions)
		fprintf(m, ": %.0f decisions</title></rect>\n", dur);
	else
		fprintf(m, ": %.1f us</title></rect>\n", dur);
}

/* A report on a thread: a diamond on its lane; on none (the run's): a line across all. */
static void plot_report(FILE *m, struct plot *p, json_t *e, struct lane *ln, double x)
{
	fputs("<g class='detector' data-detector='", m);
	cgt_html_esc(m, cgt_html_str(json_object_get(e, "args"), "detector"));
	fputs("'>", m);
	if (ln) {
		fputs("<path ", m);
		mark_class(m, p, KEY_REPORT);
		fprintf(m, " d='M%.2f,%d l6,7 l-6,7 l-6,-7 z'/>", x, ln->y);
	} else {
		fputs("<line ", m);
		mark_class(m, p, KEY_REPORT);
		fprintf(m, " x1='%.2f' x2='%.2f' y1='%d' y2='%d'/>", x, x, AXIS - 8, p->height);
	}
	fputs("<title>", m);
	cgt_html_esc(m, cgt_html_str(e, "name"));
	fputs("</title></g>\n", m);
}

/* The slices, the marked points and the reports inside the span. */
static void plot_events(FILE *m, struct plot *p)
{
	size_t i;
	json_t *e;

	json_array_foreach(p->events, i, e) {
		struct lane *ln = lane_of(p, pid_of(e));
		double ts = cgt_html_num(e, "ts"), x = plot_x(p, ts);
		int row;

		if (is(e, "ph", "i") && is(e, "cat", "detector") && ts >= p->t0 && ts <= p->t1) {
			plot_report(m, p, e, ln, x);
			continue;
		}
		if (!ln || (!is(e, "ph", "X") && !is(e, "ph", "i")))
			continue;
		row = row_of(ln, (int)json_integer_value(json_object_get(e, "tid")), "");
		if (is(e, "ph", "X")) {
			plot_slice(m, p, e, ln, row);
		} else if (ln->pid && ts >= p->t0 && ts <= p->t1) {
			fputs("<line ", m);
			mark_class(m, p, KEY_POINT);
			fprintf(m, " x1='%.2f' x2='%.2f' y1='%d' y2='%d'><title>", x, x,
				ln->y + row * ROW, ln->y + row * ROW + ROW - 3);
			cgt_html_esc(m, cgt_html_str(e, "name"));
			fputs("</title></line>\n", m);
		}
	}
}

/* The window: a dashed line where it begins, the span before it shaded. */
static void plot_window(FILE *m, struct plot *p)
{
	double x = plot_x(p, p->window);

	fprintf(m, "<g class='window' data-ts='%.17g'>", p->window);
	if (p->window > p->t0) {
		fputs("<rect ", m);
		mark_class(m, p, KEY_SHADE);
		fprintf(m, " x='%d' y='%d' width='%.2f' height='%d'/>", LANE_LABEL, AXIS - 8,
			x - LANE_LABEL, p->height - AXIS + 8);
	}
	fputs("<line ", m);
	mark_class(m, p, KEY_WINDOW);
	fprintf(m, " x1='%.2f' x2='%.2f' y1='%d' y2='%d'><title>%s</title></line></g>\n", x, x,
		AXIS - 8, p->height, keys[KEY_WINDOW].words);
}

/* Flow arrows: an "s" event to each "f" with the same id. */
static void plot_flows(FILE *m, struct plot *p)
{
	size_t i, j;
	json_t *e, *f;

	json_array_foreach(p->events, i, e) {
		if (!is(e, "ph", "s"))
			continue;
		json_array_foreach(p->events, j, f) {
			struct lane *a, *b;

			if (!is(f, "ph", "f") || json_integer_value(json_object_get(f, "id")) !=
			    json_integer_value(json_object_get(e, "id")))
				continue;
			a = lane_of(p, pid_of(e));
			b = lane_of(p, pid_of(f));
			if (!a || !b)
				continue;
			fputs("<line ", m);
			mark_class(m, p, KEY_FLOW);
			fprintf(m, " x1='%.2f' y1='%d' x2='%.2f' y2='%d' marker-end='url(#arrow)'>"
				"<title>", plot_x(p, cgt_html_num(e, "ts")), a->y + ROW / 2,
				plot_x(p, cgt_html_num(f, "ts")), b->y + ROW / 2);
			cgt_html_esc(m, cgt_html_str(e, "name"));
			fputs("</title></line>\n", m);
		}
	}
}

/* A key for every kind of mark drawn, its swatch of the mark's own class, one a line. */
static void legend(FILE *m, const struct plot *p)
{
	fputs("<div id='legend'>\n", m);
	for (int k = 0; k < NR_KEYS; k++) {
		if (!(p->used & (1u << k)))
			continue;
		fprintf(m, "<span class='key' data-key='%s'><svg width='22' height='14'>",
			keys[k].name);
		if (keys[k].shape == 'r')
			fprintf(m, "<rect class='mark %s' x='1' y='2' width='20' height='10'/>",
				keys[k].name);
		else if (keys[k].shape == 'l')
			fprintf(m, "<line class='mark %s' x1='11' x2='11' y1='0' y2='14'/>",
				keys[k].name);
		else
			fprintf(m, "<path class='mark %s' d='M11,0 l6,7 l-6,7 l-6,-7 z'/>",
				keys[k].name);
		fprintf(m, "</svg> %s</span>\n", keys[k].words);
	}
	fputs("</div>\n", m);
}

/* What is drawn, said in words that match it. */
static void caption(FILE *m, const struct plot *p, double window_from)
{
	char from[32], to[32], win[32];
	const char *unit = p->axis.decisions ? "decisions" : "s";

	cgt_axis_label(&p->axis, p->t0, 1, from, sizeof(from));
	cgt_axis_label(&p->axis, p->t1, 1, to, sizeof(to));
	cgt_axis_label(&p->axis, p->window, 1, win, sizeof(win));
	fprintf(m, "<p class='note' id='timeline-caption'>%d lane(s): the %d thread(s) involved in "
		"the failure", p->n, p->n - (p->other ? 1 : 0));
	if (p->other)
		fprintf(m, ", then the %d other thread(s) of trace.json in one lane, their "
			"operations only", p->nother);
	fprintf(m, ". From %s to %s %s. ", from, to, unit);
	if (window_from > p->t0)
		fprintf(m, "Every involved thread's events are complete from %s %s (dashed line); "
			"before it (shaded), some of their older events have left the ring. ", win,
			unit);
	else
		fprintf(m, "Every involved thread's events are complete over the whole span "
			"(dashed line at its start). ");
	fputs("Hover a mark for what it is; trace.json in Perfetto UI (ui.perfetto.dev) zooms "
	      "into every thread.</p>\n", m);
}

void cgt_timeline_write(FILE *m, json_t *trace, json_t *involved)
{
	json_t *other = json_object_get(trace, "otherData");
	double window_from = cgt_html_num(other, "window_from");
	struct plot *p = calloc(1, sizeof(*p));

	if (!p) {
		fputs("<p>no memory for the timeline</p>\n", m);
		return;
	}
	p->events = json_object_get(trace, "traceEvents");
	p->involved = json_array_size(involved) ? involved : NULL;
	plot_lanes_find(p);
	plot_span(p, !strcmp(cgt_html_str(other, "time_unit"), "decisions"), window_from);
	caption(m, p, window_from);
	fprintf(m, "<svg id='timeline' xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' "
		"viewBox='0 0 %d %d'>\n", LANE_LABEL + PLOT_WIDTH + MARGIN, p->height + 10,
		LANE_LABEL + PLOT_WIDTH + MARGIN, p->height + 10);
	fputs("<defs><marker id='arrow' viewBox='0 0 10 10' refX='9' refY='5' markerWidth='6' "
	      "markerHeight='6' orient='auto'><path d='M0,0 L10,5 L0,10 z' class='arrowhead'/>"
	      "</marker></defs>\n<g id='plot'>\n", m);
	plot_bands(m, p);
	plot_axis(m, p);
	plot_window(m, p);
	plot_events(m, p);
	plot_flows(m, p);
	fputs("</g></svg>\n", m);
	legend(m, p);
	free(p);
}
