// SPDX-License-Identifier: GPL-2.0
/*
 * Cgroups, css_sets and migration (kernel/cgroup.c, 3.14/3.15): css_set sharing
 * (find_css_set), cgroup_task_count, css_task_iter, cgroup_procs_write/cgroup_attach_task,
 * proc_cgroup_show, and the model's invariant checker.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "model_fixture.h"

#define CPU	0	/* hierarchy 0: "cpu" */
#define MEM	1	/* hierarchy 1: "memory" */

static struct css_set *cset_of(struct task *t)
{
	struct css_set *cset;

	rcu_read_lock();
	cset = task_css_set(t);
	rcu_read_unlock();
	return cset;
}

static struct cgroup *cgroup_of(struct task *t, int h)
{
	struct cgroup *cg;

	rcu_read_lock();
	cg = task_cgroup(t, h);
	rcu_read_unlock();
	return cg;
}

/* css_task_iter over @cg: how many tasks, and whether @t is among them. */
static int iter_count(const struct cgroup *cg, struct task *want, bool *found)
{
	struct css_task_iter it;
	struct task *t;
	int n = 0;

	if (found)
		*found = false;
	css_task_iter_start(cg, &it);
	while ((t = css_task_iter_next(&it)) != NULL) {
		n++;
		if (found && t == want)
			*found = true;
	}
	css_task_iter_end(&it);
	return n;
}

/* Every cgroup: cgroup_task_count agrees with css_task_iter, and with the expected count. */
static void assert_counts(const int want[CGT_NR_HIERARCHIES][CGT_CGROUPS_PER_ROOT + 1])
{
	for (int h = 0; h < CGT_NR_HIERARCHIES; h++) {
		for (int c = 0; c <= CGT_CGROUPS_PER_ROOT; c++) {
			const struct cgroup *cg = &cgroups[h][c];
			int counted = cgroup_task_count(cg);
			int iterated = iter_count(cg, NULL, NULL);

			cr_assert_eq(iterated, want[h][c], "%s: css_task_iter found %d tasks, want %d",
				     cg->name, iterated, want[h][c]);
			cr_assert_eq(counted, iterated, "%s: cgroup_task_count %d but css_task_iter %d",
				     cg->name, counted, iterated);
		}
	}
}

static void exit_group(struct task **th, int n)
{
	for (int i = n - 1; i >= 0; i--)
		do_exit(th[i]);
}

TestSuite(cgroup, .init = model_boot_while_each, .fini = model_fini, .timeout = 30);

/*
 * css_sets are shared (find_existing_css_set): two processes forked from init are both in
 * init_css_set; moved to the same cgroup they share the one new css_set (same pointer),
 * whose refcount is theirs.
 */
Test(cgroup, same_cgroups_share_one_css_set)
{
	struct task *p1 = fork_process(), *p2 = fork_process();
	struct cgroup *target = &cgroups[CPU][1];
	struct css_set *cset;

	cr_assert_eq(cset_of(p1), &init_css_set);
	cr_assert_eq(cset_of(p2), &init_css_set);
	cr_assert_eq(cset_of(&init_task), &init_css_set);

	cr_assert_eq(cgroup_procs_write(target, p1->pid), 0);
	cset = cset_of(p1);
	cr_assert_neq(cset, &init_css_set, "a migrated task needs another css_set");
	cr_assert_eq(cset->subsys[CPU], target);
	cr_assert_eq(cset->subsys[MEM], &cgroups[MEM][0], "the other hierarchy must not change");

	cr_assert_eq(cgroup_procs_write(target, p2->pid), 0);
	cr_assert_eq(cset_of(p2), cset, "same cgroups, same css_set: %p vs %p",
		     (void *)cset_of(p2), (void *)cset);
	cr_assert_eq(cset->refcount, 2);
	assert_model_sound();

	/* back to the root: init_css_set again, the shared one goes with its last task */
	cr_assert_eq(cgroup_procs_write(&cgroups[CPU][0], p1->pid), 0);
	cr_assert_eq(cset_of(p1), &init_css_set);
	cr_assert_eq(cset->refcount, 1);
	assert_model_sound();

	do_exit(p1);
	do_exit(p2);
	model_shutdown();
}

/*
 * cgroup_task_count (the sum of its css_sets' refcounts) is the number of tasks really
 * there, as css_task_iter finds them, on a quiet model: at boot, after forks, after moves to
 * different cgroups of both hierarchies, and after exits.
 */
