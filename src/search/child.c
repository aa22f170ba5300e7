// SPDX-License-Identifier: GPL-2.0
/* Runs in child processes, and what they found, read back from a pipe. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"
#include "../report/interest.h"
#include "../report/story.h"

static int child_fd = -1;

/* In the child: what the run found, the failure of interest first, as one JSON object. */
static void child_send(const struct cgt_run_config *cfg, const struct cgt_run_result *res,
		       int status)
{
	static struct cgt_failure all[CGT_MAX_FAILURES];
	int nf = cgt_failures_get(all, CGT_MAX_FAILURES);
	int which = cgt_failures_of_interest(cfg->stop_on, all, nf);
	const struct cgt_failure *f = which >= 0 ? &all[which] : NULL;
	static struct cgt_child_result r;

	r.status = status;
	r.pass = res->pass;
	r.detector = f ? (int)f->detector : -1;
	r.step = f ? f->step : -1;
	r.steps = res->steps;
	r.stop_step = res->stop_step;
	r.diverged = res->diverged;
	snprintf(r.summary, sizeof(r.summary), "%s", f ? f->summary : "");
	snprintf(r.why, sizeof(r.why), "%s", res->diverged_why);
	snprintf(r.report_dir, sizeof(r.report_dir), "%s", res->report_dir);
	if (cfg->sched)
		r.schedule = *cgt_sched_recorded();
	/* left open: the parent sees the pipe's end as the child exits */
	cgt_child_result_write(child_fd, &r);
	child_fd = -1;
}

static char *read_all(int fd)
{
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	ssize_t n;

	while (buf) {
		if (cap - len < 2) {
			char *b = realloc(buf, cap * 2);

			if (!b)
				break;
			buf = b;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			buf[len] = '\0';
			return buf;
		}
		len += (size_t)n;
	}
	free(buf);
	return NULL;
}

/* The report's finish, then what it found, sent back; on the normal path and on abort alike. */
static int child_finish(const struct cgt_run_config *cfg, struct cgt_run_result *res)
{
	static int once;
	int status;

	/* as cgt_run_finish: a second path (deadline, ASan) leaves the first to it */
	if (__atomic_exchange_n(&once, 1, __ATOMIC_ACQ_REL))
		return CGT_EXIT_FAIL;
	status = cgt_run_finish(cfg, res);

	child_send(cfg, res, status);
	return status;
}

static const struct cgt_run_hooks child_hooks = {
	.begin		= cgt_story_begin,
	.failure	= cgt_story_failure,
	.abort		= child_finish,
};

int cgt_run_child(const struct cgt_run_config *cfg, bool quiet, struct cgt_child_result *out)
{
	int fds[2], wstatus;
	char *text;
	pid_t pid;

	memset(out, 0, sizeof(*out));
	out->detector = -1;
	out->step = out->stop_step = out->diverged = -1;
	if (pipe(fds))
		return -errno;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -errno;
	}
	if (!pid) {
		struct cgt_run_result res;
		int null = open("/dev/null", O_WRONLY);

		close(fds[0]);
		if (quiet && null >= 0)
			dup2(null, STDOUT_FILENO);
		child_fd = fds[1];
		if (cgt_run(cfg, &child_hooks, &res))
			_exit(CGT_EXIT_FAIL);
		fflush(NULL);
		_exit(child_finish(cfg, &res));
	}
	close(fds[1]);
	text = read_all(fds[0]);
	close(fds[0]);
	while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
		;
	if (text)
		cgt_child_result_parse(text, strlen(text), out);
	free(text);
	out->status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
	return 0;
}

void cgt_child_result_free(struct cgt_child_result *r)
{
	cgt_schedule_free(&r->schedule);
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
