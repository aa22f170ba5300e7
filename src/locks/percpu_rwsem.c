// SPDX-License-Identifier: GPL-2.0
/*
 * percpu-rwsem: struct percpu_rw_semaphore (kernel/locking/percpu-rwsem.c with rcu_sync,
 * kernel/rcu/sync.c, as rewritten in 5.8), today's cgroup_threadgroup_rwsem.
 *
 * Readers only bump a per-CPU counter inside an RCU read-side section (the kernel's
 * preempt-disabled section, an RCU-sched reader): no shared cache line, no barrier. A writer
 * first flips the rcu_sync state and waits a grace period, after which every reader takes the
 * slow path (a full barrier, then a look at ->block); it then sets ->block, which keeps new
 * readers out, and sleeps until the per-CPU counters sum to zero. After the last writer
 * leaves, readers stay on the slow path for one more grace period (a call_rcu callback), so
 * writers in quick succession share one grace period, as rcu_sync_exit() arranges.
 *
 * Waiters queue in FIFO order on one wait queue, readers and writers alike (5.8's
 * percpu_rwsem_wait); percpu_up_write hands the lock over, taking it on behalf of each waiter
 * it wakes, readers up to and including the first writer, so a woken waiter never contends
 * again. A writer that finds ->block clear takes it at once, even past queued waiters
 * ("can get stolen"); new readers then queue behind it (writer-preferring). The writer holding
 * ->block sleeps until the per-CPU counters sum to zero (the rcuwait), woken by each reader
 * that leaves on the slow path. Waiters sleep on futex words. Readers must be registered RCU
 * threads (cgt_rcu_register_thread).
 */
#define _GNU_SOURCE	/* sched_getcpu */
#define _LGPL_SOURCE	/* compare's loops inline liburcu's read side (rcu_read_side.h) */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "lock.h"
#include "lock_loop.h"
#include "rcu_read_side.h"
#include "step.h"
#include "../core/rcu.h"
#include "../core/thread.h"

/*
 * A controlled run stepping through the code runs on a machine of its own: STEP_CPUS CPUs,
 * a thread on the one the decision count names, so a reader may leave on another CPU than it
 * came in on, and the schedule is the same on every machine and in every run (with
 * sched_getcpu a writer's sum, read count by count between decisions, came out differently).
 */
#define STEP_CPUS	2

/* rcu_sync's states (kernel/rcu/sync.c): readers take the fast path only when idle. */
enum { RSS_IDLE, RSS_ENTER, RSS_PASSED, RSS_EXIT, RSS_REPLAY };

struct read_count {
	_Alignas(64) long n;	/* may go negative: a reader can leave on another CPU */
};

/* A wait_queue_entry of sem->waiters, on its sleeper's stack. */
struct pcpu_waiter {
	struct pcpu_waiter *next;
	bool reader;
	uint32_t queued;	/* futex word: 1 until a waker took the lock for us */
};

struct percpu_rwsem {
	int gp_state;			/* RSS_*: written under wait_lock, read by readers */
	int gp_count;			/* writers between rcu_sync_enter and exit */
	bool cb_pending;		/* the rcu_sync callback is queued */
	int cb_deferred;		/* it found wait_lock taken: its holder does its work */
	int block;			/* a writer holds the lock, or is draining readers */
	pthread_mutex_t wait_lock;	/* sem->waiters.lock; the rcu_sync state too */
	pthread_cond_t gp_wait;		/* writers: for the grace period to pass */
	struct pcpu_waiter *head, **tail;	/* sem->waiters, FIFO */
	uint32_t writer_wake;		/* rcuwait: a futex word the readers bump */
	int writer_waits;		/* rcuwait's ->task: a writer sleeps on writer_wake */
	struct rcu_head rcu;
	unsigned int nr_cpus;
	struct read_count count[];
};

_Static_assert(sizeof(struct percpu_rwsem *) <= CGT_LOCK_PRIV_SIZE, "percpu-rwsem too large");

static struct percpu_rwsem *sem_of(struct cgt_lock *lock)
{
	return *cgt_lock_priv(lock, struct percpu_rwsem *);
}

static void pcpu_init(struct cgt_lock *lock)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);
	unsigned int cpus = n > STEP_CPUS ? (unsigned int)n : STEP_CPUS;
	struct percpu_rwsem *s = NULL;

	if (posix_memalign((void **)&s, 64, sizeof(*s) + cpus * sizeof(s->count[0]))) {
		fprintf(stderr, "cgtorture: out of memory for a percpu-rwsem\n");
		abort();
	}
	*s = (struct percpu_rwsem){ .nr_cpus = cpus };
	s->tail = &s->head;
	for (unsigned int i = 0; i < cpus; i++)
		s->count[i].n = 0;
	pthread_mutex_init(&s->wait_lock, NULL);
	pthread_cond_init(&s->gp_wait, NULL);
	*cgt_lock_priv(lock, struct percpu_rwsem *) = s;
}

