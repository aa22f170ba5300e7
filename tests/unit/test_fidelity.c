// SPDX-License-Identifier: GPL-2.0
/*
 * Fidelity: each test names the kernel function whose locking the model must keep, and
 * watches the model take its locks through the marked points (a point hook records which
 * model locks, siglock and RCU the acting thread holds at each point).
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>

#include "model_fixture.h"
#include "../../src/model/bugs.h"

/* Which locks the test thread holds, as the LOCK_HELD/LOCK_RELEASE points tell. */
static int held[2][3];			/* [side][0 tasklist, 1 css_set, 2 cgroup_mutex] */
static int order[8], norder;		/* lock ids in the order they were first taken */

static int lock_id(const struct cgt_lock *l)
{
	return l == &tasklist_lock ? 0 : l == &css_set_lock ? 1 : l == &cgroup_mutex ? 2 : -1;
}

/* What the hook checks at one kind of point, and what it saw there. */
static enum cgt_point_id watch_at;
static long seen, siglock_busy, css_read_held, css_write_held, rcu_held, tasklist_write_held;
static long tasklist_read_held;
static pthread_mutex_t *watch_siglock;
static void (*at_point)(const void *obj);

static void record_hook(enum cgt_point_id id, const void *obj)
{
	if (id == CGT_PT_LOCK_HELD || id == CGT_PT_LOCK_RELEASE) {
		const struct cgt_lock_op *op = obj;
		int l = lock_id(op->lock);

		if (l < 0)
			return;
		held[op->side][l] += id == CGT_PT_LOCK_HELD ? 1 : -1;
		if (id == CGT_PT_LOCK_HELD && norder < (int)ARRAY_SIZE(order))
			order[norder++] = l;
		return;
	}
	if (id != watch_at)
		return;
	seen++;
	if (watch_siglock && pthread_mutex_trylock(watch_siglock) == EBUSY)
		siglock_busy++;
	else if (watch_siglock)
		pthread_mutex_unlock(watch_siglock);
	css_read_held += held[CGT_READ][1] > 0;
	css_write_held += held[CGT_WRITE][1] > 0;
	tasklist_write_held += held[CGT_WRITE][0] > 0;
	tasklist_read_held += held[CGT_READ][0] > 0;
	rcu_held += cgt_rcu_read_depth() > 0;
	if (at_point)
		at_point(obj);
}

static void watch(enum cgt_point_id id, pthread_mutex_t *siglock)
{
	watch_at = id;
	watch_siglock = siglock;
	seen = siglock_busy = css_read_held = css_write_held = rcu_held = 0;
	tasklist_write_held = tasklist_read_held = 0;
	norder = 0;
	__atomic_store_n(&cgt_point_hook, record_hook, __ATOMIC_RELEASE);
}

static void unwatch(void)
{
	__atomic_store_n(&cgt_point_hook, NULL, __ATOMIC_RELEASE);
	at_point = NULL;
}

static void boot_era(const char *name)
{
	const struct cgt_kernel_era *era = cgt_era_find(name);
	struct cgt_model_config cfg = {
		.era = era,
		.tasklist_lock_ops = cgt_lock_find("rwlock"),
		.iter = CGT_ITER_FOR_EACH,
		.walk_limit = FIXTURE_WALK_LIMIT,
	};

	cr_assert_not_null(era, "no era %s", name);
	cfg.css_set_lock_ops = cgt_lock_find(era->css_set_lock);	/* the era's, as --kernel */
	cgt_rcu_register_thread();
	cr_assert_eq(cgt_model_init(&cfg), 0);
	cgt_failures_reset();
}

static void boot(void)
{
	boot_era(CGT_DEFAULT_ERA);
}

TestSuite(fidelity, .init = boot, .fini = model_fini);

#define N	4

static void exit_all(struct task **th, int n)
{
	for (int i = n - 1; i >= 0; i--)
		do_exit(th[i]);
}

/*
 * fill_stats_for_tgid (kernel/taskstats.c, 3.14): lock_task_sighand(first) is held across
 * the whole while_each_thread walk, so every step sees siglock taken.
 */
Test(fidelity, fill_stats_for_tgid_walks_under_siglock)
{
	struct task *th[N];
	struct cgt_walk w;

	fork_group(th, N);
	watch(CGT_PT_WALK_STEP, &th[0]->signal->siglock);
	cr_assert_eq(fill_stats_for_tgid(th[2]->pid, CGT_ITER_WHILE_EACH, &w), 0);
	unwatch();
	cr_assert_eq(w.steps, N);
	cr_assert_eq(seen, N, "one point per step");
	cr_assert_eq(siglock_busy, seen, "siglock held at %ld of %ld steps", siglock_busy, seen);
	exit_all(th, N);
	model_shutdown();
}

/* A thread that exits (do_exit) the task it is given, as its own SIGKILL would make it. */
static void *exiter(void *arg)
{
	cgt_rcu_register_thread();
	do_exit(arg);
	cgt_rcu_unregister_thread();
	return NULL;
}

static pthread_t exiter_thread;
static struct task *exiter_target;

/* At the first walk step, start the start thread's exit and give it time to run. */
static void start_exit(const void *obj)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = 50 * 1000 * 1000 };

	(void)obj;
	if (seen != 1)
		return;
	cr_assert_eq(pthread_create(&exiter_thread, NULL, exiter, exiter_target), 0);
	nanosleep(&ts, NULL);
}

/*
 * fill_stats_for_tgid: the start thread exiting mid-walk must wait for siglock
 * (__exit_signal), so the 3.14 while_each_thread walk from it still ends, not a livelock.
 */
