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
	if (!strncmp(s, "kernel: ", 8))
		s += 8;				/* journalctl --no-hostname */
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

/* A hung task's " blocked for more than", or " blocked for" where a mail wrapped it. */
static const char *blocked_for(const char *s)
{
	const char *p = strstr(s, " blocked for");

	return p && (!strncmp(p + 12, " more", 5) || !*skip_space(p + 12)) ? p : NULL;
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
		{ "Kernel BUG at ", true, CGT_KLOG_BUG },	/* x86_64 before 2.6.18 */
		{ "kernel BUG in ", true, CGT_KLOG_BUG },	/* ppc64 before 2.6.15 */
		{ ": Vector: ", false, CGT_KLOG_BUG },	/* xmon: "cpu 0x2: Vector: 700" */
		{ "Oops: ", true, CGT_KLOG_BUG },		/* when it starts a record */
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
			if (starts[i].kind == CGT_KLOG_HUNG_TASK && !blocked_for(s))
				continue;
			if (!strcmp(starts[i].at, ": Vector: ") && strncmp(s, "cpu 0x", 6))
				continue;
			/* die()'s "Oops: 0002 [#1]", "Oops: Exception in kernel mode, sig: 5
			   [#1]": not a mail's "Oops: I forgot the config" */
			if (!strcmp(starts[i].at, "Oops: ") && !strstr(s, " [#") &&
			    strspn(s + 6, "0123456789abcdef") != 4)
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
		p = blocked_for(s);
		comm_pid(r, s + 11, p);
	} else if ((p = strrchr(s, '[')) && strchr(p, ']')) {
		comm_pid(r, p + 1, strchr(p, ']'));	/* soft lockup's [comm:pid] */
	}
}

/* How long the version at @p is ("5.15.0-107-generic", "2.6.9-rc1-mm4-fw-xeon.1"), or 0. */
static size_t version_len(const char *p)
{
	return cgt_klog_version(p) > 0 ? strcspn(p, " \t)#'/,") : 0;
}

/* "VERSION #N" at @p: a version a mail wrapped onto a line of its own, lockdep's header. */
static size_t version_alone(const char *p)
{
	size_t n = version_len(p);

	return n && (!p[n] || *skip_space(p + n) == '#') ? n : 0;
}

/*
 * syzbot's "HEAD commit: d7b8f8e20813 Linux 6.16-rc5", or a merge of fixes for a release
 * candidate ("Merge tag 'i2c-for-6.10-rc5'": the tree is at that release's -rc). A merge
 * window's tag ("for-7.1/hpfs-fixes") is not taken: the tree is still the release before.
 */
static const char *head_commit(const char *s)
{
	const char *t = strstr(s, " Linux "), *rc;
	size_t n;

	if (t)
		return t + 7;
	if (!(t = strstr(s, "Merge tag '")))
		return NULL;
	for (t += 11; *t && *t != '\''; t++)
		if ((t[-1] == '-' || t[-1] == 'v' || t[-1] == '\'') && (n = version_len(t)) &&
		    (rc = strstr(t, "-rc")) && rc < t + n)
			return t;
	return NULL;
}

/* uname -a's "Linux host 5.10.0-21-amd64 #1 SMP ...", anywhere in the line. */
static const char *uname_version(const char *s)
{
	for (const char *t = strstr(s, "Linux "); t; t = strstr(t + 6, "Linux ")) {
		const char *v;

		if (t > s && isalnum((unsigned char)t[-1]))
			continue;
		v = skip_space(t + 6);
		v = skip_space(v + strcspn(v, " \t"));
		if (version_alone(v) && *skip_space(v + version_len(v)) == '#')
			return v;
	}
	return NULL;
}

enum { VERSION_NONE, VERSION_FOUND, VERSION_NEXT };

/*
 * A kernel version in one of the forms a log writes it, into @out if that is still empty: the
 * log's own ("Linux version ", uname -a's line, crash's "RELEASE: ", syzbot's "HEAD commit:"
 * and its stable trees' "git tree: linux-6.1.y") and, for a @record's lines, those of the
 * dump: after "Not tainted " or "Tainted: G  W  O " (VERSION_NEXT when nothing follows: a
 * mail wrapped the line, the version is alone on the next), lockdep's "5.17.0-rc2+ #171
 * Tainted:", 2.6's "EFLAGS: 00010202   (2.6.6)". A dump's line outside every record (the
 * "CPU: 7 Not tainted" a bare dump_stack() backtrace follows) dates no record: the mapper
 * reads the log's version as the kernel of every record, failures or not.
 */
