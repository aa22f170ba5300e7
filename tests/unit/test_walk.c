// SPDX-License-Identifier: GPL-2.0
/*
 * The thread-group walks (src/model/walk.c) against include/linux/sched.h, 3.14:
 * while_each_thread(g, t) over the headless thread_group ring, and for_each_thread(p, t)
 * over signal->thread_head. See docs/detectors.md, "walk-from-exiting".
 */
#include <errno.h>
#include <string.h>

#include "model_fixture.h"

#define NTHREADS	4

/* Walk @start's group to its end under rcu_read_lock; returns the visits. */
static long walk_all(struct task *start, enum cgt_iter iter, struct cgt_walk *w)
{
	struct task *t;

	rcu_read_lock();
	cgt_walk_for_each(w, start, iter, "test", t) {
		cr_assert_eq(t->signal, start->signal, "walk left the group");
	}
	rcu_read_unlock();
	return w->steps;
}

TestSuite(walk, .init = model_boot_while_each, .fini = model_fini, .timeout = 30);

/*
 * while_each_thread: "t = g; do { } while_each_thread(g, t)" visits g before it tests
 * anything, so a single-thread group gets exactly one visit (init_task and a new process).
 */
Test(walk, while_each_single_thread_visits_exactly_once)
{
	struct cgt_walk w;
	struct task *p = fork_process();

	cr_assert(thread_group_empty(p));
	cr_assert_eq(walk_all(p, CGT_ITER_WHILE_EACH, &w), 1);
	cr_assert_not(w.overran);
	cr_assert_eq(w.live, 1);
	cr_assert_eq(walk_all(&init_task, CGT_ITER_WHILE_EACH, &w), 1);
	cr_assert_not(w.overran);

	/* for_each_thread finds the one thread too, from the head in signal */
	cr_assert_eq(walk_all(p, CGT_ITER_FOR_EACH, &w), 1);
	cr_assert_not(w.overran);

	do_exit(p);
	model_shutdown();
}

/*
 * while_each_thread from a non-leader g of a quiet group goes once round the ring: every
 * thread exactly once, g first, and it ends by meeting g again. for_each_thread visits the
 * same threads in thread_head order whatever task it is given.
 */
Test(walk, both_walks_visit_every_thread_once)
{
	struct task *th[NTHREADS], *t;
	struct cgt_walk w;
	int seen[NTHREADS];

	fork_group(th, NTHREADS);
	for (enum cgt_iter iter = CGT_ITER_WHILE_EACH; iter <= CGT_ITER_FOR_EACH; iter++) {
		memset(seen, 0, sizeof(seen));
		rcu_read_lock();
		cgt_walk_for_each(&w, th[2], iter, "test", t) {
			if (iter == CGT_ITER_WHILE_EACH && w.steps == 1)
				cr_assert_eq(t, th[2], "while_each must visit g first");
			for (int i = 0; i < NTHREADS; i++)
				seen[i] += t == th[i];
		}
		rcu_read_unlock();
		cr_assert_eq(w.steps, NTHREADS, "%s: %ld steps", cgt_iter_name(iter), w.steps);
		cr_assert_eq(w.live, NTHREADS);
		cr_assert_not(w.overran);
		for (int i = 0; i < NTHREADS; i++)
			cr_assert_eq(seen[i], 1, "%s visited thread %d %d times",
				     cgt_iter_name(iter), i, seen[i]);
	}
	for (int i = NTHREADS - 1; i >= 0; i--)
		do_exit(th[i]);
	model_shutdown();
}

/*
 * A group that keeps making threads while it is walked lengthens a for_each_thread walk
 * without bound (each new thread is added at the tail), yet it ends as soon as the forks
 * stop: progress, not a livelock. Only the threads the walk began with count against the
 * walk limit; here twice the limit of new ones go by, and the walk ends whole.
 */
Test(walk, a_group_that_keeps_forking_is_no_livelock)
{
	struct task *th[NTHREADS], *t, *born[2 * FIXTURE_WALK_LIMIT];
	struct cgt_walk w;
	int nborn = 0;

	fork_group(th, NTHREADS);
	rcu_read_lock();
	cgt_walk_for_each(&w, th[0], CGT_ITER_FOR_EACH, "test", t) {
		/* two threads are born at every step, up to twice the limit */
		if (nborn + 2 <= 2 * FIXTURE_WALK_LIMIT) {
			born[nborn++] = fork_thread(th[0]);
			born[nborn++] = fork_thread(th[0]);
		}
	}
	rcu_read_unlock();
	cr_assert_not(w.overran, "a growing group's walk was cut: %s", w.why ? w.why : "");
	cr_assert_eq(w.steps, NTHREADS + nborn);
	cr_assert_eq(w.old_steps, NTHREADS);
	while (nborn)
		do_exit(born[--nborn]);
	for (int i = NTHREADS - 1; i >= 0; i--)
		do_exit(th[i]);
	model_shutdown();
}