Test(fidelity, fill_stats_for_tgid_while_each_ends_when_start_exits)
{
	struct task *th[N];
	struct cgt_walk w;

	int tid;

	fork_group(th, N);
	tid = th[2]->pid;
	exiter_target = th[2];
	at_point = start_exit;
	watch(CGT_PT_WALK_STEP, NULL);
	cr_assert_eq(fill_stats_for_tgid(th[2]->pid, CGT_ITER_WHILE_EACH, &w), 0);
	unwatch();
	cr_assert_not(w.overran, "the walk livelocked although siglock was held");
	cr_assert_eq(w.steps, N);
	cr_assert_eq(pthread_join(exiter_thread, NULL), 0);
	rcu_read_lock();
	cr_assert_null(find_task_by_vpid(tid), "the start thread exited and was released");
	rcu_read_unlock();
	for (int i = N - 1; i >= 0; i--)
		if (i != 2)
			do_exit(th[i]);
	model_shutdown();
}

/* At the second step, the start thread exits at once (the test acts for it). */
static void exit_now(const void *obj)
{
	(void)obj;
	if (seen == 2)
		do_exit(exiter_target);
}

/*
 * find_lock_task_mm (mm/oom_kill.c), from oom_badness: under RCU alone. The 3.13 walk,
 * while_each_thread from a thread that exits mid-walk, never ends (walk-from-exiting);
 * the for_each_thread of 3.14 does.
 */
Test(fidelity, find_lock_task_mm_rcu_only_and_walk_from_exiting)
{
	struct task *th[N];
	struct cgt_walk w;

	fork_group(th, N);
	watch(CGT_PT_WALK_STEP, &th[0]->signal->siglock);
	cr_assert_eq(oom_badness(th[1]->pid, CGT_ITER_FOR_EACH, &w), 0);
	cr_assert_eq(siglock_busy, 0, "find_lock_task_mm takes no siglock");
	cr_assert_eq(rcu_held, seen);

	exiter_target = th[1];
	at_point = exit_now;
	watch(CGT_PT_WALK_STEP, NULL);
	__atomic_store_n(&cgt_bugs_enabled, 1UL << CGT_BUG_WALK_FROM_EXITING, __ATOMIC_RELAXED);
	cr_assert_eq(oom_badness(th[1]->pid, CGT_ITER_FOR_EACH, &w), -ELOOP);
	cr_assert(w.overran);
	unwatch();
	__atomic_store_n(&cgt_bugs_enabled, 0, __ATOMIC_RELAXED);
	for (int i = N - 1; i >= 0; i--)
		if (i != 1)
			do_exit(th[i]);
	model_shutdown();
}

/* At the first process dump_tasks prints, the victim exits and is released. */
static void exit_at_first(const void *obj)
{
	(void)obj;
	if (seen == 1)
		do_exit(exiter_target);
}

/*
 * oom_kill_process (mm/oom_kill.c @ v3.14.1, v4.4.1): after dump_header, the victim's threads
 * under read_lock(&tasklist_lock) and no RCU; a victim released in that window is walked
 * from: for_each_thread ends, 3.13's while_each_thread (walk-from-exiting) does not, and
 * holds tasklist_lock while it goes round. From 5.1 ("mm, oom: remove 'prefer children over
 * parent' heuristic") no such walk: only find_lock_task_mm, under RCU.
 */
static void oom_kill_process_walk(const char *era, bool children)
{
	struct task *th[N];
	struct cgt_walk w;

	boot_era(era);
	fork_group(th, N);
	watch(CGT_PT_WALK_STEP, NULL);
	cr_assert_eq(oom_kill_process(th[1]->pid, CGT_ITER_FOR_EACH, &w), 0);
	unwatch();
	cr_assert_eq(tasklist_read_held, children ? N : 0, "%s: %ld of %ld steps under "
		     "tasklist_lock (read)", era, tasklist_read_held, seen);
	cr_assert_eq(rcu_held, N, "%s: find_lock_task_mm's %d steps under RCU", era, N);
	exit_all(th, N);

	for (int bug = 0; bug < 2; bug++) {
		struct task *victim;

		fork_group(th, N);
		victim = exiter_target = th[1];
		at_point = exit_at_first;
		watch(CGT_PT_PGRP_STEP, NULL);
		__atomic_store_n(&cgt_bugs_enabled, bug ? 1UL << CGT_BUG_WALK_FROM_EXITING : 0,
				 __ATOMIC_RELAXED);
		cr_assert_eq(oom_kill_process(victim->pid, CGT_ITER_FOR_EACH, &w),
			     bug ? -ELOOP : 0, "%s, bug %d", era, bug);
		unwatch();
		__atomic_store_n(&cgt_bugs_enabled, 0, __ATOMIC_RELAXED);
		cr_assert_eq(w.overran, bug);
		if (bug)
			cr_assert_str_eq(w.fn, children ? "oom_kill_process" : "find_lock_task_mm");
		for (int i = N - 1; i >= 0; i--)
			if (i != 1)
				do_exit(th[i]);
	}
	model_shutdown();
}

Test(era, oom_kill_process_3_14_walks_the_victim_under_tasklist_lock)
{
	oom_kill_process_walk("3.14", true);
}

Test(era, oom_kill_process_4_4_walks_the_victim_under_tasklist_lock)
{
	oom_kill_process_walk("4.4", true);
}

Test(era, oom_kill_process_6_x_has_no_children_walk)
{
	oom_kill_process_walk("6.x", false);
}

/* A group of a leader and one thread, where the thread execs while the walk is on. */
static struct task *exec_leader, *exec_thread;

