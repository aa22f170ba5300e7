// SPDX-License-Identifier: GPL-2.0
/*
 * The lock variants (src/locks), each checked as the kernel's locktorture checks a lock
 * type, under real concurrent pthreads: writers exclude everyone (write_lock/write_unlock as
 * spin_lock, write_lock, down_write), readers share where the variant says so (read_lock,
 * down_read), and the registry finds variants by name.
 *
 * The variants are driven through their ops tables, not the model's cgt_read_lock() wrappers,
 * so that what is tested is the variant's own exclusion. Every test is parameterized over
 * cgt_lock_variants[], so a new variant is tested as soon as it is registered. Every thread
 * is a registered RCU reader: variants whose readers use RCU (rcu-spinlock, percpu-rwsem)
 * require it.
 */
#define _GNU_SOURCE	/* gettid */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../src/base/compiler.h"
#include "../../src/core/rcu.h"
#include "../../src/locks/lock.h"

#define NTHREADS	4
#define ITERS		20000
#define SHARE_WAIT_SEC	5.0	/* how long a reader waits for the other to join it */
#define EXCL_WAIT_SEC	0.2	/* how long the holder watches a second reader stay out */

static double now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void nap(void)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = 100 * 1000 };

	nanosleep(&ts, NULL);
}

/* A lock of @ops, set up through the variant's own init (no model bookkeeping). */
static void lock_setup(struct cgt_lock *lock, const struct cgt_lock_ops *ops)
{
	memset(lock, 0, sizeof(*lock));
	lock->ops = ops;
	lock->name = "test_lock";
	ops->init(lock);
}

static void lock_teardown(struct cgt_lock *lock)
{
	if (lock->ops->destroy)
		lock->ops->destroy(lock);
}

/* Parameters: an index into cgt_lock_variants[], one test instance per variant. */
static void free_params(struct criterion_test_params *crp)
{
	cr_free(crp->params);
}

static struct criterion_test_params variant_params(void)
{
	size_t *idx = cr_malloc(cgt_nr_lock_variants * sizeof(*idx));

	for (size_t i = 0; i < cgt_nr_lock_variants; i++)
		idx[i] = i;
	return cr_make_param_array(size_t, idx, cgt_nr_lock_variants, free_params);
}

static const struct cgt_lock_ops *variant(const size_t *idx)
{
	cr_assert_lt(*idx, cgt_nr_lock_variants);
	return cgt_lock_variants[*idx];
}

/* ---- writers exclude writers, and readers ---- */

struct torture {
	struct cgt_lock lock;
	int go;				/* release-stored once every thread exists */
	long counter;			/* plain: only ever touched under the write lock */
	int writers_inside;		/* atomics, checked by whoever is inside */
	int readers_inside;
	int max_writers_inside;
	int max_readers_inside;
	long violations;		/* a reader saw a writer inside, or a writer a reader */
	long reads;
};

struct worker {
	pthread_t thread;
	struct torture *tt;
	bool writer;
};

static void stat_max(int *max, int v)
{
	int old = __atomic_load_n(max, __ATOMIC_RELAXED);

	while (v > old && !__atomic_compare_exchange_n(max, &old, v, true, __ATOMIC_RELAXED,
						       __ATOMIC_RELAXED))
		;
}

/* A small critical section, long enough for another thread to get in if it could. */
static void hold_a_while(unsigned int i)
{
	for (unsigned int k = 0; k < (i & 7); k++)
		cpu_relax();
}

/* Writer body: ITERS write_lock sections, each a non-atomic increment and a crowd check. */
static void *writer_main(void *arg)
{
	struct worker *w = arg;
	struct torture *tt = w->tt;
	const struct cgt_lock_ops *ops = tt->lock.ops;

	cgt_rcu_register_thread();
	while (!__atomic_load_n(&tt->go, __ATOMIC_ACQUIRE))
		sched_yield();
	for (unsigned int i = 0; i < ITERS; i++) {
		ops->write_lock(&tt->lock);
		stat_max(&tt->max_writers_inside,
			 __atomic_add_fetch(&tt->writers_inside, 1, __ATOMIC_RELAXED));
		if (__atomic_load_n(&tt->readers_inside, __ATOMIC_RELAXED))
			__atomic_fetch_add(&tt->violations, 1, __ATOMIC_RELAXED);
		tt->counter++;
		hold_a_while(i);
		__atomic_fetch_sub(&tt->writers_inside, 1, __ATOMIC_RELAXED);
		ops->write_unlock(&tt->lock);
	}
	cgt_rcu_unregister_thread();
	return NULL;
}

