// SPDX-License-Identifier: GPL-2.0
/*
 * exec and exit of thread groups: de_thread (fs/exec.c), exit_notify/release_task
 * (kernel/exit.c). The model's hooks are NULL, so no pthread runs the model threads; where
 * de_thread must wait for killed threads, the test gives each of them a helper pthread that
 * acts as that thread: it waits for its SIGKILL and then exits (do_exit).
 */
#include <errno.h>
#include <pthread.h>

#include "model_fixture.h"

#define SIGKILL_WAIT_SEC	20.0

/* One killed thread's stand-in: the thread's get_signal() -> do_group_exit() path. */
struct victim {
	pthread_t thread;
	struct task *task;
	int tid;		/* the task's pid when the helper started */
	int exited;		/* do_exit(task) returned */
	int timed_out;		/* no SIGKILL came */
};

/* Helper thread body: RCU reader, spin until SIGKILL is pending for the task, then do_exit. */
static void *victim_main(void *arg)
{
	struct victim *v = arg;
	double deadline = now_sec() + SIGKILL_WAIT_SEC;

	cgt_rcu_register_thread();
	while (!fatal_signal_pending(v->task)) {
		if (now_sec() > deadline) {
			__atomic_store_n(&v->timed_out, 1, __ATOMIC_RELEASE);
			goto out;
		}
		nap();
	}
	do_exit(v->task);
	__atomic_store_n(&v->exited, 1, __ATOMIC_RELEASE);
out:
	cgt_rcu_unregister_thread();
	return NULL;
}

static void victim_start(struct victim *v, struct task *t)
{
	v->task = t;
	v->tid = t->pid;
	v->exited = 0;
	v->timed_out = 0;
	cr_assert_eq(pthread_create(&v->thread, NULL, victim_main, v), 0);
}

static void victim_join(struct victim *v)
{
	cr_assert_eq(pthread_join(v->thread, NULL), 0);
	cr_assert_not(v->timed_out, "tid %d never got SIGKILL", v->tid);
	cr_assert(v->exited);
}

/* Is @t among the threads on @sig->thread_head (for_each_thread)? */
static bool on_thread_list(struct signal_struct *sig, struct task *t)
{
	struct task *pos;
	bool found = false;

	rcu_read_lock();
	cds_list_for_each_entry_rcu(pos, &sig->thread_head, thread_node)
		found |= pos == t;
	rcu_read_unlock();
	return found;
}

static struct task *lookup_tid(int nr)
{
	struct task *t;

	rcu_read_lock();
	t = find_task_by_vpid(nr);
	rcu_read_unlock();
	return t;
}

TestSuite(exec, .init = model_boot_while_each, .fini = model_fini, .timeout = 60);

/*
 * de_thread from a non-leader E (fs/exec.c, 3.14): zap_other_threads kills the leader L and
 * the other threads; de_thread waits until the non-leaders are released and L is a zombie;
 * then E takes L's pid (change_pid/transfer_pid), becomes group_leader, and L is released.
 */
Test(exec, non_leader_exec_takes_leader_pid)
{
	enum { N = 4 };
	struct task *th[N], *leader, *e;
	struct victim victims[N - 1];
	int leader_pid, e_old_pid, tgid_before;
	struct signal_struct *sig;

	fork_group(th, N);
	leader = th[0];
	e = th[2];
	sig = e->signal;
	leader_pid = leader->pid;
	e_old_pid = e->pid;
	tgid_before = task_tgid_nr(e);
	cr_assert_eq(tgid_before, leader_pid);
	cr_assert_neq(e_old_pid, leader_pid);
	get_task_struct(leader);	/* inspect the old leader after its release */

	/* the leader and every thread but E wait for their SIGKILL, then exit */
	for (int i = 0, v = 0; i < N; i++)
		if (th[i] != e)
			victim_start(&victims[v++], th[i]);

	cr_assert_eq(de_thread(e), 0);
	/* de_thread returns only once the others are unhashed and E took over */
	cr_assert_eq(sig->nr_threads, 1, "de_thread returned with %d threads", sig->nr_threads);
	cr_assert_eq(e->pid, leader_pid);
	for (int v = 0; v < N - 1; v++)
		victim_join(&victims[v]);

	/* E has the leader's identity */
	cr_assert_eq(e->pid, leader_pid, "exec-er's pid %d, want the old leader's %d",
		     e->pid, leader_pid);
	cr_assert(thread_group_leader(e));
	cr_assert_eq(task_tgid_nr(e), tgid_before);
	cr_assert_eq(lookup_tid(leader_pid), e, "find_task_by_vpid(old leader pid) != exec-er");
	cr_assert_null(lookup_tid(e_old_pid), "the exec-er's old pid must be gone");
	cr_assert(pid_alive(e));
	cr_assert_eq(e->exit_state, TASK_ALIVE);

	/* E is alone */
	cr_assert_eq(sig->nr_threads, 1);
	cr_assert(thread_group_empty(e));
	cr_assert_null(sig->group_exit_task);
	cr_assert_eq(sig->notify_count, 0);

	/* the old leader was released */
	cr_assert_not(pid_alive(leader));
	cr_assert_eq(leader->exit_state, EXIT_DEAD);
	cr_assert_not(on_thread_list(sig, leader));
	assert_model_sound();

	put_task_struct(leader);
	do_exit(e);
	model_shutdown();
}

