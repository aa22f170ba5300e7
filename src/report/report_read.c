// SPDX-License-Identifier: GPL-2.0
/*
 * report.json read back (jansson), every field this reader hands on checked for its type,
 * its range and its agreement with the others: the schedule's length with "steps", each
 * thread number with "threads", each failure's step with the decisions made. The file is
 * untrusted input (it is fuzzed: tests/fuzz/fuzz_report.c), so nothing here may crash or
 * exit; every refusal is one line that names the file and the field.
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report_read.h"
#include "../core/failure.h"
#include "../sched/sched.h"

#define COMMAND_PREFIX		"cgtorture run"
#define COMMAND_MAX_WORDS	1024	/* the tunables table spelled out is well under 100 */

/*
 * From the X-macro rather than cgt_detector_names, so that the reader (and the fuzzer built
 * from it) does not pull in failure.c and with it the thread registry. NULL-ended.
 */
static const char *const detector_names[CGT_NR_DETECTORS + 1] = {
#define X(id, sym, name, desc) [CGT_DET_##id] = name,
	CGT_DETECTORS(X)
#undef X
};

struct ctx {
	const char *name;	/* the file, as the reasons name it */
	char *err;
	size_t errlen;
};

static int __attribute__((format(printf, 2, 3))) fail(const struct ctx *c, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(c->err, c->errlen, "%s: ", c->name);
	if (n >= 0 && (size_t)n < c->errlen) {
		va_start(ap, fmt);
		vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* A string from the file, fit to quote in a one-line reason: short, no control bytes. */
static const char *shown(const char *s, char *buf, size_t size)
{
	size_t i;

	for (i = 0; s[i] && i + 4 < size; i++)
		buf[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
	if (s[i]) {
		memcpy(buf + i, "...", 3);
		i += 3;
	}
	buf[i] = '\0';
	return buf;
}

static const char *const type_names[] = {
	[JSON_OBJECT] = "an object", [JSON_ARRAY] = "an array", [JSON_STRING] = "a string",
	[JSON_INTEGER] = "an integer", [JSON_REAL] = "a real number", [JSON_TRUE] = "true",
	[JSON_FALSE] = "false", [JSON_NULL] = "null",
};

static const char *type_name(const json_t *v)
{
	return type_names[json_typeof(v)];
}

/* @where@key of type @type, or NULL with the reason; @where is "", "\"schedule\".", ... */
static json_t *field(const struct ctx *c, json_t *obj, const char *where, const char *key,
		     json_type type)
{
	json_t *v = json_object_get(obj, key);

	if (!v)
		fail(c, "%s\"%s\" is missing", where, key);
	else if (json_typeof(v) != type)
		fail(c, "%s\"%s\" is %s, not %s", where, key, type_name(v), type_names[type]);
	else
		return v;
	return NULL;
}

static int get_int(const struct ctx *c, json_t *obj, const char *where, const char *key,
		   long long min, long long max, long long *out)
{
	json_t *v = field(c, obj, where, key, JSON_INTEGER);

	if (!v)
		return -1;
	*out = json_integer_value(v);
	if (*out < min || *out > max)
		return fail(c, "%s\"%s\" is %lld, not in %lld..%lld", where, key, *out, min, max);
	return 0;
}

static int get_str(const struct ctx *c, json_t *obj, const char *where, const char *key,
		   const char **out)
{
	json_t *v = field(c, obj, where, key, JSON_STRING);

	if (!v)
		return -1;
	*out = json_string_value(v);
	return 0;
}

/* Index of @s in the NULL-ended @names, or -1 with the reason. */
static int get_enum(const struct ctx *c, json_t *obj, const char *where, const char *key,
		    const char *const *names, const char *expected)
{
	const char *s;
	char buf[48];

	if (get_str(c, obj, where, key, &s))
		return -1;
	for (int i = 0; names[i]; i++)
		if (!strcmp(s, names[i]))
			return i;
	return fail(c, "%s\"%s\" is '%s', not %s", where, key, shown(s, buf, sizeof(buf)),
		    expected);
}

/* The scheduler a report names, from the registry: NULL, and why, if this build has none such. */
static const struct cgt_sched_ops *get_scheduler(const struct ctx *c, json_t *sched,
						 const char *where)
{
	const struct cgt_sched_ops *ops;
	char buf[48], valid[128] = "";
	const char *s;

	if (get_str(c, sched, where, "scheduler", &s))
		return NULL;
	ops = cgt_sched_find(s);
	if (ops)
		return ops;
	/* "random or pct": the names, the last one after "or" */
	for (int i = 0; i < cgt_nr_schedulers; i++)
		snprintf(valid + strlen(valid), sizeof(valid) - strlen(valid), "%s%s",
			 !i ? "" : i == cgt_nr_schedulers - 1 ? " or " : ", ",
			 cgt_schedulers[i]->name);
	fail(c, "%s\"scheduler\" is '%s', not %s", where, shown(s, buf, sizeof(buf)), valid);
	return NULL;
}

static int parse_schedule(const struct ctx *c, json_t *sched, struct cgt_report_in *out)
{
	const struct cgt_sched_ops *ops;
	const char *w = "\"schedule\".", *choices;
	long long depth, steps, stop, threads, switches, preemptions = -1;
	char why[160];

	if (!json_is_object(sched))
		return fail(c, "\"schedule\" is %s, not an object", type_name(sched));
	ops = get_scheduler(c, sched, w);
	if (!ops || get_int(c, sched, w, "depth", 1, INT_MAX, &depth) ||
	    get_int(c, sched, w, "steps", 0, CGT_SCHEDULE_MAX, &steps) ||
	    get_int(c, sched, w, "stop_step", -1, steps, &stop) ||
	    get_int(c, sched, w, "threads", 1, INT_MAX, &threads) ||
	    get_int(c, sched, w, "switches", 0, LLONG_MAX, &switches) ||
	    get_str(c, sched, w, "choices", &choices))
		return -1;
	if (json_object_get(sched, "locks")) {
		static const char *const modes[] = { "model", "code", NULL };
		int m = get_enum(c, sched, w, "locks", modes, "model or code");

		if (m < 0)
			return -1;
		out->lock_code = m == 1;
	}
	/* reports written before preemptions were counted lack the key */
	if (json_object_get(sched, "preemptions") &&
	    get_int(c, sched, w, "preemptions", 0, steps, &preemptions))
		return -1;
	if (cgt_schedule_decode(choices, (long)steps, &out->schedule, why, sizeof(why)))
		return fail(c, "\"schedule\".\"choices\": %s", why);
	if (out->schedule.len != steps)
		return fail(c, "\"schedule\".\"steps\" is %lld but \"choices\" holds %ld decisions",
			    steps, out->schedule.len);
	for (long i = 0; i < out->schedule.len; i++)
		if (out->schedule.choice[i] > threads)
			return fail(c, "\"schedule\".\"choices\": thread number %d is above "
				    "\"threads\" %lld (decision %ld)", out->schedule.choice[i],
				    threads, i);
	if (cgt_schedule_switches(&out->schedule) != switches)
		return fail(c, "\"schedule\".\"switches\" is %lld but \"choices\" switches %ld "
			    "times", switches, cgt_schedule_switches(&out->schedule));
	out->controlled = true;
	snprintf(out->scheduler, sizeof(out->scheduler), "%s", ops->name);
	out->depth = (int)depth;
	out->stop_step = (long)stop;
	out->threads = (int)threads;
	out->preemptions = (long)preemptions;
	return 0;
}

/* One element of "failures"; the first one's fields go to @out. */
static int parse_failure(const struct ctx *c, json_t *f, size_t i, struct cgt_report_in *out)
{
	char w[40];
	const char *summary, *known = NULL;
	long long step;
	int det;

	if (!json_is_object(f))
		return fail(c, "\"failures\"[%zu] is %s, not an object", i, type_name(f));
	snprintf(w, sizeof(w), "\"failures\"[%zu].", i);
	det = get_enum(c, f, w, "detector", detector_names, "a known detector");
	if (det < 0 || get_str(c, f, w, "summary", &summary) ||
	    get_int(c, f, w, "step", LLONG_MIN, LLONG_MAX, &step))
		return -1;
	if (json_object_get(f, "known") && get_str(c, f, w, "known", &known))
		return -1;
	if (!out->controlled && step != -1)
		return fail(c, "%s\"step\" is %lld in a free-running run (no \"schedule\"): "
			    "it must be -1", w, step);
	if (out->controlled && step < 0)
		return fail(c, "%s\"step\" is %lld in a controlled run: it must be 0..%ld",
			    w, step, out->schedule.len);
	if (out->controlled && step > out->schedule.len)
		return fail(c, "\"failures\"[%zu]: failure step %lld is beyond the %ld decisions",
			    i, step, out->schedule.len);
	if (i < CGT_MAX_FAILURES) {
		out->failure[i].detector = det;
		out->failure[i].known = known != NULL;
		out->failure[i].step = (long)step;
		snprintf(out->failure[i].summary, sizeof(out->failure[i].summary), "%s", summary);
		out->nfailures = (int)i + 1;
	}
	if (i == 0) {
		out->first_detector = det;
		out->first_step = (long)step;
		snprintf(out->first_summary, sizeof(out->first_summary), "%s", summary);
	}
	return 0;
}

/* "story": one line a string; kept joined, each line ending in a newline. */
static int parse_story(const struct ctx *c, json_t *story, struct cgt_report_in *out)
{
	size_t i, len = 1;
	json_t *v;

	if (!json_is_array(story))
		return fail(c, "\"story\" is %s, not an array", type_name(story));
	json_array_foreach(story, i, v) {
		if (!json_is_string(v))
			return fail(c, "\"story\"[%zu] is %s, not a string", i, type_name(v));
		if (strchr(json_string_value(v), '\n'))
			return fail(c, "\"story\"[%zu] holds a newline: one line each", i);
		len += json_string_length(v) + 1;
	}
	out->story = malloc(len);
	if (!out->story)
		return fail(c, "out of memory");
	out->story[0] = '\0';
	json_array_foreach(story, i, v) {
		strcat(out->story, json_string_value(v));
		strcat(out->story, "\n");
	}
	return 0;
}

/* "timeline": what trace.json holds; the window inside the run, the involved threads real. */
static int parse_timeline(const struct ctx *c, json_t *t, struct cgt_report_in *out)
{
	static const char *const units[] = { "us", "decisions", NULL };
	const char *w = "\"timeline\".", *trace;
	json_t *from, *at, *ids, *v;
	long long id;
	size_t i;
	int unit;

	if (!json_is_object(t))
		return fail(c, "\"timeline\" is %s, not an object", type_name(t));
	unit = get_enum(c, t, w, "unit", units, "us or decisions");
	if (unit < 0 || get_str(c, t, w, "trace", &trace))
		return -1;
	if (strcmp(trace, "trace.json"))
		return fail(c, "%s\"trace\" is not trace.json: a report names no other file", w);
	from = field(c, t, w, "window_from", JSON_REAL);
	at = from ? field(c, t, w, "failure_at", JSON_REAL) : NULL;
	ids = at ? field(c, t, w, "involved", JSON_ARRAY) : NULL;
	if (!ids)
		return -1;
	if (!(json_real_value(from) >= 0) || !(json_real_value(at) >= json_real_value(from)))
		return fail(c, "%s\"window_from\" %g and \"failure_at\" %g: not a window "
			    "0 <= from <= at", w, json_real_value(from), json_real_value(at));
	if (json_array_size(ids) > CGT_REPORT_INVOLVED)
		return fail(c, "%s\"involved\" holds %zu threads, more than %d", w,
			    json_array_size(ids), CGT_REPORT_INVOLVED);
	json_array_foreach(ids, i, v) {
		if (!json_is_integer(v) || (id = json_integer_value(v)) < 1 || id > INT_MAX)
			return fail(c, "%s\"involved\"[%zu] is not a thread number", w, i);
		out->involved[out->ninvolved++] = (int)id;
	}
	/* the failure it is of, and its kind (report/kind.h): what reproduce looks for */
	if (json_object_get(t, "detector") || json_object_get(t, "kind")) {
		const char *kind;

		out->timeline_detector = get_enum(c, t, w, "detector", detector_names,
						  "a known detector");
		if (out->timeline_detector < 0 || get_str(c, t, w, "kind", &kind))
			return -1;
		if (strlen(kind) >= sizeof(out->kind) || strchr(kind, '\n'))
			return fail(c, "%s\"kind\" is not one line of under %zu bytes", w,
				    sizeof(out->kind));
		snprintf(out->kind, sizeof(out->kind), "%s", kind);
	}
	out->has_timeline = true;
	out->timeline_decisions = unit == 1;
	out->window_from = json_real_value(from);
	out->failure_at = json_real_value(at);
	return 0;
}

static int parse_root(const struct ctx *c, json_t *root, struct cgt_report_in *out)
{
	static const char *const builds[] = { "plain", "tsan", "asan", NULL };
	static const char *const verdicts[] = { "FAIL", "PASS", "INTERRUPTED", NULL };
	const char *schema, *command;
	json_t *failures, *sched, *f;
	long long version, total, known = 0;
	char buf[48], why[160], **argv;
	int argc, b, verdict;
	size_t i;

	if (!json_is_object(root))
		return fail(c, "the top level is %s, not an object", type_name(root));
	if (!json_is_string(json_object_get(root, "schema")))
		return fail(c, "no \"schema\" string: not a cgtorture report");
	schema = json_string_value(json_object_get(root, "schema"));
	if (strcmp(schema, "cgtorture-report"))
		return fail(c, "schema is '%s', not cgtorture-report",
			    shown(schema, buf, sizeof(buf)));
	if (get_int(c, root, "", "version", LLONG_MIN, LLONG_MAX, &version))
		return -1;
	if (version != CGT_REPORT_VERSION)
		return fail(c, "version %lld, this cgtorture reads version %d", version,
			    CGT_REPORT_VERSION);
	b = get_enum(c, root, "", "build", builds, "plain, tsan or asan");
	if (b < 0 || get_str(c, root, "", "command", &command))
		return -1;
	/* What the caller will run: it must split back into the words that were written. */
	if (cgt_command_argv(command, &argc, &argv, why, sizeof(why)))
		return fail(c, "%s", why);
	cgt_argv_free(argc, argv);
	verdict = get_enum(c, root, "", "verdict", verdicts,
			   "PASS, FAIL or INTERRUPTED");
	if (verdict < 0 || get_int(c, root, "", "failures_total", 0, LONG_MAX, &total))
		return -1;
	failures = field(c, root, "", "failures", JSON_ARRAY);
	if (!failures)
		return -1;
	if (json_array_size(failures) > CGT_MAX_FAILURES)
		return fail(c, "\"failures\" holds %zu, more than the %d a report keeps",
			    json_array_size(failures), CGT_MAX_FAILURES);
	if ((long long)json_array_size(failures) > total)
		return fail(c, "\"failures\" holds %zu but \"failures_total\" is %lld",
			    json_array_size(failures), total);
	/* a report older than known failures has no "failures_known" */
	if (json_object_get(root, "failures_known") &&
	    get_int(c, root, "", "failures_known", 0, total, &known))
		return -1;
	/* end.c: a pass is no failure but known ones, a quiesced model, every thread finished */
	if (verdict != 0 && total > known)
		return fail(c, "\"verdict\" is %s but %lld of \"failures_total\" %lld are not known",
			    verdicts[verdict], total - known, total);
	sched = json_object_get(root, "schedule");
	if (sched && parse_schedule(c, sched, out))
		return -1;
	json_array_foreach(failures, i, f)
		if (parse_failure(c, f, i, out))
			return -1;
	if (json_object_get(root, "story") &&
	    parse_story(c, json_object_get(root, "story"), out))
		return -1;
	if (json_object_get(root, "timeline") &&
	    parse_timeline(c, json_object_get(root, "timeline"), out))
		return -1;
	if (out->has_timeline && out->timeline_decisions != out->controlled)
		return fail(c, "\"timeline\" counts in %s but the run was %s",
			    out->timeline_decisions ? "decisions" : "microseconds",
			    out->controlled ? "controlled" : "free-running");
	out->command = strdup(command);
	if (!out->command)
		return fail(c, "out of memory");
	snprintf(out->build, sizeof(out->build), "%s", builds[b]);
	out->pass = verdict == 1;
	out->interrupted = verdict == 2;
	out->failures_total = (long)total;
	return 0;
}

static int parse_named(const struct ctx *c, const char *buf, size_t len,
		       struct cgt_report_in *out)
{
	json_error_t jerr;
	json_t *root;
	int ret;

	memset(out, 0, sizeof(*out));
	out->first_detector = -1;
	out->first_step = -1;
	out->stop_step = -1;
	out->timeline_detector = -1;
	if (len > CGT_REPORT_MAX_BYTES)
		return fail(c, "%zu bytes, more than the %ld a report may have", len,
			    CGT_REPORT_MAX_BYTES);
	if (!len)
		return fail(c, "empty");
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		char text[sizeof(jerr.text)];

		if (json_error_code(&jerr) == json_error_premature_end_of_input)
			return fail(c, "truncated: line %d: %s", jerr.line,
				    shown(jerr.text, text, sizeof(text)));
		return fail(c, "not JSON: line %d: %s", jerr.line,
			    shown(jerr.text, text, sizeof(text)));
	}
	ret = parse_root(c, root, out);
	json_decref(root);
	if (ret)
		cgt_report_in_free(out);
	return ret;
}

int cgt_report_parse(const char *buf, size_t len, struct cgt_report_in *out, char *err,
		     size_t errlen)
{
	const struct ctx c = { "report.json", err, errlen };

	return parse_named(&c, buf, len, out);
}

int cgt_report_read(const char *path, struct cgt_report_in *out, char *err, size_t errlen)
{
	const struct ctx c = { path, err, errlen };
	const char *slash = strrchr(path, '/');
	size_t dirlen = !slash ? 1 : slash == path ? 1 : (size_t)(slash - path);
	size_t got = 0;
	struct stat st;
	char *buf;
	int fd, ret;

	memset(out, 0, sizeof(*out));
	if (dirlen >= sizeof(out->dir))
		return fail(&c, "its folder's name is longer than %zu bytes",
			    sizeof(out->dir) - 1);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(&c, "cannot open: %s", strerror(errno));
	if (fstat(fd, &st)) {
		ret = errno;
		close(fd);
		return fail(&c, "cannot stat: %s", strerror(ret));
	}
	if (!S_ISREG(st.st_mode) || st.st_size > CGT_REPORT_MAX_BYTES) {
		close(fd);
		if (!S_ISREG(st.st_mode))
			return fail(&c, "not a regular file");
		return fail(&c, "%lld bytes, more than the %ld a report may have",
			    (long long)st.st_size, CGT_REPORT_MAX_BYTES);
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		close(fd);
		return fail(&c, "out of memory for %lld bytes", (long long)st.st_size);
	}
	/* A file that shrank meanwhile is parsed as far as it goes: truncated, or whole. */
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = errno;
			free(buf);
			close(fd);
			return fail(&c, "cannot read: %s", strerror(ret));
		}
		if (!n)
			break;
		got += (size_t)n;
	}
	close(fd);
	ret = parse_named(&c, buf, got, out);
	free(buf);
	if (ret)
		return ret;
	if (!slash)
		strcpy(out->dir, ".");
	else if (slash == path)
		strcpy(out->dir, "/");
	else
		snprintf(out->dir, sizeof(out->dir), "%.*s", (int)dirlen, path);
	return 0;
}