/* Reader body: ITERS read_lock sections; no writer may be inside meanwhile. */
static void *reader_main(void *arg)
{
	struct worker *w = arg;
	struct torture *tt = w->tt;
	const struct cgt_lock_ops *ops = tt->lock.ops;
	long before, after;

	cgt_rcu_register_thread();
	while (!__atomic_load_n(&tt->go, __ATOMIC_ACQUIRE))
		sched_yield();
	for (unsigned int i = 0; i < ITERS; i++) {
		ops->read_lock(&tt->lock);
		stat_max(&tt->max_readers_inside,
			 __atomic_add_fetch(&tt->readers_inside, 1, __ATOMIC_RELAXED));
		if (__atomic_load_n(&tt->writers_inside, __ATOMIC_RELAXED))
			__atomic_fetch_add(&tt->violations, 1, __ATOMIC_RELAXED);
		/* the writers' counter holds still while we read it */
		before = tt->counter;
		hold_a_while(i);
		after = tt->counter;
		if (before != after)
			__atomic_fetch_add(&tt->violations, 1, __ATOMIC_RELAXED);
		__atomic_fetch_sub(&tt->readers_inside, 1, __ATOMIC_RELAXED);
		ops->read_unlock(&tt->lock);
		__atomic_fetch_add(&tt->reads, 1, __ATOMIC_RELAXED);
	}
	cgt_rcu_unregister_thread();
	return NULL;
}

static void torture_run(struct torture *tt, const struct cgt_lock_ops *ops, int nwriters,
			int nreaders)
{
	struct worker w[NTHREADS];
	int n = nwriters + nreaders;

	cr_assert_leq(n, NTHREADS);
	memset(tt, 0, sizeof(*tt));
	lock_setup(&tt->lock, ops);
	for (int i = 0; i < n; i++) {
		w[i].tt = tt;
		w[i].writer = i < nwriters;
		cr_assert_eq(pthread_create(&w[i].thread, NULL,
					    w[i].writer ? writer_main : reader_main, &w[i]), 0);
	}
	__atomic_store_n(&tt->go, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < n; i++)
		cr_assert_eq(pthread_join(w[i].thread, NULL), 0);
	lock_teardown(&tt->lock);
}

ParameterizedTestParameters(locks, writers_exclude_writers)
{
	return variant_params();
}

/* spin_lock/write_lock/down_write mutual exclusion (locktorture's lock_torture_writer). */
ParameterizedTest(size_t *idx, locks, writers_exclude_writers, .timeout = 60)
{
	const struct cgt_lock_ops *ops = variant(idx);
	static struct torture tt;

	torture_run(&tt, ops, NTHREADS, 0);
	cr_assert_eq(tt.counter, (long)NTHREADS * ITERS, "%s: counter %ld, want %ld (lost updates)",
		     ops->name, tt.counter, (long)NTHREADS * ITERS);
	cr_assert_eq(tt.max_writers_inside, 1, "%s: %d writers inside at once",
		     ops->name, tt.max_writers_inside);
	cr_assert_eq(tt.violations, 0);
}

ParameterizedTestParameters(locks, writers_exclude_readers)
{
	return variant_params();
}

/*
 * read_lock vs write_lock (locktorture's lock_torture_reader against its writers): 2 writers
 * and 2 readers; no reader is inside while a writer is, the writers' count stays exact, and
 * readers of an exclusive variant never overlap.
 */
ParameterizedTest(size_t *idx, locks, writers_exclude_readers, .timeout = 60)
{
	const struct cgt_lock_ops *ops = variant(idx);
	static struct torture tt;

	if (ops->rcu_readers)
		cr_skip_test("%s: readers run beside writers by design (rcu_readers_pass_a_writer)",
			     ops->name);
	torture_run(&tt, ops, NTHREADS / 2, NTHREADS / 2);
	cr_assert_eq(tt.counter, (long)(NTHREADS / 2) * ITERS, "%s: counter %ld", ops->name,
		     tt.counter);
	cr_assert_eq(tt.max_writers_inside, 1, "%s: %d writers inside", ops->name,
		     tt.max_writers_inside);
	cr_assert_eq(tt.violations, 0, "%s: %ld reader/writer overlaps", ops->name,
		     tt.violations);
	cr_assert_eq(tt.reads, (long)(NTHREADS / 2) * ITERS);
	if (!ops->shared)
		cr_assert_eq(tt.max_readers_inside, 1, "%s is exclusive, yet %d readers overlapped",
			     ops->name, tt.max_readers_inside);
}

/* ---- readers share (shared variants), or exclude one another (exclusive ones) ---- */

struct share {
	struct cgt_lock lock;
	int a_inside;		/* reader A holds the lock */
	int b_trying;		/* reader B is about to call read_lock */
	int b_inside;		/* reader B holds the lock */
	int a_release;		/* A may let go */
	int both_inside;	/* A saw B inside while A held the lock */
	int b_inside_while_a;	/* B got in while A still held it (exclusive: must not) */
	int a_done;		/* A has released */
};

