// SPDX-License-Identifier: GPL-2.0
/*
 * The detectors, each against the mistake it exists for and against that mistake's fixed twin:
 *
 *   lock-order   (src/detect/lock_order.c)   lockdep's circular-locking check
 *   rcu-nesting  (src/detect/rcu_nesting.c)  "sleeping function called from invalid context"
 *   hang         (src/detect/hang.c)         the hung-task report with its deadlock cycle
 *   starvation   (src/detect/starvation.c)   a writer passed over by readers
 *   livelock     (src/detect/livelock.c)     while_each_thread from an unhashed thread
 *   invariant    (src/model/invariants.c)    a migrated thread group left split
 *
 * Every bug test must see its detector fire, every twin must see it stay silent. Nothing
 * asserts a duration: the detectors run with short bounds (a few tenths of a second) and the
 * tests wait up to several seconds for them, so a loaded machine only makes them slower.
 * Assertions run on the test thread only; helper threads leave their results in memory.
 *
 * Criterion runs each test in its own process, so every global (failures, lock classes,
 * the thread registry, the model) starts fresh; the resets below only make that explicit.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "model_fixture.h"
#include "../src/detect/detect.h"
#include "../src/run/points.h"
#include "../src/report/interest.h"

/* ---- helpers ---- */

static void fresh_state(void)
{
	cgt_clock_reset();
	cgt_failures_reset();
	cgt_lock_classes_reset();
}

static void sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Poll until @det has reported at least @n times, for at most @sec seconds. */
static long wait_for_failures(enum cgt_detector det, long n, double sec)
{
	double end = now_sec() + sec;

	while (cgt_failure_count(det) < n && now_sec() < end)
		sleep_ms(10);
	return cgt_failure_count(det);
}

/* The first failure of @det, copied into @out; false if there is none. */
static bool first_failure(enum cgt_detector det, struct cgt_failure *out)
{
	static struct cgt_failure all[CGT_MAX_FAILURES];
	int n = cgt_failures_get(all, CGT_MAX_FAILURES);

	for (int i = 0; i < n; i++) {
		if (all[i].detector == det) {
			*out = all[i];
			return true;
		}
	}
	return false;
}

/* pthread_join with a deadline: false if the thread is still running after @sec seconds. */
static bool join_within(pthread_t th, double sec)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += (time_t)sec;
	ts.tv_nsec += (long)((sec - (double)(time_t)sec) * 1e9);
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	return pthread_timedjoin_np(th, NULL, &ts) == 0;
}

static void wait_flag_at_least(const int *flag, int v, const int *stop)
{
	while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) < v &&
	       !(stop && __atomic_load_n(stop, __ATOMIC_ACQUIRE)))
		nap();
}

static void start_detectors(double stall, double starve)
{
	struct cgt_detect_config dc = {
		.stall = stall,
		.starve = starve,
		.deadline = 0,		/* no hard deadline: the tests bound themselves */
	};

	/* the detectors see the marked points through the run's hook, as in a run */
	cgt_events_install(0, false, 1);
	cr_assert_eq(cgt_detect_start(&dc), 0, "cgt_detect_start failed");
}

TestSuite(detect, .timeout = 60);

/* ---- lock-order ---- */

/*
 * lock-order (lockdep's check_prev_add): one thread takes A then B, later B then A. No
 * deadlock happens (one thread), but the two orders together are an ABBA deadlock waiting
 * for two threads to meet: the inversion is reported the first time it is seen, once.
 */
Test(detect, lock_order_inversion_reported_once)
{
	static struct cgt_thread self;
	struct cgt_lock a, b;
	struct cgt_failure f;

	fresh_state();
	start_detectors(60, 0);	/* no hang or starvation report may get in the way */
	cgt_thread_register(&self, CGT_ROLE_DRIVER, 0);
	cgt_lock_init(&a, cgt_lock_find("mutex"), "test_lock_A");
	cgt_lock_init(&b, cgt_lock_find("rwsem"), "test_lock_B");

	cgt_write_lock(&a);
	cgt_write_lock(&b);
	cgt_write_unlock(&b);
	cgt_write_unlock(&a);
	cr_assert_eq(cgt_failure_count(CGT_DET_LOCK_ORDER), 0, "A -> B alone is not an inversion");

	cgt_read_lock(&b);
	cgt_write_lock(&a);
	cgt_write_unlock(&a);
	cgt_read_unlock(&b);
	cr_assert_eq(cgt_failure_count(CGT_DET_LOCK_ORDER), 1, "B -> A after A -> B: %ld reports",
		     cgt_failure_count(CGT_DET_LOCK_ORDER));

	/* the same inversion again is no news */
	cgt_read_lock(&b);
	cgt_write_lock(&a);
	cgt_write_unlock(&a);
	cgt_read_unlock(&b);
	cr_assert_eq(cgt_failure_count(CGT_DET_LOCK_ORDER), 1);
	cr_assert_eq(cgt_failures_total(), 1, "only lock-order may report");

	cr_assert(first_failure(CGT_DET_LOCK_ORDER, &f));
	cr_assert_eq(f.thread_id, self.id);
	cr_assert(strstr(f.summary, "test_lock_A") && strstr(f.summary, "test_lock_B"),
		  "summary names both locks: %s", f.summary);
	cr_assert(strstr(f.summary, "circular"), "summary: %s", f.summary);
	cr_assert_not_null(f.evidence);
	cr_assert(strstr(f.evidence, "test_lock_A") && strstr(f.evidence, "test_lock_B"),
		  "evidence: %s", f.evidence);

	cgt_lock_destroy(&a);
	cgt_lock_destroy(&b);
	cgt_detect_stop();
	cgt_thread_unregister(&self);
}

/* Twin: the same two locks always in one order (A then B, twice): silent. */
Test(detect, lock_order_consistent_is_silent)
{
	static struct cgt_thread self;
	struct cgt_lock a, b;

	fresh_state();
	start_detectors(60, 0);	/* no hang or starvation report may get in the way */
	cgt_thread_register(&self, CGT_ROLE_DRIVER, 0);
	cgt_lock_init(&a, cgt_lock_find("mutex"), "test_lock_A");
	cgt_lock_init(&b, cgt_lock_find("rwsem"), "test_lock_B");

	for (int i = 0; i < 2; i++) {
		cgt_write_lock(&a);
		cgt_read_lock(&b);
		cgt_read_unlock(&b);
		cgt_write_unlock(&a);
	}
	cr_assert_eq(cgt_failure_count(CGT_DET_LOCK_ORDER), 0);
	cr_assert_eq(cgt_failures_total(), 0);

	cgt_lock_destroy(&a);
	cgt_lock_destroy(&b);
	cgt_detect_stop();
	cgt_thread_unregister(&self);
}

/* ---- rcu-nesting ---- */

/*
 * rcu-nesting (might_sleep inside rcu_read_lock, as css_set_rwsem once was taken under RCU
 * in 3.15): a sleeping lock (rwsem, sleeps=true) taken inside a read-side section is
 * reported once per lock class, however often it happens.
 */
Test(detect, rcu_nesting_sleeping_lock_inside_rcu)
{
	static struct cgt_thread self;
	struct cgt_lock sem;
	struct cgt_failure f;

	fresh_state();
	start_detectors(60, 0);	/* no hang or starvation report may get in the way */
	cgt_rcu_register_thread();
	cgt_thread_register(&self, CGT_ROLE_DRIVER, 0);
	cgt_lock_init(&sem, cgt_lock_find("rwsem"), "test_rwsem");
	cr_assert(sem.ops->sleeps);

	for (int i = 0; i < 3; i++) {
		rcu_read_lock();
		cgt_read_lock(&sem);
		cgt_read_unlock(&sem);
		rcu_read_unlock();
	}
	cr_assert_eq(cgt_failure_count(CGT_DET_RCU_NESTING), 1, "%ld reports for one class",
		     cgt_failure_count(CGT_DET_RCU_NESTING));
	cr_assert_eq(cgt_failures_total(), 1);
	cr_assert(first_failure(CGT_DET_RCU_NESTING, &f));
	cr_assert(strstr(f.summary, "test_rwsem"), "summary: %s", f.summary);
	cr_assert_eq(f.thread_id, self.id);

	cgt_lock_destroy(&sem);
	cgt_detect_stop();
	cgt_thread_unregister(&self);
	cgt_rcu_unregister_thread();
}

