/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kernel's own report, read from a log (klog.c): dmesg with or without its time and caller
 * prefixes (-T, -e, -x, --reltime), syslog and journalctl lines (each of journalctl's time
 * forms), a mail that quotes one (a syzbot mail whole), or a bare backtrace (crash's bt,
 * /proc/PID/stack, decode_stacktrace.sh's output); x86 of every era since 2.6 (2.6's "EIP is
 * at" and "<addr>{fn+N}" frames) and ppc64 (xmon's "kernel BUG in" and its trace, '.' cut off
 * its function names). The log is split into records (a hung task, a lockup, an RCU stall,
 * KASAN, KCSAN, lockdep, a BUG or oops or a WARNING), each with the kernel version it names,
 * the task it is about, its lock names and its stack frames normalised as syzkaller's
 * pkg/report does ('?' and "(unreliable)" frames dropped, .isra, .constprop, .part, .cold and
 * .llvm suffixes and the syscall wrappers' prefixes cut).
 * Memory is bounded whatever the log's size: lines past 4 KiB are cut, records and frames
 * past their caps are counted, not kept.
 */
#ifndef CGT_KLOG_H
#define CGT_KLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define CGT_KLOG_RECORDS	16
#define CGT_KLOG_FRAMES		128
#define CGT_KLOG_LOCKS		16
#define CGT_KLOG_NAME		64

#define CGT_KLOG_KINDS(X)					\
	X(HUNG_TASK,	"hung-task")				\
	X(SOFT_LOCKUP,	"soft-lockup")				\
	X(HARD_LOCKUP,	"hard-lockup")				\
	X(RCU_STALL,	"rcu-stall")				\
	X(KASAN,	"kasan")				\
	X(KCSAN,	"kcsan")				\
	X(LOCKDEP,	"lockdep")				\
	X(SLEEP_ATOMIC,	"sleep-in-atomic")			\
	X(BUG,		"bug-oops")				\
	X(WARNING,	"warning")				\
	X(RCU_USAGE,	"suspicious-rcu")	/* lockdep-RCU: a dereference unprotected */ \
	X(BACKTRACE,	"backtrace")	/* frames with no title: crash's bt, /proc/PID/stack */

enum cgt_klog_kind {
#define X(id, name) CGT_KLOG_##id,
	CGT_KLOG_KINDS(X)
#undef X
	CGT_NR_KLOG_KINDS
};
extern const char *const cgt_klog_kind_names[CGT_NR_KLOG_KINDS];

struct cgt_klog_frame {
	char fn[CGT_KLOG_NAME];		/* "do_exit", normalised */
	int stack;			/* which backtrace of the record, from 0 */
};

struct cgt_klog_record {
	enum cgt_klog_kind kind;
	int line;			/* where it starts in the log, from 1 */
	char title[160];		/* its first line, without prefixes */
	char comm[32];			/* the task it is about, if it says */
	int pid;
	char version[48];		/* "5.10.0-rc1", if it says */
	bool xmon;			/* ppc64's xmon told it ("cpu 0x2: Vector: 700") */
	int nframes, frames_dropped, nstacks;
	int stack_frames;		/* frames of the last backtrace so far */
	bool stack_rip;			/* and they are its RIP/pc line's */
	bool stack_gap;			/* a line that is no frame came after them */
	bool rip_wrapped;		/* a "RIP:" line whose function a mail put on the next */
	int npending;			/* its '?' frames, kept if it has no other (no frame */
	char pending[8][CGT_KLOG_NAME];	/* pointers: every frame is a '?' one) */
	struct cgt_klog_frame frames[CGT_KLOG_FRAMES];
	int nlocks;
	char locks[CGT_KLOG_LOCKS][CGT_KLOG_NAME];	/* lockdep's names, '&' and ->rlock cut */
};

#define CGT_KLOG_SAID		8

struct cgt_klog {
	long lines;
	char version[48];		/* a version outside every record: "Linux version",
					   uname -a, crash's RELEASE:, syzbot's HEAD commit: */
	int nsaid;			/* functions the log's own messages name, anywhere in it */
	char said[CGT_KLOG_SAID][CGT_KLOG_NAME];	/* ("...or sacrifice child": oom_kill_process) */
	int nrecords, records_dropped;
	struct cgt_klog_record rec[CGT_KLOG_RECORDS];
};

/* The kernel function that prints @line, if it is one the caller knows, else NULL. */
typedef const char *(*cgt_klog_said_fn)(const char *line);

/*
 * Read the log from @f into @log (zeroed first), asking @said (may be NULL) of every line:
 * 0, or -1 with a one-line reason in @err (empty, binary data, no record or backtrace in
 * it). Never crashes or exits.
 */
int cgt_klog_read(FILE *f, struct cgt_klog *log, cgt_klog_said_fn said, char *err,
		  size_t errlen);

/* One line of a log without its quoting, syslog, level, time and caller prefixes. */
const char *cgt_klog_clean(char *line);

/* "major.minor" of @version as one number (5.10 -> 510), or -1 if it names none. */
int cgt_klog_version(const char *version);

#endif
