// SPDX-License-Identifier: GPL-2.0
/*
 * report.html: everything a person needs to see a failure, in one file with no outside
 * resource (its style and both pictures are inline). The timeline is timeline.c's: it
 * shows the involved threads' span, and trace.json in Perfetto UI zooms into any of it.
 * Text never runs out of its box: a command or a story line too long for the window wraps
 * instead of hiding behind a scroll bar, so what a person copies is what they see.
 */
#include <errno.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "page.h"
#include "timeline.h"
#include "../base/files.h"

static void lines(FILE *m, json_t *a)
{
	size_t i;
	json_t *v;

	json_array_foreach(a, i, v) {
		cgt_html_esc(m, json_string_value(v));
		fputc('\n', m);
	}
}

static const char style[] =
	"body{font-family:'DejaVu Sans',sans-serif;margin:1.5em;color:#222}"
	"h1{font-size:1.4em}h2{font-size:1.15em;border-bottom:1px solid #ccc;margin-top:1.6em}"
	"h1,h2,h3,p{overflow-wrap:anywhere}"
	"pre{background:#f6f6f6;padding:.6em;font-size:12px;white-space:pre-wrap;"
	"overflow-wrap:anywhere}"
	"#commands{border:1px solid #ccc;background:#fbfbf4}"
	".FAIL{color:#b00}.PASS{color:#070}.note{color:#555;font-size:.9em}"
	"#linkage svg{max-width:100%;height:auto}"
	".side{display:flex;gap:1em}.side>div{flex:1;min-width:0}.unmodelled{color:#999}"
	".slowpath{color:#a60}";

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
		const char *v = cgt_html_str(src, head[k][1]);

		fputs(head[k][0], m);
		cgt_html_esc(m, v[0] ? v : "not named");
	}
	fputs(")</p><pre id=kernel-stack>", m);
	json_array_foreach(json_object_get(src, "frames"), i, f) {
		const char *model = cgt_html_str(f, "model");

		if (json_is_true(json_object_get(f, "looked_past")))
			continue;
		if (stack >= 0 && json_integer_value(json_object_get(f, "stack")) != stack)
			fputs("--\n", m);
		stack = (long)json_integer_value(json_object_get(f, "stack"));
		fprintf(m, "<span class=%s>", !model[0] ? "unmodelled" :
			json_is_true(json_object_get(f, "slow_path")) ? "slowpath" : "modelled");
		cgt_html_esc(m, cgt_html_str(f, "kernel"));
		if (model[0]) {
			fputs("  -> ", m);
			cgt_html_esc(m, model);
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
	const char *build = cgt_html_str(r, "build");
	char bin[64];

	snprintf(bin, sizeof(bin), !strcmp(build, "plain") ? "./cgtorture" : "build/%s/cgtorture",
		 build);
	fputs("<h2>Run it again</h2><pre id=commands>", m);
	fputs("# the same configuration and seed\n", m);
	cgt_html_esc(m, cgt_html_str(r, "command"));
	fprintf(m, "\n# %s\n%s replay ", controlled ? "the same schedule, decision by decision" :
		"the same seed, ten times, with the rate it comes back", bin);
	cgt_html_esc(m, dir);
	fprintf(m, "/%s\n", report);
	if (controlled) {
		fprintf(m, "# a smaller schedule that still fails\n%s shrink ", bin);
		cgt_html_esc(m, dir);
	} else {
		fprintf(m, "# a controlled schedule with the same failure: an exact replay\n"
			"%s reproduce ", bin);
		cgt_html_esc(m, dir);
	}
	fprintf(m, "/%s\n# this page and the story again\n%s show ", report, bin);
	cgt_html_esc(m, dir);
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
	cgt_html_esc(m, cgt_html_str(r, "run_id"));
	fprintf(m, "</title><style>%s", style);
	cgt_timeline_style(m);
	fputs("</style></head><body>\n<h1>cgtorture report ", m);
	cgt_html_esc(m, cgt_html_str(r, "run_id"));
	fprintf(m, ": <span class='%s' id=verdict>%s</span></h1>\n<p>", cgt_html_str(r, "verdict"),
		cgt_html_str(r, "verdict"));
	fprintf(m, "%s build, %s run, seed ", cgt_html_str(r, "build"),
		json_object_get(r, "schedule") ? "controlled" : "free-running");
	cgt_html_esc(m, cgt_html_str(json_object_get(r, "config"), "seed"));
	fprintf(m, ", %.3f s, %lld failure(s)</p>\n",
		json_number_value(json_object_get(r, "elapsed_s")),
		json_integer_value(json_object_get(r, "failures_total")));
	if (json_object_get(r, "source"))	/* a kernel's report reproduced: that first */
		kernel_side(m, r, json_object_get(r, "source"));
	fputs("<h2>What the detectors found</h2>\n", m);
	json_array_foreach(json_object_get(r, "failures"), i, f) {
		fprintf(m, "<h3 class=failure data-detector='%s'>", cgt_html_str(f, "detector"));
		cgt_html_esc(m, cgt_html_str(f, "detector"));
		fputs(": ", m);
		cgt_html_esc(m, cgt_html_str(f, "summary"));
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
		cgt_timeline_write(m, trace, json_object_get(json_object_get(r, "timeline"),
							     "involved"));
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
	fputs("</body></html>\n", m);
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