/*
 * Twins: the sleeping lock taken first and RCU entered under it (the fixed order), and a
 * spinning lock (rwlock, sleeps=false: read_lock under RCU is legal in the kernel) inside a
 * read-side section: silent.
 */
Test(detect, rcu_nesting_silent_for_right_order_and_spinning_lock)
{
	static struct cgt_thread self;
	struct cgt_lock sem, spin;

	fresh_state();
	start_detectors(60, 0);	/* no hang or starvation report may get in the way */
	cgt_rcu_register_thread();
	cgt_thread_register(&self, CGT_ROLE_DRIVER, 0);
	cgt_lock_init(&sem, cgt_lock_find("rwsem"), "test_rwsem");
	cgt_lock_init(&spin, cgt_lock_find("rwlock"), "test_rwlock");
	cr_assert_not(spin.ops->sleeps);

	for (int i = 0; i < 3; i++) {
		cgt_write_lock(&sem);
		rcu_read_lock();
		rcu_read_unlock();
		cgt_write_unlock(&sem);

		rcu_read_lock();
		cgt_read_lock(&spin);
		cgt_read_unlock(&spin);
		cgt_write_lock(&spin);
		cgt_write_unlock(&spin);
		rcu_read_unlock();
	}
	cr_assert_eq(cgt_failure_count(CGT_DET_RCU_NESTING), 0);
	cr_assert_eq(cgt_failures_total(), 0);

	cgt_lock_destroy(&sem);
	cgt_lock_destroy(&spin);
	cgt_detect_stop();
	cgt_thread_unregister(&self);
	cgt_rcu_unregister_thread();
}

/* ---- hang: the rwsem-inside-rcu deadlock ---- */

/*
 * docs/detectors.md, rwsem-inside-rcu: an updater W holds css_set_rwsem for writing and waits in
 * synchronize_rcu(); a reader R inside rcu_read_lock wants the rwsem for reading. W waits for
 * R's read-side section, R waits for W's lock: neither can go on. R signals once it is in
 * its section, W takes L, signals and calls synchronize_rcu(), R then asks for L: both block
 * for good, every time (no timing involved). The twin takes L before rcu_read_lock, as the
 * fix does, and repeats the same handshake round after round until told to stop.
 */
struct hang_ctx {
	struct cgt_lock lock;
	bool rcu_first;			/* the bug: R enters RCU before it takes L */
	int stop;
	int r_ready, w_held, r_done;	/* round numbers, for the handshake */
	int rounds;			/* rounds R completed */
	int w_id, r_id;			/* harness thread ids */
	struct cgt_thread w_self, r_self;
};

static void *hang_writer(void *arg)
{
	struct hang_ctx *c = arg;

	cgt_rcu_register_thread();
	cgt_thread_register(&c->w_self, CGT_ROLE_ACTOR, 0);
	__atomic_store_n(&c->w_id, c->w_self.id, __ATOMIC_RELEASE);
	for (int k = 1; ; k++) {
		wait_flag_at_least(&c->r_ready, k, &c->stop);
		if (__atomic_load_n(&c->r_ready, __ATOMIC_ACQUIRE) < k)
			break;				/* told to stop */
		cgt_write_lock(&c->lock);
		__atomic_store_n(&c->w_held, k, __ATOMIC_RELEASE);
		synchronize_rcu();			/* the bug: blocks for good here */
		cgt_write_unlock(&c->lock);
		wait_flag_at_least(&c->r_done, k, &c->stop);
	}
	cgt_thread_unregister(&c->w_self);
	cgt_rcu_unregister_thread();
	return NULL;
}

static void *hang_reader(void *arg)
{
	struct hang_ctx *c = arg;

	cgt_rcu_register_thread();
	cgt_thread_register(&c->r_self, CGT_ROLE_ACTOR, 0);
	__atomic_store_n(&c->r_id, c->r_self.id, __ATOMIC_RELEASE);
	for (int k = 1; !__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE); k++) {
		if (c->rcu_first)
			rcu_read_lock();
		__atomic_store_n(&c->r_ready, k, __ATOMIC_RELEASE);
		wait_flag_at_least(&c->w_held, k, &c->stop);
		if (__atomic_load_n(&c->w_held, __ATOMIC_ACQUIRE) < k) {
			if (c->rcu_first)
				rcu_read_unlock();
			break;				/* told to stop before W came */
		}
		cgt_read_lock(&c->lock);		/* the bug: blocks for good here */
		if (!c->rcu_first)
			rcu_read_lock();
		rcu_read_unlock();
		cgt_read_unlock(&c->lock);
		__atomic_store_n(&c->rounds, k, __ATOMIC_RELAXED);
		__atomic_store_n(&c->r_done, k, __ATOMIC_RELEASE);
	}
	cgt_thread_unregister(&c->r_self);
	cgt_rcu_unregister_thread();
	return NULL;
}

static void hang_start(struct hang_ctx *c, pthread_t *w, pthread_t *r)
{
	cgt_lock_init(&c->lock, cgt_lock_find("rwsem"), "test_css_set_rwsem");
	cr_assert_eq(pthread_create(w, NULL, hang_writer, c), 0);
	cr_assert_eq(pthread_create(r, NULL, hang_reader, c), 0);
}

/*
 * hang watchdog: both threads are blocked past --stall (0.5 s); the report carries the
 * wait-for picture over the lock and the grace period, and the cycle W -> R -> W.
 */
Test(detect, hang_reports_rwsem_inside_rcu_deadlock_cycle)
{
	static struct hang_ctx c = { .rcu_first = true };
	struct cgt_failure f;
	pthread_t w, r;
	char w_needle[32], r_needle[32];

	fresh_state();
	start_detectors(0.5, 0);
	hang_start(&c, &w, &r);

	cr_assert_geq(wait_for_failures(CGT_DET_HANG, 1, 10.0), 1,
		      "no hang report within 10 s of the deadlock");
	cgt_detect_stop();		/* joins the watchdog only */
	/* W and R can never be joined: leave them to the end of the test process */
	pthread_detach(w);
	pthread_detach(r);

	cr_assert_eq(__atomic_load_n(&c.rounds, __ATOMIC_RELAXED), 0, "the reader got through");
	cr_assert(first_failure(CGT_DET_HANG, &f));
	cr_assert(strstr(f.summary, "deadlock cycle found"), "summary: %s", f.summary);
	cr_assert_not_null(f.evidence);
	cr_assert(strstr(f.evidence, "deadlock cycle"), "evidence:\n%s", f.evidence);
	cr_assert(strstr(f.evidence, "test_css_set_rwsem"), "evidence:\n%s", f.evidence);
	cr_assert(strstr(f.evidence, "grace period"), "evidence:\n%s", f.evidence);
	cr_assert(strstr(f.evidence, "blocked for more than 0.5 seconds"), "evidence:\n%s",
		  f.evidence);
	/* both threads are on the cycle */
	snprintf(w_needle, sizeof(w_needle), "thread %d ->", c.w_id);
	snprintf(r_needle, sizeof(r_needle), "thread %d ->", c.r_id);
	cr_assert(strstr(f.evidence, w_needle) && strstr(f.evidence, r_needle),
		  "cycle must hold threads %d and %d:\n%s", c.w_id, c.r_id, f.evidence);
	/* and the reader's mistake was caught on the way, before any hang */
	cr_assert_eq(cgt_failure_count(CGT_DET_RCU_NESTING), 1);
}