/* this_cpu_ptr(sem->read_count): atomic, as a user thread can be moved mid-update */
static long *this_cpu_count(struct percpu_rwsem *s)
{
	int cpu = lk_stepper() ? (int)(READ_ONCE(cgt_step_clock) % STEP_CPUS) : sched_getcpu();

	return &s->count[(cpu > 0 ? (unsigned int)cpu : 0) % s->nr_cpus].n;
}

/* The counts a writer sums: this machine's CPUs, or the stepping model's. */
static unsigned int nr_counts(const struct percpu_rwsem *s)
{
	return lk_stepper() ? STEP_CPUS : s->nr_cpus;
}

static bool rcu_sync_is_idle(struct percpu_rwsem *s)
{
	return lk_load(&s->gp_state, __ATOMIC_ACQUIRE) == RSS_IDLE;
}

/*
 * rcuwait_wake_up(&sem->writer): the writer sleeping for the readers to drain looks again.
 * A reader's decrement comes first (sequentially consistent, as the writer's store of
 * writer_waits and its load of writer_wake before it sums): either the writer sees it, or
 * the reader sees the writer and bumps the word it sleeps on.
 */
static void rcuwait_wake_up(struct percpu_rwsem *s)
{
	if (!lk_load(&s->writer_waits, __ATOMIC_SEQ_CST))
		return;
	lk_fetch_add(&s->writer_wake, 1, __ATOMIC_SEQ_CST);
	lk_futex_wake(&s->writer_wake, 1);
}

/* __percpu_down_read_trylock: count ourselves, then look (A, paired with the writer's D). */
static bool down_read_trylock_slow(struct percpu_rwsem *s)
{
	lk_fetch_add(this_cpu_count(s), 1, __ATOMIC_SEQ_CST);
	if (likely(!lk_load(&s->block, __ATOMIC_SEQ_CST)))
		return true;
	lk_fetch_sub(this_cpu_count(s), 1, __ATOMIC_SEQ_CST);
	rcuwait_wake_up(s);
	return false;
}

/* __percpu_down_write_trylock: ->block is the writers' own exclusion. */
static bool down_write_trylock(struct percpu_rwsem *s)
{
	if (lk_load(&s->block, __ATOMIC_SEQ_CST))
		return false;
	return !lk_xchg(&s->block, 1, __ATOMIC_SEQ_CST);
}

static bool pcpu_trylock(struct percpu_rwsem *s, bool reader)
{
	return reader ? down_read_trylock_slow(s) : down_write_trylock(s);
}

static void rcu_sync_step(struct percpu_rwsem *s);

/*
 * wait_lock let go. A controlled run calls RCU back inside a decision, where a holder of
 * wait_lock cannot run to release it (and a grace period with no reader in it ends at that
 * same decision, so trying again later never comes): a callback that finds it taken leaves
 * its work to the holder, done here, as the kernel's callback would spin on rss_lock until
 * its holder let go.
 */
static void run_deferred(struct percpu_rwsem *s)
{
	if (unlikely(__atomic_load_n(&s->cb_deferred, __ATOMIC_RELAXED))) {
		__atomic_store_n(&s->cb_deferred, 0, __ATOMIC_RELAXED);
		rcu_sync_step(s);
	}
}

static void wait_unlock(struct percpu_rwsem *s)
{
	run_deferred(s);
	cgt_mutex_unlock(&s->wait_lock);
}

/*
 * percpu_rwsem_wait: queue at the tail unless the lock can be had now (under the queue's
 * lock, so that percpu_up_write's wake sees us), then sleep until a waker has taken the lock
 * for us. The waker's futex wake may reach our word after we have gone: a wake of a futex
 * nobody sleeps on, harmless.
 */
static void pcpu_wait(struct percpu_rwsem *s, bool reader)
{
	struct pcpu_waiter w = { .reader = reader, .queued = 1 };
	bool wait;

	cgt_mutex_lock(&s->wait_lock);
	wait = !pcpu_trylock(s, reader);
	if (wait) {
		*s->tail = &w;
		s->tail = &w.next;
	}
	wait_unlock(s);
	while (wait && lk_load(&w.queued, __ATOMIC_ACQUIRE))
		lk_futex_wait(&w.queued, 1);
}

/*
 * __wake_up(&sem->waiters, ..., 1, sem) with percpu_rwsem_wake_function: from the head,
 * take the lock for each waiter and wake it, readers until one writer, or until the lock
 * cannot be had (a writer stole it: its own release wakes the queue again).
 */