/* Reader A: takes the lock, then waits (bounded) for B to be inside too. */
static void *share_reader_a(void *arg)
{
	struct share *s = arg;
	const struct cgt_lock_ops *ops = s->lock.ops;
	double deadline;

	cgt_rcu_register_thread();
	ops->read_lock(&s->lock);
	__atomic_store_n(&s->a_inside, 1, __ATOMIC_RELEASE);
	if (ops->shared) {
		/* B must get in beside us; give up after SHARE_WAIT_SEC rather than hang */
		deadline = now_sec() + SHARE_WAIT_SEC;
		while (!__atomic_load_n(&s->b_inside, __ATOMIC_ACQUIRE) && now_sec() < deadline)
			nap();
		if (__atomic_load_n(&s->b_inside, __ATOMIC_ACQUIRE))
			__atomic_store_n(&s->both_inside, 1, __ATOMIC_RELAXED);
		/* hold on until B has seen us, so the overlap is real on both sides */
		while (!__atomic_load_n(&s->a_release, __ATOMIC_ACQUIRE) && now_sec() < deadline)
			nap();
	} else {
		/* B is trying; watch it stay out for a short while, then let it in */
		while (!__atomic_load_n(&s->b_trying, __ATOMIC_ACQUIRE))
			nap();
		deadline = now_sec() + EXCL_WAIT_SEC;
		while (now_sec() < deadline) {
			if (__atomic_load_n(&s->b_inside, __ATOMIC_ACQUIRE))
				__atomic_store_n(&s->b_inside_while_a, 1, __ATOMIC_RELAXED);
			nap();
		}
		if (__atomic_load_n(&s->b_inside, __ATOMIC_ACQUIRE))
			__atomic_store_n(&s->b_inside_while_a, 1, __ATOMIC_RELAXED);
	}
	__atomic_store_n(&s->a_done, 1, __ATOMIC_RELEASE);
	ops->read_unlock(&s->lock);
	cgt_rcu_unregister_thread();
	return NULL;
}

/* Reader B: once A holds the lock, takes it too. */
static void *share_reader_b(void *arg)
{
	struct share *s = arg;
	const struct cgt_lock_ops *ops = s->lock.ops;

	cgt_rcu_register_thread();
	while (!__atomic_load_n(&s->a_inside, __ATOMIC_ACQUIRE))
		nap();
	__atomic_store_n(&s->b_trying, 1, __ATOMIC_RELEASE);
	ops->read_lock(&s->lock);
	/* an exclusive lock lets B in only after A has released it */
	if (!ops->shared && !__atomic_load_n(&s->a_done, __ATOMIC_ACQUIRE))
		__atomic_store_n(&s->b_inside_while_a, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&s->b_inside, 1, __ATOMIC_RELEASE);
	if (ops->shared && __atomic_load_n(&s->a_inside, __ATOMIC_ACQUIRE) &&
	    !__atomic_load_n(&s->a_done, __ATOMIC_ACQUIRE))
		__atomic_store_n(&s->a_release, 1, __ATOMIC_RELEASE);
	ops->read_unlock(&s->lock);
	cgt_rcu_unregister_thread();
	return NULL;
}

ParameterizedTestParameters(locks, readers_share)
{
	return variant_params();
}

/*
 * read_lock/down_read sharing: for a variant with ops->shared (rwlock_t, rw_semaphore), two
 * readers are inside at once: A holds the lock and waits, up to SHARE_WAIT_SEC, for B to be
 * inside too; no deadlock. For an exclusive variant (spinlock_t) B cannot enter while A holds
 * it (watched for EXCL_WAIT_SEC), and gets in once A lets go.
 */
ParameterizedTest(size_t *idx, locks, readers_share, .timeout = 30)
{
	const struct cgt_lock_ops *ops = variant(idx);
	static struct share s;
	pthread_t a, b;

	memset(&s, 0, sizeof(s));
	lock_setup(&s.lock, ops);
	cr_assert_eq(pthread_create(&a, NULL, share_reader_a, &s), 0);
	cr_assert_eq(pthread_create(&b, NULL, share_reader_b, &s), 0);
	cr_assert_eq(pthread_join(a, NULL), 0);
	cr_assert_eq(pthread_join(b, NULL), 0);
	lock_teardown(&s.lock);

	cr_assert(s.b_inside, "%s: reader B never got the lock", ops->name);
	if (ops->shared) {
		cr_assert(s.both_inside, "%s: shared, yet two readers were never inside at once",
			  ops->name);
		cr_assert(s.a_release, "%s: B never saw A inside", ops->name);
	} else {
		cr_assert_not(s.b_inside_while_a, "%s: exclusive, yet B got in while A held it",
			      ops->name);
	}
}