/*
 * docs/detectors.md #1, walk-from-exiting (3.13's find_lock_task_mm with while_each_thread):
 * the walk starts at a non-leader G, steps once, and then G is unhashed (__unhash_process:
 * list_del_rcu on thread_group). The ring no longer holds G, so the walk never meets G again:
 * it goes round and meets a thread a second time, where the model cuts it (before walk_limit)
 * and flags it as overran.
 */
Test(walk, while_each_from_exiting_thread_overruns)
{
	struct task *th[NTHREADS], *g, *t;
	struct cgt_walk w;
	long g_visits_after_exit = 0;

	fork_group(th, NTHREADS);
	g = th[2];
	cr_assert_not(thread_group_leader(g));

	rcu_read_lock();
	t = cgt_walk_first(&w, g, CGT_ITER_WHILE_EACH, "test");
	cr_assert_eq(t, g);
	t = cgt_walk_next(&w);
	cr_assert_not_null(t);
	cr_assert_neq(t, g);

	do_exit(g);		/* G exits and is released; RCU keeps its memory */
	cr_assert_not(pid_alive(g));
	cr_assert_eq(th[0]->signal->nr_threads, NTHREADS - 1);

	while ((t = cgt_walk_next(&w)) != NULL) {
		if (t == g)
			g_visits_after_exit++;
		cr_assert_leq(w.steps, FIXTURE_WALK_LIMIT, "walk went past walk_limit");
	}
	rcu_read_unlock();

	cr_assert(w.overran, "while_each walk from an unhashed G must be cut short");
	cr_assert(w.looped, "it went round the ring");
	cr_assert_str_eq(w.why, CGT_WALK_LOOPED);
	cr_assert_leq(w.steps, 2 * NTHREADS + 2, "a loop of n threads shows within 2n steps: %ld",
		      w.steps);
	cr_assert_eq(g_visits_after_exit, 0, "the ring must no longer hold G");

	for (int i = NTHREADS - 1; i >= 0; i--)
		if (th[i] != g)
			do_exit(th[i]);
	model_shutdown();
}

/*
 * The same with G unhashed while the walk stands on G itself: list_del_rcu keeps G's next,
 * so the walk goes on round the ring, which no longer leads back to G.
 */
Test(walk, while_each_standing_on_exiting_thread_overruns)
{
	struct task *th[NTHREADS], *g, *t;
	struct cgt_walk w;

	fork_group(th, NTHREADS);
	g = th[1];

	rcu_read_lock();
	t = cgt_walk_first(&w, g, CGT_ITER_WHILE_EACH, "test");
	cr_assert_eq(t, g);
	do_exit(g);
	while ((t = cgt_walk_next(&w)) != NULL)
		cr_assert_neq(t, g);
	rcu_read_unlock();
	cr_assert(w.overran);
	cr_assert(w.looped);
	cr_assert_leq(w.steps, 2 * NTHREADS + 2);

	for (int i = NTHREADS - 1; i >= 0; i--)
		if (th[i] != g)
			do_exit(th[i]);
	model_shutdown();
}

/*
 * The fix for #1: for_each_thread(G, t) ends at the head in G->signal whatever becomes of G.
 * Same scenario: start from G, step once, G exits; the walk ends normally, not overran, and
 * sees every thread still hashed (G only if it was visited before it went).
 */