static void pcpu_wake(struct percpu_rwsem *s)
{
	struct pcpu_waiter *w;

	cgt_mutex_lock(&s->wait_lock);
	while ((w = s->head) && pcpu_trylock(s, w->reader)) {
		bool reader = w->reader;

		s->head = w->next;
		if (!s->head)
			s->tail = &s->head;
		lk_store(&w->queued, 0, __ATOMIC_RELEASE);
		lk_futex_wake(&w->queued, 1);
		if (!reader)
			break;
	}
	wait_unlock(s);
}

/* percpu_down_read */
/*
 * percpu_down_read, inside the read-side section of @rl and @ru: the model's RCU, or for
 * compare's loops liburcu's own.
 */
static inline __attribute__((always_inline)) void down_read(struct cgt_lock *lock,
							     cgt_lock_fn *rl, cgt_lock_fn *ru)
{
	struct percpu_rwsem *s = sem_of(lock);

	rl(lock);
	if (likely(rcu_sync_is_idle(s))) {
		lk_fetch_add(this_cpu_count(s), 1, __ATOMIC_RELAXED);
		ru(lock);
		return;
	}
	if (down_read_trylock_slow(s)) {
		ru(lock);
		return;
	}
	/* __percpu_down_read: never sleep inside the read-side section */
	ru(lock);
	pcpu_wait(s, true);
}

/* percpu_up_read */
/* percpu_up_read, as down_read() */
static inline __attribute__((always_inline)) void up_read(struct cgt_lock *lock,
							   cgt_lock_fn *rl, cgt_lock_fn *ru)
{
	struct percpu_rwsem *s = sem_of(lock);

	rl(lock);
	if (likely(rcu_sync_is_idle(s))) {
		lk_fetch_sub(this_cpu_count(s), 1, __ATOMIC_RELAXED);
	} else {
		/* B, paired with C in readers_active_check */
		lk_fetch_sub(this_cpu_count(s), 1, __ATOMIC_SEQ_CST);
		rcuwait_wake_up(s);
	}
	ru(lock);
}

static void pcpu_down_read(struct cgt_lock *lock)
{
	down_read(lock, rcu_read_lock_model, rcu_read_unlock_model);
}

static void pcpu_up_read(struct cgt_lock *lock)
{
	up_read(lock, rcu_read_lock_model, rcu_read_unlock_model);
}

static void pcpu_down_read_fast(struct cgt_lock *lock)
{
	down_read(lock, rcu_read_lock_fast, rcu_read_unlock_fast);
}

static void pcpu_up_read_fast(struct cgt_lock *lock)
{
	up_read(lock, rcu_read_lock_fast, rcu_read_unlock_fast);
}

/*
 * synchronize_rcu() records the caller's wait as one for a grace period; the caller's wait
 * for this lock (recorded by the lock layer, which the hang detector reads) resumes after it.
 */
static void rcu_sync_gp(void)
{
	struct cgt_thread *t = cgt_self;
	const void *obj = t ? __atomic_load_n(&t->wait_obj, __ATOMIC_ACQUIRE) : NULL;
	const char *name = obj ? READ_ONCE(t->wait_name) : NULL;
	int kind = obj ? READ_ONCE(t->wait_kind) : CGT_WAIT_NONE;
	uint64_t since = obj ? READ_ONCE(t->wait_since_ns) : 0;

	synchronize_rcu();
	if (obj)
		cgt_wait_begin_at(obj, name, (enum cgt_wait_kind)kind, since);
}

static void rcu_sync_func(struct rcu_head *head);

/* rcu_sync_func's work, under wait_lock */
static void rcu_sync_step(struct percpu_rwsem *s)
{
	if (s->gp_count) {
		lk_store(&s->gp_state, RSS_PASSED, __ATOMIC_RELEASE);
		s->cb_pending = false;
	} else if (s->gp_state == RSS_REPLAY) {
		/* a writer came and went meanwhile: wait a grace period after it */
		lk_store(&s->gp_state, RSS_EXIT, __ATOMIC_RELEASE);
		call_rcu(&s->rcu, rcu_sync_func);
	} else {
		lk_store(&s->gp_state, RSS_IDLE, __ATOMIC_RELEASE);
		s->cb_pending = false;
	}
}

/* rcu_sync_func: a grace period after the last writer left, readers may use the fast path. */
static void rcu_sync_func(struct rcu_head *head)
{
	struct percpu_rwsem *s = container_of(head, struct percpu_rwsem, rcu);

	rcu_callback_enter();
	if (!lk_stepper()) {
		cgt_mutex_lock(&s->wait_lock);
	} else if (pthread_mutex_trylock(&s->wait_lock)) {
		__atomic_store_n(&s->cb_deferred, 1, __ATOMIC_RELAXED);
		return;
	}
	rcu_sync_step(s);
	cgt_mutex_unlock(&s->wait_lock);
}