static int version_of(const char *s, char *out, size_t len, bool record)
{
	const char *p = NULL, *t;
	size_t n;

	if (out[0])
		return VERSION_NONE;
	s = skip_space(s);
	if (record && ((t = strstr(s, "Not tainted")) || (t = strstr(s, "Tainted: ")))) {
		if ((n = version_alone(s)) && s + n < t) {
			p = s;
		} else {
			p = t + (*t == 'N' ? 11 : 9);
			p += strspn(p, *t == 'N' ? " \t" : " \tABCDEFGHIJKLMNOPQRSTUVWXYZ-");
			if (!*p)
				return VERSION_NEXT;
		}
	} else if ((t = strstr(s, "Linux version "))) {
		p = t + 14;
	} else if (record && (t = strstr(s, "EFLAGS: ")) && (t = strchr(t, '('))) {
		p = t + 1;
	} else if (!strncmp(s, "RELEASE: ", 9)) {
		p = s + 9;
	} else if (!strncmp(s, "HEAD commit:", 12)) {
		p = head_commit(s);
	} else if (!strncmp(s, "git tree:", 9) && (t = strstr(s, "linux-"))) {
		p = t + 6;
	} else {
		p = uname_version(s);
	}
	if (!p || !(n = version_len(p = skip_space(p))))
		return VERSION_NONE;
	copy_name(out, len, p, n);
	return VERSION_FOUND;
}

/*
 * The task a record's line names, into @comm and @pid: "CPU: 1 PID: 42 Comm: x", 2.6's "Pid:
 * 42, comm: x" and "Process x (pid: 42, threadinfo=...)", xmon's "pid   = 42, comm = x",
 * crash's "PID: 42  TASK: ...  COMMAND: "x"".
 */
