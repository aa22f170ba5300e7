// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a kernel's report out of a log (klog.h): line by line, each line cleaned of what
 * carried it (mail quoting, syslog or journalctl, the printk level, dmesg's time and caller
 * id), then either a record's first line, a line of the current record (its version, task,
 * locks, the start of another backtrace) or a stack frame in one of the forms the kernel,
 * crash and decode_stacktrace.sh print.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "klog.h"

const char *const cgt_klog_kind_names[CGT_NR_KLOG_KINDS] = {
#define X(id, name) [CGT_KLOG_##id] = name,
	CGT_KLOG_KINDS(X)
#undef X
};

#define LINE_MAX_BYTES	4096

static const char *skip_space(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static bool capitalised_word(const char *s)	/* "Dec ", "Mon " */
{
	return isupper((unsigned char)s[0]) && islower((unsigned char)s[1]) &&
	       islower((unsigned char)s[2]) && s[3] == ' ';
}

/*
 * What syslog and journalctl put before a line: a time in any of their forms ("Dec  3
 * 10:00:01", "Dec 07 13:04:04.123456", "[ 1234.567890]", "2026-12-07T13:04:04+0000", "Mon
 * 2026-12-07 13:04:04 UTC", "1733576644.123456", a month in the locale's words), the host
 * and "kernel: "; or an old syslog's "Jun 26 21:23:34 host " with no tag. The text after it.
 */
static const char *syslog_prefix(const char *s)
{
	const char *k = strstr(s, " kernel: "), *host, *p;
	bool digit = false;

	if (k && k - s <= 100) {
		for (host = k; host > s && host[-1] != ' '; host--)
			;
		for (p = s; p < host; p++)
			digit |= isdigit((unsigned char)*p) != 0;
		/* a time, then a host: not a sentence that names the kernel */
		if (host > s + 1 && digit && (p = strpbrk(s, ":.")) && p < host &&
		    (*s == '[' || isdigit((unsigned char)*s) || capitalised_word(s) ||
		     (unsigned char)*s >= 0x80))
			return k + 9;
	}
	if (!capitalised_word(s))
		return s;
	p = skip_space(s + 4);
	if (!isdigit((unsigned char)p[0]) || (p[1] != ' ' && (!isdigit((unsigned char)p[1]) ||
							     p[2] != ' ')))
		return s;
	p = skip_space(p + 1 + (p[1] != ' '));
	if (strspn(p, "0123456789:") != 8 || p[2] != ':' || p[5] != ':' || p[8] != ' ')
		return s;
	p += 9;
	host = p + strcspn(p, " ");
	return host > p && *host == ' ' ? host + 1 : s;
}

/* dmesg -x's "kern  :err   : ": a facility, a level, each padded. The text after it. */
static const char *facility_prefix(const char *s)
{
	static const char *const levels[] = { "emerg", "alert", "crit", "err", "warn",
					      "notice", "info", "debug" };
	const char *p = s, *l;
	size_t n;

	while (islower((unsigned char)*p) || isdigit((unsigned char)*p))
		p++;
	if (p == s || p - s > 8)
		return s;
	p = skip_space(p);
	if (*p != ':')
		return s;
	l = ++p;
	n = strspn(l, "abcdefghijklmnopqrstuvwxyz");
	p = skip_space(l + n);
	if (*p != ':' || p[1] != ' ')
		return s;
	for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
		if (n == strlen(levels[i]) && !strncmp(l, levels[i], n))
			return p + 2;
	return s;
}

/*
 * dmesg's prefixes: "[ 1234.567890]", -T's "[Mon Dec  7 13:04:04 2026]", -e's "[Aug 8
 * 14:13]", relative "[  +0.000021]", the caller id "[   T15]" or "[C1]", and a time whose '['
 * a mail lost: the text after one.
 */
static const char *time_prefix(const char *s)
{
	const char *p = skip_space(s), *q;
	size_t n;

	if (*p != '[') {
		n = strspn(p, "0123456789");
		if (n && p[n] == '.' && (q = p + n + 1 + strspn(p + n + 1, "0123456789")) > p + n + 1 &&
		    *q == ']')
			return q + 1 + (q[1] == ' ');
		return NULL;
	}
	q = strchr(p, ']');
	if (!q || q - p > 40 || q == p + 1)
		return NULL;
	n = (size_t)(q - p - 1);
	p = skip_space(p + 1);
	if ((*p == 'T' || *p == 'C') && isdigit((unsigned char)p[1]) &&
	    strspn(p + 1, "0123456789") == (size_t)(q - p - 1))
		return q + 1 + (q[1] == ' ');
	for (int w = 0; w < 2 && capitalised_word(p); w++)
		p = skip_space(p + 4);		/* a day's name, a month */
	if (strspn(p, "0123456789 .:+-") != (size_t)(q - p) || !n)
		return NULL;
	return q + 1 + (q[1] == ' ');
}

const char *cgt_klog_clean(char *line)
{
	const char *s = line, *p;
	size_t n = strlen(line);

	while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		line[--n] = '\0';
	for (;;) {				/* mail quoting, however deep */
		p = skip_space(s);
		if (*p != '>')
			break;
		s = p + 1;
		if (*s == ' ')
			s++;
	}
	p = skip_space(s);			/* a quote's "> " and a space more */
	if (syslog_prefix(p) != p)
		s = syslog_prefix(p);
	s = facility_prefix(s);
	if (s[0] == '<' && isdigit((unsigned char)s[1]) && s[2] == '>')
		s += 3;				/* printk level */
	while ((p = time_prefix(s)))
		s = p;
	return s;
}

int cgt_klog_version(const char *v)
{
	char *end;
	long major, minor;

	if (!isdigit((unsigned char)*v))
		return -1;
	major = strtol(v, &end, 10);
	if (*end != '.' || !isdigit((unsigned char)end[1]))
		return -1;
	minor = strtol(end + 1, &end, 10);
	if (major < 2 || major > 99 || minor > 99)
		return -1;
	return (int)(major * 100 + minor);
}

/* The kind a record's first line starts, or -1. */
static int record_kind(const char *s)
{
	static const struct { const char *at; bool prefix; enum cgt_klog_kind kind; } starts[] = {
		{ "INFO: task ", true, CGT_KLOG_HUNG_TASK },
		{ "BUG: soft lockup", false, CGT_KLOG_SOFT_LOCKUP },
		{ "hard LOCKUP on cpu", false, CGT_KLOG_HARD_LOCKUP },
		{ "self-detected stall on CPU", false, CGT_KLOG_RCU_STALL },
		{ "detected stalls on CPU", false, CGT_KLOG_RCU_STALL },
		{ "detected stall on CPU", false, CGT_KLOG_RCU_STALL },
		{ "BUG: KASAN: ", true, CGT_KLOG_KASAN },
		{ "BUG: KCSAN: ", true, CGT_KLOG_KCSAN },
		{ "possible circular locking dependency detected", false, CGT_KLOG_LOCKDEP },
		{ "possible recursive locking detected", false, CGT_KLOG_LOCKDEP },
		{ "inconsistent lock state", false, CGT_KLOG_LOCKDEP },
		{ "possible irq lock inversion dependency detected", false, CGT_KLOG_LOCKDEP },
		{ "BUG: sleeping function called from invalid context", true,
		  CGT_KLOG_SLEEP_ATOMIC },
		{ "BUG: scheduling while atomic", true, CGT_KLOG_SLEEP_ATOMIC },
		{ "BUG: unable to handle", true, CGT_KLOG_BUG },
		{ "BUG: kernel NULL pointer dereference", true, CGT_KLOG_BUG },
		{ "Unable to handle kernel", true, CGT_KLOG_BUG },
		{ "general protection fault", true, CGT_KLOG_BUG },
		{ "kernel BUG at ", true, CGT_KLOG_BUG },
		{ "WARNING: CPU: ", true, CGT_KLOG_WARNING },
		{ "WARNING: at ", true, CGT_KLOG_WARNING },
		{ "suspicious RCU usage", false, CGT_KLOG_RCU_USAGE },
		{ "suspicious rcu_dereference_check() usage", false, CGT_KLOG_RCU_USAGE },
	};

	s = skip_space(s);
	for (size_t i = 0; i < sizeof(starts) / sizeof(starts[0]); i++) {
		if (starts[i].prefix ? !strncmp(s, starts[i].at, strlen(starts[i].at)) :
				       strstr(s, starts[i].at) != NULL) {
			/* "INFO: task X:1 blocked for more than": not "INFO: task hung in" */
			if (starts[i].kind == CGT_KLOG_HUNG_TASK && !strstr(s, " blocked for more"))
				continue;
			return starts[i].kind;
		}
	}
	return -1;
}

static void copy_name(char *dst, size_t len, const char *s, size_t n)
{
	if (n >= len)
		n = len - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* "comm:pid" ending at @end (the pid after the last ':'): hung task's and lockup's. */
static void comm_pid(struct cgt_klog_record *r, const char *s, const char *end)
{
	const char *colon = NULL;

	for (const char *p = s; p < end; p++)
		if (*p == ':')
			colon = p;
	if (!colon || !isdigit((unsigned char)colon[1]))
		return;
	copy_name(r->comm, sizeof(r->comm), s, (size_t)(colon - s));
	r->pid = atoi(colon + 1);
}

static void record_start(struct cgt_klog *log, enum cgt_klog_kind kind, const char *s)
{
	struct cgt_klog_record *r;
	const char *p;

	if (log->nrecords == CGT_KLOG_RECORDS) {
		log->records_dropped++;
		return;
	}
	r = &log->rec[log->nrecords++];
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->line = (int)log->lines;
	s = skip_space(s);
	copy_name(r->title, sizeof(r->title), s, strlen(s));
	if (kind == CGT_KLOG_HUNG_TASK) {
		p = strstr(s, " blocked for more");
		comm_pid(r, s + 11, p);
	} else if ((p = strrchr(s, '[')) && strchr(p, ']')) {
		comm_pid(r, p + 1, strchr(p, ']'));	/* soft lockup's [comm:pid] */
	}
}

/* The version after "Not tainted " or "Tainted: G  W  O ", "Linux version ". */
static void version_of(const char *s, char *out, size_t len)
{
	const char *p;
	size_t n;

	if ((p = strstr(s, "Not tainted ")))
		p += 12;
	else if ((p = strstr(s, "Tainted: ")))
		for (p += 9; *p && !isdigit((unsigned char)*p); p++)
			;
	else if ((p = strstr(s, "Linux version ")))
		p += 14;
	else
		return;
	p = skip_space(p);
	n = strcspn(p, " \t");
	if (n && cgt_klog_version(p) > 0 && !out[0])
		copy_name(out, len, p, n);
}

/* syzbot's "HEAD commit: d7b8f8e20813 Linux 6.16-rc5" */
static void version_of_linux(const char *p, char *out, size_t len)
{
	if (cgt_klog_version(p) > 0 && !out[0])
		copy_name(out, len, p, strcspn(p, " \t"));
}

/* A lock name lockdep prints as "(name){+.+.}": '&', parentheses and ->rlock cut. */
static void locks_of(struct cgt_klog_record *r, const char *s)
{
	static const char *const tails[] = { "->rlock", "->raw_lock", ".rlock", ".rw_sem",
					     "->wait_lock" };

	for (const char *p = strstr(s, "){"); p; p = strstr(p + 2, "){")) {
		const char *q = p;
		char name[CGT_KLOG_NAME];
		size_t o = 0;
		int depth = 1;

		while (q > s && depth) {
			q--;
			depth += *q == ')' ? 1 : *q == '(' ? -1 : 0;
		}
		if (depth)
			continue;
		for (const char *c = q + 1; c < p && o + 1 < sizeof(name); c++)
			if (*c != '&' && *c != '(' && *c != ')')
				name[o++] = *c;
		name[o] = '\0';
		for (size_t t = 0; t < sizeof(tails) / sizeof(tails[0]); t++) {
			size_t tl = strlen(tails[t]);

			if (o > tl && !strcmp(name + o - tl, tails[t]))
				name[o -= tl] = '\0';
		}
		if (!o)
			continue;
		for (int i = 0; i < r->nlocks; i++)
			if (!strcmp(r->locks[i], name))
				goto next;
		if (r->nlocks < CGT_KLOG_LOCKS)
			copy_name(r->locks[r->nlocks++], CGT_KLOG_NAME, name, o);
next:		;
	}
}

static bool name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '$';
}

/* A function name as syzkaller's pkg/report normalises it, into @out. */
static void normalise(const char *s, size_t n, char *out, size_t len)
{
	static const char *const cuts[] = { ".isra.", ".constprop.", ".part.", ".cold",
					     ".llvm." };
	static const char *const sys[] = { "__x64_sys_", "__ia32_sys_", "__arm64_sys_",
					   "__se_sys_", "__do_sys_", "__do_compat_sys_", "SyS_" };

	for (size_t i = 0; i < sizeof(sys) / sizeof(sys[0]); i++) {
		size_t l = strlen(sys[i]);

		if (n > l && !strncmp(s, sys[i], l)) {
			char name[CGT_KLOG_NAME];

			snprintf(name, sizeof(name), "sys_%.*s", (int)(n - l), s + l);
			normalise(name, strlen(name), out, len);
			return;
		}
	}
	copy_name(out, len, s, n);
	for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		char *c = strstr(out, cuts[i]);

		if (c)
			*c = '\0';
	}
}

