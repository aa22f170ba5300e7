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
 * Fairness: a waiting writer keeps new readers out once it holds ->block (writer-preferring);
 * writers among themselves take a mutex. Waiters sleep (futex). Readers must be registered
 * RCU threads (cgt_rcu_register_thread).
 */
#define _GNU_SOURCE	/* sched_getcpu */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "lock.h"
#include "../core/rcu.h"
#include "../core/thread.h"

/* rcu_sync's states (kernel/rcu/sync.c): readers take the fast path only when idle. */
enum { RSS_IDLE, RSS_ENTER, RSS_PASSED, RSS_EXIT, RSS_REPLAY };

struct read_count {
	_Alignas(64) long n;	/* may go negative: a reader can leave on another CPU */
};

struct percpu_rwsem {
	int gp_state;			/* RSS_*: written under wait_lock, read by readers */
	int gp_count;			/* writers between rcu_sync_enter and exit */
	bool cb_pending;		/* the rcu_sync callback is queued */
	int block;			/* a writer holds the lock, or is draining readers */
	pthread_mutex_t writer;		/* writers among themselves */
	pthread_mutex_t wait_lock;	/* the state above, and the three waits below */
	pthread_cond_t gp_wait;		/* writers: for the grace period to pass */
	pthread_cond_t readers_wait;	/* readers: for ->block to drop */
	pthread_cond_t writer_wait;	/* the writer: for the readers to drain */
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
	unsigned int cpus = n > 0 ? (unsigned int)n : 1;
	struct percpu_rwsem *s = NULL;

	if (posix_memalign((void **)&s, 64, sizeof(*s) + cpus * sizeof(s->count[0]))) {
		fprintf(stderr, "cgtorture: out of memory for a percpu-rwsem\n");
		abort();
	}
	*s = (struct percpu_rwsem){ .nr_cpus = cpus };
	for (unsigned int i = 0; i < cpus; i++)
		s->count[i].n = 0;
	pthread_mutex_init(&s->writer, NULL);
	pthread_mutex_init(&s->wait_lock, NULL);
	pthread_cond_init(&s->gp_wait, NULL);
	pthread_cond_init(&s->readers_wait, NULL);
	pthread_cond_init(&s->writer_wait, NULL);
	*cgt_lock_priv(lock, struct percpu_rwsem *) = s;
}

/* this_cpu_ptr(sem->read_count): atomic, as a user thread can be moved mid-update */
static long *this_cpu_count(struct percpu_rwsem *s)
{
	int cpu = sched_getcpu();

	return &s->count[(cpu > 0 ? (unsigned int)cpu : 0) % s->nr_cpus].n;
}

static bool rcu_sync_is_idle(struct percpu_rwsem *s)
{
	return __atomic_load_n(&s->gp_state, __ATOMIC_ACQUIRE) == RSS_IDLE;
}

/* The writer sleeping for the readers: a reader leaving on the slow path wakes it. */
static void wake_writer(struct percpu_rwsem *s)
{
	pthread_mutex_lock(&s->wait_lock);
	pthread_cond_broadcast(&s->writer_wait);
	pthread_mutex_unlock(&s->wait_lock);
}

/* __percpu_down_read_trylock: count ourselves, then look (A, paired with the writer's D). */
static bool down_read_trylock_slow(struct percpu_rwsem *s)
{
	__atomic_fetch_add(this_cpu_count(s), 1, __ATOMIC_SEQ_CST);
	if (likely(!__atomic_load_n(&s->block, __ATOMIC_SEQ_CST)))
		return true;
	__atomic_fetch_sub(this_cpu_count(s), 1, __ATOMIC_SEQ_CST);
	wake_writer(s);
	return false;
}

/* percpu_down_read */
static void pcpu_down_read(struct cgt_lock *lock)
{
	struct percpu_rwsem *s = sem_of(lock);

	rcu_read_lock();
	if (likely(rcu_sync_is_idle(s))) {
		__atomic_fetch_add(this_cpu_count(s), 1, __ATOMIC_RELAXED);
		rcu_read_unlock();
		return;
	}
	while (!down_read_trylock_slow(s)) {
		/* percpu_rwsem_wait: never sleep inside the read-side section */
		rcu_read_unlock();
		pthread_mutex_lock(&s->wait_lock);
		while (__atomic_load_n(&s->block, __ATOMIC_ACQUIRE))
			pthread_cond_wait(&s->readers_wait, &s->wait_lock);
		pthread_mutex_unlock(&s->wait_lock);
		rcu_read_lock();
	}
	rcu_read_unlock();
}

