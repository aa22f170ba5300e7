// SPDX-License-Identifier: GPL-2.0
/*
 * The model on the scenarios of kcheck.c: the same keys, one line each on stdout,
 * "key<TAB>value<TAB>what the model did". The test thread acts for every model thread, as
 * the unit tests do; where de_thread must wait for killed threads, and where threads churn,
 * pthreads of our own act for them.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <time.h>

#include "../../src/model/model.h"
#include "row.h"

static const char *yes(int cond)
{
	return cond ? "yes" : "no";
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static struct task *fork_task(struct task *parent, unsigned long flags)
{
	struct task *t = NULL;

	return copy_process(parent, flags, &t) ? NULL : t;
}

/* A killed thread's stand-in: waits for its SIGKILL, then exits (do_exit). */
static void *victim(void *arg)
{
	struct task *t = arg;

	cgt_rcu_register_thread();
	while (!fatal_signal_pending(t))
		sched_yield();
	do_exit(t);
	cgt_rcu_unregister_thread();
	return NULL;
}

static int count_threads(int tgid)
{
	long n = 0, missed;

	return proc_task_readdir(tgid, &n, &missed) ? -1 : (int)n;
}

/* de_thread: a non-leader of three execs. The model has no parent links. */
static void check_exec(void)
{
	struct task *l = fork_task(&init_task, 0), *t1 = fork_task(l, CLONE_THREAD);
	struct task *t2 = fork_task(l, CLONE_THREAD);
	int pid = l->pid, tid = t2->pid;
	pthread_t v[2];

	pthread_create(&v[0], NULL, victim, l);
	pthread_create(&v[1], NULL, victim, t1);
	if (de_thread(t2))
		row("exec-keeps-pid", "no", "de_thread failed");
	pthread_join(v[0], NULL);
	pthread_join(v[1], NULL);
	rcu_read_lock();
	row("exec-keeps-pid", yes(task_tgid_nr(t2) == pid && find_task_by_vpid(pid) == t2),
	    "tgid %d, before the exec %d", task_tgid_nr(t2), pid);
	rcu_read_unlock();
	row("exec-takes-leader-pid", yes(t2->pid == pid && thread_group_leader(t2)),
	    "the exec-ing thread was tid %d, now tid %d", tid, t2->pid);
	row("exec-others-gone", yes(count_threads(pid) == 1 && t2->signal->nr_threads == 1),
	    "%d thread(s) listed, nr_threads %d", count_threads(pid), t2->signal->nr_threads);
	row("exec-parent", "-", "no parent links in the model (pgrp and session move with "
	    "transfer_pid)");
	do_exit(t2);
}

/* exit_notify: the leader exits while two threads run. */
static void check_zombie(void)
{
	struct task *l = fork_task(&init_task, 0), *t1 = fork_task(l, CLONE_THREAD);
	struct task *t2 = fork_task(l, CLONE_THREAD);
	int pid = l->pid, n;
	struct task *found;

	do_exit(l);
	n = count_threads(pid);
	row("zombie-leader", yes(l->exit_state == EXIT_ZOMBIE), "leader exit_state %s after "
	    "do_exit, others running", l->exit_state == EXIT_ZOMBIE ? "EXIT_ZOMBIE" : "other");
	row("zombie-listed", yes(n == 3), "proc_task_readdir lists %d", n);
	do_exit(t1);
	n = count_threads(pid);
	row("zombie-listed-after-exit", yes(n == 2 && l->exit_state == EXIT_ZOMBIE),
	    "after one thread exits: %d listed, leader still a zombie", n);
	do_exit(t2);
	rcu_read_lock();
	found = find_task_by_vpid(pid);
	rcu_read_unlock();
	row("exit-zombie-until-wait", yes(found == l && l->exit_state == EXIT_ZOMBIE &&
					  count_threads(pid) == 1),
	    "after the last thread: the leader a zombie, hashed, listed alone (reap delay %ld "
	    "operations)", cgt_model_cfg()->reap_delay);
	for (long i = 0; i < cgt_model_cfg()->reap_delay; i++)
		cgt_reap_zombies(false);
	rcu_read_lock();
	found = find_task_by_vpid(pid);
	rcu_read_unlock();
	row("zombie-reaped", yes(!found), "the parent's wait() released it (release_task)");
}