static bool task_of(const char *s, char *comm, size_t len, int *pid)
{
	const char *c, *p;
	size_t n;

	s = skip_space(s);
	if ((c = strstr(s, " Comm: "))) {
		c += 7;
		n = strcspn(c, " \t");
		p = strstr(s, "PID: ") ? strstr(s, "PID: ") + 5 : NULL;
	} else if (!strncmp(s, "Pid: ", 5) && (c = strstr(s, "comm:"))) {
		c = skip_space(c + 5);
		n = strcspn(c, " \t");
		p = s + 5;
	} else if (!strncmp(s, "Process ", 8) && (p = strstr(s, " (pid: "))) {
		c = s + 8;
		n = (size_t)(p - c);
		p += 7;
	} else if (!strncmp(s, "pid ", 4) && (c = strstr(s, ", comm = "))) {
		c += 9;
		n = strcspn(c, " \t,");
		p = strchr(s, '=') + 1;
	} else if (!strncmp(s, "PID: ", 5) && (c = strstr(s, "COMMAND: \""))) {
		c += 10;
		n = strcspn(c, "\"");
		p = s + 5;
	} else {
		return false;
	}
	if (!n)
		return false;
	copy_name(comm, len, c, n);
	if (p)
		*pid = atoi(skip_space(p));
	return true;
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

/* What a frame line says besides its function. */
struct frame_form {
	bool unreliable;	/* "? func" or ppc64's "func (unreliable)": a stale stack word */
	bool rip;		/* the faulting function's own line, not a return address */
	const char *next;	/* the rest of a line of 2.6 x86_64 frames: "<addr>{func+N} <.." */
};

/*
 * A bracket a frame's function follows: "[<ffffffff8108>]" (x86, /proc/PID/stack's "[<0>]"),
 * ppc64's "[c00000027bcf39f0]" and "[link register   ]", 2.6's "[proc_lookup+179/192]".
 */
static bool frame_bracket(const char *c, const char *end)
{
	size_t n = (size_t)(end - c);

	if (*c == '<' || !strncmp(c, "link register", 13))
		return true;
	if (n && strspn(c, "0123456789abcdefABCDEF") >= n)
		return true;
	return memchr(c, '+', n) && memchr(c, '/', n) && !memchr(c, ' ', n);
}

static const char *frame_brackets(const char *s)
{
	const char *p;

	while (s && s[0] == '[' && strncmp(s, "[exception RIP: ", 16)) {
		p = strchr(s, ']');
		s = p && p - s <= 80 && frame_bracket(s + 1, p) ? skip_space(p + 1) : NULL;
	}
	return s;
}

/* A ppc64 kernel address ("c00000027bcf39f0", a module's "d000...") between @p and @end. */
static bool ppc64_address(const char *p, const char *end)
{
	for (; p + 16 <= end; p++)
		if ((!strncmp(p, "c000", 4) || !strncmp(p, "d000", 4)) &&
		    strspn(p, "0123456789abcdef") == 16)
			return true;
	return false;
}

/*
 * The lines that name the faulting function: x86's "RIP: 0010:func+0x..." and "IP: [<..>]
 * func", 2.6's "EIP is at func", ia64's "ip is at", arm's "PC is at", arm64's "pc : ", ppc64's
 * "NIP [...] .func" and xmon's "pc: c000000000058454: .func", crash's "[exception RIP: func+22]".
 */
static const char *const rip_lines[] = { "RIP: ", "IP: ", "EIP is at ", "ip is at ", "PC is at ",
					 "pc : ", "pc: ", "NIP ", "[exception RIP: " };

/*
 * The function a frame line names, or false. Forms: "func+0x1a/0x40 [mod]" with "? " for an
 * unreliable frame (dropped), after the brackets frame_bracket() takes, ppc64's address
 * ("c0000000000f1998 .func+0x14c/0x53c", its '.' cut; x86's ".slowpath" keeps its) or a line
 * of rip_lines; arm64's "lr : "; 2.6 x86_64's "<ffffffff8017d3d8>{func+552}"; crash's "#3
 * [ffff8800...] func at ffffffff..." or "func+0x1f3 at ..."; decode_stacktrace.sh's "func
 * (kernel/exit.c:852)".
 */
static bool frame_of(const char *s, char *out, size_t len, struct frame_form *f)
{
	const char *p, *e;
	char close = 0;
	size_t n;

	const char *line = s;

	memset(f, 0, sizeof(*f));
	s = skip_space(s);
	/* x86's "<IRQ>  [<ffff...>] func" and "<EOI>  ...": the stack's part, then the frame */
	while (s[0] == '<' && (p = strchr(s, '>')) && p - s < 8 && isupper((unsigned char)s[1]))
		s = skip_space(p + 1);
	if (!(s = frame_brackets(s)))
		return false;
	for (size_t i = 0; i < sizeof(rip_lines) / sizeof(rip_lines[0]) && !f->rip; i++)
		if (!strncmp(s, rip_lines[i], strlen(rip_lines[i]))) {
			f->rip = true;
			close = rip_lines[i][0] == '[' ? ']' : 0;
			s = skip_space(s + strlen(rip_lines[i]));
		}
	if (f->rip || !strncmp(s, "lr : ", 5)) {
		s = skip_space(s + (f->rip ? 0 : 5));
		n = strspn(s, "0123456789abcdefABCDEF");
		if (n && s[n] == ':')
			s = skip_space(s + n + 1);	/* "0010:", xmon's "c000000000058454:" */
		if (!(s = frame_brackets(s)))
			return false;
	}
	n = strspn(s, "0123456789abcdefABCDEF");
	if (n >= 8 && s[n] == ' ')
		s = skip_space(s + n);		/* ppc64: the return address after the frame's */
	if (s[0] == '<' && (p = strchr(s, '>')) && p[1] == '{' &&
	    strspn(s + 1, "0123456789abcdefABCDEF") == (size_t)(p - s - 1)) {
		s = p + 2;
		close = '}';
	}
	if (s[0] == '#' && isdigit((unsigned char)s[1])) {	/* crash's bt */
		p = strchr(s, ']');
		if (!p || s[strspn(s + 1, "0123456789") + 1] != ' ')
			return false;
		s = skip_space(p + 1);
		e = s;
		while (name_char(*e))
			e++;
		p = e;
		if (p[0] == '+' && p[1] == '0' && p[2] == 'x')	/* bt -s's "func+0x2c3 at" */
			p += 3 + strspn(p + 3, "0123456789abcdef");
		if (e == s || strncmp(p, " at ", 4))
			return false;
		normalise(s, (size_t)(e - s), out, len);
		return true;
	}
	if (s[0] == '?' && s[1] == ' ') {
		f->unreliable = true;
		s += 2;
	}
	if (*s == '.' && ppc64_address(line, s))
		s++;			/* ppc64's ELF v1 names a function's code ".func" */
	e = s;
	while (name_char(*e))
		e++;
	if (e == s || isdigit((unsigned char)*s))
		return false;
	if (close) {				/* "{func+552}", "[exception RIP: func+22]" */
		if (e[0] != '+' || !isdigit((unsigned char)e[1]))
			return false;
		p = e + 1 + strspn(e + 1, "0123456789");
		if (*p != close)
			return false;
		p = skip_space(p + 1);
		if (close == '}' && *p == '<')
			f->next = p;
	} else if (e[0] == '+' && e[1] == '0' && e[2] == 'x') {
		p = e + 3;
		while (isxdigit((unsigned char)*p))
			p++;
		if (*p != '/')
			return false;
		f->unreliable |= strstr(p, "(unreliable)") != NULL;
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

/* What the reader carries from one line to the next. */
struct klog_state {
	bool open;			/* the last record takes the lines that follow */
	char *wrapped;			/* the version a wrapped taint line left to its next */
	long frame_line;		/* the last line that gave a frame */
	char comm[32];			/* the task a bare backtrace's header names ("PID: ... */
	int pid;			/* COMMAND: "ps""), before its first frame */
};

/*
 * A record's first line that goes on with the record open before it: "Oops:" after the BUG
 * or paging request it is part of; xmon's "cpu 0x2: Vector: 700" after its BUG line, and the
 * BUG line after it or repeated (its title then, the more telling). Each comes before any
 * frame but the faulting function's.
 */
static bool continues(struct cgt_klog_record *r, enum cgt_klog_kind kind, const char *s)
{
	s = skip_space(s);
	if (kind != CGT_KLOG_BUG || r->kind != CGT_KLOG_BUG || r->nframes > (r->stack_rip ? 1 : 0))
		return false;
	if (!strncmp(s, "Oops: ", 6))
		return true;
	if (!strncmp(s, "cpu 0x", 6))
		return r->xmon = true;
	if (!r->xmon || strncmp(s, "kernel BUG ", 11))
		return false;
	if (!strncmp(r->title, "cpu 0x", 6))
		copy_name(r->title, sizeof(r->title), s, strlen(s));
	return !strcmp(r->title, s);
}

/* The versions a line gives: to the open record @r; the log's own forms to the log too. */
static void versions_of(struct klog_state *st, struct cgt_klog *log, struct cgt_klog_record *r,
			const char *s)
{
	char *out = r ? r->version : log->version;
	const char *t = skip_space(s);
	size_t n;

	if (st->wrapped == out && (n = version_alone(t)))
		copy_name(out, sizeof(log->version), t, n);
	if (version_of(s, out, sizeof(log->version), r != NULL) == VERSION_NEXT)
		st->wrapped = out;
	else
		st->wrapped = NULL;
	if (r)
		version_of(s, log->version, sizeof(log->version), false);
}

static void take_frame(struct cgt_klog_record *r, const char *fn, const struct frame_form *f)
{
	if (f->unreliable) {
		if (r->npending < 8)
			snprintf(r->pending[r->npending++], CGT_KLOG_NAME, "%s", fn);
		return;
	}
	/* 3.x's "IP:" then "RIP:", crash's frame then its "[exception RIP:": one frame */
	if (f->rip && r->stack_frames && r->nframes && !strcmp(r->frames[r->nframes - 1].fn, fn))
		return;
	if (!r->stack_frames)
		r->stack_rip = r->rip_wrapped || f->rip;
	r->stack_frames++;
	add_frame(r, fn);
}

/* xmon's "(unreliable)" a mail put on a line of its own: the frame before it was stale. */
static void untake_frame(struct cgt_klog_record *r)
{
	if (!r->stack_frames)
		return;
	r->stack_frames--;
	if (r->frames_dropped) {
		r->frames_dropped--;
		return;
	}
	if (r->npending < 8)
		memcpy(r->pending[r->npending++], r->frames[r->nframes - 1].fn, CGT_KLOG_NAME);
	r->nframes--;
}

static void klog_line(struct cgt_klog *log, char *raw, struct klog_state *st,
		      cgt_klog_said_fn said)
{
	struct cgt_klog_record *r = log->nrecords ? &log->rec[log->nrecords - 1] : NULL;
	const char *s = cgt_klog_clean(raw), *at, *t;
	struct frame_form f;
	char fn[CGT_KLOG_NAME];
	int kind;

	if (said && (at = said(s)))
		note_said(log, at);
	kind = record_kind(s);
	if (kind >= 0 && r && st->open && continues(r, (enum cgt_klog_kind)kind, s))
		return;
	if (kind >= 0) {
		if (r && st->open)
			stack_end(r);
		record_start(log, (enum cgt_klog_kind)kind, s);
		st->open = log->records_dropped == 0;
		st->wrapped = NULL;
		if (st->open) {
			r = &log->rec[log->nrecords - 1];
			locks_of(r, s);
			r->xmon = !strncmp(skip_space(s), "cpu 0x", 6);
			/* 2.6 x86_64's "... at 0000000000000018 RIP:" puts its function below */
			r->rip_wrapped = strlen(r->title) > 4 &&
					 !strcmp(r->title + strlen(r->title) - 4, "RIP:");
		}
		return;
	}
	if (!st->open && frame_of(s, fn, sizeof(fn), &f) && !f.unreliable && !r) {
		record_start(log, CGT_KLOG_BACKTRACE, "backtrace");	/* no title: bt, stack */
		r = &log->rec[log->nrecords - 1];
		st->open = true;
		snprintf(r->comm, sizeof(r->comm), "%s", st->comm);
		r->pid = st->pid;
	}
	versions_of(st, log, st->open ? r : NULL, s);
	if (!st->open || !r) {
		st->comm[0] = '\0';
		if (!task_of(s, st->comm, sizeof(st->comm), &st->pid))
			st->pid = 0;
		return;
	}
	if (!r->comm[0])
		task_of(s, r->comm, sizeof(r->comm), &r->pid);
	locks_of(r, s);
	t = skip_space(s);
	/* a dump's "RIP:" line, then its "Call Trace:": one backtrace, the RIP on top */
	if (!r->nstacks || (stack_start(s) && !(r->stack_rip && r->stack_frames <= 1)))
		stack_begin(r);
	/* lockdep's "#0: ffff... (lock){..}, at: func+0x..": where the lock was taken */
	if ((at = strstr(s, ", at: ")))
		s = at + 6;
	else if (!strncmp(t, "Call Trace:", 11))
		s = t + 11;			/* 2.6 x86_64 went on on the same line */
	if (!strcmp(t, "(unreliable)") && st->frame_line == log->lines - 1) {
		untake_frame(r);
		return;
	}
	if (!frame_of(s, fn, sizeof(fn), &f)) {
		/* bare dumps (Balbir's, crash's) part their backtraces with a blank or a word;
		   registers come between a faulting function and its trace */
		if (r->kind == CGT_KLOG_BACKTRACE && r->stack_frames > (r->stack_rip ? 1 : 0))
			r->stack_gap = true;
		r->rip_wrapped = !strncmp(t, "RIP: ", 5);
		return;
	}
	if (r->stack_gap)
		stack_begin(r);
	for (;;) {
		take_frame(r, fn, &f);
		if (!(at = f.next) || !frame_of(at, fn, sizeof(fn), &f))
			break;
	}
	st->frame_line = log->lines;
	r->rip_wrapped = false;
}

int cgt_klog_read(FILE *f, struct cgt_klog *log, cgt_klog_said_fn said, char *err,
		  size_t errlen)
{
	char line[LINE_MAX_BYTES];
	size_t n = 0, bytes = 0, odd = 0;
	struct klog_state st = { 0 };
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
		klog_line(log, line, &st, said);
		n = 0;
	}
	if (n) {
		line[n] = '\0';
		log->lines++;
		klog_line(log, line, &st, said);
	}
	if (log->nrecords && st.open)
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
