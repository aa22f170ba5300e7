// SPDX-License-Identifier: GPL-2.0
/*
 * crash: a fatal signal (SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGFPE) is a failure with a
 * report, in every build, never an exit status alone. The handler runs in the thread that
 * died: it first says so on stderr with async-signal-safe calls and arms alarm(), whose
 * default action ends the process should what follows hang on a lock the crash left held;
 * then it records the failure (the thread as it was, its role and last events) and asks the
 * run to write what it has and leave (on_abort), as the deadline does. A second fatal signal
 * meanwhile, or one with no run to report to, ends the process by the signal itself.
 *
 * Under ASan a SIGSEGV is ASan's (handle_segv): it reports it, and the asan detector turns
 * the report into a failure; under TSan the runtime is told to leave these signals to us.
 */
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "detect.h"

#define CRASH_GRACE_S	10	/* to write the report before alarm() ends the process */

static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGFPE };
static struct sigaction saved[ARRAY_SIZE(fatal_signals)];
static void (*on_abort)(void);
static int crashing;

/* "SIGSEGV": sigabbrev_np is glibc 2.32, and not async-signal-safe by contract */
static const char *sig_name(int sig)
{
	switch (sig) {
	case SIGSEGV:	return "SIGSEGV";
	case SIGBUS:	return "SIGBUS";
	case SIGABRT:	return "SIGABRT";
	case SIGILL:	return "SIGILL";
	case SIGFPE:	return "SIGFPE";
	default:	return "a fatal signal";
	}
}

/* Append @s, then @n in decimal if @n >= 0: async-signal-safe, unlike snprintf. */
static size_t put(char *buf, size_t off, size_t len, const char *s, long n)
{
	char digits[24];
	int k = 0;

	while (*s && off + 1 < len)
		buf[off++] = *s++;
	if (n < 0)
		return off;
	do
		digits[k++] = (char)('0' + n % 10);
	while ((n /= 10) && k < (int)sizeof(digits));
	while (k && off + 1 < len)
		buf[off++] = digits[--k];
	return off;
}

static void crash_handler(int sig, siginfo_t *info, void *ucontext)
{
	struct cgt_thread *t = cgt_self;
	const char *role = t ? cgt_role_name(READ_ONCE(t->role)) : "not a harness thread";
	int id = t ? t->id : 0, pid = t ? READ_ONCE(t->pid) : 0;
	char line[192];
	size_t off = 0;
	ssize_t written;

	(void)ucontext;
	if (__atomic_exchange_n(&crashing, 1, __ATOMIC_ACQ_REL) || !on_abort) {
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	signal(SIGALRM, SIG_DFL);
	alarm(CRASH_GRACE_S);
	off = put(line, off, sizeof(line), "cgtorture: ", -1);
	off = put(line, off, sizeof(line), sig_name(sig), -1);
	off = put(line, off, sizeof(line), " in thread ", id);
	off = put(line, off, sizeof(line), " (", -1);
	off = put(line, off, sizeof(line), role, -1);
	off = put(line, off, sizeof(line), ", tid ", pid);
	off = put(line, off, sizeof(line), info && info->si_code == SI_USER ?
		  "), sent by pid " : "), fault address ", -1);
	if (info && info->si_code == SI_USER)
		off = put(line, off, sizeof(line), "", info->si_pid);
	else
		off = put(line, off, sizeof(line), "", info ? (long)(uintptr_t)info->si_addr : 0);
	off = put(line, off, sizeof(line), "; writing the report\n", -1);
	line[off] = '\0';		/* put() leaves room for it: the line is the evidence too */
	/* a lost stderr changes nothing: the report still says what happened */
	written = write(STDERR_FILENO, line, off);
	(void)written;
	cgt_fail(CGT_DET_CRASH, id, line, "%s in thread %d (%s, tid %d)", sig_name(sig), id,
		 role, pid);
	on_abort();
}

static int crash_start(const struct cgt_detect_config *cfg)
{
	struct sigaction sa = { .sa_sigaction = crash_handler, .sa_flags = SA_SIGINFO };

	on_abort = cfg->on_abort;
	__atomic_store_n(&crashing, 0, __ATOMIC_RELAXED);
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(fatal_signals); i++)
		if (sigaction(fatal_signals[i], &sa, &saved[i]))
			return -1;
	return 0;
}

static void crash_stop(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(fatal_signals); i++)
		sigaction(fatal_signals[i], &saved[i], NULL);
}

const struct cgt_detector_ops crash_detector = {
	.id	= CGT_DET_CRASH,
	.start	= crash_start,
	.stop	= crash_stop,
};