/*
 * locktorture's lock_busted: a "lock" that excludes nobody. The torture above must catch it,
 * or its passes on the real variants would mean nothing. Overlaps need the threads to run
 * at once, so the run is repeated (bounded) until they do.
 */
static void busted_init(struct cgt_lock *lock)
{
	(void)lock;
}

static void busted_op(struct cgt_lock *lock)
{
	(void)lock;
}

static const struct cgt_lock_ops busted_lock_ops = {
	.name		= "busted",
	.desc		= "excludes nobody (locktorture's lock_busted)",
	.shared		= false,
	.init		= busted_init,
	.read_lock	= busted_op,
	.read_unlock	= busted_op,
	.write_lock	= busted_op,
	.write_unlock	= busted_op,
};

Test(locks, torture_catches_busted_lock, .timeout = 60)
{
	static struct torture tt;
	double deadline = now_sec() + 10.0;
	int runs = 0;
	bool caught = false;

	while (!caught && now_sec() < deadline) {
		torture_run(&tt, &busted_lock_ops, NTHREADS, 0);
		runs++;
		caught = tt.max_writers_inside > 1 || tt.counter != (long)NTHREADS * ITERS;
	}
	cr_assert(caught, "a lock that excludes nobody passed %d torture runs", runs);
}

/* ---- a writer waits for the reader that came first, and then keeps new readers out ---- */

struct handover {
	struct cgt_lock lock;
	int writer_in;		/* the writer holds the lock */
	int writer_out;		/* the writer may let go */
	int reader_in;		/* the late reader got in */
};

static void *handover_writer(void *arg)
{
	struct handover *h = arg;

	cgt_rcu_register_thread();
	h->lock.ops->write_lock(&h->lock);
	__atomic_store_n(&h->writer_in, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&h->writer_out, __ATOMIC_ACQUIRE))
		nap();
	h->lock.ops->write_unlock(&h->lock);
	cgt_rcu_unregister_thread();
	return NULL;
}

static void *handover_reader(void *arg)
{
	struct handover *h = arg;

	cgt_rcu_register_thread();
	h->lock.ops->read_lock(&h->lock);
	__atomic_store_n(&h->reader_in, 1, __ATOMIC_RELEASE);
	h->lock.ops->read_unlock(&h->lock);
	cgt_rcu_unregister_thread();
	return NULL;
}

/* Whether *@flag is set within @sec seconds. */
static bool set_within(int *flag, double sec)
{
	double deadline = now_sec() + sec;

	while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE) && now_sec() < deadline)
		nap();
	return __atomic_load_n(flag, __ATOMIC_ACQUIRE);
}

ParameterizedTestParameters(locks, writer_waits_for_earlier_reader)
{
	return variant_params();
}

/*
 * down_read, then down_write from another thread: the writer stays out while the reader
 * holds on (percpu-rwsem: a reader that came in on the fast path, before the writer's grace
 * period); once in, it keeps a new reader out until up_write. Then the same again at once,
 * where percpu-rwsem's readers are still on the slow path (rcu_sync between exit and idle).
 */
ParameterizedTest(size_t *idx, locks, writer_waits_for_earlier_reader, .timeout = 60)
{
	const struct cgt_lock_ops *ops = variant(idx);
	static struct handover h;
	pthread_t w, r;

	if (ops->rcu_readers)
		cr_skip_test("%s: readers run beside writers by design", ops->name);
	cgt_rcu_register_thread();
	memset(&h, 0, sizeof(h));
	lock_setup(&h.lock, ops);
	for (int round = 0; round < 2; round++) {
		h.writer_in = h.writer_out = h.reader_in = 0;
		ops->read_lock(&h.lock);
		cr_assert_eq(pthread_create(&w, NULL, handover_writer, &h), 0);
		cr_assert_not(set_within(&h.writer_in, EXCL_WAIT_SEC),
			      "%s: the writer got in while a reader held the lock", ops->name);
		ops->read_unlock(&h.lock);
		cr_assert(set_within(&h.writer_in, SHARE_WAIT_SEC),
			  "%s: the writer never got in after the reader left", ops->name);
		cr_assert_eq(pthread_create(&r, NULL, handover_reader, &h), 0);
		cr_assert_not(set_within(&h.reader_in, EXCL_WAIT_SEC),
			      "%s: a reader got in while the writer held the lock", ops->name);
		__atomic_store_n(&h.writer_out, 1, __ATOMIC_RELEASE);
		cr_assert_eq(pthread_join(w, NULL), 0);
		cr_assert_eq(pthread_join(r, NULL), 0);
		cr_assert(h.reader_in, "%s: the reader never got in", ops->name);
	}
	lock_teardown(&h.lock);
	cgt_rcu_unregister_thread();
}

