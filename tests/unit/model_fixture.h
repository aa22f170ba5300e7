/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the model unit tests share: a model booted with no driver hooks (copy_process only
 * builds the task, and the test thread acts for every task by passing its pointer), helpers
 * to fork processes and threads, and the end-of-test leak check.
 *
 * Criterion runs each test in its own process, so the model's globals are fresh per test.
 */
#ifndef CGT_TEST_MODEL_FIXTURE_H
#define CGT_TEST_MODEL_FIXTURE_H

#include <criterion/criterion.h>
#include <sched.h>
#include <time.h>

#include "../../src/model/model.h"

#define FIXTURE_WALK_LIMIT	100

/*
 * Boot the model (start_kernel) with @iter as its walk and a pid space of @pid_max numbers
 * (0: none, numbers never reused); the test thread is an RCU reader.
 */
static inline void model_boot_pids(enum cgt_iter iter, int pid_max)
{
	struct cgt_model_config cfg = {
		.css_set_lock_ops = cgt_lock_find("rwsem"),
		.tasklist_lock_ops = cgt_lock_find("rwlock"),
		.hooks = NULL,
		.iter = iter,
		.walk_limit = FIXTURE_WALK_LIMIT,
		.pid_max = pid_max,
	};

	cgt_rcu_register_thread();
	cr_assert_not_null(cfg.css_set_lock_ops);
	cr_assert_not_null(cfg.tasklist_lock_ops);
	cr_assert_eq(cgt_model_init(&cfg), 0, "cgt_model_init failed");
	cgt_failures_reset();
}

static inline void model_boot(enum cgt_iter iter)
{
	model_boot_pids(iter, 0);
}

/* The first invariant failure's summary, or "" if there is none. */
static inline const char *invariant_summary(void)
{
	static struct cgt_failure f[CGT_MAX_FAILURES];
	int n = cgt_failures_get(f, CGT_MAX_FAILURES);

	for (int i = 0; i < n; i++)
		if (f[i].detector == CGT_DET_INVARIANT)
			return f[i].summary;
	return "";
}

static inline void model_boot_while_each(void)
{
	model_boot(CGT_ITER_WHILE_EACH);
}

static inline void model_boot_for_each(void)
{
	model_boot(CGT_ITER_FOR_EACH);
}

/* Fixture fini: leave RCU cleanly even when a failed assertion cut a read-side section short. */
static inline void model_fini(void)
{
	while (cgt_rcu_read_depth() > 0)
		rcu_read_unlock();
	cgt_rcu_unregister_thread();
}

/* fork() from init: a new single-threaded process, its own session and group leader. */
static inline struct task *fork_process(void)
{
	struct task *p = NULL;

	cr_assert_eq(copy_process(&init_task, 0, &p), 0, "copy_process (process) failed");
	cr_assert_not_null(p);
	cr_assert(thread_group_leader(p));
	return p;
}

/* clone(CLONE_THREAD) by @parent: a new thread in @parent's group. */
static inline struct task *fork_thread(struct task *parent)
{
	struct task *t = NULL;

	cr_assert_eq(copy_process(parent, CLONE_THREAD, &t), 0, "copy_process (thread) failed");
	cr_assert_not_null(t);
	cr_assert_eq(t->group_leader, parent->group_leader);
	return t;
}

/* A process of @n threads: out[0] is the leader, out[1..n-1] its threads in creation order. */
static inline void fork_group(struct task **out, int n)
{
	out[0] = fork_process();
	for (int i = 1; i < n; i++)
		out[i] = fork_thread(out[0]);
	cr_assert_eq(out[0]->signal->nr_threads, n);
}

/* Every model check that needs a quiet model, with the reason on failure. */
static inline void assert_model_sound(void)
{
	char why[256] = "";

	cr_assert_eq(cgt_check_invariants(why, sizeof(why)), 0, "invariants: %s", why);
	cr_assert_eq(cgt_failure_count(CGT_DET_INVARIANT), 0, "violation: %s", invariant_summary());
}

/* End of a test: every task but init has exited; tear the model down, nothing may leak. */
static inline void model_shutdown(void)
{
	char why[256] = "";

	cr_assert_eq(cgt_rcu_read_depth(), 0, "test left an RCU read-side section open");
	cr_assert_eq(cgt_model_exit(why, sizeof(why)), 0, "cgt_model_exit: %s", why);
}

/* A short sleep for polling loops: gentle on a loaded machine. */
static inline void nap(void)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = 200 * 1000 };

	sched_yield();
	nanosleep(&ts, NULL);
}

/* Seconds on the monotonic clock. */
static inline double now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#endif