/* proc_task_readdir under churn: two pthreads fork and exit threads of the group. */
#define LONG_LIVED	8
static struct task *churn_leader;
static int churn_stop;

static void *churner(void *arg)
{
	(void)arg;
	cgt_rcu_register_thread();
	while (!__atomic_load_n(&churn_stop, __ATOMIC_RELAXED)) {
		struct task *t = fork_task(churn_leader, CLONE_THREAD);

		if (t)
			do_exit(t);
	}
	cgt_rcu_unregister_thread();
	return NULL;
}

static void check_readdir(double secs)
{
	struct task *l = fork_task(&init_task, 0), *lt[LONG_LIVED];
	long listings = 0, ended = 0, misses = 0, n, missed;
	pthread_t ct[2];
	double end;

	churn_leader = l;
	for (int i = 0; i < LONG_LIVED; i++)
		lt[i] = fork_task(l, CLONE_THREAD);
	for (int i = 0; i < 2; i++)
		pthread_create(&ct[i], NULL, churner, NULL);
	for (end = now() + secs; now() < end; listings++) {
		if (proc_task_readdir(l->pid, &n, &missed) == 0)
			ended++;
		misses += missed;
	}
	__atomic_store_n(&churn_stop, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < 2; i++)
		pthread_join(ct[i], NULL);
	row("readdir-ends", yes(listings && ended == listings), "%ld of %ld listings ended "
	    "(getdents calls of %d names, 2 threads churning)", ended, listings,
	    CGT_GETDENTS_ENTRIES);
	row("readdir-missed", "count", "%ld misses of a thread alive through the whole "
	    "listing (resumed by tid and position, as first_tid)", misses);
	for (int i = LONG_LIVED - 1; i >= 0; i--)
		do_exit(lt[i]);
	do_exit(l);
}

/* Threads of @leader's group not in @cg (hierarchy 0), but @except in @except_cg. */
static int not_in(struct task *leader, struct cgroup *cg, struct task *except,
		  struct cgroup *except_cg)
{
	struct task *t;
	int bad = 0;

	cgt_read_lock(&css_set_lock);
	rcu_read_lock();
	cds_list_for_each_entry_rcu(t, &leader->signal->thread_head, thread_node) {
		if (cds_list_empty(&t->cg_list))
			continue;	/* cgroup_post_fork has not linked it yet */
		if (task_cgroup(t, 0) != (t == except ? except_cg : cg))
			bad++;
	}
	rcu_read_unlock();
	cgt_read_unlock(&css_set_lock);
	return bad;
}

static struct task *spawn_leader;

static void *spawner(void *arg)
{
	struct task **made = arg;

	cgt_rcu_register_thread();
	for (int i = 0; i < 200 && !__atomic_load_n(&churn_stop, __ATOMIC_RELAXED); i++)
		made[i] = fork_task(spawn_leader, CLONE_THREAD);
	cgt_rcu_unregister_thread();
	return NULL;
}

