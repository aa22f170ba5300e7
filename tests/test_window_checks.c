// SPDX-License-Identifier: GPL-2.0
/*
 * The checks inside the windows (src/model/window_checks.c): each reader checks, under the
 * locks it holds, what those locks keep true. On a sound model none fires; with the state a
 * writer without the lock would leave (put there by hand), the reader that looks reports it,
 * naming the lock whose rule was broken.
 */
#include <string.h>

#include "model_fixture.h"

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
	long n;

	fork_group(th, NTHREADS);
	sig = th[0]->signal;
	read_everything(th[0]);
	assert_model_sound();

	/* RCU: a walk reaches a thread of another group (a freed one reads as poison) */
	th[1]->signal = init_task.signal;
	cr_assert_eq(fill_stats_for_tgid(th[0]->pid, CGT_ITER_FOR_EACH, (struct cgt_walk[1]){}), 0);
	th[1]->signal = sig;
	assert_one_violation("under RCU: a walk of tgid");

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
