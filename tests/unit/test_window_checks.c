// SPDX-License-Identifier: GPL-2.0
/*
 * The checks inside the windows (src/model/window_checks.c): each reader checks, under the
 * locks it holds, what those locks keep true. On a sound model none fires; with the state a
 * writer without the lock would leave (put there by hand), the reader that looks reports it,
 * naming the lock whose rule was broken.
 */
#include <string.h>

#include "model_fixture.h"
#include "../../src/base/quarantine.h"

#define NTHREADS 3

TestSuite(window, .init = model_boot_for_each, .fini = model_fini, .timeout = 30);

static void iterate(const struct cgroup *cgrp)
{
	struct css_task_iter it;

	css_task_iter_start(cgrp, &it);
	while (css_task_iter_next(&it))
		;
	css_task_iter_end(&it);
}

/* The one violation seen since the last reset holds @what. */
static void assert_one_violation(const char *what)
{
	cr_assert_eq(cgt_failure_count(CGT_DET_INVARIANT), 1, "%s: not reported once (%ld)", what,
		     cgt_failure_count(CGT_DET_INVARIANT));
	cr_assert(strstr(invariant_summary(), what), "%s", invariant_summary());
	cgt_failures_reset();
}

static void read_everything(struct task *leader)
{
	struct cgt_walk w;
	long n;

	cr_assert_eq(fill_stats_for_tgid(leader->pid, CGT_ITER_FOR_EACH, &w), 0);
	cr_assert_eq(cgt_pgrp_walk(leader->pid, &n), 0);
	cgt_all_process_walk();
	iterate(&cgroups[0][0]);
	cgroup_task_count(&cgroups[0][0]);
}

Test(window, sound_model_silent_then_each_broken_rule_reported_by_its_reader)
{
	struct task *th[NTHREADS];
	struct signal_struct *sig;
	struct pid *pgrp;
	struct css_set *cset, other;
	struct cgt_walk w = { 0 };
	struct task *t;
	long n = 0;

	fork_group(th, NTHREADS);
	sig = th[0]->signal;
	read_everything(th[0]);
	assert_model_sound();

	/* RCU: a walk reaches a thread of another group (a freed one reads as poison) */
	th[1]->signal = init_task.signal;
	cr_assert_eq(fill_stats_for_tgid(th[0]->pid, CGT_ITER_FOR_EACH, (struct cgt_walk[1]){}), 0);
	th[1]->signal = sig;
	assert_one_violation("under RCU: fill_stats_for_tgid's walk of tgid");

	/* the same under tasklist_lock alone (oom_kill_process's walk): the lock is named */
	th[1]->signal = init_task.signal;
	cgt_read_lock(&tasklist_lock);
	cgt_walk_for_each_held(&w, th[0], CGT_ITER_FOR_EACH, "oom_kill_process", &tasklist_lock, t)
		n++;
	cgt_read_unlock(&tasklist_lock);
	th[1]->signal = sig;
	assert_one_violation("under tasklist_lock: oom_kill_process's walk of tgid");

	/* tasklist_lock: nr_threads changed without it (copy_process's count) */
	sig->nr_threads++;
	cgt_all_process_walk();
	sig->nr_threads--;
	assert_one_violation("nr_threads says");

	/* tasklist_lock: a pid's list holds a task linked to another pid (change_pid) */
	pgrp = th[0]->pids[PIDTYPE_PGID].pid;
	th[0]->pids[PIDTYPE_PGID].pid = th[0]->pids[PIDTYPE_PID].pid == pgrp ? NULL :
					th[0]->pids[PIDTYPE_PID].pid;
	cr_assert_eq(cgt_pgrp_walk(pgrp->nr, &n), 0);
	th[0]->pids[PIDTYPE_PGID].pid = pgrp;
	assert_one_violation("under tasklist_lock: tid");

	/* css_set_lock: a task on a css_set's list points elsewhere (cgroup_task_migrate) */
	cset = th[2]->cgroups;
	memset(&other, 0, sizeof(other));
	th[2]->cgroups = &other;
	iterate(&cgroups[0][0]);
	th[2]->cgroups = cset;
	assert_one_violation("->cgroups points to another css_set");

	/* css_set_lock: a linked css_set with no reference left (put_css_set) */
	n = init_css_set.refcount;
	init_css_set.refcount = 0;
	cgroup_task_count(&cgroups[0][0]);
	init_css_set.refcount = (int)n;
	cr_assert_geq(cgt_failure_count(CGT_DET_INVARIANT), 1);
	cr_assert(strstr(invariant_summary(), "refcount 0"), "%s", invariant_summary());
	cgt_failures_reset();

	read_everything(th[0]);
	assert_model_sound();
	for (int i = NTHREADS - 1; i >= 0; i--)
		do_exit(th[i]);
	model_shutdown();
}

/* ---- RCU lifetimes (rcu-lifetime): what a reader's read-side section can have found ---- */

/* The rcu-lifetime failures since the last reset: @n of them, the first naming @what. */
static void assert_rcu_lifetime(long n, const char *what)
{
	struct cgt_failure f[1];

	cr_assert_eq(cgt_failure_count(CGT_DET_RCU_LIFETIME), n, "%s: %ld rcu-lifetime reports",
		     what, cgt_failure_count(CGT_DET_RCU_LIFETIME));
	if (n) {
		cr_assert_eq(cgt_failures_get(f, 1), 1);
		cr_assert(strstr(f[0].summary, what), "%s", f[0].summary);
	}
	cgt_failures_reset();
}