static void check_cgroups(void)
{
	struct cgroup *a = &cgroups[0][1], *b = &cgroups[0][2], *t1 = &cgroups[0][3];
	struct task *l = fork_task(&init_task, 0), *th[4], *made[200] = { 0 };
	int bad, left = 0, writes = 0;
	pthread_t sp;

	for (int i = 0; i < 4; i++)
		th[i] = fork_task(l, CLONE_THREAD);
	cgroup_procs_write(a, l->pid);
	bad = not_in(l, a, NULL, NULL);
	row("procs-moves-all", yes(!bad), "cgroup_procs_write(pid %d): %d of 5 threads "
	    "elsewhere", l->pid, bad);
	cgroup_procs_write(b, th[0]->pid);
	bad = not_in(l, b, NULL, NULL);
	row("procs-tid-moves-all", yes(!bad), "cgroup_procs_write(tid %d, not the leader): %d "
	    "of 5 threads elsewhere", th[0]->pid, bad);

	spawn_leader = l;
	__atomic_store_n(&churn_stop, 0, __ATOMIC_RELAXED);
	pthread_create(&sp, NULL, spawner, made);
	for (double end = now() + 0.5; now() < end; writes++) {
		cgroup_procs_write(writes % 2 ? b : a, l->pid);
		bad = not_in(l, writes % 2 ? b : a, NULL, NULL);
		left += bad;
	}
	__atomic_store_n(&churn_stop, 1, __ATOMIC_RELAXED);
	pthread_join(sp, NULL);
	row("procs-fork-during-move", yes(!left && writes), "%d moves while a thread forks "
	    "threads of the group: %d left behind", writes, left);

	cgroup_procs_write(b, l->pid);
	cgroup_tasks_write(t1, th[0]->pid);
	bad = not_in(l, b, th[0], t1);
	row("single-thread-move", yes(!bad), "cgroup_tasks_write(tid %d): %d thread(s) not "
	    "where expected", th[0]->pid, bad);
	row("zombie-cgroup", "-", "not modelled: every era's cgroup_exit points the task at "
	    "init_css_set (3.15's rule); 4.4's keeps the css_set until cgroup_free");
	for (int i = 199; i >= 0; i--)
		if (made[i])
			do_exit(made[i]);
	for (int i = 3; i >= 0; i--)
		do_exit(th[i]);
	do_exit(l);
}

/*
 * kcheck's threads-read-while-moving in era 6.x (this machine's kernel): css_task_iter over
 * a cgroup, a pthread moving 4 processes of 5 threads in and out of it between the steps;
 * each listing must name each thread of a process that stays exactly once.
 */
#define STAYERS	64
static struct task *movers[4];

static void *mover(void *arg)
{
	(void)arg;
	cgt_rcu_register_thread();
	for (long k = 0; !__atomic_load_n(&churn_stop, __ATOMIC_RELAXED); k++)
		for (int i = 0; i < 4; i++)
			cgroup_procs_write(&cgroups[0][k % 2 ? 2 : 1], movers[i]->pid);
	cgt_rcu_unregister_thread();
	return NULL;
}

static void check_threads_read(double secs)
{
	struct cgt_model_config cfg = {
		.era = cgt_era_find("6.x"),
		.css_set_lock_ops = cgt_lock_find("spinlock"),
		.tasklist_lock_ops = cgt_lock_find("rwlock"),
		.iter = CGT_ITER_FOR_EACH,
		.walk_limit = 1000000,
	};
	struct task *l, *th[STAYERS], *t, *mt[4][4];
	long listings = 0, bad = 0;
	int times[STAYERS + 1];
	struct css_task_iter it;
	pthread_t mp;

	if (cgt_model_init(&cfg)) {
		row("threads-read-while-moving", "no", "cgt_model_init failed");
		return;
	}
	l = fork_task(&init_task, 0);
	for (int i = 0; i < STAYERS; i++)
		th[i] = fork_task(l, CLONE_THREAD);
	cgroup_procs_write(&cgroups[0][1], l->pid);
	for (int i = 0; i < 4; i++) {
		movers[i] = fork_task(&init_task, 0);
		for (int j = 0; j < 4; j++)
			mt[i][j] = fork_task(movers[i], CLONE_THREAD);
	}
	__atomic_store_n(&churn_stop, 0, __ATOMIC_RELAXED);
	pthread_create(&mp, NULL, mover, NULL);
	for (double end = now() + secs; now() < end; listings++) {
		int hits = 0;

		memset(times, 0, sizeof(times));
		css_task_iter_start(&cgroups[0][1], &it);
		while ((t = css_task_iter_next(&it)) != NULL) {
			for (int i = 0; i < STAYERS; i++)
				times[i] += t == th[i];
			times[STAYERS] += t == l;
		}
		css_task_iter_end(&it);
		for (int i = 0; i <= STAYERS; i++)
			hits += times[i] == 1;
		bad += hits != STAYERS + 1;
	}
	__atomic_store_n(&churn_stop, 1, __ATOMIC_RELAXED);
	pthread_join(mp, NULL);
	row("threads-read-while-moving", yes(listings && !bad), "%ld of %ld css_task_iter "
	    "walks (6.x: css_set_lock per step) missed or repeated one of %d threads that stayed, "
	    "while 4 processes of 5 threads moved in and out", bad, listings, STAYERS + 1);
	for (int i = 3; i >= 0; i--) {
		for (int j = 3; j >= 0; j--)
			do_exit(mt[i][j]);
		do_exit(movers[i]);
	}
	for (int i = STAYERS - 1; i >= 0; i--)
		do_exit(th[i]);
	do_exit(l);
	cgt_reap_zombies(true);
}