static void exec_now(const void *obj)
{
	(void)obj;
	if (seen != 1)
		return;
	do_exit(exec_leader);			/* the leader exits first: a zombie */
	cr_assert_eq(de_thread(exec_thread), 0);	/* and the exec releases it */
}

/*
 * check_hung_uninterruptible_tasks (kernel/hung_task.c @ v3.14.1, v3.15.5): khungtaskd walks
 * every group from its leader with while_each_thread under RCU alone. An exec by another
 * thread releases the leader, and the walk goes round the ring without it; 1,024 threads
 * into the scan rcu_lock_break finds the leader unhashed and ends the scan: cut short, not
 * a livelock. v4.4.1's for_each_process_thread ends the group's walk at its head.
 */
static void hung_scan_across_an_exec(const char *era, bool cut)
{
	struct task *th[2];
	struct cgt_walk w;
	long seen_threads;

	boot_era(era);
	fork_group(th, 2);
	exec_leader = th[0];
	exec_thread = th[1];
	at_point = exec_now;
	watch(CGT_PT_WALK_STEP, NULL);
	seen_threads = check_hung_uninterruptible_tasks(&w);
	unwatch();
	cr_assert(thread_group_leader(th[1]), "the exec took the leader's place");
	cr_assert_not(w.overran);
	cr_assert_eq(cgt_failures_total(), 0, "no detector may report the scan");
	cr_assert_eq(w.cut_short, cut, "%s: the scan %s", era, cut ? "goes on" : "was cut short");
	if (cut)
		cr_assert_geq(seen_threads, 1024, "it ends at the lock break, %ld threads in",
			      seen_threads);
	else
		cr_assert_lt(seen_threads, 1024);
	do_exit(th[1]);
	model_shutdown();
}

Test(era, check_hung_uninterruptible_tasks_3_14_scan_cut_by_rcu_lock_break)
{
	hung_scan_across_an_exec("3.14", true);
}

Test(era, check_hung_uninterruptible_tasks_3_15_scan_cut_by_rcu_lock_break)
{
	hung_scan_across_an_exec("3.15", true);
}

Test(era, check_hung_uninterruptible_tasks_4_4_for_each_process_thread_ends)
{
	hung_scan_across_an_exec("4.4", false);
}

/*
 * select_bad_process (mm/oom_kill.c): every thread under RCU alone, no batch, no max_count.
 * With 3.13's do_each_thread/while_each_thread (walk-leader-exec) an exec by another thread
 * releases the leader and the walk never ends; v3.14.1's for_each_process_thread ends.
 */
Test(fidelity, select_bad_process_walk_leader_exec)
{
	struct task *th[2];
	struct cgt_walk w;

	for (int bug = 0; bug < 2; bug++) {
		fork_group(th, 2);
		exec_leader = th[0];
		exec_thread = th[1];
		at_point = exec_now;
		watch(CGT_PT_WALK_STEP, NULL);
		__atomic_store_n(&cgt_bugs_enabled, bug ? 1UL << CGT_BUG_WALK_LEADER_EXEC : 0,
				 __ATOMIC_RELAXED);
		if (bug) {
			cr_assert_eq(select_bad_process(CGT_ITER_FOR_EACH, &w), -ELOOP);
			cr_assert(w.overran);
		} else {
			cr_assert_geq(select_bad_process(CGT_ITER_FOR_EACH, &w), 1);
			cr_assert_not(w.overran);
		}
		unwatch();
		cr_assert(thread_group_leader(th[1]), "the exec took the leader's place");
		do_exit(th[1]);
	}
	__atomic_store_n(&cgt_bugs_enabled, 0, __ATOMIC_RELAXED);
	model_shutdown();
}

/*
 * de_thread (fs/exec.c): the zap of the other threads is done under siglock alone; no
 * tasklist_lock write section before it (the leader switch later takes one, as the kernel).
 */
Test(fidelity, de_thread_kills_under_siglock_only)
{
	struct task *th[2];
	long writes;

	fork_group(th, 2);
	do_exit(th[0]);			/* a zombie leader: the exec does not have to wait */
	writes = cgt_lock_writes(&tasklist_lock);
	watch(CGT_PT_EXEC_ZAP, &th[1]->signal->siglock);
	cr_assert_eq(de_thread(th[1]), 0);
	unwatch();
	cr_assert_eq(seen, 1);
	cr_assert_eq(siglock_busy, 1, "zap_other_threads runs under siglock");
	cr_assert_eq(tasklist_write_held, 0, "tasklist_lock held for writing at the zap");
	cr_assert_eq(order[0], 0, "the first lock taken is the leader switch's tasklist_lock");
	cr_assert_eq(cgt_lock_writes(&tasklist_lock), writes + 2,
		     "one write section for the leader switch, one for release_task: %ld",
		     cgt_lock_writes(&tasklist_lock) - writes);
	do_exit(th[1]);
	model_shutdown();
}

/*
 * do_group_exit (kernel/exit.c): SIGNAL_GROUP_EXIT and SIGKILL to every other thread under
 * siglock, then the caller's own exit; an exec that comes after loses (de_thread -EAGAIN),
 * and a thread forked into the dying group is refused (copy_process -EINTR).
 */
Test(fidelity, do_group_exit_kills_the_rest_and_an_exec_loses)
{
	struct task *th[N], *child;
	struct signal_struct *sig;

	fork_group(th, N);
	sig = th[0]->signal;
	do_group_exit(th[1]);
	cr_assert(signal_group_exit(sig), "SIGNAL_GROUP_EXIT is set");
	for (int i = 0; i < N; i++)
		if (i != 1)
			cr_assert(fatal_signal_pending(th[i]), "th%d has SIGKILL pending", i);
	cr_assert_eq(READ_ONCE(sig->nr_threads), N - 1, "the caller is gone");
	cr_assert_eq(de_thread(th[2]), -EAGAIN, "an exec after the group exit loses the race");
	cr_assert_eq(copy_process(th[3], CLONE_THREAD, &child), -EINTR);
	do_exit(th[3]);
	do_exit(th[2]);
	do_exit(th[0]);
	model_shutdown();
}