Test(walk, for_each_from_exiting_thread_ends)
{
	struct task *th[NTHREADS], *g, *t;
	struct cgt_walk w;
	long g_visits_after_exit = 0;

	fork_group(th, NTHREADS);
	g = th[2];

	rcu_read_lock();
	t = cgt_walk_first(&w, g, CGT_ITER_FOR_EACH, "test");
	cr_assert_eq(t, th[0], "for_each_thread starts at the head of thread_head");
	t = cgt_walk_next(&w);
	cr_assert_eq(t, th[1]);

	do_exit(g);
	cr_assert_not(pid_alive(g));

	while ((t = cgt_walk_next(&w)) != NULL)
		if (t == g)
			g_visits_after_exit++;
	rcu_read_unlock();

	cr_assert_not(w.overran, "for_each walk must end at signal->thread_head");
	cr_assert_eq(g_visits_after_exit, 0);
	cr_assert_eq(w.steps, NTHREADS - 1, "leader, th1 and th3: got %ld", w.steps);

	for (int i = NTHREADS - 1; i >= 0; i--)
		if (th[i] != g)
			do_exit(th[i]);
	model_shutdown();
}

/*
 * for_each_thread "may visit no thread at all when the whole group is gone": hold a
 * reference to a thread (get_task_struct keeps it and its signal_struct), exit every
 * thread, let the grace periods pass (the others are really freed: ASan sees any access),
 * then walk from the held thread under rcu_read_lock: 0 steps, not overran.
 */
Test(walk, for_each_after_group_gone_sees_nothing)
{
	struct task *th[NTHREADS], *held, *t;
	struct cgt_walk w;
	struct cgt_model_counts n;

	fork_group(th, NTHREADS);
	held = th[1];
	get_task_struct(held);

	do_exit(th[0]);		/* the leader first: a zombie until the last thread goes */
	cr_assert_eq(th[0]->exit_state, EXIT_ZOMBIE);
	for (int i = 1; i < NTHREADS; i++)
		do_exit(th[i]);
	rcu_barrier();		/* every delayed_put_task_struct has run */
	cgt_model_counts(&n);
	cr_assert_eq(n.tasks, 1, "only the held task may remain, %ld do", n.tasks);
	cr_assert_eq(n.signals, 1, "the held task keeps its signal_struct");
	cr_assert_not(pid_alive(held));

	rcu_read_lock();
	cgt_walk_for_each(&w, held, CGT_ITER_FOR_EACH, "test", t)
		cr_assert_fail("for_each visited tid %d of a dead group", t->pid);
	rcu_read_unlock();
	cr_assert_eq(w.steps, 0);
	cr_assert_not(w.overran);

	put_task_struct(held);
	model_shutdown();
}

/*
 * fill_stats_for_tgid (kernel/taskstats.c): a live group sums every thread, under siglock; a
 * tgid with no task is -ESRCH (lock_task_sighand fails), with no walk at all.
 */
Test(walk, fill_stats_for_tgid_counts_group)
{
	struct task *th[NTHREADS];
	struct cgt_walk w;
	int tgid;

	fork_group(th, NTHREADS);
	tgid = th[0]->pid;
	for (enum cgt_iter iter = CGT_ITER_WHILE_EACH; iter <= CGT_ITER_FOR_EACH; iter++) {
		cr_assert_eq(fill_stats_for_tgid(tgid, iter, &w), 0);
		cr_assert_eq(w.steps, NTHREADS);
		cr_assert_eq(w.live, NTHREADS);
	}
	for (int i = NTHREADS - 1; i >= 0; i--)
		do_exit(th[i]);
	cr_assert_eq(fill_stats_for_tgid(tgid, CGT_ITER_WHILE_EACH, &w), -ESRCH);
	cr_assert_eq(w.steps, 0);
	model_shutdown();
}

/*
 * get_task_struct/put_task_struct check the count as refcount_t does (4.11): a reference taken
 * on a task whose last one is gone, or given back once too often, is a use after free,
 * reported as an invariant before the freed memory is used further.
 */
Test(walk, task_refcount_addition_on_zero_and_underflow_reported)
{
	struct task t;
	struct cgt_failure f[2];

	memset(&t, 0, sizeof(t));
	cgt_failures_reset();
	get_task_struct(&t);		/* on 0: the last reference was gone */
	cr_assert_eq(cgt_failure_count(CGT_DET_INVARIANT), 1, "addition on 0 not reported");
	t.usage = 0;
	put_task_struct(&t);		/* below 0: no free, a report */
	cr_assert_eq(cgt_failure_count(CGT_DET_INVARIANT), 2, "underflow not reported");
	cr_assert_eq(cgt_failures_get(f, 2), 2);
	cr_assert(strstr(f[0].summary, "addition on 0"), "%s", f[0].summary);
	cr_assert(strstr(f[1].summary, "underflow"), "%s", f[1].summary);
	cgt_failures_reset();
}