/* A fork after ns_last_pid = pid_max - 1, and one after the first is reaped (kcheck's). */
static void check_pids(void)
{
	struct cgt_model_config cfg = {
		.css_set_lock_ops = cgt_lock_find("rwsem"),
		.tasklist_lock_ops = cgt_lock_find("rwlock"),
		.iter = CGT_ITER_FOR_EACH,
		.walk_limit = 1000,
		.pid_max = PID_MAX_LIMIT,
	};
	struct task *a, *b;
	int nr;

	if (cgt_model_init(&cfg)) {
		row("pid-wrap", "no", "cgt_model_init failed");
		return;
	}
	cgt_ns_last_pid_write(PID_MAX_LIMIT - 1);
	a = fork_task(&init_task, 0);
	nr = a ? a->pid : -1;
	row("pid-wrap", yes(nr == RESERVED_PIDS), "ns_last_pid %d, copy_process got pid %d",
	    PID_MAX_LIMIT - 1, nr);
	if (a)
		do_exit(a);
	cgt_reap_zombies(true);		/* the parent's wait() */
	cgt_ns_last_pid_write(nr - 1);
	b = fork_task(&init_task, 0);
	row("pid-reused-at-once", yes(b && b->pid == nr), "pid %d reaped, ns_last_pid %d, "
	    "copy_process got %d", nr, nr - 1, b ? b->pid : -1);
	if (b)
		do_exit(b);
	cgt_reap_zombies(true);
}

int main(int argc, char **argv)
{
	struct cgt_model_config cfg = {
		.css_set_lock_ops = cgt_lock_find("rwsem"),
		.tasklist_lock_ops = cgt_lock_find("rwlock"),
		.iter = CGT_ITER_FOR_EACH,
		.walk_limit = 1000000,
		.reap_delay = 8,
	};
	char why[256] = "";

	cgt_rcu_register_thread();
	if (cgt_model_init(&cfg))
		return 1;
	check_exec();
	check_zombie();
	check_readdir(argc > 1 ? atof(argv[1]) : 1.0);
	check_cgroups();
	if (cgt_model_exit(why, sizeof(why))) {
		fprintf(stderr, "model_check: the model leaked: %s\n", why);
		return 1;
	}
	check_threads_read(0.5);
	if (cgt_model_exit(why, sizeof(why))) {
		fprintf(stderr, "model_check: the model leaked: %s\n", why);
		return 1;
	}
	check_pids();
	if (cgt_model_exit(why, sizeof(why))) {
		fprintf(stderr, "model_check: the model leaked: %s\n", why);
		return 1;
	}
	cgt_rcu_unregister_thread();
	return 0;
}