/*
 * cgroup_attach_task (kernel/cgroup.c, 3.15): the group is collected under css_set_rwsem
 * held for reading, taken outside the RCU read side; 3.14 collected under RCU alone.
 */
static void attach_checks(bool locked)
{
	struct task *th[N];

	fork_group(th, N);
	watch(CGT_PT_WALK_STEP, NULL);
	cgt_write_lock(&cgroup_mutex);
	threadgroup_lock(th[0]);
	cr_assert_eq(cgroup_attach_task(&cgroups[0][2], th[0], true), 0);
	threadgroup_unlock(th[0]);
	cgt_write_unlock(&cgroup_mutex);
	unwatch();
	cr_assert_eq(seen, N, "one walk step per thread");
	cr_assert_eq(rcu_held, seen);
	cr_assert_eq(css_read_held, locked ? seen : 0, "css_set lock held for reading at %ld of "
		     "%ld steps", css_read_held, seen);
	for (int i = 0; i < N; i++)
		cr_assert_eq(task_cgroup(th[i], 0), &cgroups[0][2]);
	exit_all(th, N);
	model_shutdown();
}

Test(fidelity, cgroup_attach_task_collects_under_css_set_rwsem)
{
	attach_checks(true);
}

TestSuite(era, .fini = model_fini);

Test(era, cgroup_attach_task_3_14_collects_under_rcu)
{
	boot_era("3.14");
	attach_checks(false);
}

/* The locks proc_cgroup_show takes, in order, into order[0..norder). */
static void proc_cgroup_show_locks(void)
{
	struct task *th[1];
	char buf[128];

	fork_group(th, 1);
	watch(CGT_PT_LOCK_HELD, NULL);
	cr_assert_gt(proc_cgroup_show(th[0], buf, sizeof(buf)), 0);
	unwatch();
	do_exit(th[0]);
	model_shutdown();
}

/*
 * proc_cgroup_show (kernel/cgroup.c @ v3.14.1, v3.15.5, v4.4.1): cgroup_mutex first, then
 * the css_set lock.
 */
Test(fidelity, proc_cgroup_show_takes_cgroup_mutex_first)
{
	proc_cgroup_show_locks();
	cr_assert_eq(norder, 2);
	cr_assert_eq(order[0], 2, "cgroup_mutex first");
	cr_assert_eq(order[1], 1, "then the css_set lock");
}

/*
 * proc_cgroup_show (kernel/cgroup/cgroup.c @ v6.18.2): rcu_read_lock and
 * spin_lock_irq(&css_set_lock) alone, since 9067d90006df "cgroup: Eliminate the need for
 * cgroup_mutex in proc_cgroup_show()" (6.8).
 */
Test(era, proc_cgroup_show_6_8_takes_no_cgroup_mutex)
{
	boot_era("6.x");
	proc_cgroup_show_locks();
	cr_assert_eq(norder, 1);
	cr_assert_eq(order[0], 1, "the css_set lock alone");
}

/* The parent, moved to cgroups[0][3] while its child is between cgroup_fork and post_fork. */
static struct task *move_parent;

static void move_parent_now(const void *obj)
{
	(void)obj;
	if (seen != 1)
		return;
	cr_assert_eq(cgroup_procs_write(&cgroups[0][3], move_parent->pid), 0);
}

/*
 * cgroup_fork, cgroup_post_fork (kernel/cgroup.c): a process forks while a migration moves
 * it. v3.14.1's cgroup_fork copies the parent's css_set and post_fork links that copy: the
 * child stays behind in the old cgroup. v3.15.5's post_fork links the parent's css_set as
 * it is then: the child follows.
 */
static void fork_during_move(const char *era, bool left_behind)
{
	struct task *parent, *child;

	boot_era(era);
	parent = fork_process();
	move_parent = parent;
	at_point = move_parent_now;
	watch(CGT_PT_FORK_LINKED, NULL);
	cr_assert_eq(copy_process(parent, 0, &child), 0);
	unwatch();
	cr_assert_eq(seen, 1);
	cr_assert_eq(task_cgroup(parent, 0), &cgroups[0][3], "the parent moved");
	cr_assert_eq(task_cgroup(child, 0), left_behind ? &cgroups[0][0] : &cgroups[0][3],
		     "%s: the child %s", era, left_behind ? "stays behind" : "follows");
	assert_model_sound();
	do_exit(child);
	do_exit(parent);
	model_shutdown();
}

Test(era, cgroup_fork_3_14_child_escapes_the_parents_move)
{
	fork_during_move("3.14", true);
}

Test(era, cgroup_post_fork_3_15_child_follows_the_parents_move)
{
	fork_during_move("3.15", false);
}

/*
 * 3.14's failed fork (bad_fork_cleanup_cgroup -> cgroup_exit, v3.14.1) puts the css_set
 * cgroup_fork took outside any RCU read-side section: the last put takes css_set_lock for
 * writing, a sleeping lock in a run of 3.14 with css_set_rwsem (a night's false rcu-nesting
 * report). The parent moves away twice, so the child's copy holds the last reference.
 */