/* Twin: R takes L before rcu_read_lock. Rounds go on for 1.5 s, no hang, both threads join. */
Test(detect, hang_silent_when_rwsem_taken_outside_rcu)
{
	static struct hang_ctx c = { .rcu_first = false };
	pthread_t w, r;
	bool w_joined, r_joined;

	fresh_state();
	start_detectors(0.5, 0);
	hang_start(&c, &w, &r);
	sleep_ms(1500);
	__atomic_store_n(&c.stop, 1, __ATOMIC_RELEASE);
	r_joined = join_within(r, 10.0);
	w_joined = join_within(w, 10.0);
	cgt_detect_stop();

	cr_assert(r_joined && w_joined, "a thread did not finish (reader %d, writer %d)",
		  r_joined, w_joined);
	cr_assert_geq(c.rounds, 1, "not one round completed");
	cr_assert_eq(cgt_failure_count(CGT_DET_HANG), 0);
	cr_assert_eq(cgt_failures_total(), 0);
	cgt_lock_destroy(&c.lock);
}

/* ---- hang: de_thread's wait for its group ---- */

/*
 * de_thread waits for the other threads of its group to exit; the wait is judged by the one
 * stall, like every other, but only while the group stands still: a sibling on its way out
 * (passing marked points) keeps it from being a hang, while one that has gone silent, or a
 * wakeup that never comes, is reported after one stall.
 */
struct group_ctx {
	int group;		/* stands in for the signal_struct */
	int sibling_moves;	/* the sibling passes marked points until stop */
	int releases;		/* it is no member but a parent that linked one, not yet woken */
	int ready, stop;
};

static void *group_sibling(void *arg)
{
	struct group_ctx *c = arg;
	struct cgt_thread self;

	cgt_thread_register(&self, CGT_ROLE_ACTOR, 2);
	if (c->releases)
		cgt_thread_set_releasing(&c->group);
	else
		cgt_thread_set_group(&c->group);
	__atomic_store_n(&c->ready, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE)) {
		if (c->sibling_moves)
			cgt_point(CGT_PT_LOOP, NULL);
		sleep_ms(20);
	}
	cgt_thread_unregister(&self);
	return NULL;
}

/* The exec-ing thread waits 3 stalls for its group; returns whether a hang was reported. */
static bool group_wait(struct group_ctx *c)
{
	struct cgt_thread self;
	pthread_t sib;
	bool hung;

	fresh_state();
	start_detectors(0.5, 0);
	cr_assert_eq(pthread_create(&sib, NULL, group_sibling, c), 0);
	wait_flag_at_least(&c->ready, 1, NULL);
	cgt_thread_register(&self, CGT_ROLE_ACTOR, 1);
	cgt_thread_set_group(&c->group);
	cgt_wait_begin(&c->group, "the other threads of the group to exit", CGT_WAIT_GROUP_EXIT);
	sleep_ms(1500);
	cgt_wait_end();
	hung = cgt_failure_count(CGT_DET_HANG) > 0;
	__atomic_store_n(&c->stop, 1, __ATOMIC_RELEASE);
	cr_assert(join_within(sib, 10.0), "the sibling did not finish");
	cgt_detect_stop();
	cgt_thread_unregister(&self);
	return hung;
}

/* What the watchdog asks the kernel: a thread at work is runnable, one asleep is not. */
static void *sleeper(void *arg)
{
	struct cgt_thread *self = arg;

	cgt_thread_register(self, CGT_ROLE_ACTOR, 3);
	sleep_ms(2000);
	cgt_thread_unregister(self);
	return NULL;
}

Test(detect, thread_runnable_tells_running_from_asleep)
{
	static struct cgt_thread me, other;
	pthread_t th;

	cgt_thread_register(&me, CGT_ROLE_ACTOR, 1);
	cr_assert(cgt_thread_runnable(me.os_tid), "the calling thread is not runnable");
	cr_assert_eq(pthread_create(&th, NULL, sleeper, &other), 0);
	sleep_ms(500);
	cr_assert(__atomic_load_n(&other.os_tid, __ATOMIC_ACQUIRE) > 0);
	cr_assert_not(cgt_thread_runnable(other.os_tid), "a sleeping thread is runnable");
	cr_assert(join_within(th, 10.0));
	cr_assert_not(cgt_thread_runnable(other.os_tid), "a thread gone is runnable");
	cgt_thread_unregister(&me);
}

Test(detect, hang_group_exit_wait_moving_group_is_silent)
{
	static struct group_ctx c = { .sibling_moves = 1 };

	cr_assert_not(group_wait(&c), "a de_thread wait reported while its group still moved");
}

Test(detect, hang_group_exit_wait_silent_group_reported_after_one_stall)
{
	static struct group_ctx c = { .sibling_moves = 0 };

	cr_assert(group_wait(&c), "a de_thread wait on a silent group for 3 stalls went unreported");
}

/*
 * A thread of the group released by wake_up_new_task that has not run yet (on a loaded
 * machine a new pthread may wait seconds for its first CPU): de_thread counts it in
 * notify_count, so the wait is for it, and it is slow, not stuck. It is registered by the
 * thread that released it, as the actors do, and never attaches during the wait.
 */
Test(detect, hang_group_exit_wait_for_a_thread_not_yet_run_is_no_hang)
{
	static int group;
	static struct cgt_thread self, newborn;

	fresh_state();
	start_detectors(0.5, 0);
	cgt_thread_register(&self, CGT_ROLE_ACTOR, 1);
	cgt_thread_set_group(&group);
	cgt_thread_register_new(&newborn, CGT_ROLE_ACTOR, 2, &group);
	cgt_wait_begin(&group, "the other threads of the group to exit", CGT_WAIT_GROUP_EXIT);
	sleep_ms(1500);
	cgt_wait_end();
	cr_assert_eq(cgt_failure_count(CGT_DET_HANG), 0,
		     "a de_thread wait for a thread released but not yet run was called a hang");
	cgt_detect_stop();
	cgt_thread_unregister(&newborn);
	cgt_thread_unregister(&self);
}

/*
 * A thread just linked into the group by copy_process, not yet woken (wake_up_new_task):
 * the zap counted it, and it runs only once its parent, here queued in cgroup_post_fork,
 * lets it. The parent is in the wait's way: while it moves, the wait is no hang.
 */
Test(detect, hang_group_exit_wait_for_a_thread_its_parent_has_not_woken_is_no_hang)
{
	static struct group_ctx c = { .sibling_moves = 1, .releases = 1 };

	cr_assert_not(group_wait(&c),
		      "a de_thread wait for a thread its parent had not woken yet was called a hang");
}

/*
 * A waiter with nobody left in its way, asleep or runnable. On de_thread's wait or a sleeping
 * lock, asleep means its wakeup was lost (a hang); runnable, it was woken (the lock handed
 * to it, or free to try) and waits for a CPU, as on a loaded machine (no hang). A spinning
 * lock's waiter is runnable by design: with nobody in its way and its lock never taken, it
 * spins on a lock left locked (a hang either way).
 */
enum lone_wait { LONE_GROUP, LONE_SLEEPING_LOCK, LONE_SPINNING_LOCK };

static bool lone_wait(enum lone_wait what, bool runnable)
{
	static int group;
	static struct cgt_lock lock;
	struct cgt_thread self;
	double end;
	bool hung;

	fresh_state();
	start_detectors(0.5, 0);
	cgt_thread_register(&self, CGT_ROLE_ACTOR, 1);
	if (what == LONE_GROUP) {
		cgt_thread_set_group(&group);
		cgt_wait_begin(&group, "the group leader to turn zombie", CGT_WAIT_GROUP_EXIT);
	} else {
		memset(&lock, 0, sizeof(lock));
		lock.ops = cgt_lock_find(what == LONE_SLEEPING_LOCK ? "mutex" : "spinlock");
		cr_assert_not_null(lock.ops);
		WRITE_ONCE(self.wait_static, 1);
		cgt_wait_begin_at(&lock, "test_lock", CGT_WAIT_WRITE, cgt_clock_coarse_ns());
	}
	if (runnable)
		for (end = now_sec() + 1.5; now_sec() < end; )
			cpu_relax();
	else
		sleep_ms(1500);
	cgt_wait_end();
	hung = cgt_failure_count(CGT_DET_HANG) > 0;
	cgt_detect_stop();
	cgt_thread_unregister(&self);
	return hung;
}