/* rcu_sync_enter: readers off the fast path, a grace period ago at least. */
static void rcu_sync_enter(struct percpu_rwsem *s)
{
	cgt_mutex_lock(&s->wait_lock);
	if (!s->gp_count++ && s->gp_state == RSS_IDLE) {
		lk_store(&s->gp_state, RSS_ENTER, __ATOMIC_RELEASE);
		wait_unlock(s);
		rcu_sync_gp();
		cgt_mutex_lock(&s->wait_lock);
		lk_store(&s->gp_state, RSS_PASSED, __ATOMIC_RELEASE);
		cgt_cond_broadcast(&s->gp_wait);
	}
	while (s->gp_state == RSS_ENTER)
		cgt_cond_wait(&s->gp_wait, &s->wait_lock);
	wait_unlock(s);
}

static void rcu_sync_exit(struct percpu_rwsem *s)
{
	cgt_mutex_lock(&s->wait_lock);
	if (!--s->gp_count) {
		if (s->gp_state == RSS_PASSED) {
			lk_store(&s->gp_state, RSS_EXIT, __ATOMIC_RELEASE);
			s->cb_pending = true;
			call_rcu(&s->rcu, rcu_sync_func);
		} else if (s->gp_state == RSS_EXIT) {
			lk_store(&s->gp_state, RSS_REPLAY, __ATOMIC_RELEASE);
		}
	}
	wait_unlock(s);
}

/* readers_active_check: the per-CPU counts summed (C, paired with the readers' B). */
static bool readers_active(struct percpu_rwsem *s)
{
	long sum = 0;

	for (unsigned int i = 0; i < nr_counts(s); i++)
		sum += lk_load(&s->count[i].n, __ATOMIC_SEQ_CST);
	return sum != 0;
}

/*
 * percpu_down_write: readers off the fast path, ->block taken (D, paired with the readers'
 * A: from here new readers see it and queue), then the rcuwait for the readers in.
 */
static void pcpu_down_write(struct cgt_lock *lock)
{
	struct percpu_rwsem *s = sem_of(lock);
	uint32_t seen;

	rcu_sync_enter(s);
	/* readers went on during the grace period by design: it was no wait for them */
	cgt_lock_writer_rebase(lock);
	if (!down_write_trylock(s))
		pcpu_wait(s, false);
	/* ->block is ours: from here no new reader gets in before us */
	cgt_lock_writer_queued(lock);
	lk_store(&s->writer_waits, 1, __ATOMIC_SEQ_CST);
	for (;;) {
		seen = lk_load(&s->writer_wake, __ATOMIC_SEQ_CST);
		if (!readers_active(s))
			break;
		lk_futex_wait(&s->writer_wake, seen);
	}
	lk_store(&s->writer_waits, 0, __ATOMIC_RELAXED);
}

/* percpu_up_write: ->block dropped, the queue woken, the fast path back a grace period on. */
static void pcpu_up_write(struct cgt_lock *lock)
{
	struct percpu_rwsem *s = sem_of(lock);

	lk_store(&s->block, 0, __ATOMIC_SEQ_CST);
	pcpu_wake(s);
	rcu_sync_exit(s);
}

static bool rcu_sync_pending(struct percpu_rwsem *s)
{
	bool pending;

	cgt_mutex_lock(&s->wait_lock);
	run_deferred(s);
	pending = s->cb_pending;
	cgt_mutex_unlock(&s->wait_lock);
	return pending;
}

/* percpu_free_rwsem: rcu_sync_dtor waits for a queued callback (which may queue itself again). */
static void pcpu_destroy(struct cgt_lock *lock)
{
	struct percpu_rwsem *s = sem_of(lock);

	while (rcu_sync_pending(s))
		rcu_barrier();
	pthread_cond_destroy(&s->gp_wait);
	pthread_mutex_destroy(&s->wait_lock);
	free(s);
}

CGT_LOCK_LOOPS(pcpu, pcpu_down_read_fast, pcpu_up_read_fast, pcpu_down_write, pcpu_up_write);

const struct cgt_lock_ops percpu_rwsem_lock_ops = {
	.name		= "percpu-rwsem",
	.desc		= "sleeping reader/writer (percpu_rw_semaphore), per-CPU readers, writer-preferring",
	.sleeps		= true,
	.shared		= true,
	.steps		= true,
	.policy		= CGT_POLICY_WRITER_FIRST,
	.init		= pcpu_init,
	.read_lock	= pcpu_down_read,
	.read_unlock	= pcpu_up_read,
	.write_lock	= pcpu_down_write,
	.write_unlock	= pcpu_up_write,
	.destroy	= pcpu_destroy,
	.loops		= &pcpu_loops,
	.reference	= "urcu+percpu_counter",
};
