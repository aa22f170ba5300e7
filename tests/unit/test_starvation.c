// SPDX-License-Identifier: GPL-2.0
/*
 * starvation (src/detect/starvation.c): a writer passed over by readers; a read past a
 * queued writer of a lock that promised it a place; the era's own reader-first lock known.
 * The fixture and the rules these tests keep: detect_fixture.h.
 */
#include "detect_fixture.h"
#include "../../src/report/interest.h"

TestSuite(starvation, .timeout = 60);

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
Test(starvation, starvation_reader_preferring_rwlock)
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

Test(starvation, a_percpu_rwsem_writers_grace_period_is_no_starvation)
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
Test(starvation, reader_first_passes_are_a_figure_not_a_failure)
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
Test(starvation, starvation_of_the_eras_own_lock_is_known)
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
Test(starvation, starvation_silent_for_writer_preferring_rwlock)
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

Test(starvation, starvation_read_passing_a_queued_writer_reported_at_once)
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
