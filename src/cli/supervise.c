// SPDX-License-Identifier: GPL-2.0
/*
 * The supervising parent of cgtorture run. The run happens in a child; the parent passes
 * SIGINT, SIGTERM and SIGHUP on, and waits. A child that dies of a signal before it wrote its
 * own report (a heap too corrupt for its crash handler, the handler ended by its alarm, a
 * SIGKILL) still ends as a FAIL with a report: the parent writes it, naming the signal, from
 * the configuration it parsed. A child deaf past its deadline (it should have ended by
 * cgt_run_deadline_s, and a crash gets 10 s more to write) is killed, and reported so.
 */
#define _GNU_SOURCE	/* sigabbrev_np */
#include <errno.h>
#include <glob.h>
#include <stdlib.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "../base/clock.h"
#include "../base/files.h"
#include "../base/exit_status.h"

#define GRACE_S		20	/* past the child's own deadline: its crash grace and then some */

static volatile sig_atomic_t child_pid;
static volatile sig_atomic_t forwarded;

static void forward(int sig)
{
	if (child_pid > 0)
		kill(child_pid, sig);
	forwarded = forwarded ? -1 : sig;	/* a second one: the child is deaf */
}

/* Did the child write its own report (cfg->out/<stamp>-<pid>/report.json)? */
static bool child_reported(const struct cgt_run_config *cfg, pid_t pid)
{
	char pattern[1100];
	glob_t g;
	bool found;

	snprintf(pattern, sizeof(pattern), "%s/*-%d/report.json", cfg->out, (int)pid);
	found = !glob(pattern, 0, NULL, &g) && g.gl_pathc > 0;
	globfree(&g);
	return found;
}

/* The child died with no report of its own: write one with what the parent knows. */
static int report_for_child(const struct cgt_run_config *cfg, pid_t pid, int sig, bool killed,
			    int interrupted, double elapsed)
{
	struct cgt_run_result res;
	char when[32];

	memset(&res, 0, sizeof(res));
	cgt_time_stamp(when, sizeof(when));
	snprintf(res.run_id, sizeof(res.run_id), "%s-%d", when, (int)pid);
	res.elapsed = elapsed;
	res.first_failure = elapsed;
	res.failures = 1;
	res.interrupted = interrupted;
	if (killed)
		cgt_fail(CGT_DET_DEADLINE, 0, NULL,
			 "the run outlived its deadline by %d s, deaf to signals: its supervisor "
			 "killed it (SIGKILL) and wrote this report", GRACE_S);
	else
		cgt_fail(CGT_DET_CRASH, 0, NULL,
			 "the run died of SIG%s (signal %d) before it could write its own report; "
			 "its supervisor wrote this one (no thread, no events: the process is gone)",
			 sigabbrev_np(sig) ? sigabbrev_np(sig) : "?", sig);
	fprintf(stderr, "cgtorture: the run (pid %d) died of signal %d with no report of its own\n",
		(int)pid, sig);
	return cgt_run_finish(cfg, &res);
}

int cgt_supervise(const struct cgt_run_config *cfg, int (*body)(void *arg), void *arg)
{
	struct sigaction sa = { .sa_handler = forward };
	double start = cgt_now(), limit = cgt_run_deadline_s(cfg) + GRACE_S;
	bool killed = false, sent_kill = false;
	int status;
	pid_t pid;

	pid_t parent = getpid();

	fflush(NULL);
	cgt_clock_reset();	/* the child's run starts now: a report written here counts from it */
	pid = fork();
	if (pid < 0)
		return body(arg);	/* no child to be had: run unsupervised */
	if (!pid) {
		/* a supervisor killed outright (a nightly's timeout) takes its run with it */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(CGT_EXIT_FAIL);
		exit(body(arg));
	}
	child_pid = pid;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);
		struct timespec tick = { 0, 50 * 1000 * 1000 };

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return CGT_EXIT_FAIL;
		if (!sent_kill && (forwarded < 0 || cgt_now() - start > limit)) {
			kill(pid, SIGKILL);
			sent_kill = true;
			killed = forwarded >= 0;	/* a second signal is the user's, not a hang */
		}
		nanosleep(&tick, NULL);
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (child_reported(cfg, pid))
		return CGT_EXIT_FAIL;
	return report_for_child(cfg, pid, WTERMSIG(status), killed,
				forwarded ? (forwarded < 0 ? SIGINT : forwarded) : 0, cgt_now() - start);
}