Test(cgroup, task_count_matches_iteration)
{
	enum { N = 3 };
	int want[CGT_NR_HIERARCHIES][CGT_CGROUPS_PER_ROOT + 1] = { { 0 } };
	struct task *grp[N], *solo;
	bool found;

	want[CPU][0] = want[MEM][0] = 1;	/* init */
	assert_counts(want);

	fork_group(grp, N);
	solo = fork_process();
	want[CPU][0] = want[MEM][0] = 1 + N + 1;
	assert_counts(want);

	/* the group to cpu:/g1 and memory:/g2, the lone process to cpu:/g1 only */
	cr_assert_eq(cgroup_procs_write(&cgroups[CPU][1], grp[0]->pid), 0);
	cr_assert_eq(cgroup_procs_write(&cgroups[MEM][2], grp[0]->pid), 0);
	cr_assert_eq(cgroup_procs_write(&cgroups[CPU][1], solo->pid), 0);
	want[CPU][0] = 1;
	want[CPU][1] = N + 1;
	want[MEM][0] = 1 + 1;
	want[MEM][2] = N;
	assert_counts(want);
	assert_model_sound();

	cr_assert_eq(iter_count(&cgroups[MEM][2], grp[1], &found), N);
	cr_assert(found, "css_task_iter must find a migrated thread");
	cr_assert_eq(iter_count(&cgroups[MEM][0], grp[1], &found), 2);
	cr_assert_not(found, "css_task_iter found a thread in the cgroup it left");

	/* an exiting task leaves its css_set (cgroup_exit), so the counts drop at once */
	do_exit(grp[2]);
	want[CPU][1]--;
	want[MEM][2]--;
	assert_counts(want);

	do_exit(solo);
	exit_group(grp, N - 1);
	want[CPU][1] = 0;
	want[MEM][0] = 1;
	want[MEM][2] = 0;
	assert_counts(want);
	model_shutdown();
}

/*
 * cgroup_procs_write on the leader's pid migrates the whole group (cgroup_attach_task with
 * threadgroup = true, under threadgroup_lock): every one of 5 threads lands in the target;
 * a write of a non-leader's tid moves the whole group as well (attach_task_by_pid takes the
 * group_leader).
 */
Test(cgroup, migrate_moves_every_thread)
{
	enum { N = 5 };
	struct task *th[N];
	struct cgroup *target = &cgroups[MEM][3], *cpu_target = &cgroups[CPU][4];
	struct task *late;

	fork_group(th, N);
	cr_assert_eq(cgroup_procs_write(target, th[0]->pid), 0);
	for (int i = 0; i < N; i++) {
		cr_assert_eq(cgroup_of(th[i], MEM), target, "thread %d (tid %d) is in %s",
			     i, th[i]->pid, cgroup_of(th[i], MEM)->name);
		cr_assert_eq(cgroup_of(th[i], CPU), &cgroups[CPU][0]);
	}
	cr_assert_eq(cset_of(th[0])->refcount, N, "the whole group shares one css_set");
	cr_assert_eq(cgroup_task_count(target), N);

	/* by a non-leader's tid: the whole group, not the one thread */
	cr_assert_eq(cgroup_procs_write(cpu_target, th[3]->pid), 0);
	for (int i = 0; i < N; i++) {
		cr_assert_eq(cgroup_of(th[i], CPU), cpu_target, "thread %d stayed behind", i);
		cr_assert_eq(cgroup_of(th[i], MEM), target);
	}
	cr_assert_eq(cset_of(&init_task), &init_css_set, "init must not move");
	cr_assert_eq(cgt_failure_count(CGT_DET_INVARIANT), 0, "cgt_check_group_in: %s",
		     invariant_summary());
	assert_model_sound();

	/* a thread forked after the move follows its parent (cgroup_post_fork) */
	late = fork_thread(th[2]);

	cr_assert_eq(cgroup_of(late, CPU), cpu_target);
	cr_assert_eq(cgroup_of(late, MEM), target);
	assert_model_sound();

	/* a pid that is no task: -ESRCH, nothing moves */
	cr_assert_eq(cgroup_procs_write(&cgroups[CPU][1], cgt_last_pid() + 1000), -ESRCH);

	do_exit(late);
	exit_group(th, N);
	model_shutdown();
}

/* proc_cgroup_show: /proc/<pid>/cgroup, one "<hierarchy id>:<cgroup>" line per hierarchy. */
Test(cgroup, proc_cgroup_show_one_line_per_hierarchy)
{
	struct task *p = fork_process();
	char buf[256];
	int n, lines = 0;

	memset(buf, 'x', sizeof(buf));
	n = proc_cgroup_show(p, buf, sizeof(buf));
	cr_assert_str_eq(buf, "1:cpu:/\n2:memory:/\n");
	cr_assert_eq(n, (int)strlen(buf));

	cr_assert_eq(cgroup_procs_write(&cgroups[CPU][2], p->pid), 0);
	cr_assert_eq(cgroup_procs_write(&cgroups[MEM][3], p->pid), 0);
	n = proc_cgroup_show(p, buf, sizeof(buf));
	cr_assert_str_eq(buf, "1:cpu:/g2\n2:memory:/g3\n");
	cr_assert_eq(n, (int)strlen(buf));

	/* one line per hierarchy, each naming that hierarchy's cgroup of the task */
	for (char *s = buf; *s; s++)
		lines += *s == '\n';
	cr_assert_eq(lines, CGT_NR_HIERARCHIES);

	/* init stayed in the roots */
	n = proc_cgroup_show(&init_task, buf, sizeof(buf));
	cr_assert_str_eq(buf, "1:cpu:/\n2:memory:/\n");

	do_exit(p);
	model_shutdown();
}