/* percpu_up_read */
static void pcpu_up_read(struct cgt_lock *lock)
{
	struct percpu_rwsem *s = sem_of(lock);

	rcu_read_lock();
	if (likely(rcu_sync_is_idle(s))) {
		__atomic_fetch_sub(this_cpu_count(s), 1, __ATOMIC_RELAXED);
	} else {
		/* B, paired with C in readers_active_check */
		__atomic_fetch_sub(this_cpu_count(s), 1, __ATOMIC_SEQ_CST);
		wake_writer(s);
	}
	rcu_read_unlock();
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

/* rcu_sync_func: a grace period after the last writer left, readers may use the fast path. */
static void rcu_sync_func(struct rcu_head *head)
{
	struct percpu_rwsem *s = container_of(head, struct percpu_rwsem, rcu);

	rcu_callback_enter();
	pthread_mutex_lock(&s->wait_lock);
	if (s->gp_count) {
		__atomic_store_n(&s->gp_state, RSS_PASSED, __ATOMIC_RELEASE);
		s->cb_pending = false;
	} else if (s->gp_state == RSS_REPLAY) {
		/* a writer came and went meanwhile: wait a grace period after it */
		__atomic_store_n(&s->gp_state, RSS_EXIT, __ATOMIC_RELEASE);
		call_rcu(&s->rcu, rcu_sync_func);
	} else {
		__atomic_store_n(&s->gp_state, RSS_IDLE, __ATOMIC_RELEASE);
		s->cb_pending = false;
	}
	pthread_mutex_unlock(&s->wait_lock);
}

/* rcu_sync_enter: readers off the fast path, a grace period ago at least. */
static void rcu_sync_enter(struct percpu_rwsem *s)
{
	pthread_mutex_lock(&s->wait_lock);
	if (!s->gp_count++ && s->gp_state == RSS_IDLE) {
		__atomic_store_n(&s->gp_state, RSS_ENTER, __ATOMIC_RELEASE);
		pthread_mutex_unlock(&s->wait_lock);
		rcu_sync_gp();
		pthread_mutex_lock(&s->wait_lock);
		__atomic_store_n(&s->gp_state, RSS_PASSED, __ATOMIC_RELEASE);
		pthread_cond_broadcast(&s->gp_wait);
	}
	while (s->gp_state == RSS_ENTER)
		pthread_cond_wait(&s->gp_wait, &s->wait_lock);
	pthread_mutex_unlock(&s->wait_lock);
}

static void rcu_sync_exit(struct percpu_rwsem *s)
{
	pthread_mutex_lock(&s->wait_lock);
	if (!--s->gp_count) {
		if (s->gp_state == RSS_PASSED) {
			__atomic_store_n(&s->gp_state, RSS_EXIT, __ATOMIC_RELEASE);
			s->cb_pending = true;
			call_rcu(&s->rcu, rcu_sync_func);
		} else if (s->gp_state == RSS_EXIT) {
			__atomic_store_n(&s->gp_state, RSS_REPLAY, __ATOMIC_RELEASE);
		}
	}
	pthread_mutex_unlock(&s->wait_lock);
}

/* readers_active_check: the per-CPU counts summed (C, paired with the readers' B). */
static bool readers_active(struct percpu_rwsem *s)
{
	long sum = 0;

	for (unsigned int i = 0; i < s->nr_cpus; i++)
		sum += __atomic_load_n(&s->count[i].n, __ATOMIC_SEQ_CST);
	return sum != 0;
}

/* percpu_down_write */
static void pcpu_down_write(struct cgt_lock *lock)
{
	struct percpu_rwsem *s = sem_of(lock);

	rcu_sync_enter(s);
	pthread_mutex_lock(&s->writer);
	/* D, paired with the readers' A: from here new readers see ->block and wait */
	__atomic_store_n(&s->block, 1, __ATOMIC_SEQ_CST);
	pthread_mutex_lock(&s->wait_lock);
	while (readers_active(s))
		pthread_cond_wait(&s->writer_wait, &s->wait_lock);
	pthread_mutex_unlock(&s->wait_lock);
}

/* percpu_up_write */
static void pcpu_up_write(struct cgt_lock *lock)
{
	struct percpu_rwsem *s = sem_of(lock);

	pthread_mutex_lock(&s->wait_lock);
	__atomic_store_n(&s->block, 0, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&s->readers_wait);
	pthread_mutex_unlock(&s->wait_lock);
	pthread_mutex_unlock(&s->writer);
	rcu_sync_exit(s);
}

static bool rcu_sync_pending(struct percpu_rwsem *s)
{
	bool pending;

	pthread_mutex_lock(&s->wait_lock);
	pending = s->cb_pending;
	pthread_mutex_unlock(&s->wait_lock);
	return pending;
}

/* percpu_free_rwsem: rcu_sync_dtor waits for a queued callback (which may queue itself again). */
static void pcpu_destroy(struct cgt_lock *lock)
{
	struct percpu_rwsem *s = sem_of(lock);

	while (rcu_sync_pending(s))
		rcu_barrier();
	pthread_cond_destroy(&s->writer_wait);
	pthread_cond_destroy(&s->readers_wait);
	pthread_cond_destroy(&s->gp_wait);
	pthread_mutex_destroy(&s->wait_lock);
	pthread_mutex_destroy(&s->writer);
	free(s);
}

const struct cgt_lock_ops percpu_rwsem_lock_ops = {
	.name		= "percpu-rwsem",
	.desc		= "sleeping reader/writer (percpu_rw_semaphore), per-CPU readers, writer-preferring",
	.sleeps		= true,
	.shared		= true,
	.policy		= CGT_POLICY_WRITER_FIRST,
	.init		= pcpu_init,
	.read_lock	= pcpu_down_read,
	.read_unlock	= pcpu_up_read,
	.write_lock	= pcpu_down_write,
	.write_unlock	= pcpu_up_write,
	.destroy	= pcpu_destroy,
};