/* ---- percpu-rwsem: the wait queue is FIFO, and its wake hands the lock over ---- */

struct queuer {
	int tid;		/* the thread's, once it is about to ask */
	int in;			/* it holds the lock */
	int out;		/* it may let go */
};

struct queue_order {
	struct cgt_lock lock;
	struct queuer reader, writer;
};

static void queuer_hold(struct cgt_lock *lock, struct queuer *me, bool write)
{
	cgt_rcu_register_thread();
	__atomic_store_n(&me->tid, gettid(), __ATOMIC_RELEASE);
	(write ? lock->ops->write_lock : lock->ops->read_lock)(lock);
	__atomic_store_n(&me->in, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&me->out, __ATOMIC_ACQUIRE))
		nap();
	(write ? lock->ops->write_unlock : lock->ops->read_unlock)(lock);
	cgt_rcu_unregister_thread();
}

static void *queued_reader(void *arg)
{
	struct queue_order *q = arg;

	queuer_hold(&q->lock, &q->reader, false);
	return NULL;
}

static void *queued_writer(void *arg)
{
	struct queue_order *q = arg;

	queuer_hold(&q->lock, &q->writer, true);
	return NULL;
}

/* Whether @who went to sleep (queued on the lock: nothing else here sleeps) within @sec. */
static bool asleep_within(const struct queuer *who, double sec)
{
	double deadline = now_sec() + sec;
	int tid;

	while (!(tid = __atomic_load_n(&who->tid, __ATOMIC_ACQUIRE)) && now_sec() < deadline)
		nap();
	while (tid && now_sec() < deadline) {
		char path[64], buf[256], *p = NULL;
		FILE *f;

		snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
		if ((f = fopen(path, "r"))) {
			if (fgets(buf, sizeof(buf), f))
				p = strrchr(buf, ')');
			fclose(f);
		}
		if (p && p[1] == ' ' && (p[2] == 'S' || p[2] == 'D'))
			return true;
		nap();
	}
	return false;
}

/*
 * A reader queues behind the writer holding the lock, then a second writer queues behind the
 * reader. percpu_up_write wakes the queue in order, taking the lock for each waiter: the
 * reader is in, and the second writer, though it took ->block in the same wake, waits for
 * that reader to leave. Woken all at once to race for the lock again (as a condition
 * variable's broadcast would), the second writer could come first and the reader wait on
 * behind it (a reader of cgroup_threadgroup_rwsem was called hung so at 1,873 threads).
 */
Test(percpu_rwsem, wakes_its_queue_in_order, .timeout = 60)
{
	const struct cgt_lock_ops *ops = cgt_lock_find("percpu-rwsem");
	static struct queue_order q;
	pthread_t rt, wt;

	cr_assert_not_null(ops);
	cgt_rcu_register_thread();
	for (int round = 0; round < 3; round++) {
		memset(&q, 0, sizeof(q));
		lock_setup(&q.lock, ops);
		ops->write_lock(&q.lock);
		cr_assert_eq(pthread_create(&rt, NULL, queued_reader, &q), 0);
		cr_assert(asleep_within(&q.reader, SHARE_WAIT_SEC), "the reader never queued");
		cr_assert_eq(pthread_create(&wt, NULL, queued_writer, &q), 0);
		cr_assert(asleep_within(&q.writer, SHARE_WAIT_SEC), "the second writer never queued");
		ops->write_unlock(&q.lock);
		cr_assert(set_within(&q.reader.in, SHARE_WAIT_SEC),
			  "the reader queued first did not get in when the writer left");
		cr_assert_not(set_within(&q.writer.in, EXCL_WAIT_SEC),
			      "the second writer got in beside the reader queued before it");
		__atomic_store_n(&q.reader.out, 1, __ATOMIC_RELEASE);
		cr_assert(set_within(&q.writer.in, SHARE_WAIT_SEC),
			  "the second writer never got in after the reader left");
		__atomic_store_n(&q.writer.out, 1, __ATOMIC_RELEASE);
		cr_assert_eq(pthread_join(rt, NULL), 0);
		cr_assert_eq(pthread_join(wt, NULL), 0);
		lock_teardown(&q.lock);
	}
	cgt_rcu_unregister_thread();
}

/* ---- rwsem: rwsem-xadd's queue (kernel/locking/rwsem-xadd.c, v3.15 and v4.4) ---- */

#define RWSEM_QUEUERS	4

static struct rwsem_queue {
	struct cgt_lock lock;
	struct queuer q[RWSEM_QUEUERS];
	bool write[RWSEM_QUEUERS];
	pthread_t thread[RWSEM_QUEUERS];
	int frozen;		/* a waiter is held in its signal handler */
	int thaw;		/* it may go on */
} rq;