Test(detect, hang_group_exit_wait_alone_and_asleep_is_a_lost_wakeup)
{
	cr_assert(lone_wait(LONE_GROUP, false),
		  "a de_thread waiter asleep with nobody in its way went unreported");
}

Test(detect, hang_group_exit_wait_alone_and_runnable_is_no_hang)
{
	cr_assert_not(lone_wait(LONE_GROUP, true),
		      "a woken de_thread waiter waiting for a CPU was called hung");
}

Test(detect, hang_sleeping_lock_waiter_alone_and_asleep_is_a_lost_wakeup)
{
	cr_assert(lone_wait(LONE_SLEEPING_LOCK, false),
		  "a mutex waiter asleep with nobody in its way went unreported");
}

Test(detect, hang_sleeping_lock_waiter_alone_and_runnable_is_no_hang)
{
	cr_assert_not(lone_wait(LONE_SLEEPING_LOCK, true),
		      "a woken mutex waiter waiting for a CPU was called hung");
}

Test(detect, hang_spinning_lock_waiter_alone_is_a_hang_though_runnable)
{
	cr_assert(lone_wait(LONE_SPINNING_LOCK, true),
		  "a spinlock waiter spinning on a lock nobody holds went unreported");
}

/*
 * synchronize_rcu with no reader in its way: it waits in the queue of grace periods (liburcu
 * scans every registered thread for each, 30,000 of them in a big run). While grace periods
 * end it moves; when none has ended for a stall, RCU itself has stopped (a hang).
 */
struct gp_queue_ctx {
	int stop;
	int ending;		/* grace periods end every 50 ms until stop */
};

static void *gp_machinery(void *arg)
{
	struct gp_queue_ctx *c = arg;

	while (!__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE)) {
		if (c->ending)
			rcu_callback_enter();
		sleep_ms(50);
	}
	return NULL;
}

static bool gp_wait(struct gp_queue_ctx *c)
{
	static const char gp;
	struct cgt_thread self;
	pthread_t th;
	bool hung;

	fresh_state();
	start_detectors(0.5, 0);
	cr_assert_eq(pthread_create(&th, NULL, gp_machinery, c), 0);
	cgt_thread_register(&self, CGT_ROLE_ACTOR, 1);
	cgt_wait_begin(&gp, "rcu grace period", CGT_WAIT_GP);
	sleep_ms(1500);
	cgt_wait_end();
	hung = cgt_failure_count(CGT_DET_HANG) > 0;
	__atomic_store_n(&c->stop, 1, __ATOMIC_RELEASE);
	cr_assert(join_within(th, 10.0));
	cgt_detect_stop();
	cgt_thread_unregister(&self);
	return hung;
}

Test(detect, hang_grace_period_wait_while_grace_periods_end_is_no_hang)
{
	static struct gp_queue_ctx c = { .ending = 1 };

	cr_assert_not(gp_wait(&c), "a synchronize_rcu queued while grace periods ended was called hung");
}

Test(detect, hang_grace_period_wait_with_rcu_stopped_is_a_hang)
{
	static struct gp_queue_ctx c = { .ending = 0 };

	cr_assert(gp_wait(&c), "a synchronize_rcu with no grace period ending for 3 stalls went unreported");
}

/* ---- starvation ---- */

/*
 * tasklist_lock before the queued rwlock (qrwlock, 3.16): a reader-preferring rwlock lets
 * overlapping readers (kill_pgrp, getpriority...) keep a writer (fork, exit) out for as long
 * as they overlap. Three readers hand the lock over: a reader leaves only while another one
 * is inside (a CAS on the count of readers inside), so the lock is never free while they run.
 * A holder that finds no partner coming in for HANDOVER_GIVEUP_MS leaves anyway: on a
 * writer-preferring lock a waiting writer stops new readers, and the readers must not
 * deadlock it (on the reader-preferring one a partner gets in at once, so it never gives up
 * unless both others are kept off the CPU that long).
 */
#define NREADERS		3
#define WRITER_ROUNDS		3
#define HANDOVER_GIVEUP_MS	100
#define STARVE_SEC		0.3

struct starve_ctx {
	struct cgt_lock lock;
	int stop;			/* readers: leave */
	int go;				/* writer: start */
	int inside;			/* readers holding the lock (a lower bound) */
	long reads;
	int writes;			/* write acquisitions... */
	int writes_while_readers_ran;	/* ...of which before the readers were told to stop */
	int giveups;
	struct cgt_thread self[NREADERS + 1];
	int next_self;
	const char *known;		/* what a starvation of the lock is known as, or NULL */
};

static struct cgt_thread *starve_register(struct starve_ctx *c)
{
	struct cgt_thread *t = &c->self[__atomic_fetch_add(&c->next_self, 1, __ATOMIC_RELAXED)];

	cgt_thread_register(t, CGT_ROLE_ACTOR, 0);
	return t;
}

static void *starve_reader(void *arg)
{
	struct starve_ctx *c = arg;
	struct cgt_thread *self = starve_register(c);

	while (!__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE)) {
		double giveup;

		cgt_read_lock(&c->lock);
		__atomic_fetch_add(&c->inside, 1, __ATOMIC_ACQ_REL);
		__atomic_fetch_add(&c->reads, 1, __ATOMIC_RELAXED);
		sleep_ms(1);				/* the read-side section */
		giveup = now_sec() + HANDOVER_GIVEUP_MS / 1000.0;
		for (;;) {
			int in = __atomic_load_n(&c->inside, __ATOMIC_ACQUIRE);

			if (in >= 2 && __atomic_compare_exchange_n(&c->inside, &in, in - 1, false,
								   __ATOMIC_ACQ_REL,
								   __ATOMIC_RELAXED))
				break;			/* another reader stays inside */
			if (in < 2 && (__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE) ||
				       now_sec() > giveup)) {
				if (!__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE))
					__atomic_fetch_add(&c->giveups, 1, __ATOMIC_RELAXED);
				__atomic_fetch_sub(&c->inside, 1, __ATOMIC_ACQ_REL);
				break;
			}
			nap();
		}
		cgt_read_unlock(&c->lock);
	}
	cgt_thread_unregister(self);
	return NULL;
}

static void *starve_writer(void *arg)
{
	struct starve_ctx *c = arg;
	struct cgt_thread *self = starve_register(c);

	wait_flag_at_least(&c->go, 1, NULL);
	for (int i = 0; i < WRITER_ROUNDS; i++) {
		cgt_write_lock(&c->lock);
		if (!__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE))
			__atomic_fetch_add(&c->writes_while_readers_ran, 1, __ATOMIC_RELAXED);
		cgt_write_unlock(&c->lock);
		__atomic_fetch_add(&c->writes, 1, __ATOMIC_RELEASE);
		sleep_ms(20);
	}
	cgt_thread_unregister(self);
	return NULL;
}

/* The lock statistics of the class @name into @out; false when there is none. */
static bool class_of(const char *name, struct cgt_lock_class *out)
{
	struct cgt_lock_class cls[16];
	int n = cgt_lock_classes(cls, 16);

	for (int i = 0; i < n; i++)
		if (cls[i].name && !strcmp(cls[i].name, name)) {
			*out = cls[i];
			return true;
		}
	return false;
}

/* The lock statistics' count of reads that got in ahead of a waiting writer. */
static long class_passed_over(const char *name)
{
	struct cgt_lock_class cls;

	return class_of(name, &cls) ? cls.passed_over : -1;
}

/*
 * Start the readers, let them get going (the lock now never free), then the writer. Returns
 * when @until says so or after 5 s; then stops everyone and joins. Returns the starvation
 * reports seen before the readers were stopped.
 */
