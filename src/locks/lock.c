// SPDX-License-Identifier: GPL-2.0
/*
 * What every model lock acquisition goes through: the marked points, which hand the
 * detectors the lock, the side and (once held) what the wait saw (struct cgt_lock_op); the
 * record of the wait and the hold (core/thread.h) that the hang detector draws its wait-for
 * graph from; and per-class statistics (acquisitions, worst waits, reads that passed a
 * waiting writer), as lockdep keeps lock_class_stats.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lock.h"
#include "../core/thread.h"
#include "../core/sync.h"


static pthread_mutex_t class_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cgt_lock_class classes[CGT_MAX_LOCK_CLASSES];
static int nclasses;

/*
 * A thread's acquisitions per class: only the thread writes its tally (a load and a store,
 * no locked instruction), readers sum the live tallies under class_lock, and a thread's
 * tally is folded into the classes' totals as it exits.
 */
struct tally {
	long acquired[CGT_MAX_LOCK_CLASSES][2];
	struct tally *next;
	struct tally **pprev;		/* what points at it: leaving is O(1) at 30,000 threads */
};

static struct tally *tallies;		/* the live threads' tallies, under class_lock */
static __thread struct tally *my_tally;
static pthread_key_t tally_key;
static pthread_once_t tally_once = PTHREAD_ONCE_INIT;

static void tally_exit(void *arg)
{
	struct tally *t = arg;

	pthread_mutex_lock(&class_lock);
	*t->pprev = t->next;
	if (t->next)
		t->next->pprev = t->pprev;
	for (int c = 0; c < CGT_MAX_LOCK_CLASSES; c++)
		for (int side = 0; side < 2; side++)
			classes[c].acquired[side] += READ_ONCE(t->acquired[c][side]);
	pthread_mutex_unlock(&class_lock);
	/* a later destructor that takes a lock makes itself a new tally */
	my_tally = NULL;
	free(t);
}

static void tally_key_make(void)
{
	pthread_key_create(&tally_key, tally_exit);
}

/* This thread's tally, made at its first acquisition; NULL if memory ran out. */
static struct tally *tally_get(void)
{
	struct tally *t = my_tally;

	if (likely(t))
		return t;
	pthread_once(&tally_once, tally_key_make);
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	pthread_mutex_lock(&class_lock);
	t->next = tallies;
	t->pprev = &tallies;
	if (tallies)
		tallies->pprev = &t->next;
	tallies = t;
	pthread_mutex_unlock(&class_lock);
	pthread_setspecific(tally_key, t);
	my_tally = t;
	return t;
}

static void count_acquired(struct cgt_lock_class *c, int side)
{
	struct tally *t = tally_get();

	if (t)
		cgt_count_bump(&t->acquired[c - classes][side]);
	else
		__atomic_fetch_add(&c->acquired[side], 1, __ATOMIC_RELAXED);
}

static void stat_max(uint64_t *max, uint64_t v)
{
	uint64_t old = __atomic_load_n(max, __ATOMIC_RELAXED);

	while (v > old && !__atomic_compare_exchange_n(max, &old, v, true, __ATOMIC_RELAXED,
						       __ATOMIC_RELAXED))
		;
}

static struct cgt_lock_class *class_get(const char *name, bool sleeps)
{
	struct cgt_lock_class *c = NULL;

	pthread_mutex_lock(&class_lock);
	for (int i = 0; i < nclasses; i++)
		if (!strcmp(classes[i].name, name))
			c = &classes[i];
	if (!c && nclasses < CGT_MAX_LOCK_CLASSES) {
		c = &classes[nclasses++];
		c->name = name;
	}
	if (c)
		c->sleeps = sleeps;
	pthread_mutex_unlock(&class_lock);
	return c ? c : &classes[CGT_MAX_LOCK_CLASSES - 1];
}

void cgt_lock_init(struct cgt_lock *lock, const struct cgt_lock_ops *ops, const char *name)
{
	const struct cgt_sync_ops *sync = cgt_sync();

	memset(lock, 0, offsetof(struct cgt_lock, priv));
	lock->writer_queued_at = -1;
	lock->ops = ops;
	lock->name = name;
	lock->class = class_get(name, ops->sleeps);
	ops->init(lock);
	if (sync)
		sync->lock_init(lock);
}