static void *rwsem_queuer(void *arg)
{
	struct queuer *me = arg;

	queuer_hold(&rq.lock, me, rq.write[me - rq.q]);
	return NULL;
}

static void rwsem_queue_setup(const char *roles)
{
	memset(&rq, 0, sizeof(rq));
	lock_setup(&rq.lock, cgt_lock_find("rwsem"));
	for (int i = 0; roles[i]; i++)
		rq.write[i] = roles[i] == 'w';
}

/* Waiter @i asks for the lock and is asleep on its queue before the next one asks. */
static void rwsem_queue_join(int i)
{
	cr_assert_eq(pthread_create(&rq.thread[i], NULL, rwsem_queuer, &rq.q[i]), 0);
	cr_assert(asleep_within(&rq.q[i], SHARE_WAIT_SEC), "waiter %d never queued", i);
}

static void rwsem_queue_leave(int i)
{
	__atomic_store_n(&rq.q[i].out, 1, __ATOMIC_RELEASE);
	cr_assert_eq(pthread_join(rq.thread[i], NULL), 0);
}

/*
 * __rwsem_do_wake: the releasing writer grants the readers at the head of the queue together,
 * up to the first writer; a reader queued behind that writer waits for it, though the lock
 * is only read-held when it is woken.
 */
Test(rwsem, wakes_readers_at_the_head_up_to_the_first_writer, .timeout = 60)
{
	rwsem_queue_setup("rrwr");
	rq.lock.ops->write_lock(&rq.lock);
	for (int i = 0; i < RWSEM_QUEUERS; i++)
		rwsem_queue_join(i);
	rq.lock.ops->write_unlock(&rq.lock);
	cr_assert(set_within(&rq.q[0].in, SHARE_WAIT_SEC) && set_within(&rq.q[1].in, SHARE_WAIT_SEC),
		  "the two readers at the head were not both granted");
	cr_assert_not(set_within(&rq.q[2].in, EXCL_WAIT_SEC), "the writer got in beside readers");
	cr_assert_not(set_within(&rq.q[3].in, EXCL_WAIT_SEC),
		      "a reader queued behind the writer went before it");
	rwsem_queue_leave(0);
	rwsem_queue_leave(1);
	cr_assert(set_within(&rq.q[2].in, SHARE_WAIT_SEC), "the writer never got in");
	cr_assert_not(set_within(&rq.q[3].in, EXCL_WAIT_SEC), "a reader got in beside the writer");
	rwsem_queue_leave(2);
	cr_assert(set_within(&rq.q[3].in, SHARE_WAIT_SEC), "the last reader never got in");
	rwsem_queue_leave(3);
	lock_teardown(&rq.lock);
}

/*
 * __down_read: once a writer waits, a new reader queues behind it even while only readers
 * hold the lock (the waiting bias is in the count), where glibc's reader-preferring kind
 * would let it in.
 */
Test(rwsem, a_reader_queues_behind_a_waiting_writer, .timeout = 60)
{
	rwsem_queue_setup("wr");
	rq.lock.ops->read_lock(&rq.lock);
	rwsem_queue_join(0);
	rwsem_queue_join(1);
	cr_assert_not(set_within(&rq.q[1].in, EXCL_WAIT_SEC),
		      "a reader joined the readers past a waiting writer");
	rq.lock.ops->read_unlock(&rq.lock);
	cr_assert(set_within(&rq.q[0].in, SHARE_WAIT_SEC), "the writer never got in");
	rwsem_queue_leave(0);
	cr_assert(set_within(&rq.q[1].in, SHARE_WAIT_SEC), "the reader never got in");
	rwsem_queue_leave(1);
	lock_teardown(&rq.lock);
}

static void freeze(int sig)
{
	(void)sig;
	__atomic_store_n(&rq.frozen, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&rq.thaw, __ATOMIC_ACQUIRE))
		nap();
}

/*
 * Writer lock stealing: a writer at the head of the queue is woken, not granted, so a
 * running writer takes the idle lock first. The queued writer is kept from running (held in
 * a signal handler) from before the release until the thief holds the lock.
 */
Test(rwsem, a_running_writer_steals_from_a_woken_one, .timeout = 60)
{
	struct sigaction sa = { .sa_handler = freeze };

	cr_assert_eq(sigaction(SIGUSR1, &sa, NULL), 0);
	rwsem_queue_setup("w");
	rq.lock.ops->write_lock(&rq.lock);
	rwsem_queue_join(0);
	cr_assert_eq(pthread_kill(rq.thread[0], SIGUSR1), 0);
	cr_assert(set_within(&rq.frozen, SHARE_WAIT_SEC), "the queued writer never stopped");
	rq.lock.ops->write_unlock(&rq.lock);
	/* the queued writer is woken but cannot run: this writer must get in, not queue */
	rq.lock.ops->write_lock(&rq.lock);
	__atomic_store_n(&rq.thaw, 1, __ATOMIC_RELEASE);
	cr_assert_not(set_within(&rq.q[0].in, EXCL_WAIT_SEC), "two writers hold the lock");
	rq.lock.ops->write_unlock(&rq.lock);
	cr_assert(set_within(&rq.q[0].in, SHARE_WAIT_SEC), "the robbed writer never got in");
	rwsem_queue_leave(0);
	lock_teardown(&rq.lock);
	signal(SIGUSR1, SIG_DFL);
}

