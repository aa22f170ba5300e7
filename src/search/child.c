// SPDX-License-Identifier: GPL-2.0
/*
 * Runs in child processes, for cgtorture run and the searches alike: a fresh model, fresh
 * globals, and a crash or a sanitizer's abort that stays in the child. What the run found
 * comes back through a pipe. The child dies with its parent (a supervisor killed outright,
 * as by a nightly's timeout, takes its run with it), and one deaf past its deadline (it
 * should have ended by cgt_run_deadline_s, and a crash gets 10 s more to write) is killed;
 * one dead of a signal with no report of its own gets one from its parent (child_report.c).
 */
#define _GNU_SOURCE	/* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"
#include "../base/build.h"
#include "../base/clock.h"
#include "../detect/detect.h"
#include "../report/interest.h"
#include "../report/story.h"

#define GRACE_S		20	/* past the child's own deadline: its crash grace and then some */

static int child_fd = -1;
static volatile sig_atomic_t child_pid;
static volatile sig_atomic_t forwarded;

void cgt_child_send(const struct cgt_child_result *r)
{
	/* left open: the parent sees the pipe's end as the child exits */
	cgt_child_result_write(child_fd, r);
	child_fd = -1;
}

/* In the child: what the run found, the failure of interest first. */
static void send_run(const struct cgt_run_config *cfg, const struct cgt_run_result *res,
		       int status)
{
	static struct cgt_failure all[CGT_MAX_FAILURES];
	int nf = cgt_failures_get(all, CGT_MAX_FAILURES);
	int which = cgt_failures_of_interest(cfg->stop_on, all, nf);
	const struct cgt_failure *f = which >= 0 ? &all[which] : NULL;
	static struct cgt_child_result r;
	const struct cgt_preemption *pre = NULL;

	r.status = status;
	r.pass = res->pass;
	r.detector = f ? (int)f->detector : -1;
	r.step = f ? f->step : -1;
	r.steps = res->steps;
	r.stop_step = res->stop_step;
	r.diverged = res->diverged;
	r.preemptions = cfg->sched ? cgt_sched_preemptions(&pre) : 0;
	r.preempted = r.preemptions ? calloc((size_t)r.preemptions, sizeof(*r.preempted)) : NULL;
	for (long i = 0; r.preempted && i < r.preemptions; i++)
		r.preempted[i] = pre[i].step;
	r.ops = 0;
	for (int op = 0; op < CGT_NR_OPS; op++)
		r.ops += res->stats.ops[op];
	snprintf(r.summary, sizeof(r.summary), "%s", f ? f->summary : "");
	if (f)
		cgt_failure_kind(f->detector, f->summary, f->evidence, r.kind, sizeof(r.kind));
	snprintf(r.why, sizeof(r.why), "%s", res->diverged_why);
	snprintf(r.report_dir, sizeof(r.report_dir), "%s", res->report_dir);
	if (cfg->sched)
		r.schedule = *cgt_sched_recorded();
	cgt_child_send(&r);
}

/* The report's finish, then what it found, sent back; on the normal path and on abort alike. */
static int child_finish(const struct cgt_run_config *cfg, struct cgt_run_result *res)
{
	static int once;
	int status;

	/* the one guard of a run's finish: a second path (deadline, ASan) leaves it to the first */
	if (__atomic_exchange_n(&once, 1, __ATOMIC_ACQ_REL))
		return CGT_EXIT_FAIL;
	status = cgt_run_finish(cfg, res, stdout);

	send_run(cfg, res, status);
	return status;
}

static const struct cgt_run_hooks child_hooks = {
	.begin		= cgt_story_begin,
	.failure	= cgt_story_failure,
	.abort		= child_finish,
};

/* The child's work when no other is given: the run, its finish, what it found sent back. */
static int run_body(const struct cgt_run_config *cfg, const struct cgt_child_opts *opts)
{
	struct cgt_run_result res;
	int status;

	if (cgt_run(cfg, &child_hooks, &res)) {
		fprintf(stderr, "cgtorture: the model could not start\n");
		return CGT_EXIT_FAIL;
	}
	status = child_finish(cfg, &res);
	/*
	 * Model threads stuck for good must not hold up exit handlers; and the TSan runtime
	 * would replace our status with its own exitcode, though the run counted its reports.
	 */
	if (opts->exit_clean && res.finished && strcmp(cgt_build_name(), "tsan"))
		exit(status);
	return status;
}

/* In the child, from the fork on; never returns. */
static void child_main(const struct cgt_run_config *cfg, const struct cgt_child_opts *opts,
		       pid_t parent, int fd)
{
	int status;

	/* a parent killed outright takes its child with it; it may be gone already */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(CGT_EXIT_FAIL);
	if (opts->quiet) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0)
			dup2(null, STDOUT_FILENO);
	}
	if (opts->forward) {
		struct sigaction sa = { .sa_handler = cgt_run_interrupt };

		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		/* a reader gone from stdout (| head) ends the run as a signal would, reported */
		sigaction(SIGPIPE, &sa, NULL);
	}
	child_fd = fd;
	status = (opts->body ? opts->body : run_body)(cfg, opts);
	fflush(NULL);
	_exit(status);
}