Test(era, cgroup_cancel_fork_3_14_puts_the_last_reference_outside_rcu)
{
	struct task *parent, child = { 0 };
	long csets;

	boot_era("3.14");
	parent = fork_process();
	cr_assert_eq(cgroup_procs_write(&cgroups[0][1], parent->pid), 0);
	cgroup_fork(&child, parent);
	cr_assert_eq(cgroup_procs_write(&cgroups[0][2], parent->pid), 0);
	csets = __atomic_load_n(&cgt_live.csets, __ATOMIC_RELAXED);
	watch(CGT_PT_LOCK_WAIT, NULL);
	cgroup_cancel_fork(&child);
	unwatch();
	cr_assert_geq(seen, 1, "the last put takes css_set_lock");
	cr_assert_eq(rcu_held, 0, "%ld lock wait(s) inside rcu_read_lock", rcu_held);
	rcu_barrier();
	cr_assert_eq(__atomic_load_n(&cgt_live.csets, __ATOMIC_RELAXED), csets - 1,
		     "the child's copy was the last reference");
	do_exit(parent);
	model_shutdown();
}

/*
 * copy_process (kernel/fork.c) from 4.4 on: every fork, not only CLONE_THREAD, takes the one
 * global cgroup_threadgroup_rwsem for reading (1ed1328792ff); 3.15 forks a process without
 * its group_rwsem, which only CLONE_THREAD takes.
 */
/* Read acquisitions of the lock class @name so far (the lock counts reads only under a writer). */
static long class_reads(const char *name)
{
	struct cgt_lock_class cls[32];
	int n = cgt_lock_classes(cls, 32);

	for (int i = 0; i < n; i++)
		if (cls[i].name && !strcmp(cls[i].name, name))
			return cls[i].acquired[CGT_READ];
	return 0;
}

static void fork_reads(const char *era, long want)
{
	struct task *p;
	long reads;

	boot_era(era);
	reads = class_reads(cgroup_threadgroup_rwsem.name);
	p = fork_process();
	cr_assert_eq(class_reads(cgroup_threadgroup_rwsem.name) - reads, want, "era %s", era);
	do_exit(p);
	model_shutdown();
}

Test(era, copy_process_3_15_process_fork_takes_no_threadgroup_lock)
{
	fork_reads("3.15", 0);
}

Test(era, copy_process_4_4_every_fork_takes_cgroup_threadgroup_rwsem)
{
	fork_reads("4.4", 1);
}

/*
 * transfer_pid (kernel/pid.c): de_thread hands the old leader's place on its process group
 * and session lists to the exec-er with hlist_replace_rcu, in one step and in place: the
 * list keeps its order (an add and a delete would move the exec-er to the head).
 */
Test(fidelity, transfer_pid_replaces_in_place)
{
	struct task *th[2], *child = NULL;
	struct pid *pgrp;
	struct cds_hlist_node *first, *second;

	fork_group(th, 2);
	cr_assert_eq(copy_process(th[0], 0, &child), 0);	/* joins th[0]'s process group */
	pgrp = th[0]->pids[PIDTYPE_PGID].pid;
	first = pgrp->tasks[PIDTYPE_PGID].next;
	cr_assert_eq(first, &child->pids[PIDTYPE_PGID].node, "the newest member is first");
	do_exit(th[0]);
	cr_assert_eq(de_thread(th[1]), 0);
	first = pgrp->tasks[PIDTYPE_PGID].next;
	second = first->next;
	cr_assert_eq(first, &child->pids[PIDTYPE_PGID].node, "the child stays first");
	cr_assert_eq(second, &th[1]->pids[PIDTYPE_PGID].node, "the exec-er in the old place");
	cr_assert_null(second->next);
	cr_assert_eq(second->prev, first);
	do_exit(child);
	do_exit(th[1]);
	model_shutdown();
}

/*
 * __cgroup_procs_write (kernel/cgroup.c): a tid written to cgroup.procs moves its whole
 * process; written to the v1 "tasks" file (cgroup_tasks_write), that thread alone, under
 * the same threadgroup lock.
 */
Test(fidelity, cgroup_tasks_write_moves_one_thread)
{
	struct task *th[N];

	fork_group(th, N);
	cr_assert_eq(cgroup_tasks_write(&cgroups[1][3], th[2]->pid), 0);
	for (int i = 0; i < N; i++)
		cr_assert_eq(task_cgroup(th[i], 1), i == 2 ? &cgroups[1][3] : &cgroups[1][0],
			     "thread %d", i);
	cr_assert_eq(cgroup_procs_write(&cgroups[1][1], th[3]->pid), 0);
	for (int i = 0; i < N; i++)
		cr_assert_eq(task_cgroup(th[i], 1), &cgroups[1][1], "thread %d", i);
	assert_model_sound();
	exit_all(th, N);
	model_shutdown();
}

/* Between the two getdents calls, a thread listed already and the next one to list exit. */
static struct task *gone[2];

static void exit_between_calls(const void *obj)
{
	if (obj || !gone[0])
		return;
	do_exit(gone[0]);
	do_exit(gone[1]);
	gone[0] = NULL;
}

/*
 * proc_task_readdir, first_tid (fs/proc/base.c): each getdents call resumes from the tid the
 * last one could not return or, when that thread is gone, from the position. Two exits
 * between calls shift the positions, and a thread alive all along is never listed.
 */
Test(fidelity, proc_task_readdir_resume_misses_a_live_thread)
{
	struct task *th[6];
	long nr, missed;

	fork_group(th, 6);		/* L T1 T2 T3 | T4 T5: four names a call */
	cr_assert_eq(proc_task_readdir(th[0]->pid, &nr, &missed), 0);
	cr_assert_eq(nr, 6);
	cr_assert_eq(missed, 0);

	gone[0] = th[1];
	gone[1] = th[4];
	at_point = exit_between_calls;
	watch(CGT_PT_READDIR_STEP, NULL);
	cr_assert_eq(proc_task_readdir(th[0]->pid, &nr, &missed), 0);
	unwatch();
	cr_assert_eq(nr, 4, "L T1 T2 T3, then nothing: %ld", nr);
	cr_assert_eq(missed, 1, "T5 lived through the listing and was not listed");
	do_exit(th[5]);
	do_exit(th[3]);
	do_exit(th[2]);
	do_exit(th[0]);
	model_shutdown();
}

