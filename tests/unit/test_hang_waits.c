// SPDX-License-Identifier: GPL-2.0
/*
 * hang (src/detect/hang.c) on the waits the kernel has: the rwsem-inside-rcu deadlock cycle,
 * de_thread's wait for its group, a waiter alone, a grace-period wait; and their twins.
 * The fixture and the rules these tests keep: detect_fixture.h.
 */
#include "detect_fixture.h"

TestSuite(hang_waits, .timeout = 60);

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
Test(hang_waits, hang_reports_rwsem_inside_rcu_deadlock_cycle)
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
	/* and handed over as data: the threads the report's picture and timeline show */
	cr_assert_eq(f.ninvolved, 2, "%d threads handed over", f.ninvolved);
	cr_assert((f.involved[0] == c.w_id && f.involved[1] == c.r_id) ||
		  (f.involved[0] == c.r_id && f.involved[1] == c.w_id),
		  "handed over threads %d and %d, not %d and %d", f.involved[0], f.involved[1],
		  c.w_id, c.r_id);
	/* and the reader's mistake was caught on the way, before any hang */
	cr_assert_eq(cgt_failure_count(CGT_DET_RCU_NESTING), 1);
}

/* Twin: R takes L before rcu_read_lock. Rounds go on for 1.5 s, no hang, both threads join. */
Test(hang_waits, hang_silent_when_rwsem_taken_outside_rcu)
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

Test(hang_waits, thread_runnable_tells_running_from_asleep)
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

Test(hang_waits, hang_group_exit_wait_moving_group_is_silent)
{
	static struct group_ctx c = { .sibling_moves = 1 };

	cr_assert_not(group_wait(&c), "a de_thread wait reported while its group still moved");
}

Test(hang_waits, hang_group_exit_wait_silent_group_reported_after_one_stall)
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
Test(hang_waits, hang_group_exit_wait_for_a_thread_not_yet_run_is_no_hang)
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
Test(hang_waits, hang_group_exit_wait_for_a_thread_its_parent_has_not_woken_is_no_hang)
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

Test(hang_waits, hang_group_exit_wait_alone_and_asleep_is_a_lost_wakeup)
{
	cr_assert(lone_wait(LONE_GROUP, false),
		  "a de_thread waiter asleep with nobody in its way went unreported");
}

Test(hang_waits, hang_group_exit_wait_alone_and_runnable_is_no_hang)
{
	cr_assert_not(lone_wait(LONE_GROUP, true),
		      "a woken de_thread waiter waiting for a CPU was called hung");
}

Test(hang_waits, hang_sleeping_lock_waiter_alone_and_asleep_is_a_lost_wakeup)
{
	cr_assert(lone_wait(LONE_SLEEPING_LOCK, false),
		  "a mutex waiter asleep with nobody in its way went unreported");
}

Test(hang_waits, hang_sleeping_lock_waiter_alone_and_runnable_is_no_hang)
{
	cr_assert_not(lone_wait(LONE_SLEEPING_LOCK, true),
		      "a woken mutex waiter waiting for a CPU was called hung");
}

/*
 * Two threads and a test lock of a variant: a second thread started first (it registers
 * and sets ->ready once in place), then the calling thread's wait for the lock, for writing,
 * while @during runs; then ->stop, and the second thread joined (unless @during did). Whether
 * the hang watch, at @stall, reported.
 */
struct beside {
	struct cgt_lock lock;
	struct cgt_thread self;		/* the second thread's */
	int ready, stop, joined;
	pthread_t th;
	double stall;
	int opt;			/* the test's own */
};

static void spin_for(double s)
{
	for (double end = now_sec() + s; now_sec() < end; )
		cpu_relax();
}

static bool wait_beside(struct beside *b, const char *variant, double stall, int opt,
			void *(*second)(void *), void (*during)(struct beside *b))
{
	struct cgt_thread self;
	bool hung;

	fresh_state();
	start_detectors(stall, 0);
	memset(b, 0, sizeof(*b));
	b->stall = stall;
	b->opt = opt;
	cgt_lock_init(&b->lock, cgt_lock_find(variant), "test_lock");
	cgt_thread_register(&self, CGT_ROLE_ACTOR, 1);
	cr_assert_eq(pthread_create(&b->th, NULL, second, b), 0);
	while (!__atomic_load_n(&b->ready, __ATOMIC_ACQUIRE))
		sleep_ms(1);
	WRITE_ONCE(self.wait_static, 1);
	cgt_wait_begin_at(&b->lock, "test_lock", CGT_WAIT_WRITE, cgt_clock_coarse_ns());
	during(b);
	cgt_wait_end();
	hung = cgt_failure_count(CGT_DET_HANG) > 0;
	__atomic_store_n(&b->stop, 1, __ATOMIC_RELEASE);
	cr_assert(b->joined || join_within(b->th, 10.0), "the second thread did not finish");
	cgt_detect_stop();
	cgt_thread_unregister(&self);
	cgt_lock_destroy(&b->lock);
	return hung;
}

/*
 * A sleeping lock its holder let go a moment ago, with a sleeper the wake has not reached
 * yet (a machine loaded many times over: a 3.14 soak run's cgroup_mutex, held for seconds by
 * a writer the reader-first css_set_lock kept out, had 16 sleepers and no holder for a moment
 * and was reported). The holder spins, holding it, for two stalls; the sleeper's record then
 * stays asleep a while longer, with nobody in its way.
 */
static void *let_go_holder(void *arg)
{
	struct beside *b = arg;

	cgt_thread_register(&b->self, CGT_ROLE_ACTOR, 2);
	cgt_write_lock(&b->lock);
	__atomic_store_n(&b->ready, 1, __ATOMIC_RELEASE);
	spin_for(2 * b->stall);
	cgt_write_unlock(&b->lock);
	cgt_thread_unregister(&b->self);
	return NULL;
}