/*
 * The function a frame line names, or false. Forms: "func+0x1a/0x40 [mod]" with "? " for an
 * unreliable frame (dropped), "[<ffffffff8108>] func+0x..." (x86 before 4.x and
 * /proc/PID/stack's "[<0>]"), "RIP: 0010:func+0x...", arm64's "pc : func+0x...", crash's
 * "#3 [ffff8800...] func at ffffffff...", decode_stacktrace.sh's "func (kernel/exit.c:852)".
 */
static bool frame_of(const char *s, char *out, size_t len, bool *unreliable)
{
	const char *p, *e;

	*unreliable = false;
	s = skip_space(s);
	/* x86's "<IRQ>  [<ffff...>] func" and "<EOI>  ...": the stack's part, then the frame */
	while (s[0] == '<' && (p = strchr(s, '>')) && p - s < 8 && isupper((unsigned char)s[1]))
		s = skip_space(p + 1);
	while (s[0] == '[' && s[1] == '<') {
		p = strchr(s, ']');
		if (!p)
			return false;
		s = skip_space(p + 1);
	}
	if (!strncmp(s, "RIP: ", 5) || !strncmp(s, "pc : ", 5) || !strncmp(s, "lr : ", 5)) {
		s += 5;
		if ((p = strchr(s, ':')) && p - s == 4)
			s = p + 1;		/* RIP: 0010:func+0x... */
		while (s[0] == '[' && s[1] == '<' && (p = strchr(s, ']')))
			s = skip_space(p + 1);
	}
	if (s[0] == '#' && isdigit((unsigned char)s[1])) {	/* crash's bt */
		p = strchr(s, ']');
		if (!p || s[strspn(s + 1, "0123456789") + 1] != ' ')
			return false;
		s = skip_space(p + 1);
		e = s;
		while (name_char(*e))
			e++;
		if (e == s || strncmp(e, " at ", 4))
			return false;
		normalise(s, (size_t)(e - s), out, len);
		return true;
	}
	if (s[0] == '?' && s[1] == ' ') {
		*unreliable = true;
		s += 2;
	}
	e = s;
	while (name_char(*e))
		e++;
	if (e == s || isdigit((unsigned char)*s))
		return false;
	if (e[0] == '+' && e[1] == '0' && e[2] == 'x') {
		p = e + 3;
		while (isxdigit((unsigned char)*p))
			p++;
		if (*p != '/')
			return false;
	} else if (e[0] == ' ' && e[1] == '(') {		/* decode_stacktrace.sh */
		p = strchr(e, ')');
		if (!p || !memchr(e, ':', (size_t)(p - e)) || !memchr(e, '/', (size_t)(p - e)))
			return false;
	} else {
		return false;
	}
	normalise(s, (size_t)(e - s), out, len);
	return true;
}