void cgt_report_in_free(struct cgt_report_in *r)
{
	free(r->command);
	free(r->story);
	cgt_schedule_free(&r->schedule);
	memset(r, 0, sizeof(*r));
}

int cgt_command_argv(const char *command, int *argc, char ***argv, char *err, size_t errlen)
{
	const struct ctx c = { "command", err, errlen };
	const size_t plen = strlen(COMMAND_PREFIX);
	char buf[48], **v;
	int words = 1, n = 0;

	*argc = 0;
	*argv = NULL;
	if (!command)
		return fail(&c, "missing");
	if (strncmp(command, COMMAND_PREFIX, plen) || (command[plen] && command[plen] != ' '))
		return fail(&c, "'%s' does not start with \"" COMMAND_PREFIX "\"",
			    shown(command, buf, sizeof(buf)));
	for (size_t i = 0; command[i]; i++) {
		unsigned char ch = (unsigned char)command[i];

		if (ch < 0x20 || ch == 0x7f)
			return fail(&c, "a control character (0x%02x) at byte %zu", ch, i);
		if (ch != ' ')
			continue;
		/* cgt_run_options_command writes one space between words: anything else is not its */
		if (command[i + 1] == ' ' || !command[i + 1])
			return fail(&c, "an empty word after byte %zu (a value with spaces in it "
				    "cannot be split back)", i);
		if (++words > COMMAND_MAX_WORDS)
			return fail(&c, "more than %d words", COMMAND_MAX_WORDS);
	}
	v = calloc((size_t)words + 1, sizeof(*v));
	if (!v)
		return fail(&c, "out of memory");
	for (const char *p = command; n < words; n++) {
		size_t wl = strcspn(p, " ");

		v[n] = strndup(p, wl);
		if (!v[n]) {
			cgt_argv_free(n, v);
			return fail(&c, "out of memory");
		}
		p += wl + 1;
	}
	*argc = words;
	*argv = v;
	return 0;
}

void cgt_argv_free(int argc, char **argv)
{
	if (!argv)
		return;
	for (int i = 0; i < argc; i++)
		free(argv[i]);
	free(argv);
}