/* the holder gone, the sleeper's record stays asleep ->opt ms longer */
static void let_go_then_asleep(struct beside *b)
{
	pthread_join(b->th, NULL);
	b->joined = 1;
	sleep_ms(b->opt);
}

static bool let_go(long after_ms)
{
	static struct beside b;

	return wait_beside(&b, "mutex", 1.0, (int)after_ms, let_go_holder, let_go_then_asleep);
}

Test(hang_waits, hang_sleeping_lock_just_let_go_is_no_hang)
{
	cr_assert_not(let_go(300),
		      "a mutex's sleeper the wake had not reached a moment after its holder let "
		      "go was called hung");
}

Test(hang_waits, hang_sleeping_lock_let_go_and_left_asleep_is_a_lost_wakeup)
{
	cr_assert(let_go(3000),
		  "a mutex's sleeper left asleep a whole stall after its holder let go went "
		  "unreported");
}

/*
 * --off-cpu's holder naps in 10 ms sleeps, runnable for a moment as each ends (on a loaded
 * machine, for longer: a CI run's look caught it so and called the chain moving). Marked off
 * the CPU it does not move, however runnable; the twin, the same holder unmarked and on the
 * CPU, is at work. It holds a mutex for three stalls while a writer waits for it.
 */
static void *off_cpu_holder(void *arg)
{
	struct beside *b = arg;

	cgt_thread_register(&b->self, CGT_ROLE_ACTOR, 2);
	cgt_write_lock(&b->lock);
	cgt_thread_set_off_cpu(b->opt);
	__atomic_store_n(&b->ready, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&b->stop, __ATOMIC_ACQUIRE))
		cpu_relax();
	cgt_thread_set_off_cpu(false);
	cgt_write_unlock(&b->lock);
	cgt_thread_unregister(&b->self);
	return NULL;
}

static void asleep_three_stalls(struct beside *b)
{
	sleep_ms((long)(3 * b->stall * 1000));
}

static bool wait_for_holder(bool off_cpu)
{
	static struct beside b;

	return wait_beside(&b, "mutex", 0.5, off_cpu, off_cpu_holder, asleep_three_stalls);
}

Test(hang_waits, hang_holder_off_cpu_is_a_hang_though_runnable)
{
	cr_assert(wait_for_holder(true),
		  "a writer waiting three stalls for a holder off the CPU went unreported");
}

Test(hang_waits, hang_holder_at_work_is_no_hang)
{
	cr_assert_not(wait_for_holder(false),
		      "a writer waiting for a holder at work on the CPU was called hung");
}

Test(hang_waits, hang_spinning_lock_waiter_alone_is_a_hang_though_runnable)
{
	cr_assert(lone_wait(LONE_SPINNING_LOCK, true),
		  "a spinlock waiter spinning on a lock nobody holds went unreported");
}

/*
 * A spinlock nobody is recorded holding, its waiter spinning past the stall, beside a second
 * waiter of it that does not get a CPU the whole time (asleep here; on a machine loaded many
 * times over, preempted, perhaps just after it touched the lock word: our spinning variants
 * touch it before a holder is recorded). Until that one has had a turn the lock may be held:
 * no hang. The twin's second waiter spins too: both had their turns, the lock is left
 * locked (a hang).
 */
static void *second_waiter(void *arg)
{
	struct beside *b = arg;

	cgt_thread_register(&b->self, CGT_ROLE_ACTOR, 2);
	WRITE_ONCE(b->self.wait_static, 1);
	cgt_wait_begin_at(&b->lock, "test_lock", CGT_WAIT_WRITE, cgt_clock_coarse_ns());
	__atomic_store_n(&b->ready, 1, __ATOMIC_RELEASE);
	/*
	 * one sleep past the first waiter's spin: off the CPU the whole time, and not in a
	 * lock's futex wait (a preempted thread is not)
	 */
	if (!b->opt)
		sleep_ms(2500);
	while (!__atomic_load_n(&b->stop, __ATOMIC_ACQUIRE))
		spin_for(0.01);
	cgt_wait_end();
	cgt_thread_unregister(&b->self);
	return NULL;
}

static void spin_four_stalls(struct beside *b)
{
	spin_for(4 * b->stall);
}

static bool spin_beside(bool second_spins)
{
	static struct beside b;

	return wait_beside(&b, "spinlock", 0.5, second_spins, second_waiter, spin_four_stalls);
}

Test(hang_waits, hang_spinning_lock_beside_a_waiter_without_a_cpu_is_no_hang)
{
	cr_assert_not(spin_beside(false),
		      "a spinlock's spinner was called hung while another waiter of it, which "
		      "may hold its word, had not run");
}

Test(hang_waits, hang_spinning_lock_whose_waiters_all_ran_is_a_hang)
{
	cr_assert(spin_beside(true),
		  "a spinlock left locked, its two spinners both on the CPU, went unreported");
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

Test(hang_waits, hang_grace_period_wait_while_grace_periods_end_is_no_hang)
{
	static struct gp_queue_ctx c = { .ending = 1 };

	cr_assert_not(gp_wait(&c), "a synchronize_rcu queued while grace periods ended was called hung");
}

Test(hang_waits, hang_grace_period_wait_with_rcu_stopped_is_a_hang)
{
	static struct gp_queue_ctx c = { .ending = 0 };

	cr_assert(gp_wait(&c), "a synchronize_rcu with no grace period ending for 3 stalls went unreported");
}