/* Lines that begin another backtrace inside the same record. */
static bool stack_start(const char *s)
{
	static const char *const at[] = { "Call Trace:", "Call trace:", "NMI backtrace for cpu",
					  "stack backtrace:", "PID: ", "-> #", "Backtrace:" };

	s = skip_space(s);
	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++)
		if (!strncmp(s, at[i], strlen(at[i])))
			return true;
	return false;
}

static void add_frame(struct cgt_klog_record *r, const char *fn)
{
	if (r->nframes == CGT_KLOG_FRAMES) {
		r->frames_dropped++;
		return;
	}
	snprintf(r->frames[r->nframes].fn, CGT_KLOG_NAME, "%s", fn);
	r->frames[r->nframes++].stack = r->nstacks ? r->nstacks - 1 : 0;
}

/*
 * A backtrace ends. A kernel built without frame pointers marks every frame '?': one whose
 * frames (past its RIP) are all '?' keeps them, in order, rather than showing nothing.
 */
static void stack_end(struct cgt_klog_record *r)
{
	if (r->stack_frames <= (r->stack_rip ? 1 : 0))
		for (int i = 0; i < r->npending; i++) {
			add_frame(r, r->pending[i]);
			r->stack_frames++;
		}
	r->npending = 0;
}

static void stack_begin(struct cgt_klog_record *r)
{
	if (r->nstacks)
		stack_end(r);
	r->nstacks++;
	r->stack_frames = 0;
	r->stack_rip = false;
	r->stack_gap = false;
}