static long starve_run(struct starve_ctx *c, const char *variant, bool until_writer_done)
{
	pthread_t rd[NREADERS], wr;
	double end;
	long seen;
	bool joined = true;

	fresh_state();
	if (c->known)
		cgt_failure_know(CGT_DET_STARVATION, "test_tasklist_lock", c->known);
	start_detectors(60, STARVE_SEC);	/* stall: no hang report may get in the way */
	cgt_lock_init(&c->lock, cgt_lock_find(variant), "test_tasklist_lock");
	for (int i = 0; i < NREADERS; i++)
		cr_assert_eq(pthread_create(&rd[i], NULL, starve_reader, c), 0);
	cr_assert_eq(pthread_create(&wr, NULL, starve_writer, c), 0);

	end = now_sec() + 5.0;
	while ((__atomic_load_n(&c->reads, __ATOMIC_RELAXED) < 30 ||
		__atomic_load_n(&c->inside, __ATOMIC_ACQUIRE) < 2) && now_sec() < end)
		sleep_ms(1);
	cr_assert_geq(__atomic_load_n(&c->reads, __ATOMIC_RELAXED), 30, "the readers never got going");
	__atomic_store_n(&c->go, 1, __ATOMIC_RELEASE);

	end = now_sec() + 5.0;
	while (now_sec() < end) {
		if (until_writer_done ?
		    __atomic_load_n(&c->writes, __ATOMIC_ACQUIRE) == WRITER_ROUNDS :
		    cgt_failure_count(CGT_DET_STARVATION) >= 1)
			break;
		sleep_ms(10);
	}
	seen = cgt_failure_count(CGT_DET_STARVATION);
	__atomic_store_n(&c->stop, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < NREADERS; i++)
		joined &= join_within(rd[i], 10.0);
	joined &= join_within(wr, 10.0);
	cgt_detect_stop();
	cr_assert(joined, "a reader or the writer did not finish once the readers stopped");
	cr_assert_eq(c->writes, WRITER_ROUNDS);
	cr_assert_eq(cgt_failure_count(CGT_DET_HANG), 0);
	return seen;
}

/*
 * starvation (watchdog and lock layer): with rwlock-rpref the writer cannot get in while the
 * readers overlap; past --starve (0.3 s) it is reported.
 */
Test(detect, starvation_reader_preferring_rwlock)
{
	static struct starve_ctx c;
	struct cgt_failure f;
	long seen = starve_run(&c, "rwlock-rpref", false);

	cr_assert_geq(seen, 1, "writer passed over for 5 s and no starvation report");
	cr_assert_eq(c.writes_while_readers_ran, 0,
		     "the writer got in while the readers overlapped (%d hand-overs given up)",
		     c.giveups);
	cr_assert_gt(class_passed_over("test_tasklist_lock"), 0,
		     "no read counted as passing the writer");
	cr_assert(first_failure(CGT_DET_STARVATION, &f));
	cr_assert(strstr(f.summary, "test_tasklist_lock") &&
		  strstr(f.summary, "waited"),
		  "summary: %s", f.summary);
	cgt_lock_destroy(&c.lock);
}

/*
 * A percpu-rwsem writer first waits a grace period (rcu_sync_enter), during which readers go
 * on by design: they cannot prolong it. One RCU reader holds the grace period for 1 s while
 * another thread keeps taking the read side; the writer's wait (1 s, past --starve's 0.3 s,
 * with reads that got in and no writer) is no starvation: the variant rebases the writer's
 * wait when the grace period is over (cgt_lock_writer_rebase). At 1,873 threads a grace
 * period took that long, and the soak reported it.
 */
struct gp_ctx {
	struct cgt_lock lock;
	int holding;			/* the grace-period holder is in its section */
	int stop;
	long reads;
	long reads_at_ask, reads_at_held;	/* around the writer's wait */
	double waited;
	struct starve_ctx threads;	/* registrations */
};

static void *gp_holder(void *arg)
{
	struct gp_ctx *c = arg;

	cgt_rcu_register_thread();
	rcu_read_lock();
	__atomic_store_n(&c->holding, 1, __ATOMIC_RELEASE);
	sleep_ms(1000);
	rcu_read_unlock();
	cgt_rcu_unregister_thread();
	return NULL;
}

static void *gp_reader(void *arg)
{
	struct gp_ctx *c = arg;
	struct cgt_thread *self = starve_register(&c->threads);

	cgt_rcu_register_thread();
	while (!__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE)) {
		cgt_read_lock(&c->lock);
		__atomic_fetch_add(&c->reads, 1, __ATOMIC_RELAXED);
		cgt_read_unlock(&c->lock);
		sleep_ms(5);
	}
	cgt_rcu_unregister_thread();
	cgt_thread_unregister(self);
	return NULL;
}

static void *gp_writer(void *arg)
{
	struct gp_ctx *c = arg;
	struct cgt_thread *self = starve_register(&c->threads);
	double t0;

	cgt_rcu_register_thread();
	c->reads_at_ask = __atomic_load_n(&c->reads, __ATOMIC_RELAXED);
	t0 = now_sec();
	cgt_write_lock(&c->lock);
	c->waited = now_sec() - t0;
	c->reads_at_held = __atomic_load_n(&c->reads, __ATOMIC_RELAXED);
	cgt_write_unlock(&c->lock);
	cgt_rcu_unregister_thread();
	cgt_thread_unregister(self);
	return NULL;
}

Test(detect, a_percpu_rwsem_writers_grace_period_is_no_starvation)
{
	static struct gp_ctx c;
	pthread_t holder, reader, writer;
	bool joined;

	fresh_state();
	start_detectors(60, STARVE_SEC);
	cgt_lock_init(&c.lock, cgt_lock_find("percpu-rwsem"), "test_threadgroup_rwsem");
	cr_assert_eq(pthread_create(&holder, NULL, gp_holder, &c), 0);
	wait_flag_at_least(&c.holding, 1, NULL);
	cr_assert_eq(pthread_create(&reader, NULL, gp_reader, &c), 0);
	while (__atomic_load_n(&c.reads, __ATOMIC_RELAXED) < 3)
		sleep_ms(1);
	cr_assert_eq(pthread_create(&writer, NULL, gp_writer, &c), 0);
	joined = join_within(writer, 10.0);
	__atomic_store_n(&c.stop, 1, __ATOMIC_RELEASE);
	joined &= join_within(reader, 10.0) && join_within(holder, 10.0);
	cgt_detect_stop();
	cr_assert(joined, "a thread did not finish");
	cr_assert_gt(c.waited, 3 * STARVE_SEC, "the writer waited %.2f s: no grace period held it",
		     c.waited);
	cr_assert_gt(c.reads_at_held - c.reads_at_ask, 0, "no read got in while the writer waited");
	cr_assert_eq(cgt_failure_count(CGT_DET_STARVATION), 0,
		     "a grace period the readers could not prolong was called starvation");
	cr_assert_eq(cgt_failure_count(CGT_DET_HANG), 0);
	cgt_lock_destroy(&c.lock);
}

/* A writer for passing_writer: queues behind the test's read hold, then gets in. */
static void *passing_writer(void *arg)
{
	struct starve_ctx *c = arg;
	struct cgt_thread *self = starve_register(c);

	cgt_write_lock(&c->lock);
	cgt_write_unlock(&c->lock);
	__atomic_store_n(&c->writes, 1, __ATOMIC_RELEASE);
	cgt_thread_unregister(self);
	return NULL;
}

/*
 * A reader-first lock doing what it is designed to do: while one read holds it, a writer
 * queues and 6,000 reads asked for after it get in past it; then the hold ends and the writer
 * gets in at once. That is no starvation (the writer waited milliseconds, not --starve), and
 * the passes are kept as the lock's figure. (The rule of 1,000 passes per second of --starve
 * reported it, and so failed the 3.14/3.15 tasklist_lock it models.)
 */
