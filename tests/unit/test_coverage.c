// SPDX-License-Identifier: GPL-2.0
/*
 * Coverage (src/core/coverage.h): the test thread, registered, drives the model through a
 * few paths whose outcome does not depend on timing, and each step must move exactly the
 * path counters it names and no other; the marked points it passes are counted too, and a
 * thread's counts outlive it, folded into the totals as it unregisters.
 */
#include <errno.h>
#include <stdarg.h>

#include "model_fixture.h"

static struct cgt_thread self;
static struct cgt_cover seen;	/* the totals at the last check */

static void cover_boot(void)
{
	cgt_threads_cover_reset();
	cgt_thread_register(&self, CGT_ROLE_DRIVER, 0);
	model_boot_for_each();
	cgt_threads_cover(&seen);
}

static void cover_fini(void)
{
	model_fini();
	if (cgt_self == &self)
		cgt_thread_unregister(&self);
}

TestSuite(coverage, .init = cover_boot, .fini = cover_fini, .timeout = 30);

/* Since the last check, each of the @n paths that follow was taken once, and no other. */
static void expect_paths(const char *step, int n, ...)
{
	long want[CGT_NR_PATHS] = { 0 };
	struct cgt_cover now;
	va_list ap;

	va_start(ap, n);
	while (n--)
		want[va_arg(ap, int)]++;
	va_end(ap);
	cgt_threads_cover(&now);
	for (int i = 0; i < CGT_NR_PATHS; i++) {
		long taken = cgt_cover_path(&now, i) - cgt_cover_path(&seen, i);

		cr_expect_eq(taken, want[i], "%s: path %s taken %ld times, want %ld", step,
			     cgt_path_names[i], taken, want[i]);
	}
	seen = now;
}

/*
 * A group migrates into a cgroup (its first thread makes the css_set, the second finds it),
 * another process follows, a pid that names no task is refused; the leader exits first and
 * stays a zombie, the thread execs and takes its pid; the last task to leave the css_set
 * frees it.
 */
Test(coverage, migration_exec_and_exit_paths)
{
	struct cgroup *cg = &cgroups[0][1];
	struct task *p, *t, *q;
	struct cgt_cover now;
	int leader_pid;

	p = fork_process();
	t = fork_thread(p);
	expect_paths("fork", 0);
	cgt_threads_cover(&now);
	cr_expect_eq(cgt_cover_point(&now, CGT_PT_FORK_ALLOC), 2, "two forks, %ld FORK_ALLOC",
		     cgt_cover_point(&now, CGT_PT_FORK_ALLOC));

	cr_assert_eq(cgroup_procs_write(cg, p->pid), 0);
	expect_paths("group migrates", 2, CGT_PATH_CSET_CREATED, CGT_PATH_CSET_FOUND);
	q = fork_process();
	cr_assert_eq(cgroup_procs_write(cg, q->pid), 0);
	expect_paths("second process migrates", 1, CGT_PATH_CSET_FOUND);
	cr_assert_eq(cgroup_procs_write(cg, cgt_last_pid() + 1000), -ESRCH);
	expect_paths("no such pid", 1, CGT_PATH_MIGRATE_VANISHED);

	leader_pid = p->pid;
	do_exit(p);
	expect_paths("leader exits first", 1, CGT_PATH_LEADER_ZOMBIE);
	cr_assert_eq(de_thread(t), 0);
	cr_assert_eq(t->pid, leader_pid);
	expect_paths("thread execs", 1, CGT_PATH_EXEC_BY_THREAD);

	do_exit(t);
	expect_paths("lone leader exits", 0);
	do_exit(q);
	expect_paths("last task leaves the css_set", 1, CGT_PATH_CSET_FREED);
	assert_model_sound();
	model_shutdown();
}

/* The last thread of a group whose leader is a zombie reaps it (release_task). */
Test(coverage, last_thread_reaps_zombie_leader)
{
	struct task *th[3];

	fork_group(th, 3);
	do_exit(th[0]);
	expect_paths("leader exits first", 1, CGT_PATH_LEADER_ZOMBIE);
	do_exit(th[1]);
	expect_paths("a thread exits", 0);
	do_exit(th[2]);
	expect_paths("the last thread exits", 1, CGT_PATH_LEADER_REAPED);
	model_shutdown();
}

/* The counts of a thread that has unregistered stay in the totals; a new run forgets them. */
Test(coverage, counts_outlive_their_thread)
{
	struct task *p = fork_process();
	struct cgt_cover after;

	cr_assert_eq(cgroup_procs_write(&cgroups[1][2], p->pid), 0);
	do_exit(p);
	model_shutdown();
	cgt_threads_cover(&seen);
	cr_assert_gt(cgt_cover_point(&seen, CGT_PT_LOCK_WAIT), 0);
	cgt_thread_unregister(&self);
	cgt_threads_cover(&after);
	cr_expect_arr_eq(after.n, seen.n, sizeof(seen.n), "counts lost as the thread unregistered");
	cgt_cover(CGT_PATH_EXEC_LOST);	/* by a thread the registry no longer knows */
	cgt_threads_cover(&after);
	cr_expect_eq(cgt_cover_path(&after, CGT_PATH_EXEC_LOST), 0);
	cgt_threads_cover_reset();
	cgt_threads_cover(&after);
	cr_expect_eq(cgt_cover_points_passed(&after) + cgt_cover_paths_reached(&after), 0);
}