/* A message that names the function that printed it, kept once. */
static void note_said(struct cgt_klog *log, const char *fn)
{
	for (int i = 0; i < log->nsaid; i++)
		if (!strcmp(log->said[i], fn))
			return;
	if (log->nsaid < CGT_KLOG_SAID)
		snprintf(log->said[log->nsaid++], CGT_KLOG_NAME, "%s", fn);
}

static void klog_line(struct cgt_klog *log, char *raw, bool *open, cgt_klog_said_fn said)
{
	struct cgt_klog_record *r = log->nrecords ? &log->rec[log->nrecords - 1] : NULL;
	const char *s = cgt_klog_clean(raw), *at;
	char fn[CGT_KLOG_NAME];
	bool unreliable;
	int kind;

	if (strstr(s, "Linux version "))
		version_of(s, log->version, sizeof(log->version));
	if (!strncmp(s, "HEAD commit:", 12) && (at = strstr(s, " Linux ")))
		version_of_linux(at + 7, log->version, sizeof(log->version));
	if (said && (at = said(s)))
		note_said(log, at);
	kind = record_kind(s);
	if (kind >= 0) {
		if (r && *open)
			stack_end(r);
		record_start(log, (enum cgt_klog_kind)kind, s);
		*open = log->records_dropped == 0;
		if (*open)
			locks_of(&log->rec[log->nrecords - 1], s);
		return;
	}
	if (!*open && frame_of(s, fn, sizeof(fn), &unreliable) && !unreliable && !r) {
		record_start(log, CGT_KLOG_BACKTRACE, "backtrace");	/* no title: bt, stack */
		r = &log->rec[log->nrecords - 1];
		*open = true;
	}
	if (!*open || !r)
		return;
	version_of(s, r->version, sizeof(r->version));
	if (!r->comm[0] && (at = strstr(s, " Comm: "))) {
		at += 7;
		copy_name(r->comm, sizeof(r->comm), at, strcspn(at, " \t"));
		if (strstr(s, "PID: "))
			r->pid = atoi(strstr(s, "PID: ") + 5);
	}
	locks_of(r, s);
	/* a dump's "RIP:" line, then its "Call Trace:": one backtrace, the RIP on top */
	if (!r->nstacks || (stack_start(s) && !(r->stack_rip && r->stack_frames <= 1)))
		stack_begin(r);
	/* lockdep's "#0: ffff... (lock){..}, at: func+0x..": where the lock was taken */
	if ((at = strstr(s, ", at: ")))
		s = at + 6;
	if (!frame_of(s, fn, sizeof(fn), &unreliable)) {
		/* bare dumps (Balbir's, crash's) part their backtraces with a blank or a word */
		if (r->kind == CGT_KLOG_BACKTRACE && r->stack_frames)
			r->stack_gap = true;
		r->rip_wrapped = !strncmp(skip_space(s), "RIP: ", 5);
		return;
	}
	if (r->stack_gap)
		stack_begin(r);
	if (unreliable) {
		if (r->npending < 8)
			snprintf(r->pending[r->npending++], CGT_KLOG_NAME, "%s", fn);
	} else {
		const char *t = skip_space(s);

		if (!r->stack_frames)
			r->stack_rip = r->rip_wrapped || !strncmp(t, "RIP: ", 5) ||
				       !strncmp(t, "pc : ", 5);
		r->stack_frames++;
		add_frame(r, fn);
	}
	r->rip_wrapped = false;
}