/*
 * The model with the default locks, a parent that reaps after @reap_delay operations (0: at
 * once) and numbers handed out again past @pid_max (0: never).
 */
static void boot_model(long reap_delay, int pid_max)
{
	struct cgt_model_config cfg = {
		.css_set_lock_ops = cgt_lock_find("rwsem"),
		.tasklist_lock_ops = cgt_lock_find("rwlock"),
		.iter = CGT_ITER_FOR_EACH,
		.walk_limit = FIXTURE_WALK_LIMIT,
		.reap_delay = reap_delay,
		.pid_max = pid_max,
	};

	cgt_rcu_register_thread();
	cr_assert_eq(cgt_model_init(&cfg), 0);
}

/*
 * exit_notify, do_notify_parent, wait_task_zombie (kernel/exit.c): with SIGCHLD not ignored,
 * a process whose last thread has exited stays a zombie, hashed and listed, until its
 * parent's wait() (here after reap_delay model operations) releases it.
 */
Test(era, exit_notify_zombie_until_the_parent_waits)
{
	struct task *th[2];
	long nr, missed;
	int pid;

	boot_model(3, 0);
	fork_group(th, 2);
	pid = th[0]->pid;
	do_exit(th[0]);
	do_exit(th[1]);		/* the last thread: the leader is not reaped with it */
	cr_assert_eq(th[0]->exit_state, EXIT_ZOMBIE);
	cr_assert_eq(proc_task_readdir(pid, &nr, &missed), 0);
	cr_assert_eq(nr, 1, "the zombie is listed alone");
	for (int i = 0; i < 2; i++)
		cgt_reap_zombies(false);
	cr_assert_eq(proc_task_readdir(pid, &nr, &missed), 0, "not yet: 2 of 3 operations");
	cgt_reap_zombies(false);
	cr_assert_eq(proc_task_readdir(pid, &nr, &missed), -ESRCH, "reaped after 3");
	model_shutdown();
}

/*
 * A swarm phase may have the parent ignore SIGCHLD from then on (reap delay 0): a zombie it
 * had yet to wait for is reaped at its next wait(), and a leader left a zombie by its
 * threads goes with the last of them (release_task's zap_leader).
 */
Test(era, a_parent_that_starts_ignoring_sigchld_reaps_what_waits)
{
	struct task *a[1], *b[2];
	long nr, missed;
	int pid_a, pid_b;

	boot_model(1000, 0);
	fork_group(a, 1);
	fork_group(b, 2);
	pid_a = a[0]->pid;
	pid_b = b[0]->pid;
	do_exit(a[0]);
	do_exit(b[0]);			/* a leader with a live thread: a zombie either way */
	cgt_reap_zombies(false);
	cr_assert_eq(proc_task_readdir(pid_a, &nr, &missed), 0, "a waits for its parent");
	cgt_set_reap_delay(0);
	cgt_reap_zombies(false);
	cr_assert_eq(proc_task_readdir(pid_a, &nr, &missed), -ESRCH, "reaped at the next wait");
	cr_assert_eq(b[0]->exit_state, EXIT_ZOMBIE);
	do_exit(b[1]);
	cr_assert_eq(proc_task_readdir(pid_b, &nr, &missed), -ESRCH,
		     "the last thread took its zombie leader with it");
	model_shutdown();
}

/*
 * alloc_pidmap, free_pid (kernel/pid.c, 3.14): numbers go up from last_pid, wrap at pid_max
 * to RESERVED_PIDS, skip those in use, and run out (fork fails with -ENOMEM, as 3.14's
 * copy_process does when alloc_pid fails) once every number is taken.
 */
Test(era, alloc_pidmap_wraps_at_pid_max_to_reserved_pids)
{
	struct pid *p[RESERVED_PIDS + 10];
	int n = 0;

	boot_model(0, RESERVED_PIDS + 4);	/* init has 1; 2..303 are left */
	while ((p[n] = alloc_pid()) != NULL) {
		cr_assert_eq(p[n]->nr, n + 2, "in order until pid_max: %d", p[n]->nr);
		n++;
	}
	cr_assert_eq(n, RESERVED_PIDS + 2, "every number below pid_max but init's");
	free_pid(p[10]);			/* 12: below RESERVED_PIDS, never handed out again */
	free_pid(p[RESERVED_PIDS]);		/* 302 */
	free_pid(p[RESERVED_PIDS - 1]);		/* 301 */
	p[10] = alloc_pid();
	cr_assert_eq(p[10]->nr, 301, "wrapped to RESERVED_PIDS, the first free: %d", p[10]->nr);
	p[RESERVED_PIDS - 1] = alloc_pid();
	cr_assert_eq(p[RESERVED_PIDS - 1]->nr, 302);
	cr_assert_null(alloc_pid(), "12 lies below RESERVED_PIDS");
	p[RESERVED_PIDS] = NULL;
	for (int i = 0; i < n; i++)
		if (p[i])
			free_pid(p[i]);
	rcu_barrier();
	model_shutdown();
}

/*
 * free_pid frees the number as it unhashes the pid, not after the grace period that frees
 * struct pid: a reader still inside rcu_read_lock holds the old struct pid with the same
 * number as the new one, and a lookup of the number finds the new task.
 */