Test(detect, reader_first_passes_are_a_figure_not_a_failure)
{
	static struct starve_ctx c;
	struct cgt_lock_class cls;
	uint64_t worst = 0;
	pthread_t wr;
	double end;

	fresh_state();
	start_detectors(60, 5.0);
	cgt_lock_init(&c.lock, cgt_lock_find("rwlock-rpref"), "test_tasklist_lock");
	starve_register(&c);
	cgt_read_lock(&c.lock);
	cr_assert_eq(pthread_create(&wr, NULL, passing_writer, &c), 0);
	end = now_sec() + 10.0;
	while (__atomic_load_n(&c.lock.writer_queued_at, __ATOMIC_SEQ_CST) < 0 && now_sec() < end)
		sleep_ms(1);
	cr_assert_geq(__atomic_load_n(&c.lock.writer_queued_at, __ATOMIC_SEQ_CST), 0,
		      "the writer never queued");
	for (int i = 0; i < 6000; i++) {
		cgt_read_lock(&c.lock);
		cgt_read_unlock(&c.lock);
	}
	cgt_read_unlock(&c.lock);
	cr_assert(join_within(wr, 10.0), "the writer did not get in once the hold ended");
	cr_assert_eq(__atomic_load_n(&c.writes, __ATOMIC_ACQUIRE), 1);
	if (class_of("test_tasklist_lock", &cls))
		worst = cls.worst_queued_passed;
	cr_assert_geq(worst, 6000, "the passes were not counted: %lu", (unsigned long)worst);
	cr_assert_eq(cgt_failure_count(CGT_DET_STARVATION), 0,
		     "a reader-first lock's passes were called starvation");
	cgt_thread_unregister(&c.self[0]);
	cgt_detect_stop();
	cgt_lock_destroy(&c.lock);
}

/*
 * The same starvation where the run's era chose the reader-first lock (run.c registers it):
 * each report names the catalogue entry it is and is counted as known, and of the failures
 * none is of interest (the story, the child runs and replay skip it).
 */
Test(detect, starvation_of_the_eras_own_lock_is_known)
{
	static struct starve_ctx c = { .known = "reader-pref-rwlock" };
	struct cgt_failure f[CGT_MAX_FAILURES];
	int detector[CGT_MAX_FAILURES];
	long seen = starve_run(&c, "rwlock-rpref", false);
	int n = cgt_failures_get(f, CGT_MAX_FAILURES);

	cr_assert_geq(seen, 1, "writer passed over for 5 s and no starvation report");
	cr_assert_geq(n, 1);
	cr_assert_eq(cgt_failures_known(), cgt_failures_total());
	cr_assert_eq(cgt_failure_count_known(CGT_DET_STARVATION),
		     cgt_failure_count(CGT_DET_STARVATION));
	for (int i = 0; i < n; i++) {
		cr_assert_str_eq(f[i].known, "reader-pref-rwlock", "failure %d: %s", i, f[i].summary);
		cr_assert_str_eq(f[i].subject, "test_tasklist_lock");
		detector[i] = -1;
	}
	cr_assert_eq(cgt_failure_of_interest(CGT_NR_DETECTORS, detector, n), -1);
	detector[n - 1] = CGT_DET_HANG;
	cr_assert_eq(cgt_failure_of_interest(CGT_NR_DETECTORS, detector, n), n - 1,
		     "an unknown failure after known ones is the one of interest");
	cgt_lock_destroy(&c.lock);
}

/*
 * Twin: the writer-preferring rwlock (qrwlock): the waiting writer holds new readers back, the
 * readers inside drain and the writer gets in, every round, while the readers keep trying.
 */
Test(detect, starvation_silent_for_writer_preferring_rwlock)
{
	static struct starve_ctx c;
	long seen = starve_run(&c, "rwlock", true);

	cr_assert_eq(c.writes_while_readers_ran, WRITER_ROUNDS,
		     "the writer got in %d of %d times while the readers ran",
		     c.writes_while_readers_ran, WRITER_ROUNDS);
	cr_assert_eq(seen, 0);
	cr_assert_eq(cgt_failure_count(CGT_DET_STARVATION), 0);
	cgt_lock_destroy(&c.lock);
}

/*
 * A variant that promises FIFO says when its writer has queued (cgt_lock_writer_queued); a
 * read asked for after that which still gets in first is reported at once, with no wait
 * growing long. The leaky variant here marks its writer queued, then holds it back while
 * letting every reader in: the broken promise of a fast path that forgets the waiting bit.
 * (The twin above, the real rwlock with its writer queued again and again while the readers
 * hand over, must stay silent.)
 */
static int leaky_writer_may_go;

static void leaky_init(struct cgt_lock *lock) { (void)lock; }
static void leaky_nop(struct cgt_lock *lock) { (void)lock; }

static void leaky_write_lock(struct cgt_lock *lock)
{
	cgt_lock_writer_queued(lock);
	wait_flag_at_least(&leaky_writer_may_go, 1, NULL);
}

static const struct cgt_lock_ops leaky_rwlock_ops = {
	.name = "leaky-rwlock", .desc = "FIFO promised, readers let past", .shared = true,
	.policy = CGT_POLICY_FIFO, .init = leaky_init, .read_lock = leaky_nop,
	.read_unlock = leaky_nop, .write_lock = leaky_write_lock, .write_unlock = leaky_nop,
};

static struct cgt_lock leaky_lock;

static void *leaky_writer(void *arg)
{
	struct cgt_thread self;

	(void)arg;
	cgt_thread_register(&self, CGT_ROLE_ACTOR, 2);
	cgt_write_lock(&leaky_lock);
	cgt_write_unlock(&leaky_lock);
	cgt_thread_unregister(&self);
	return NULL;
}

Test(detect, starvation_read_passing_a_queued_writer_reported_at_once)
{
	struct cgt_thread self;
	struct cgt_failure f;
	pthread_t w;

	fresh_state();
	start_detectors(60, 60);	/* no wait may grow long enough to be starved */
	cgt_lock_init(&leaky_lock, &leaky_rwlock_ops, "test_fifo_lock");
	cgt_thread_register(&self, CGT_ROLE_ACTOR, 1);
	cgt_read_lock(&leaky_lock);	/* asked before any writer queued: no report */
	cgt_read_unlock(&leaky_lock);
	cr_assert_eq(cgt_failure_count(CGT_DET_STARVATION), 0);
	cr_assert_eq(pthread_create(&w, NULL, leaky_writer, NULL), 0);
	while (__atomic_load_n(&leaky_lock.writer_queued_at, __ATOMIC_ACQUIRE) < 0)
		nap();
	cgt_read_lock(&leaky_lock);
	cgt_read_unlock(&leaky_lock);
	__atomic_store_n(&leaky_writer_may_go, 1, __ATOMIC_RELEASE);
	cr_assert(join_within(w, 10.0), "the writer did not finish");
	cr_assert_eq(leaky_lock.writer_queued_at, -1, "the writer's mark outlived its wait");
	cgt_read_lock(&leaky_lock);	/* the writer got in and left: no second report */
	cgt_read_unlock(&leaky_lock);
	cgt_detect_stop();
	cgt_thread_unregister(&self);
	cr_assert_eq(cgt_failure_count(CGT_DET_STARVATION), 1);
	cr_assert(first_failure(CGT_DET_STARVATION, &f));
	cr_assert(strstr(f.summary, "test_fifo_lock") && strstr(f.summary, "queued"),
		  "summary: %s", f.summary);
	cgt_lock_destroy(&leaky_lock);
}

/*
 * Mutual exclusion, checked as each lock is taken: a variant that lets a second writer in,
 * or a reader beside a writer, is reported (invariant) the first time, once a run.
 */
static const struct cgt_lock_ops open_door_ops = {
	.name = "open-door", .desc = "excludes no one", .shared = true,
	.policy = CGT_POLICY_UNFAIR, .init = leaky_init, .read_lock = leaky_nop,
	.read_unlock = leaky_nop, .write_lock = leaky_nop, .write_unlock = leaky_nop,
};