int cgt_klog_read(FILE *f, struct cgt_klog *log, cgt_klog_said_fn said, char *err,
		  size_t errlen)
{
	char line[LINE_MAX_BYTES];
	size_t n = 0, bytes = 0, odd = 0;
	bool open = false;
	int c;

	memset(log, 0, sizeof(*log));
	while ((c = getc(f)) != EOF) {
		bytes++;
		if (c == 0 || (c < 0x20 && c != '\n' && c != '\t' && c != '\r' && c != 0x1b))
			odd++;
		if (bytes == 65536 && odd * 100 > bytes)
			break;
		if (c != '\n') {
			if (n + 1 < sizeof(line))	/* the rest of a long line is dropped */
				line[n++] = c ? (char)c : ' ';
			continue;
		}
		line[n] = '\0';
		log->lines++;
		klog_line(log, line, &open, said);
		n = 0;
	}
	if (n) {
		line[n] = '\0';
		log->lines++;
		klog_line(log, line, &open, said);
	}
	if (log->nrecords && open)
		stack_end(&log->rec[log->nrecords - 1]);
	if (ferror(f)) {
		snprintf(err, errlen, "could not be read");
		return -1;
	}
	if (!bytes) {
		snprintf(err, errlen, "is empty");
		return -1;
	}
	if (odd * 100 > bytes) {
		snprintf(err, errlen, "holds binary data, neither a report.json nor a kernel log");
		return -1;
	}
	if (!log->nrecords) {
		snprintf(err, errlen, "is neither a report.json nor a kernel log: no hung task, "
			 "lockup, RCU stall, KASAN, KCSAN, lockdep, BUG or WARNING record and no "
			 "backtrace in its %ld line(s)", log->lines);
		return -1;
	}
	return 0;
}