Test(era, free_pid_number_reused_within_a_grace_period)
{
	struct task *a, *b;
	struct pid *old;
	int nr;

	boot_model(0, RESERVED_PIDS + 2);	/* two numbers past init's reach: 2 .. 301 */
	for (int i = 2; i < RESERVED_PIDS + 1; i++)
		cr_assert_not_null(alloc_pid());	/* leaked on purpose: no shutdown check */
	a = fork_process();
	nr = a->pid;
	cr_assert_eq(nr, RESERVED_PIDS + 1);
	rcu_read_lock();
	old = find_vpid(nr);
	do_exit(a);				/* reaped at once: reap_delay 0 */
	cgt_reap_zombies(true);
	b = fork_process();			/* the only number there is */
	cr_assert_eq(b->pid, nr, "the number is free at once: %d", b->pid);
	cr_assert_eq(old->nr, nr, "the old struct pid, still readable under RCU, has it too");
	cr_assert_neq(find_vpid(nr), old);
	cr_assert_eq(find_task_by_vpid(nr), b, "a stale number finds the new task");
	rcu_read_unlock();
	do_exit(b);
	cgt_reap_zombies(true);
}

static struct task *reuser;

/* Between the two getdents calls, 304 and 305 exit and a new process takes 304. */
static void exit_and_reuse(const void *obj)
{
	if (obj || !gone[0])
		return;
	exit_between_calls(obj);
	reuser = fork_process();
}

/*
 * first_tid (fs/proc/base.c): a getdents call resumes from the tid the last one stopped at
 * only if that tid still names a thread of the same group (pos->signal == task->signal); a
 * reused number naming another process is not followed.
 */
Test(era, first_tid_ignores_a_reused_tid_of_another_group)
{
	struct task *th[6], *other;
	long nr, missed;

	boot_model(0, RESERVED_PIDS + 7);
	for (int i = 2; i < RESERVED_PIDS; i++)
		cr_assert_not_null(alloc_pid());	/* the space is 300..306 from here */
	fork_group(th, 6);			/* 300..305: four names a getdents call */
	other = fork_process();			/* 306: the space is full */
	cr_assert_eq(th[4]->pid, RESERVED_PIDS + 4);
	gone[0] = th[4];			/* the tid the second call resumes from */
	gone[1] = th[5];
	at_point = exit_and_reuse;
	watch(CGT_PT_READDIR_STEP, NULL);
	cr_assert_eq(proc_task_readdir(th[0]->pid, &nr, &missed), 0);
	unwatch();
	cr_assert_not_null(reuser);
	cr_assert_eq(reuser->pid, RESERVED_PIDS + 4, "wrapped, and 304 was the first free");
	cr_assert_eq(nr, 4, "the group's four, nothing of the other process: %ld", nr);
	cr_assert_eq(missed, 0);
	(void)other;
}

/* Three processes in the root cgroup, with init all on init_css_set; the iterator walks them. */
static void iter_boot(const char *era, struct task **p)
{
	boot_era(era);
	for (int i = 0; i < 3; i++)
		p[i] = fork_process();
}

static struct task *iter_next_task(const struct css_task_iter *it)
{
	return container_of(it->task_pos, struct task, cg_list);
}

static void iter_exit(struct task **p)
{
	for (int i = 0; i < 3; i++)
		do_exit(p[i]);
	model_shutdown();
}

/*
 * css_task_iter_start/_next/_end (kernel/cgroup.c @ v3.15.5): down_read(&css_set_rwsem)
 * from start to end, so no migration's down_write can run between two steps.
 */
Test(era, css_task_iter_3_15_holds_css_set_rwsem_across_steps)
{
	struct css_task_iter it;
	struct task *p[3];
	int n = 0;

	iter_boot("3.15", p);
	watch(CGT_PT_ITER_STEP, NULL);
	css_task_iter_start(&cgroups[0][0], &it);
	while (css_task_iter_next(&it)) {
		n++;
		cr_assert_gt(held[CGT_READ][1], 0, "3.15: css_set_rwsem held between steps");
	}
	css_task_iter_end(&it);
	unwatch();
	cr_assert_eq(n, 4);
	cr_assert_eq(css_read_held, 4, "every step under css_set_rwsem");
	cr_assert_eq(held[CGT_READ][1], 0);
	iter_exit(p);
}

/*
 * css_task_iter_next (kernel/cgroup.c @ v4.4.1, spin_lock_bh; kernel/cgroup/cgroup.c @
 * v6.18.2, spin_lock_irqsave): the lock for the step alone, so a migration (cgroup_procs_write)
 * runs to its end between two steps, and the walk still meets every task exactly once.
 */
static void iter_locks_per_step(const char *era)
{
	struct css_task_iter it;
	struct task *p[3], *t;
	int n = 0;

	iter_boot(era, p);
	watch(CGT_PT_ITER_STEP, NULL);
	css_task_iter_start(&cgroups[0][0], &it);
	cr_assert_eq(held[CGT_READ][1] + held[CGT_WRITE][1], 0, "%s: unlocked after start", era);
	while ((t = css_task_iter_next(&it)) != NULL) {
		n++;
		cr_assert_eq(held[CGT_READ][1] + held[CGT_WRITE][1], 0,
			     "%s: css_set_lock dropped between steps", era);
		/* the one already returned moves: a write section between two steps */
		cr_assert_eq(cgroup_procs_write(&cgroups[0][2], t->pid), 0);
	}
	css_task_iter_end(&it);
	unwatch();
	cr_assert_eq(n, 4, "%s: the walk met %d of 4 tasks", era, n);
	cr_assert_eq(css_read_held + css_write_held, 0, "%s: no step point inside the lock", era);
	for (int i = 0; i < 3; i++)
		cr_assert_eq(task_cgroup(p[i], 0), &cgroups[0][2]);
	assert_model_sound();
	iter_exit(p);
}