/*
 * cgt_check_invariants: sound on a quiet model, and it catches deliberate corruption: a
 * css_set refcount one too high, a wrong nr_threads, a task on one css_set's list that
 * points at another. Each corruption is undone before the next, and the model ends clean.
 */
Test(cgroup, invariants_hold_and_catch_corruption)
{
	enum { N = 3 };
	struct task *th[N], *solo;
	struct css_set *cset;
	char why[256];

	fork_group(th, N);
	solo = fork_process();
	cr_assert_eq(cgroup_procs_write(&cgroups[CPU][1], th[0]->pid), 0);
	assert_model_sound();
	cset = cset_of(th[0]);

	/* a leaked css_set reference */
	cset->refcount++;
	why[0] = '\0';
	cr_assert_neq(cgt_check_invariants(why, sizeof(why)), 0, "refcount +1 went unnoticed");
	cr_assert(strstr(why, "refcount") != NULL, "why: %s", why);
	cset->refcount--;
	assert_model_sound();

	/* init_css_set's own reference lost */
	init_css_set.refcount--;
	cr_assert_neq(cgt_check_invariants(why, sizeof(why)), 0, "init_css_set -1 went unnoticed");
	init_css_set.refcount++;
	assert_model_sound();

	/* nr_threads out of step with the thread lists */
	th[0]->signal->nr_threads++;
	why[0] = '\0';
	cr_assert_neq(cgt_check_invariants(why, sizeof(why)), 0, "nr_threads +1 went unnoticed");
	cr_assert(strstr(why, "nr_threads") != NULL, "why: %s", why);
	th[0]->signal->nr_threads--;
	assert_model_sound();

	/* the migration check: the group is in cpu:/g1, not cpu:/g2 */
	cr_assert_eq(cgt_check_group_in(th[0], &cgroups[CPU][1], NULL, 0), 0);
	cr_assert_neq(cgt_check_group_in(th[0], &cgroups[CPU][2], NULL, 0), 0, "a split group went unnoticed");
	cr_assert_eq(cgt_failure_count(CGT_DET_INVARIANT), 1);
	cr_assert(strstr(invariant_summary(), "left 3 thread(s) behind") != NULL, "violation: %s",
		  invariant_summary());
	cgt_failures_reset();

	/* a task whose cgroups pointer disagrees with the list it is on */
	RCU_INIT_POINTER(solo->cgroups, cset);
	why[0] = '\0';
	cr_assert_neq(cgt_check_invariants(why, sizeof(why)), 0, "wrong task->cgroups went unnoticed");
	RCU_INIT_POINTER(solo->cgroups, &init_css_set);
	assert_model_sound();

	do_exit(solo);
	exit_group(th, N);
	model_shutdown();
}

/*
 * Each css_task_iter step and each process-list step is a point carrying the task it stands
 * on: perturbation aims at the group (src/run/meet.c), and a delay there holds the read lock.
 */
static struct task *stepped[16];
static int nstepped;

static void record_step(enum cgt_point_id id, const void *obj)
{
	if ((id == CGT_PT_ITER_STEP || id == CGT_PT_PGRP_STEP) && nstepped < 16)
		stepped[nstepped++] = (struct task *)obj;
}

Test(cgroup, iteration_steps_carry_their_task)
{
	struct task *grp[3], *t;
	struct css_task_iter it;
	int n = 0;

	fork_group(grp, 3);
	nstepped = 0;
	cgt_point_set_hook(record_step);
	css_task_iter_start(&cgroups[CPU][0], &it);
	while ((t = css_task_iter_next(&it)) != NULL)
		cr_assert_eq(stepped[n++], t, "step %d: the point's task is the one returned", n);
	css_task_iter_end(&it);
	cr_assert_eq(nstepped, n);
	cr_assert_eq(n, 4, "init and the group's three threads");

	nstepped = 0;
	n = (int)cgt_all_process_walk();
	cgt_point_set_hook(NULL);
	cr_assert_eq(nstepped, n, "a point per process");
	for (int i = 0; i < n; i++)
		cr_assert_eq(stepped[i]->group_leader, stepped[i], "step %d: a process", i);
	cr_assert_eq(stepped[n - 1], grp[0], "the new process, last on the list");
}
