// SPDX-License-Identifier: GPL-2.0
/*
 * The child runner (src/search/child.c): a child that ends normally gives back what it sent;
 * one killed by a signal before it wrote a report gets a FAIL from its parent naming the
 * signal; one deaf past its deadline is killed and reported so; and the result's JSON keeps
 * every field. The children run bodies of their own, not the model, so each takes a known
 * time; the one deadline is seconds past work that takes none, on a loaded machine too.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/base/clock.h"
#include "../../src/locks/lock.h"
#include "../../src/search/child.h"

static char out_dir[] = "/tmp/cgt-child-test-XXXXXX";
static struct cgt_run_config cfg;

static void setup(void)
{
	cr_assert_not_null(mkdtemp(out_dir), "mkdtemp: %s", strerror(errno));
	cfg.out = out_dir;
	cfg.css_lock = cgt_lock_find("rwsem");
	cfg.tasklist_lock = cgt_lock_find("rwlock");
	cfg.stop_on = CGT_STOP_ON_NONE;
	cr_assert(cfg.css_lock && cfg.tasklist_lock);
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void teardown(void)
{
	nftw(out_dir, remove_one, 8, FTW_DEPTH | FTW_PHYS);
}

TestSuite(child, .init = setup, .fini = teardown, .timeout = 120);

/* A result with every field set, a schedule with runs and single choices among them. */
static void sample(struct cgt_child_result *r)
{
	static const int choices[] = { 3, 3, 3, 5, 1, 1, 7 };

	memset(r, 0, sizeof(*r));
	r->status = 1;
	r->pass = false;
	r->detector = CGT_DET_LIVELOCK;
	r->step = 5066;
	r->steps = 20000;
	r->stop_step = 5070;
	r->diverged = -1;
	snprintf(r->summary, sizeof(r->summary), "a walk \"quoted\"\nover two lines\t(tab)");
	snprintf(r->why, sizeof(r->why), "T3 was not runnable at decision 12");
	snprintf(r->report_dir, sizeof(r->report_dir), "%s/20260101-000000-42", out_dir);
	for (size_t i = 0; i < sizeof(choices) / sizeof(choices[0]); i++)
		cr_assert_eq(cgt_schedule_push(&r->schedule, choices[i]), 0);
}

static void assert_same(const struct cgt_child_result *a, const struct cgt_child_result *b)
{
	cr_assert_eq(a->pass, b->pass);
	cr_assert_eq(a->detector, b->detector);
	cr_assert_eq(a->step, b->step);
	cr_assert_eq(a->steps, b->steps);
	cr_assert_eq(a->stop_step, b->stop_step);
	cr_assert_eq(a->diverged, b->diverged);
	cr_assert_str_eq(a->summary, b->summary);
	cr_assert_str_eq(a->why, b->why);
	cr_assert_str_eq(a->report_dir, b->report_dir);
	cr_assert_eq(a->schedule.len, b->schedule.len);
	for (long k = 0; k < a->schedule.len; k++)
		cr_assert_eq(a->schedule.choice[k], b->schedule.choice[k], "decision %ld", k);
}

/* What the child sends: the sample, then an exit status of its own. */
static int body_sends(const struct cgt_run_config *c, const struct cgt_child_opts *o)
{
	struct cgt_child_result r;

	(void)c;
	(void)o;
	sample(&r);
	cgt_child_send(&r);
	return 3;
}

static int body_killed(const struct cgt_run_config *c, const struct cgt_child_opts *o)
{
	(void)c;
	(void)o;
	raise(SIGKILL);
	return 0;
}

static __attribute__((noreturn)) int body_deaf(const struct cgt_run_config *c,
					       const struct cgt_child_opts *o)
{
	(void)c;
	(void)o;
	for (;;)
		pause();
}

/*
 * @r is a child killed by SIGKILL and reported by its parent: a FAIL of @detector whose
 * summary holds @words, in a report.json of its own under the test's folder.
 */
static void assert_reported(const struct cgt_child_result *r, int detector, const char *words)
{
	char path[1100];

	cr_assert_not(r->ran);
	cr_assert_not(r->pass);
	cr_assert_eq(r->signal, SIGKILL);
	cr_assert_eq(r->status, CGT_EXIT_FAIL);
	cr_assert_eq(r->detector, detector);
	cr_assert_not_null(strstr(r->summary, words), "%s", r->summary);
	cr_assert(r->report_dir[0], "no report written");
	cr_assert_eq(strncmp(r->report_dir, out_dir, strlen(out_dir)), 0, "%s", r->report_dir);
	snprintf(path, sizeof(path), "%s/report.json", r->report_dir);
	cr_assert_eq(access(path, R_OK), 0, "%s: %s", path, strerror(errno));
}

Test(child, json_round_trip_keeps_every_field)
{
	struct cgt_child_result in, back = { 0 };
	char text[4096];
	ssize_t n;
	int fds[2];

	sample(&in);
	cr_assert_eq(pipe(fds), 0);
	cr_assert_eq(cgt_child_result_write(fds[1], &in), 0);
	close(fds[1]);
	n = read(fds[0], text, sizeof(text));
	close(fds[0]);
	cr_assert_gt(n, 0);
	cr_assert_eq(cgt_child_result_parse(text, (size_t)n, &back), 0, "%.*s", (int)n, text);
	cr_assert(back.ran);
	cr_assert_eq(back.status, in.status);
	assert_same(&in, &back);
	cr_assert_neq(cgt_child_result_parse(text, (size_t)n / 2, &back), 0, "half an object");
	cgt_child_result_free(&in);
	cgt_child_result_free(&back);
}

Test(child, a_child_that_ends_gives_its_result)
{
	const struct cgt_child_opts opts = { .quiet = true, .body = body_sends };
	struct cgt_child_result r, want;

	cr_assert_eq(cgt_child_run(&cfg, &opts, &r), 0);
	cr_assert(r.ran);
	cr_assert_eq(r.status, 3, "its own exit status, not the one it sent");
	cr_assert_eq(r.signal, 0);
	sample(&want);
	assert_same(&want, &r);
	cgt_child_result_free(&want);
	cgt_child_result_free(&r);
}

Test(child, a_child_killed_before_its_report_gets_one)
{
	const struct cgt_child_opts opts = { .quiet = true, .body = body_killed };
	struct cgt_child_result r;

	cr_assert_eq(cgt_child_run(&cfg, &opts, &r), 0);
	assert_reported(&r, CGT_DET_CRASH, "SIGKILL (signal 9)");
	cgt_child_result_free(&r);
}

Test(child, a_child_deaf_past_its_deadline_is_killed_and_reported)
{
	/* cgt_run_deadline_s of an empty configuration is 4 s; 1 s of grace past it */
	const struct cgt_child_opts opts = { .quiet = true, .grace_s = 1, .body = body_deaf };
	struct cgt_child_result r;
	double start = cgt_now(), took;

	cr_assert_eq(cgt_child_run(&cfg, &opts, &r), 0);
	took = cgt_now() - start;
	cr_assert_geq(took, cgt_run_deadline_s(&cfg) + 1, "killed after %.1f s", took);
	assert_reported(&r, CGT_DET_DEADLINE, "outlived its deadline");
	cgt_child_result_free(&r);
}