Test(detect, invariant_mutual_exclusion_broken_reported)
{
	struct cgt_thread self;
	struct cgt_failure f;
	struct cgt_lock door, shut;

	fresh_state();
	start_detectors(60, 0);
	cgt_thread_register(&self, CGT_ROLE_ACTOR, 1);
	cgt_lock_init(&shut, cgt_lock_find("rwlock"), "test_shut_lock");
	cgt_write_lock(&shut);		/* a lock that excludes: nothing to say */
	cgt_write_unlock(&shut);
	cgt_read_lock(&shut);
	cgt_read_unlock(&shut);
	cr_assert_eq(cgt_failure_count(CGT_DET_INVARIANT), 0);
	cgt_lock_init(&door, &open_door_ops, "test_door_lock");
	cgt_write_lock(&door);
	cgt_read_lock(&door);		/* a reader beside the writer */
	cgt_write_lock(&door);		/* a second writer: the same report is not made twice */
	cgt_write_unlock(&door);
	cgt_read_unlock(&door);
	cgt_write_unlock(&door);
	cgt_detect_stop();
	cgt_thread_unregister(&self);
	cr_assert_eq(cgt_failure_count(CGT_DET_INVARIANT), 1);
	cr_assert(first_failure(CGT_DET_INVARIANT, &f));
	cr_assert(strstr(f.summary, "mutual exclusion broken: test_door_lock") &&
		  strstr(f.summary, "for reading"), "summary: %s", f.summary);
	cgt_lock_destroy(&door);
	cgt_lock_destroy(&shut);
}

/* ---- livelock ---- */

/*
 * walk-from-exiting (docs/detectors.md), seen by the livelock detector rather than by
 * walk_limit, which is out of reach here: the walk meets a thread a second time, or, slow,
 * outlives the watchdog's time bound (--stall 0.3 s). A walker thread starts a walk from
 * non-leader G of a 3-thread group, steps once, and lets the test thread run do_exit(G)
 * (which unhashes G: list_del_rcu); then it steps until the walk ends, after a pause if the
 * test asks.
 */
#define LIVELOCK_THREADS	3

static void livelock_boot(void)
{
	struct cgt_model_config cfg = {
		.css_set_lock_ops = cgt_lock_find("rwsem"),
		.tasklist_lock_ops = cgt_lock_find("rwlock"),
		.hooks = NULL,
		.iter = CGT_ITER_FOR_EACH,
		.walk_limit = 1000000000L,	/* never: the watchdog must end the walk */
	};

	fresh_state();
	cgt_rcu_register_thread();
	cr_assert_eq(cgt_model_init(&cfg), 0, "cgt_model_init failed");
	cgt_failures_reset();
}

struct walk_ctx {
	struct task *g;
	enum cgt_iter iter;
	int stepped;			/* walker: first two visits made */
	int exited;			/* test thread: G is gone */
	struct cgt_walk w;
	bool first_ok;
	struct cgt_thread self;
	long pause_ms;			/* walker: sleep this long before its next steps... */
	bool until_reported;		/* ...or, past it, until the watchdog stops the walk */
	bool g_stays;			/* test thread: G does not exit */
};

static void *walker_main(void *arg)
{
	struct walk_ctx *c = arg;
	struct task *t;

	cgt_rcu_register_thread();
	cgt_thread_register(&c->self, CGT_ROLE_WALKER, 0);
	rcu_read_lock();
	t = cgt_walk_first(&c->w, c->g, c->iter, "test");
	c->first_ok = t != NULL && cgt_walk_next(&c->w) != NULL;
	__atomic_store_n(&c->stepped, 1, __ATOMIC_RELEASE);
	wait_flag_at_least(&c->exited, 1, NULL);
	if (c->pause_ms) {
		struct timespec ts = { c->pause_ms / 1000, c->pause_ms % 1000 * 1000000 };

		nanosleep(&ts, NULL);
		/* a loaded machine may hold the watchdog off the CPU past the pause: wait for it */
		for (int i = 0; c->until_reported && i < 800 &&
				!__atomic_load_n(&c->self.walk_abort, __ATOMIC_ACQUIRE); i++)
			sleep_ms(10);
	}
	if (c->first_ok)
		while (cgt_walk_next(&c->w))
			;
	rcu_read_unlock();
	cgt_thread_unregister(&c->self);
	cgt_rcu_unregister_thread();
	return NULL;
}

/* Walk from th[2] with @iter while th[2] exits; fills @c. */
static void livelock_scenario(struct walk_ctx *c, struct task **th)
{
	pthread_t walker;
	bool joined;

	start_detectors(0.3, 0);
	fork_group(th, LIVELOCK_THREADS);
	c->g = th[2];
	cr_assert_not(thread_group_leader(c->g));
	cr_assert_eq(pthread_create(&walker, NULL, walker_main, c), 0);
	wait_flag_at_least(&c->stepped, 1, NULL);
	if (!c->g_stays) {
		do_exit(c->g);
		cr_assert_not(pid_alive(c->g));
	}
	__atomic_store_n(&c->exited, 1, __ATOMIC_RELEASE);
	joined = join_within(walker, 10.0);
	cr_assert(joined, "the walk did not end within 10 s");
	cgt_detect_stop();
	cr_assert(c->first_ok, "the walk did not make its first two visits");
}

static void livelock_cleanup(struct task **th)
{
	do_exit(th[1]);
	do_exit(th[0]);
	model_shutdown();
}

Test(detect, livelock_while_each_from_exiting_thread, .init = livelock_boot, .fini = model_fini)
{
	static struct walk_ctx c = { .iter = CGT_ITER_WHILE_EACH };
	struct task *th[LIVELOCK_THREADS];
	struct cgt_failure f;

	livelock_scenario(&c, th);
	cr_assert(c.w.overran, "while_each from an unhashed G ended by itself after %ld steps",
		  c.w.steps);
	cr_assert_eq(cgt_failure_count(CGT_DET_LIVELOCK), 1);
	cr_assert(first_failure(CGT_DET_LIVELOCK, &f));
	cr_assert_eq(f.thread_id, c.self.id);
	cr_assert(strstr(f.summary, "while_each"), "summary: %s", f.summary);
	cr_assert(strstr(f.summary, "exited"), "summary: %s", f.summary);
	cr_assert(strstr(c.w.fate, "exited"), "fate: %s", c.w.fate);
	cr_assert_not_null(f.evidence);
	cr_assert(strstr(f.evidence, "met a thread a second time"),
		  "the walk's loop, not walk_limit, must end it:\n%s", f.evidence);
	cr_assert_lt(c.w.steps, 10, "a ring of two, seen within four steps: %ld", c.w.steps);
	livelock_cleanup(th);
}

/*
 * A walk that does not loop but outlives --stall (here a walker asleep 1.5 s, then until the
 * watchdog has told it to stop) is reported.
 */
Test(detect, livelock_watchdog_reports_a_walk_older_than_stall, .init = livelock_boot,
     .fini = model_fini)
{
	static struct walk_ctx c = { .iter = CGT_ITER_FOR_EACH, .pause_ms = 1500,
				     .until_reported = true };
	struct task *th[LIVELOCK_THREADS];
	struct cgt_failure f;

	livelock_scenario(&c, th);
	cr_assert(c.w.overran, "the slow walk ended by itself after %ld steps", c.w.steps);
	cr_assert(first_failure(CGT_DET_LIVELOCK, &f));
	cr_assert(strstr(f.evidence, "livelock watchdog"),
		  "the watchdog, not walk_limit, must end the walk:\n%s", f.evidence);
	livelock_cleanup(th);
}

/*
 * The same slow walk (asleep 1.5 s, five stalls) from a G that stays: it is going through its
 * group, no further than the group's threads, and ends by itself. A walk that is slow because
 * thousands of threads share two cores is progress, not a livelock.
 */