/* ---- each variant's policy, checked by the lock layer on every acquisition ---- */

static struct policy_case {
	struct cgt_lock lock;
	struct queuer writer, reader;
	pthread_t wt, rt;
} pc;

static void *policy_writer(void *arg)
{
	(void)arg;
	cgt_rcu_register_thread();
	__atomic_store_n(&pc.writer.tid, gettid(), __ATOMIC_RELEASE);
	cgt_write_lock(&pc.lock);
	__atomic_store_n(&pc.writer.in, 1, __ATOMIC_RELEASE);
	cgt_write_unlock(&pc.lock);
	cgt_rcu_unregister_thread();
	return NULL;
}

static void *policy_reader(void *arg)
{
	(void)arg;
	cgt_rcu_register_thread();
	__atomic_store_n(&pc.reader.tid, gettid(), __ATOMIC_RELEASE);
	cgt_read_lock(&pc.lock);
	__atomic_store_n(&pc.reader.in, 1, __ATOMIC_RELEASE);
	cgt_read_unlock(&pc.lock);
	cgt_rcu_unregister_thread();
	return NULL;
}

/*
 * The writer has queued: its variant's code said so, or (glibc's, whose code says nothing)
 * it sleeps in glibc's lock, which it does only once registered.
 */
static bool writer_queued_within(double sec)
{
	double deadline = now_sec() + sec;

	if (!pc.lock.ops->steps)
		return asleep_within(&pc.writer, sec);
	while (__atomic_load_n(&pc.lock.writer_queued_at, __ATOMIC_ACQUIRE) < 0 &&
	       now_sec() < deadline)
		nap();
	return __atomic_load_n(&pc.lock.writer_queued_at, __ATOMIC_ACQUIRE) >= 0;
}

/*
 * Through the lock layer: a reader holds @ops's lock, a writer queues, then a second reader
 * asks; then all go. Returns the reads the layer saw pass the queued writer.
 */
static long reads_past_a_queued_writer(const struct cgt_lock_ops *ops)
{
	long passed;

	memset(&pc, 0, sizeof(pc));
	cgt_lock_init(&pc.lock, ops, "test_policy_lock");
	cgt_read_lock(&pc.lock);
	cr_assert_eq(pthread_create(&pc.wt, NULL, policy_writer, NULL), 0);
	cr_assert(writer_queued_within(SHARE_WAIT_SEC), "%s: the writer never queued", ops->name);
	cr_assert_eq(pthread_create(&pc.rt, NULL, policy_reader, NULL), 0);
	/* either the reader gets in (a reader-first lock) or it waits behind the writer */
	set_within(&pc.reader.in, EXCL_WAIT_SEC);
	cgt_read_unlock(&pc.lock);
	cr_assert_eq(pthread_join(pc.wt, NULL), 0);
	cr_assert_eq(pthread_join(pc.rt, NULL), 0);
	passed = __atomic_load_n(&pc.lock.passed_queued, __ATOMIC_ACQUIRE);
	cgt_lock_destroy(&pc.lock);
	return passed;
}

/* Every variant that promises queued writers a place keeps it, and the check stays quiet. */
Test(locks, policy_check_quiet_on_every_correct_variant, .timeout = 120)
{
	int tested = 0;

	cgt_rcu_register_thread();
	for (size_t i = 0; i < cgt_nr_lock_variants; i++) {
		const struct cgt_lock_ops *ops = cgt_lock_variants[i];

		if (!ops->shared || ops->rcu_readers ||
		    (ops->policy != CGT_POLICY_FIFO && ops->policy != CGT_POLICY_WRITER_FIRST))
			continue;
		cr_assert_eq(reads_past_a_queued_writer(ops), 0,
			     "%s: the policy check fired on a correct variant", ops->name);
		cr_assert(pc.writer.in && pc.reader.in);
		tested++;
	}
	cr_assert_geq(tested, 4, "rwlock, rwsem, percpu-rwsem and pthread-rwlock-wpref");
	cgt_rcu_unregister_thread();
}

static void reader_pref_init(struct cgt_lock *lock)
{
	cr_assert_eq(pthread_rwlock_init(cgt_lock_priv(lock, pthread_rwlock_t), NULL), 0);
}