Test(era, css_task_iter_next_4_4_locks_per_step)
{
	iter_locks_per_step("4.4");
}

Test(era, css_task_iter_next_6_x_locks_per_step)
{
	iter_locks_per_step("6.x");
}

/*
 * css_set_move_task (v4.4.1: css_task_iter_advance on every iterator whose task_pos is the
 * leaving task; v6.18.2: css_set_skip_task_iters, CSS_TASK_ITER_SKIPPED, completed by the
 * next css_task_iter_next): the task the iterator would return next migrates, or exits,
 * between two steps; the walk goes on with the one after it, and meets no task twice.
 */
static void iter_next_task_leaves(const char *era, bool exits)
{
	struct css_task_iter it;
	struct task *p[3], *first, *leaving, *last[2];

	iter_boot(era, p);
	css_task_iter_start(&cgroups[0][0], &it);
	first = css_task_iter_next(&it);
	cr_assert_not_null(first);
	leaving = iter_next_task(&it);
	cr_assert_neq(leaving, &init_task);
	if (exits)
		do_exit(leaving);
	else
		cr_assert_eq(cgroup_procs_write(&cgroups[0][2], leaving->pid), 0);
	cr_assert_neq(iter_next_task(&it), leaving, "%s: the iterator was moved on", era);
	cr_assert_eq(it.skipped, !strcmp(era, "6.x"), "%s: skipped, not advanced, in 6.x", era);
	/* the two after it, each once: init and the process forked first */
	for (int i = 0; i < 2; i++) {
		last[i] = css_task_iter_next(&it);
		cr_assert_not_null(last[i], "%s: the walk went on past the leaver", era);
		cr_assert(last[i] != first && last[i] != leaving && (!i || last[1] != last[0]),
			  "%s: a task met twice", era);
	}
	cr_assert_null(css_task_iter_next(&it), "%s: and ended", era);
	css_task_iter_end(&it);
	assert_model_sound();
	for (int i = 0; i < 3; i++)
		if (p[i] != leaving || !exits)
			do_exit(p[i]);
	model_shutdown();
}

Test(era, css_set_move_task_4_4_advances_the_iterator_past_a_migrating_task)
{
	iter_next_task_leaves("4.4", false);
}

Test(era, css_set_move_task_4_4_advances_the_iterator_past_an_exiting_task)
{
	iter_next_task_leaves("4.4", true);
}

Test(era, css_set_skip_task_iters_6_x_skips_the_iterator_past_a_migrating_task)
{
	iter_next_task_leaves("6.x", false);
}

Test(era, css_set_skip_task_iters_6_x_skips_the_iterator_past_an_exiting_task)
{
	iter_next_task_leaves("6.x", true);
}

/*
 * css_task_iter_next (v4.4.1): get_task_struct on the task it returns, put at the next call
 * or at css_task_iter_end; css_task_iter_advance_css_set pins cur_cset (get_css_set) and
 * puts it when the walk leaves it or ends.
 */
Test(era, css_task_iter_next_4_4_references_its_task_and_css_set)
{
	struct css_task_iter it;
	struct task *p[3], *t, *prev = NULL;
	int prev_usage = 0, cset_ref;

	iter_boot("4.4", p);
	cset_ref = init_css_set.refcount;
	css_task_iter_start(&cgroups[0][0], &it);
	cr_assert_eq(it.cur_cset, &init_css_set);
	cr_assert_eq(init_css_set.refcount, cset_ref + 1, "cur_cset pinned");
	while ((t = css_task_iter_next(&it)) != NULL) {
		if (prev)
			cr_assert_eq(prev->usage, prev_usage, "the one before is put");
		prev = t;
		prev_usage = t->usage - 1;
		/* the test thread holds none of its own: only the iterator's is over the task's */
		cr_assert_gt(prev_usage, 0);
	}
	cr_assert_eq(prev->usage, prev_usage, "the last one put when the walk ends");
	cr_assert_eq(init_css_set.refcount, cset_ref + 1, "pinned to the end");
	css_task_iter_end(&it);
	cr_assert_eq(init_css_set.refcount, cset_ref, "put by css_task_iter_end");
	iter_exit(p);
}

/*
 * css-iter-stale-pos: css_set_move_task leaves the iterator on the task that migrates away;
 * the next step finds it on another css_set's list and reports it (the walk would go on
 * there). Its exiting-task case, a use-after-free, is left to the runs: ASan would end
 * this test at the read.
 */
Test(era, css_iter_stale_pos_caught_at_the_next_step)
{
	struct css_task_iter it;
	struct task *p[3], *leaving;

	iter_boot("4.4", p);
	cgt_bugs_enabled = 1UL << CGT_BUG_CSS_ITER_STALE_POS;
	css_task_iter_start(&cgroups[0][0], &it);
	cr_assert_not_null(css_task_iter_next(&it));
	leaving = iter_next_task(&it);
	cr_assert_eq(cgroup_procs_write(&cgroups[0][2], leaving->pid), 0);
	cr_assert_eq(iter_next_task(&it), leaving, "the iterator was left on it");
	cr_assert_null(css_task_iter_next(&it), "the walk ends at the report");
	css_task_iter_end(&it);
	cr_assert_eq(cgt_failure_count(CGT_DET_INVARIANT), 1);
	cr_assert(strstr(invariant_summary(), "moved to another css_set"), "%s",
		  invariant_summary());
	cgt_bugs_enabled = 0;
	iter_exit(p);
}
