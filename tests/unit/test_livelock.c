// SPDX-License-Identifier: GPL-2.0
/*
 * livelock (src/detect/livelock.c): while_each_thread from an unhashed thread.
 * The fixture and the rules these tests keep: detect_fixture.h.
 */
#include "detect_fixture.h"

TestSuite(livelock, .timeout = 60);

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

Test(livelock, livelock_while_each_from_exiting_thread, .init = livelock_boot, .fini = model_fini)
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
Test(livelock, livelock_watchdog_reports_a_walk_older_than_stall, .init = livelock_boot,
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
Test(livelock, livelock_silent_for_a_slow_walk_through_its_group, .init = livelock_boot,
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
Test(livelock, livelock_silent_for_each_from_exiting_thread, .init = livelock_boot,
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

/*
 * oom_kill_process before 3.14 (walk-from-exiting): the endless walk holds tasklist_lock
 * for reading, and an exit's write_lock_irq spins behind it. A walk that goes round while
 * holding a lock no writer waits for yet goes on (the kernel's would spin for ever); once
 * one waits, the report names it, as the kernel's NMI backtraces show do_exit spinning.
 */
struct held_walk {
	struct walk_ctx c;
	int holding;			/* walker: tasklist_lock taken, the walk going round */
	struct cgt_thread writer;
};

static void *held_walker_main(void *arg)
{
	struct held_walk *h = arg;
	struct walk_ctx *c = &h->c;
	struct task *t;

	cgt_rcu_register_thread();
	cgt_thread_register(&c->self, CGT_ROLE_WALKER, 0);
	rcu_read_lock();
	t = cgt_walk_first(&c->w, c->g, c->iter, "oom_kill_process");
	c->first_ok = t != NULL && cgt_walk_next(&c->w) != NULL;
	__atomic_store_n(&c->stepped, 1, __ATOMIC_RELEASE);
	wait_flag_at_least(&c->exited, 1, NULL);
	cgt_read_lock(&tasklist_lock);
	c->w.held = &tasklist_lock;
	__atomic_store_n(&h->holding, 1, __ATOMIC_RELEASE);
	if (c->first_ok)
		while (cgt_walk_next(&c->w))
			;
	cgt_read_unlock(&tasklist_lock);
	rcu_read_unlock();
	cgt_thread_unregister(&c->self);
	cgt_rcu_unregister_thread();
	return NULL;
}

static void *exit_writer_main(void *arg)
{
	struct held_walk *h = arg;

	cgt_thread_register(&h->writer, CGT_ROLE_ACTOR, 0);
	wait_flag_at_least(&h->holding, 1, NULL);
	cgt_write_lock(&tasklist_lock);		/* do_exit's write_lock_irq */
	cgt_write_unlock(&tasklist_lock);
	cgt_thread_unregister(&h->writer);
	return NULL;
}

Test(livelock, livelock_under_tasklist_lock_names_the_writers_behind_it,
     .init = livelock_boot, .fini = model_fini)
{
	static struct held_walk h = { .c = { .iter = CGT_ITER_WHILE_EACH } };
	struct task *th[LIVELOCK_THREADS];
	pthread_t walker, writer;
	struct cgt_failure f;
	char want[96];

	start_detectors(0.3, 0);
	fork_group(th, LIVELOCK_THREADS);
	h.c.g = th[2];
	cr_assert_eq(pthread_create(&walker, NULL, held_walker_main, &h), 0);
	cr_assert_eq(pthread_create(&writer, NULL, exit_writer_main, &h), 0);
	wait_flag_at_least(&h.c.stepped, 1, NULL);
	do_exit(h.c.g);
	__atomic_store_n(&h.c.exited, 1, __ATOMIC_RELEASE);
	cr_assert(join_within(walker, 10.0), "the walk did not end within 10 s");
	cr_assert(join_within(writer, 10.0), "the writer did not get in within 10 s");
	cgt_detect_stop();
	cr_assert(h.c.w.overran);
	cr_assert(first_failure(CGT_DET_LIVELOCK, &f));
	cr_assert_not_null(f.evidence);
	snprintf(want, sizeof(want), "behind it: thread %d (tid 0) waits for tasklist_lock "
		 "(write), which the walker holds (read)", h.writer.id);
	cr_assert(strstr(f.evidence, want), "no \"%s\" in:\n%s", want, f.evidence);
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

Test(livelock, invariant_split_group, .init = model_boot_while_each, .fini = model_fini)
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
Test(livelock, invariant_whole_group_is_silent, .init = model_boot_while_each, .fini = model_fini)
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
	cr_assert_eq(cgt_detect_watch(), 0, "cgt_detect_watch failed");
}

/* A run past its deadline with nothing leaving is deaf: reported, and told to leave. */
Test(livelock, deadline_fires_when_nothing_moves)
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
Test(livelock, deadline_waits_while_a_thread_steps)
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
Test(livelock, deadline_waits_while_threads_leave)
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