/*
 * glibc's lock of the reader-preferring kind under the writer-preferring variant's name and
 * policy: glibc says nothing of its queue, but the variant reads its words, and the layer
 * sees the second reader pass the writer that had registered (state #4).
 */
Test(locks, policy_check_fires_on_a_glibc_lock_that_breaks_it, .timeout = 60)
{
	struct cgt_lock_ops broken = *cgt_lock_find("pthread-rwlock-wpref");

	broken.init = reader_pref_init;
	cgt_rcu_register_thread();
	cr_assert_eq(reads_past_a_queued_writer(&broken), 1,
		     "a read past a registered writer went unseen");
	cr_assert(pc.reader.in && pc.writer.in);
	cgt_rcu_unregister_thread();
}

/* ---- rcu_readers variants: a reader gets in while a writer holds the lock ---- */

struct rcu_pass {
	struct cgt_lock lock;
	int reader_in;		/* the reader took and dropped read_lock */
};

static void *rcu_pass_reader(void *arg)
{
	struct rcu_pass *p = arg;

	cgt_rcu_register_thread();
	p->lock.ops->read_lock(&p->lock);
	p->lock.ops->read_unlock(&p->lock);
	__atomic_store_n(&p->reader_in, 1, __ATOMIC_RELEASE);
	cgt_rcu_unregister_thread();
	return NULL;
}

/*
 * What .rcu_readers promises instead of exclusion: readers never wait for a writer (so they
 * never block one either). The writer holds the lock throughout; a reader must get in.
 */
Test(locks, rcu_readers_pass_a_writer, .timeout = 30)
{
	static struct rcu_pass p;
	int tested = 0;

	for (size_t i = 0; i < cgt_nr_lock_variants; i++) {
		const struct cgt_lock_ops *ops = cgt_lock_variants[i];
		double deadline = now_sec() + SHARE_WAIT_SEC;
		pthread_t reader;

		if (!ops->rcu_readers)
			continue;
		memset(&p, 0, sizeof(p));
		lock_setup(&p.lock, ops);
		ops->write_lock(&p.lock);
		cr_assert_eq(pthread_create(&reader, NULL, rcu_pass_reader, &p), 0);
		while (!__atomic_load_n(&p.reader_in, __ATOMIC_ACQUIRE) && now_sec() < deadline)
			nap();
		cr_assert(__atomic_load_n(&p.reader_in, __ATOMIC_ACQUIRE),
			  "%s: a reader waited for the writer", ops->name);
		ops->write_unlock(&p.lock);
		cr_assert_eq(pthread_join(reader, NULL), 0);
		lock_teardown(&p.lock);
		tested++;
	}
	cr_assert_geq(tested, 1, "no rcu_readers variant registered");
}

/* ---- the registry (locktorture's torture_type lookup) ---- */

Test(locks, registry_finds_each_variant_by_name)
{
	const char *names = cgt_lock_names();
	size_t commas = 0;

	cr_assert_null(cgt_lock_find("nope"));
	cr_assert_null(cgt_lock_find(""));
	cr_assert_null(cgt_lock_find("rwlock "), "lookup must be exact");

	cr_assert_geq(cgt_nr_lock_variants, 3);
	for (size_t i = 0; i < cgt_nr_lock_variants; i++) {
		const struct cgt_lock_ops *ops = cgt_lock_variants[i];

		cr_assert_not_null(ops->name);
		cr_assert_eq(cgt_lock_find(ops->name), ops, "%s is not found by its name", ops->name);
		cr_assert(strstr(names, ops->name) != NULL, "%s missing from \"%s\"", ops->name, names);
		cr_assert_not_null(ops->desc, "%s has no description", ops->name);
		cr_assert(ops->init && ops->read_lock && ops->read_unlock && ops->write_lock &&
			  ops->write_unlock, "%s lacks a mandatory op", ops->name);
	}
	for (const char *p = names; (p = strstr(p, ", ")) != NULL; p += 2)
		commas++;
	cr_assert_eq(commas + 1, cgt_nr_lock_variants, "names \"%s\"", names);

	/* the three variants the model is built around, with the sharing each promises */
	cr_assert(strstr(names, "rwlock") && strstr(names, "rwsem") && strstr(names, "spinlock"),
		  "names \"%s\"", names);
	cr_assert(cgt_lock_find("rwlock")->shared);
	cr_assert(cgt_lock_find("rwsem")->shared);
	cr_assert_not(cgt_lock_find("spinlock")->shared);
	cr_assert(cgt_lock_find("rwsem")->sleeps);
	cr_assert_not(cgt_lock_find("rwlock")->sleeps);
	cr_assert_not(cgt_lock_find("spinlock")->sleeps);
	cr_assert_str_eq(cgt_lock_names(), names, "the list must be stable across calls");
}