static void forward(int sig)
{
	if (sig == SIGPIPE && forwarded)
		return;		/* each write to a closed stdout raises it again */
	if (child_pid > 0)
		kill(child_pid, sig);
	forwarded = forwarded ? -1 : sig;	/* a second one: the child is deaf */
	cgt_run_interrupt(sig);			/* and a search's loop ends with it */
}

/* Read what the child sent so far into @got; false at the pipe's end. */
static bool take(int fd, FILE *got)
{
	char buf[4096];
	ssize_t n = read(fd, buf, sizeof(buf));

	if (n > 0)
		fwrite(buf, 1, (size_t)n, got);
	return n > 0 || (n < 0 && errno == EINTR);
}

/*
 * Wait for child @pid, reading the pipe @fd as it writes (a long schedule fills it) into
 * @got, and kill it past @limit (cgt_now()) or at a second forwarded signal; whether it was
 * killed for its deadline goes to @killed. Its wait status, or -errno.
 */
static int watch(pid_t pid, int fd, double limit, FILE *got, bool *killed)
{
	bool sent_kill = false;
	int wstatus;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		pid_t r = waitpid(pid, &wstatus, WNOHANG);

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return -errno;
		if (!sent_kill && (forwarded < 0 || cgt_now() > limit)) {
			kill(pid, SIGKILL);
			sent_kill = true;
			*killed = forwarded >= 0;	/* a second signal is the user's, not a hang */
		}
		/* once the pipe is closed the child is exiting: look again soon */
		if (poll(&p, 1, fd >= 0 ? 50 : 1) > 0 && !take(fd, got)) {
			close(fd);
			fd = -1;
		}
	}
	while (fd >= 0 && take(fd, got))
		;
	if (fd >= 0)
		close(fd);
	return wstatus;
}

int cgt_child_run(const struct cgt_run_config *cfg, const struct cgt_child_opts *opts,
		  struct cgt_child_result *out)
{
	static const int passed_on[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
	struct sigaction sa = { .sa_handler = forward }, old[ARRAY_SIZE(passed_on)];
	double grace = opts->grace_s > 0 ? opts->grace_s : GRACE_S;
	double start = cgt_now(), limit = start + cgt_run_deadline_s(cfg) + grace;
	pid_t parent = getpid(), pid;
	bool killed = false;
	char *text = NULL;
	size_t len = 0;
	int fds[2], wstatus, ret;
	FILE *got;

	memset(out, 0, sizeof(*out));
	out->detector = -1;
	out->step = out->stop_step = out->diverged = -1;
	got = open_memstream(&text, &len);
	if (!got)
		return -ENOMEM;
	if (pipe2(fds, O_CLOEXEC)) {
		ret = -errno;
		goto out;
	}
	fflush(NULL);
	cgt_clock_reset();	/* the child's run starts now: a report written here counts from it */
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		close(fds[0]);
		close(fds[1]);
		goto out;
	}
	if (!pid) {
		close(fds[0]);
		child_main(cfg, opts, parent, fds[1]);
	}
	close(fds[1]);
	child_pid = pid;
	forwarded = 0;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; opts->forward && i < ARRAY_SIZE(passed_on); i++)
		sigaction(passed_on[i], &sa, &old[i]);
	wstatus = watch(pid, fds[0], limit, got, &killed);
	for (size_t i = 0; opts->forward && i < ARRAY_SIZE(passed_on); i++)
		sigaction(passed_on[i], &old[i], NULL);
	child_pid = 0;
	fclose(got);
	got = NULL;
	ret = wstatus < 0 ? wstatus : 0;
	if (ret)
		goto out;
	cgt_child_result_parse(text, len, out);
	if (WIFEXITED(wstatus)) {
		out->status = WEXITSTATUS(wstatus);
	} else {
		struct cgt_child_death d = {
			.pid = pid, .sig = WTERMSIG(wstatus), .killed_past = killed ? grace : -1,
			.interrupted = forwarded ? (forwarded < 0 ? SIGINT : forwarded) : 0,
			.elapsed = cgt_now() - start,
		};

		out->signal = d.sig;
		out->status = CGT_EXIT_FAIL;
		if (!cgt_child_reported(cfg, pid))
			cgt_child_report(cfg, &d, opts->quiet ? NULL : stdout, out);
	}
out:
	if (got)
		fclose(got);
	free(text);
	return ret;
}

void cgt_child_result_free(struct cgt_child_result *r)
{
	cgt_schedule_free(&r->schedule);
	free(r->preempted);
	r->preempted = NULL;
}

const char *cgt_child_failure(const struct cgt_child_result *r, char *buf, size_t len)
{
	if (r->detector < 0)
		snprintf(buf, len, r->ran ? "no failure" : "no result (exit status %d)", r->status);
	else if (r->step >= 0)
		snprintf(buf, len, "%s at decision %ld", cgt_detector_names[r->detector], r->step);
	else
		snprintf(buf, len, "%s", cgt_detector_names[r->detector]);
	return buf;
}