/*
 * A walk in one read-side section is silent; one that leaves it (cond_resched_rcu() with
 * no reference) and steps on from the thread it stands on is reported, once, though
 * nothing was released meanwhile: the mistake shows without the free it allows.
 */
Test(window, rcu_walk_that_leaves_its_section_reported_once)
{
	struct task *th[NTHREADS], *t;
	struct cgt_walk w;

	fork_group(th, NTHREADS);
	cgt_failures_reset();
	rcu_read_lock();
	cgt_walk_for_each(&w, th[0], CGT_ITER_FOR_EACH, "test", t)
		;
	rcu_read_unlock();
	assert_rcu_lifetime(0, "one section");

	rcu_read_lock();
	t = cgt_walk_first(&w, th[0], CGT_ITER_FOR_EACH, "test");
	t = cgt_walk_next(&w);
	cr_assert_not_null(t);
	cr_assert_neq(t, th[0]);
	rcu_read_unlock();
	rcu_read_lock();
	while (cgt_walk_next(&w))
		;
	rcu_read_unlock();
	assert_rcu_lifetime(1, "went on in another RCU read-side section");
	for (int i = NTHREADS - 1; i >= 0; i--)
		do_exit(th[i]);
	model_shutdown();
}

/*
 * while_each_thread from a thread unhashed before the walker's section began: its ->next
 * is stale, and leads to a thread unhashed after it, also before the section began -- a
 * thread no reader of this section could have found (its memory may already be gone; here
 * references keep it).
 */
Test(window, rcu_walk_onto_thread_unhashed_before_its_section_reported)
{
	struct task *th[NTHREADS + 1], *t;
	struct cgt_walk w;

	fork_group(th, NTHREADS + 1);
	get_task_struct(th[1]);
	get_task_struct(th[2]);
	do_exit(th[1]);
	do_exit(th[2]);		/* after th[1]: th[1]->next still leads to it */
	cgt_failures_reset();
	rcu_read_lock();
	t = cgt_walk_first(&w, th[1], CGT_ITER_WHILE_EACH, "test");
	cr_assert_eq(t, th[1]);
	t = cgt_walk_next(&w);
	cr_assert_eq(t, th[2], "the stale ->next of the unhashed start");
	cgt_walk_next(&w);
	rcu_read_unlock();
	assert_rcu_lifetime(1, "unhashed by thread");
	put_task_struct(th[2]);
	put_task_struct(th[1]);
	do_exit(th[3]);
	do_exit(th[0]);
	model_shutdown();
}

/*
 * A css_set unlinked by its last put before the reader's section began (or with no section
 * at all, or freed and poisoned) cannot have been found under css_set_lock or RCU; one
 * unlinked during the section can.
 */
Test(window, rcu_css_set_retired_before_the_section_reported)
{
	static struct css_set c;
	struct task *p = fork_process();

	cgt_failures_reset();
	memset(&c, 0, sizeof(c));
	rcu_read_lock();
	c.rcu_retired = cgt_rcu_retire();	/* during the section */
	check_cset_rcu(&c, p);
	rcu_read_unlock();
	assert_rcu_lifetime(0, "retired during the section");

	rcu_read_lock();
	check_cset_rcu(&c, p);			/* retired before this one began */
	rcu_read_unlock();
	assert_rcu_lifetime(1, "put for the last time");

	check_cset_rcu(&c, p);			/* no section at all */
	assert_rcu_lifetime(1, "put for the last time");

	memset(&c, CGT_POISON_FREE, sizeof(c));
	rcu_read_lock();
	check_cset_rcu(&c, p);
	rcu_read_unlock();
	assert_rcu_lifetime(1, "put for the last time");
	do_exit(p);
	model_shutdown();
}

/*
 * task_css_set's own check (task_css_set_check): a css_set pointer read under RCU, under
 * css_set_lock, or under cgroup_mutex with the task's threadgroup lock (as a migration reads
 * it) is silent; one read under cgroup_mutex alone, or with nothing held, is reported on the
 * read itself, with no free needed to meet it. The test thread registers, so that its locks
 * are on its book.
 */
Test(window, css_set_read_without_its_protection_reported)
{
	static struct cgt_thread self;
	struct task *p = fork_process();

	cgt_thread_register(&self, CGT_ROLE_ACTOR, p->pid);
	cgt_failures_reset();
	rcu_read_lock();
	task_css_set(p);
	rcu_read_unlock();
	cgt_read_lock(&css_set_lock);
	task_css_set(p);
	cgt_read_unlock(&css_set_lock);
	cgt_write_lock(&cgroup_mutex);
	threadgroup_lock(p);
	task_css_set(p);
	threadgroup_unlock(p);
	cgt_write_unlock(&cgroup_mutex);
	assert_rcu_lifetime(0, "reads under their protection");

	task_css_set(p);
	assert_rcu_lifetime(1, "suspicious RCU usage");
	cgt_write_lock(&cgroup_mutex);
	task_css_set(p);
	cgt_write_unlock(&cgroup_mutex);
	assert_rcu_lifetime(1, "cgroup_mutex alone keeps no exit away");
	cgt_thread_unregister(&self);
	do_exit(p);
	model_shutdown();
}