void cgt_lock_destroy(struct cgt_lock *lock)
{
	if (lock->ops->destroy)
		lock->ops->destroy(lock);
}

int cgt_lock_classes(struct cgt_lock_class *out, int max)
{
	int n;

	pthread_mutex_lock(&class_lock);
	n = nclasses < max ? nclasses : max;
	for (int i = 0; i < n; i++) {
		const struct cgt_lock_class *c = &classes[i];

		out[i].name = c->name;
		out[i].sleeps = c->sleeps;
		for (int side = 0; side < 2; side++) {
			out[i].acquired[side] = __atomic_load_n(&c->acquired[side], __ATOMIC_RELAXED);
			for (const struct tally *t = tallies; t; t = t->next)
				out[i].acquired[side] += READ_ONCE(t->acquired[i][side]);
			out[i].wait_max_ns[side] = __atomic_load_n(&c->wait_max_ns[side],
								   __ATOMIC_RELAXED);
		}
		out[i].passed_over = __atomic_load_n(&c->passed_over, __ATOMIC_RELAXED);
		out[i].worst_writer_passed = __atomic_load_n(&c->worst_writer_passed,
							     __ATOMIC_RELAXED);
		out[i].worst_queued_passed = __atomic_load_n(&c->worst_queued_passed,
							     __ATOMIC_RELAXED);
		out[i].queue_max = __atomic_load_n(&c->queue_max, __ATOMIC_RELAXED);
		out[i].convoy_max = __atomic_load_n(&c->convoy_max, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&class_lock);
	return n;
}

int cgt_lock_class_id(const struct cgt_lock_class *c)
{
	return (int)(c - classes);
}

void cgt_lock_class_note_queue(const char *name, int waiters, int convoy)
{
	pthread_mutex_lock(&class_lock);
	for (int i = 0; i < nclasses; i++) {
		if (classes[i].name != name && strcmp(classes[i].name, name))
			continue;
		stat_max(&classes[i].queue_max, (uint64_t)waiters);
		stat_max(&classes[i].convoy_max, (uint64_t)convoy);
		break;
	}
	pthread_mutex_unlock(&class_lock);
}

void cgt_lock_classes_reset(void)
{
	pthread_mutex_lock(&class_lock);
	memset(classes, 0, sizeof(classes));
	nclasses = 0;
	for (struct tally *t = tallies; t; t = t->next)
		for (int c = 0; c < CGT_MAX_LOCK_CLASSES; c++)
			for (int side = 0; side < 2; side++)
				WRITE_ONCE(t->acquired[c][side], 0);
	pthread_mutex_unlock(&class_lock);
}

/*
 * A writer is passed over when readers keep getting the lock while it waits and no writer
 * at all gets in: the readers, not a queue of writers, keep it out.
 */
static void writer_passed(struct cgt_lock_op *op, long reads0, long writes0)
{
	struct cgt_lock_class *c = op->lock->class;

	op->reads_passed = __atomic_load_n(&op->lock->reads, __ATOMIC_RELAXED) - reads0;
	op->writes_passed = __atomic_load_n(&op->lock->writes, __ATOMIC_RELAXED) - writes0;
	if (op->reads_passed < 0)
		op->reads_passed = 0;
	if (op->writes_passed || !op->reads_passed)
		return;
	__atomic_fetch_add(&c->passed_over, op->reads_passed, __ATOMIC_RELAXED);
	stat_max(&c->worst_writer_passed, (uint64_t)op->reads_passed);
}

/* The lock whose queue this thread's writer joined, and the mark it left there. */
static __thread struct cgt_lock *queued_lock;
static __thread long queued_mark;

void cgt_lock_writer_queued(struct cgt_lock *lock)
{
	/* ordered after the variant's own store that turns new readers away */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	queued_mark = __atomic_load_n(&lock->read_asks, __ATOMIC_SEQ_CST);
	queued_lock = lock;
	__atomic_store_n(&lock->passed_queued, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&lock->writer_queued_id, cgt_self ? cgt_self->id : -1, __ATOMIC_RELAXED);
	__atomic_store_n(&lock->writer_queued_at, queued_mark, __ATOMIC_SEQ_CST);
}

/* The lock whose waiting writer rebased its wait, and the read asks and time it did it at. */
static __thread struct cgt_lock *rebased_lock;
static __thread long rebased_asks;
static __thread uint64_t rebased_ns;

void cgt_lock_writer_rebase(struct cgt_lock *lock)
{
	struct cgt_thread *t = cgt_self;

	rebased_lock = lock;
	rebased_asks = __atomic_load_n(&lock->read_asks, __ATOMIC_SEQ_CST);
	rebased_ns = cgt_clock_coarse_ns();
	if (t) {
		WRITE_ONCE(t->wait_reads_seen, rebased_asks);
		WRITE_ONCE(t->wait_readers_since_ns, rebased_ns);
	}
}

/* The writer that queued got in: readers may come first again (unless another has queued). */
static void writer_unqueue(struct cgt_lock *lock)
{
	long mark = queued_mark;

	if (queued_lock != lock)
		return;
	queued_lock = NULL;
	if (__atomic_compare_exchange_n(&lock->writer_queued_at, &mark, -1, false,
					__ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
		__atomic_store_n(&lock->passed_queued, 0, __ATOMIC_RELAXED);
}

/*
 * A reader that holds the lock while a writer's mark stands has got in before that writer
 * (which cannot hold the lock with it, nor leave before it takes its mark down): if it asked
 * after the mark was set, it passed a queued writer.
 */
static bool passed_queued_writer(struct cgt_lock *lock, long asked)
{
	long mark = __atomic_load_n(&lock->writer_queued_at, __ATOMIC_SEQ_CST);

	return mark >= 0 && asked > mark;
}

/* Does @lock's policy promise a queued writer that no later read gets in first? */
static bool promises_queued_writer(const struct cgt_lock *lock)
{
	return lock->ops->policy == CGT_POLICY_FIFO || lock->ops->policy == CGT_POLICY_WRITER_FIRST;
}

/*
 * A reader of a variant built on glibc, as it asks: if the lock's own words show a writer
 * queued that the policy makes it let in first, the writes so far (read before the words:
 * any write after that point is one the reader may have waited behind), else -1.
 */
static long registered_writer_mark(struct cgt_lock *lock, bool controlled)
{
	long writes;

	if (controlled || !lock->ops->writer_registered || !promises_queued_writer(lock))
		return -1;
	writes = __atomic_load_n(&lock->writes, __ATOMIC_SEQ_CST);
	return lock->ops->writer_registered(lock) ? writes : -1;
}

/*
 * A writer is passed by the reads that asked after it did and got in first. Counted from
 * here, where the wait begins (readers that got in while it was held at the point,
 * preempted, perturbed or switched away from, came before it asked), and from the reads
 * asked for rather than taken: readers queued ahead of it (a FIFO lock) do not pass it. A
 * reader counts itself only if a writer waits (it asked after that writer): with no writer
 * waiting nobody is passed, and a shared lock's readers write nothing shared. Returns
 * whether this acquisition counts; @reads0 and @writes0 are what a writer compares with; a
 * counted reader's @writes0 is registered_writer_mark's.
 */
static bool ask(struct cgt_lock *lock, int side, bool controlled, long *reads0, long *writes0)
{
	struct cgt_thread *t = cgt_self;

	*reads0 = *writes0 = 0;
	if (side == CGT_READ) {
		if (!__atomic_load_n(&lock->writers_waiting, __ATOMIC_RELAXED))
			return false;
		*reads0 = __atomic_add_fetch(&lock->read_asks, 1, __ATOMIC_SEQ_CST);
		*writes0 = registered_writer_mark(lock, controlled);
		return true;
	}
	rebased_lock = NULL;
	__atomic_store_n(&lock->writer_asked_id, t ? t->id : -1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&lock->writers_waiting, 1, __ATOMIC_SEQ_CST);
	*reads0 = __atomic_load_n(&lock->read_asks, __ATOMIC_RELAXED);
	*writes0 = __atomic_load_n(&lock->writes, __ATOMIC_RELAXED);
	return true;
}

/* What the watchdogs see of a wait that begins at @since (core/thread.h). */
static void wait_begin(struct cgt_thread *t, struct cgt_lock *lock, int side, long reads0,
		       long writes0, uint64_t since)
{
	/* what the starvation watch compares, for a waiting writer */
	if (side == CGT_WRITE) {
		WRITE_ONCE(t->wait_reads_seen, reads0);
		WRITE_ONCE(t->wait_writes_seen, writes0);
		WRITE_ONCE(t->wait_readers_since_ns, since);
	}
	WRITE_ONCE(t->wait_acq_seen, cgt_lock_acquisitions(lock));
	WRITE_ONCE(t->wait_static, !lock->dynamic);
	cgt_wait_begin_at(lock, lock->name, side == CGT_WRITE ? CGT_WAIT_WRITE : CGT_WAIT_READ,
			  since);
}

/*
 * Mutual exclusion, checked at the cost of one exchange per write: a writer finds no other
 * writer in, a reader finds none (readers beside writers under RCU are the point of an
 * rcu_readers variant). Which detector reports it is the caller's choice. Relaxed, so that
 * the check orders nothing: an acquire/release pair here would hand TSan the happens-before
 * a variant's own missing release fails to give. Coherence is enough: after a correct
 * variant's acquire, the last holder's clearing store is seen. Returns the thread it should
 * have kept out, or 0.
 */
static int excluded(struct cgt_lock *lock, int side, const struct cgt_thread *t)
{
	if (lock->ops->rcu_readers)
		return 0;
	if (side == CGT_WRITE)
		return __atomic_exchange_n(&lock->writer_in, t ? t->id : -1, __ATOMIC_RELAXED);
	return __atomic_load_n(&lock->writer_in, __ATOMIC_RELAXED);
}

/* A writer got in: whom it was passed by, and the counts the watchers compare. */
static void writer_in(struct cgt_lock_op *op, long reads0, long writes0)
{
	struct cgt_lock *lock = op->lock;

	writer_unqueue(lock);
	writer_passed(op, reads0, writes0);
	/* only the holder of the write side counts writes: no locked instruction */
	cgt_count_bump(&lock->writes);
	__atomic_fetch_sub(&lock->writers_waiting, 1, __ATOMIC_RELAXED);
}

/*
 * A reader that saw, as it asked, glibc's words show a writer its policy lets in first, and
 * got in with no write since: it went first. Glibc's own exception (a reader may join when
 * a primary writer waits and no reader holds it: state #3 of nptl/pthread_rwlock_common.c)
 * is the variant's to leave out of what it reports as registered.
 */
static bool passed_registered_writer(struct cgt_lock *lock, long writes0)
{
	return writes0 >= 0 && __atomic_load_n(&lock->writes, __ATOMIC_SEQ_CST) == writes0;
}

/*
 * A reader got in: whether it passed a queued writer (a variant's own code says when its
 * writer queued, @own_code; glibc's words said so as it asked, @writes0), and the counts
 * the watchers compare.
 */
static void reader_in(struct cgt_lock_op *op, bool counted, long reads0, long writes0,
		      bool own_code)
{
	struct cgt_lock *lock = op->lock;
	int writer = __atomic_load_n(&lock->writer_queued_id, __ATOMIC_RELAXED);
	bool passed = false;

	/* a reader of an exclusive variant holds it alone: it counts without a lock prefix */
	if (!lock->ops->shared)
		cgt_count_bump(&lock->exclusive_reads);
	if (counted && own_code && passed_queued_writer(lock, reads0)) {
		passed = true;
	} else if (counted && passed_registered_writer(lock, writes0)) {
		passed = true;
		writer = __atomic_load_n(&lock->writer_asked_id, __ATOMIC_RELAXED);
	}
	if (passed) {
		op->passed_queued = __atomic_add_fetch(&lock->passed_queued, 1, __ATOMIC_RELAXED);
		op->passed_writer = writer;
		stat_max(&lock->class->worst_queued_passed, (uint64_t)op->passed_queued);
	}
	if (counted)
		__atomic_fetch_add(&lock->reads, 1, __ATOMIC_RELAXED);
	else if (__atomic_load_n(&lock->writers_waiting, __ATOMIC_RELAXED))
		/* it asked before the writer did, so it did not pass it: but the lock moved */
		__atomic_fetch_add(&lock->read_moves, 1, __ATOMIC_RELAXED);
}

/* What the hang detector's wait-for graph reads: the locks a thread holds, and since when. */
static void held_push(struct cgt_thread *t, struct cgt_lock *lock, int side, uint64_t since)
{
	int n = READ_ONCE(t->nheld);

	if (n >= CGT_MAX_HELD)
		return;
	WRITE_ONCE(t->held[n].lock, lock);
	WRITE_ONCE(t->held[n].name, lock->name);
	WRITE_ONCE(t->held[n].write, side);
	WRITE_ONCE(t->held[n].since_ns, since);
	__atomic_store_n(&t->nheld, n + 1, __ATOMIC_RELEASE);
}

/* Locks are mostly released in reverse order: searched from the top. */
static void held_pop(struct cgt_thread *t, const struct cgt_lock *lock)
{
	int n = READ_ONCE(t->nheld);

	for (int i = n - 1; i >= 0; i--) {
		if (t->held[i].lock != lock)
			continue;
		for (int k = i; k < n - 1; k++) {
			WRITE_ONCE(t->held[k].lock, t->held[k + 1].lock);
			WRITE_ONCE(t->held[k].name, t->held[k + 1].name);
			WRITE_ONCE(t->held[k].write, t->held[k + 1].write);
			WRITE_ONCE(t->held[k].since_ns, t->held[k + 1].since_ns);
		}
		__atomic_store_n(&t->nheld, n - 1, __ATOMIC_RELEASE);
		return;
	}
}

void cgt_lock_acquire(struct cgt_lock *lock, int side)
{
	const struct cgt_sync_ops *sync = cgt_sync();
	struct cgt_thread *t = cgt_self;
	struct cgt_lock_op op = { .lock = lock, .side = side };
	long reads0, writes0;
	uint64_t since, waited;
	bool counted;

	cgt_point(CGT_PT_LOCK_WAIT, &op);
	counted = ask(lock, side, sync != NULL, &reads0, &writes0);
	/*
	 * The watchdogs judge waits and holds in seconds, so no fine clock here: the wait's
	 * start from the kernel's coarse clock, which a loaded machine cannot make stale (a
	 * tick stored late would age every wait begun meanwhile: false hangs), its end from the
	 * tick, which if late can only shorten the wait (base/clock.h).
	 */
	since = cgt_clock_coarse_ns();
	if (t)
		wait_begin(t, lock, side, reads0, writes0, since);

	if (sync)
		sync->lock_acquire(lock, side);
	else
		cgt_lock_ops_take(lock, side);

	waited = cgt_age_ns(cgt_clock_tick_ns(), since);
	op.waited_ns = op.readers_ns = waited;
	if (side == CGT_WRITE && rebased_lock == lock) {
		reads0 = rebased_asks;
		op.readers_ns = cgt_age_ns(cgt_clock_tick_ns(), rebased_ns);
		rebased_lock = NULL;
	}
	/*
	 * Under the scheduler a variant's own writer queues only where its code says so: reads
	 * that got in before (the queued rwlock's fast path, until _QW_WAITING is set) passed
	 * nobody, and none passed a writer whose fast path took the lock (PCT may keep it from
	 * its first instruction for thousands of decisions). A controlled run judges starvation
	 * by reads passed, so it counts from there.
	 */
	if (side == CGT_WRITE && sync && sync->lock_step && lock->ops->steps)
		reads0 = queued_lock == lock ? queued_mark :
			 __atomic_load_n(&lock->reads, __ATOMIC_RELAXED);
	op.excluded = excluded(lock, side, t);
	if (side == CGT_WRITE)
		writer_in(&op, reads0, writes0);
	else
		reader_in(&op, counted, reads0, writes0, !sync || sync->lock_step);
	if (t)
		cgt_wait_end();
	count_acquired(lock->class, side);
	stat_max(&lock->class->wait_max_ns[side], waited);
	if (t)
		held_push(t, lock, side, since + waited);
	cgt_point(CGT_PT_LOCK_HELD, &op);
}

void cgt_lock_release(struct cgt_lock *lock, int side)
{
	const struct cgt_sync_ops *sync = cgt_sync();
	struct cgt_thread *t = cgt_self;
	struct cgt_lock_op op = { .lock = lock, .side = side };

	if (side == CGT_WRITE && !lock->ops->rcu_readers)
		__atomic_store_n(&lock->writer_in, 0, __ATOMIC_RELAXED);
	if (sync)
		sync->lock_release(lock, side);
	else
		cgt_lock_ops_drop(lock, side);
	if (t)
		held_pop(t, lock);
	cgt_point(CGT_PT_LOCK_RELEASE, &op);
}