/* de_thread from the leader: the others are killed and released, the pid stays the same. */
Test(exec, leader_exec_keeps_pid)
{
	enum { N = 4 };
	struct task *th[N];
	struct victim victims[N - 1];
	int pid;

	fork_group(th, N);
	pid = th[0]->pid;
	for (int i = 1; i < N; i++)
		victim_start(&victims[i - 1], th[i]);
	cr_assert_eq(de_thread(th[0]), 0);
	cr_assert_eq(th[0]->signal->nr_threads, 1, "de_thread returned with %d threads",
		     th[0]->signal->nr_threads);
	for (int i = 0; i < N - 1; i++)
		victim_join(&victims[i]);

	cr_assert_eq(th[0]->pid, pid);
	cr_assert(thread_group_leader(th[0]));
	cr_assert_eq(lookup_tid(pid), th[0]);
	cr_assert_eq(th[0]->signal->nr_threads, 1);
	cr_assert(thread_group_empty(th[0]));
	assert_model_sound();

	do_exit(th[0]);
	model_shutdown();
}

/* de_thread of a single-threaded process has nothing to do and kills nobody. */
Test(exec, single_thread_exec_is_a_noop)
{
	struct task *p = fork_process();
	int pid = p->pid;

	cr_assert_eq(de_thread(p), 0);
	cr_assert_eq(p->pid, pid);
	cr_assert_not(fatal_signal_pending(p));
	cr_assert_null(p->signal->group_exit_task);
	do_exit(p);
	model_shutdown();
}

/*
 * Two execs in one group (de_thread's signal_group_exit check): while E1 waits in de_thread,
 * E2 (killed by E1's zap) calls de_thread too; it gets -EAGAIN and must exit, and E1's exec
 * completes.
 */
struct exec_arg {
	struct task *task;
	int ret;
};

static void *exec_main(void *arg)
{
	struct exec_arg *a = arg;

	cgt_rcu_register_thread();
	a->ret = de_thread(a->task);
	cgt_rcu_unregister_thread();
	return NULL;
}

Test(exec, second_exec_gets_eagain)
{
	enum { N = 4 };
	struct task *th[N], *e1, *e2;
	struct victim victims[2];
	struct exec_arg a;
	pthread_t exec_thread;
	double deadline;
	int leader_pid;

	fork_group(th, N);
	leader_pid = th[0]->pid;
	e1 = th[1];
	e2 = th[3];
	victim_start(&victims[0], th[0]);
	victim_start(&victims[1], th[2]);
	a.task = e1;
	a.ret = 1;
	cr_assert_eq(pthread_create(&exec_thread, NULL, exec_main, &a), 0);

	/* E1's zap reaches E2; E1 cannot finish before E2 is gone, which only we can do */
	deadline = now_sec() + SIGKILL_WAIT_SEC;
	while (!fatal_signal_pending(e2)) {
		cr_assert_lt(now_sec(), deadline, "E1's de_thread never killed E2");
		nap();
	}
	cr_assert_eq(de_thread(e2), -EAGAIN);
	do_exit(e2);

	cr_assert_eq(pthread_join(exec_thread, NULL), 0);
	cr_assert_eq(a.ret, 0);
	cr_assert_eq(e1->signal->nr_threads, 1);
	victim_join(&victims[0]);
	victim_join(&victims[1]);
	cr_assert_eq(e1->pid, leader_pid);
	cr_assert(thread_group_leader(e1));
	cr_assert_eq(e1->signal->nr_threads, 1);
	assert_model_sound();

	do_exit(e1);
	model_shutdown();
}

/*
 * exit_notify: a leader that exits before its threads stays a zombie (delay_group_leader):
 * still pid_alive, still on the thread list, found by its pid; release_task by the last
 * thread reaps it (exit_state EXIT_DEAD, unhashed).
 */
Test(exec, zombie_leader_released_with_last_thread)
{
	enum { N = 3 };
	struct task *th[N], *leader;
	struct signal_struct *sig;
	struct cgt_walk w;
	int pid;

	fork_group(th, N);
	leader = th[0];
	sig = leader->signal;
	pid = leader->pid;
	get_task_struct(leader);

	do_exit(leader);
	cr_assert_eq(leader->exit_state, EXIT_ZOMBIE);
	cr_assert(pid_alive(leader));
	cr_assert(on_thread_list(sig, leader));
	cr_assert_eq(lookup_tid(pid), leader);
	cr_assert_eq(sig->nr_threads, N);
	cr_assert(leader->flags & PF_EXITING);
	assert_model_sound();
	/* a walk still finds the zombie, but not as a live thread */
	cr_assert_eq(fill_stats_for_tgid(pid, CGT_ITER_FOR_EACH, &w), 0);
	cr_assert_eq(w.steps, N);
	cr_assert_eq(w.live, N - 1);

	do_exit(th[1]);
	cr_assert_eq(leader->exit_state, EXIT_ZOMBIE, "a thread is left: still a zombie");
	cr_assert(pid_alive(leader));
	cr_assert(on_thread_list(sig, leader));
	cr_assert_eq(sig->nr_threads, N - 1);

	do_exit(th[2]);		/* the last thread: release_task zaps the leader */
	cr_assert_eq(leader->exit_state, EXIT_DEAD);
	cr_assert_not(pid_alive(leader));
	cr_assert_not(on_thread_list(sig, leader));
	cr_assert_null(lookup_tid(pid));
	cr_assert_eq(sig->nr_threads, 0);

	put_task_struct(leader);
	model_shutdown();
}

/* A leader with no threads left is reaped at once (autoreap): never a zombie. */
Test(exec, lone_leader_reaped_at_once)
{
	struct task *p = fork_process();
	int pid = p->pid;

	get_task_struct(p);
	do_exit(p);
	cr_assert_eq(p->exit_state, EXIT_DEAD);
	cr_assert_not(pid_alive(p));
	cr_assert_null(lookup_tid(pid));
	put_task_struct(p);
	model_shutdown();
}