Test(detect, livelock_silent_for_a_slow_walk_through_its_group, .init = livelock_boot,
     .fini = model_fini)
{
	static struct walk_ctx c = { .iter = CGT_ITER_FOR_EACH, .pause_ms = 1500, .g_stays = true };
	struct task *th[LIVELOCK_THREADS];

	livelock_scenario(&c, th);
	cr_assert_not(c.w.overran, "the slow walk through a live group was cut short: %s", c.w.fate);
	cr_assert_eq(c.w.steps, LIVELOCK_THREADS, "G, then the leader and th1: got %ld", c.w.steps);
	cr_assert_eq(cgt_failure_count(CGT_DET_LIVELOCK), 0);
	do_exit(th[2]);
	livelock_cleanup(th);
}

/* Twin: for_each_thread from the same G in the same scenario ends at signal->thread_head. */
Test(detect, livelock_silent_for_each_from_exiting_thread, .init = livelock_boot,
     .fini = model_fini)
{
	static struct walk_ctx c = { .iter = CGT_ITER_FOR_EACH };
	struct task *th[LIVELOCK_THREADS];

	livelock_scenario(&c, th);
	cr_assert_not(c.w.overran, "for_each was cut short after %ld steps: %s", c.w.steps,
		      c.w.fate);
	cr_assert_eq(c.w.steps, LIVELOCK_THREADS - 1, "leader and th1: got %ld", c.w.steps);
	cr_assert_eq(cgt_failure_count(CGT_DET_LIVELOCK), 0);
	cr_assert_eq(cgt_failures_total(), 0);
	livelock_cleanup(th);
}

/* ---- invariant ---- */

/*
 * invariant (cgt_check_group_in, run inside cgroup_procs_write in a stress run): a threadgroup
 * migration must move every thread (attach-no-threadgroup-lock in docs/detectors.md leaves
 * one behind). Here the group is split by hand: the whole group to cpu:/g1, then one thread alone
 * (cgroup_attach_task with threadgroup=false) to cpu:/g2. The check reports a violation,
 * which goes to the failure list as an invariant failure.
 */
#define INV_THREADS	3

static void move_one_thread(struct task *t, struct cgroup *cg)
{
	cgt_write_lock(&cgroup_mutex);
	cr_assert_eq(cgroup_attach_task(cg, t, false), 0);
	cgt_write_unlock(&cgroup_mutex);
}

Test(detect, invariant_split_group, .init = model_boot_while_each, .fini = model_fini)
{
	struct task *th[INV_THREADS];
	struct cgt_failure f;
	char tid[32];

	fork_group(th, INV_THREADS);
	cr_assert_eq(cgroup_procs_write(&cgroups[0][1], th[0]->pid), 0);
	cr_assert_eq(cgt_failures_total(), 0, "a whole-group migration reported a failure");
	move_one_thread(th[1], &cgroups[0][2]);

	cr_assert_neq(cgt_check_group_in(th[0], &cgroups[0][1], NULL, 0), 0,
		      "a split group went unnoticed");
	cr_assert_eq(cgt_failure_count(CGT_DET_INVARIANT), 1);
	cr_assert_eq(cgt_failures_total(), 1);
	cr_assert(first_failure(CGT_DET_INVARIANT, &f));
	snprintf(tid, sizeof(tid), "(tid %d)", th[1]->pid);
	cr_assert(strstr(f.summary, "left 1 thread(s) behind") && strstr(f.summary, tid),
		  "summary: %s", f.summary);
	cr_assert(strstr(f.summary, cgroups[0][1].name), "summary: %s", f.summary);
	/* put it back, so the model ends sound */
	move_one_thread(th[1], &cgroups[0][1]);
	cgt_failures_reset();
	assert_model_sound();
	for (int i = INV_THREADS - 1; i >= 0; i--)
		do_exit(th[i]);
	model_shutdown();
}

/* Twin: the same group migrated whole, checked against its cgroup: silent. */
Test(detect, invariant_whole_group_is_silent, .init = model_boot_while_each, .fini = model_fini)
{
	struct task *th[INV_THREADS];

	fork_group(th, INV_THREADS);
	cr_assert_eq(cgroup_procs_write(&cgroups[0][1], th[0]->pid), 0);
	cr_assert_eq(cgt_check_group_in(th[0], &cgroups[0][1], NULL, 0), 0);
	cr_assert_eq(cgt_failure_count(CGT_DET_INVARIANT), 0);
	cr_assert_eq(cgt_failures_total(), 0);
	assert_model_sound();
	for (int i = INV_THREADS - 1; i >= 0; i--)
		do_exit(th[i]);
	model_shutdown();
}

/* ---- deadline ---- */

static int aborted;

static void note_abort(void)
{
	__atomic_store_n(&aborted, 1, __ATOMIC_RELEASE);
}

static void start_with_deadline(double deadline)
{
	struct cgt_detect_config dc = { .stall = 60, .deadline = deadline, .on_abort = note_abort };

	fresh_state();
	__atomic_store_n(&aborted, 0, __ATOMIC_RELAXED);
	cgt_events_install(0, false, 1);
	cr_assert_eq(cgt_detect_start(&dc), 0, "cgt_detect_start failed");
}

/* A run past its deadline with nothing leaving is deaf: reported, and told to leave. */
Test(detect, deadline_fires_when_nothing_moves)
{
	static struct cgt_thread t[3];

	start_with_deadline(0.3);
	for (int i = 0; i < 3; i++)
		cgt_thread_register(&t[i], CGT_ROLE_ACTOR, 100 + i);
	for (int i = 0; i < 100 && !__atomic_load_n(&aborted, __ATOMIC_ACQUIRE); i++)
		sleep_ms(50);
	cr_assert(__atomic_load_n(&aborted, __ATOMIC_ACQUIRE), "no abort within 5 s");
	cr_assert_eq(cgt_failure_count(CGT_DET_DEADLINE), 1);
	cgt_detect_stop();
	for (int i = 0; i < 3; i++)
		cgt_thread_unregister(&t[i]);
}

/* So is one whose model threads still pass marked points, however slowly they end. */
Test(detect, deadline_waits_while_a_thread_steps)
{
	static struct cgt_thread t;

	start_with_deadline(0.3);
	cgt_thread_register(&t, CGT_ROLE_ACTOR, 100);
	for (int i = 0; i < 30; i++) {		/* 1.5 s of steps, one each 50 ms */
		sleep_ms(50);
		WRITE_ONCE(t.heartbeat_ns, cgt_clock_ns());
		cr_assert_not(__atomic_load_n(&aborted, __ATOMIC_ACQUIRE),
			      "deadline reported while a thread stepped (%d steps)", i);
	}
	for (int i = 0; i < 100 && !__atomic_load_n(&aborted, __ATOMIC_ACQUIRE); i++)
		sleep_ms(50);
	cr_assert(__atomic_load_n(&aborted, __ATOMIC_ACQUIRE), "no abort once it stopped");
	cr_assert_eq(cgt_failure_count(CGT_DET_DEADLINE), 1);
	cgt_detect_stop();
	cgt_thread_unregister(&t);
}

/*
 * A run winding down past its deadline (threads leaving, as a loaded machine's slow end
 * does) is let finish; once they stop leaving, the deadline holds again.
 */
Test(detect, deadline_waits_while_threads_leave)
{
	static struct cgt_thread t[40];

	start_with_deadline(0.3);
	for (int i = 0; i < 40; i++)
		cgt_thread_register(&t[i], CGT_ROLE_ACTOR, 100 + i);
	for (int i = 0; i < 40; i++) {		/* 2 s of leaving, one each 50 ms */
		sleep_ms(50);
		cgt_thread_unregister(&t[i]);
		cr_assert_not(__atomic_load_n(&aborted, __ATOMIC_ACQUIRE),
			      "deadline reported while threads still left (%d gone)", i);
	}
	for (int i = 0; i < 100 && !__atomic_load_n(&aborted, __ATOMIC_ACQUIRE); i++)
		sleep_ms(50);
	cr_assert(__atomic_load_n(&aborted, __ATOMIC_ACQUIRE), "no abort once nothing moved");
	cr_assert_eq(cgt_failure_count(CGT_DET_DEADLINE), 1);
	cgt_detect_stop();
}
