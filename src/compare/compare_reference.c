// SPDX-License-Identifier: GPL-2.0
/*
 * compare --reference: beside each variant's limit, the primitive it is, written as its users
 * write it, from the libraries they take it from: glibc's pthread_rwlock and pthread_mutex,
 * Concurrency Kit's ticket spinlock and reader/writer spinlock, liburcu's read side inlined
 * from its LGPL static headers (as its own benchmarks build it). Each is a lock ops table
 * whose loops come from the same CGT_LOCK_LOOPS as the variants', so the two differ only in
 * the lock. A variant names its reference in its ops (.reference). Also here: the locks that
 * do nothing, whose limit loop is what the loop itself costs.
 */
#define _GNU_SOURCE		/* sched_getcpu, pthread_rwlockattr_setkind_np */
#define _LGPL_SOURCE		/* liburcu's read side inline */
#include <ck_rwlock.h>
#include <ck_spinlock.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <urcu/urcu-memb.h>

#include "compare.h"
#include "../locks/rcu_read_side.h"

/* Nothing but what stops the compiler folding the loop: an empty asm that clobbers memory. */
static void nothing(struct cgt_lock *lock)
{
	(void)lock;
	__asm__ __volatile__("" ::: "memory");
}

CGT_LOCK_LOOPS(nolock, nothing, nothing, nothing, nothing);

const struct cgt_lock_ops cgt_cmp_nolock = {
	.name		= "none",
	.desc		= "no lock: the loop's own cost",
	.init		= nothing,
	.loops		= &nolock_loops,
};

static pthread_rwlock_t *prw(struct cgt_lock *lock)
{
	return cgt_lock_priv(lock, pthread_rwlock_t);
}

static void prw_init(struct cgt_lock *lock)
{
	pthread_rwlock_init(prw(lock), NULL);
}

static void prw_wpref_init(struct cgt_lock *lock)
{
	pthread_rwlockattr_t attr;

	pthread_rwlockattr_init(&attr);
	pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(prw(lock), &attr);
	pthread_rwlockattr_destroy(&attr);
}

static void prw_rdlock(struct cgt_lock *lock)
{
	pthread_rwlock_rdlock(prw(lock));
}

static void prw_wrlock(struct cgt_lock *lock)
{
	pthread_rwlock_wrlock(prw(lock));
}

static void prw_unlock(struct cgt_lock *lock)
{
	pthread_rwlock_unlock(prw(lock));
}

static void prw_destroy(struct cgt_lock *lock)
{
	pthread_rwlock_destroy(prw(lock));
}

CGT_LOCK_LOOPS(prw, prw_rdlock, prw_unlock, prw_wrlock, prw_unlock);

static pthread_mutex_t *mtx(struct cgt_lock *lock)
{
	return cgt_lock_priv(lock, pthread_mutex_t);
}

static void mtx_init(struct cgt_lock *lock)
{
	pthread_mutex_init(mtx(lock), NULL);
}

static void mtx_lock(struct cgt_lock *lock)
{
	pthread_mutex_lock(mtx(lock));
}

static void mtx_unlock(struct cgt_lock *lock)
{
	pthread_mutex_unlock(mtx(lock));
}

static void mtx_destroy(struct cgt_lock *lock)
{
	pthread_mutex_destroy(mtx(lock));
}

CGT_LOCK_LOOPS(mtx, mtx_lock, mtx_unlock, mtx_lock, mtx_unlock);

static ck_spinlock_ticket_t *ticket(struct cgt_lock *lock)
{
	return cgt_lock_priv(lock, ck_spinlock_ticket_t);
}

static void ticket_init(struct cgt_lock *lock)
{
	ck_spinlock_ticket_init(ticket(lock));
}

static void ticket_lock(struct cgt_lock *lock)
{
	ck_spinlock_ticket_lock(ticket(lock));
}

static void ticket_unlock(struct cgt_lock *lock)
{
	ck_spinlock_ticket_unlock(ticket(lock));
}

CGT_LOCK_LOOPS(ticket, ticket_lock, ticket_unlock, ticket_lock, ticket_unlock);

static ck_rwlock_t *ckrw(struct cgt_lock *lock)
{
	return cgt_lock_priv(lock, ck_rwlock_t);
}

static void ckrw_init(struct cgt_lock *lock)
{
	ck_rwlock_init(ckrw(lock));
}

static void ckrw_read_lock(struct cgt_lock *lock)
{
	ck_rwlock_read_lock(ckrw(lock));
}

static void ckrw_read_unlock(struct cgt_lock *lock)
{
	ck_rwlock_read_unlock(ckrw(lock));
}

static void ckrw_write_lock(struct cgt_lock *lock)
{
	ck_rwlock_write_lock(ckrw(lock));
}

static void ckrw_write_unlock(struct cgt_lock *lock)
{
	ck_rwlock_write_unlock(ckrw(lock));
}

CGT_LOCK_LOOPS(ckrw, ckrw_read_lock, ckrw_read_unlock, ckrw_write_lock, ckrw_write_unlock);

/* The workers are registered liburcu readers (compare_cell.c). */
CGT_LOCK_LOOPS(urcu_ticket, rcu_read_lock_fast, rcu_read_unlock_fast, ticket_lock, ticket_unlock);

/* An updater that frees what it unlinked waits a grace period after its unlock. */
static void mtx_unlock_sync(struct cgt_lock *lock)
{
	pthread_mutex_unlock(mtx(lock));
	urcu_memb_synchronize_rcu();
}

CGT_LOCK_LOOPS(urcu_mtx, rcu_read_lock_fast, rcu_read_unlock_fast, mtx_lock, mtx_unlock_sync);

/*
 * A reader count per CPU, as users write one: an RCU reader bumps this CPU's counter
 * (sched_getcpu, an atomic add: a thread can move mid-update). That is a
 * percpu_rw_semaphore's read side; its write side (a grace period that writers in quick
 * succession share, then a wait for the counts to drain) has no user-space original, so the
 * writers here only take a mutex: a reference for the reads.
 */
struct pcpu_count {
	_Alignas(64) long n;
};

struct pcpu_ref {
	unsigned int nr_cpus;
	pthread_mutex_t writers;
	struct pcpu_count *count;
};
_Static_assert(sizeof(struct pcpu_ref) <= CGT_LOCK_PRIV_SIZE, "pcpu reference too large");

static struct pcpu_ref *pcpu(struct cgt_lock *lock)
{
	return cgt_lock_priv(lock, struct pcpu_ref);
}

static void pcpu_init(struct cgt_lock *lock)
{
	struct pcpu_ref *p = pcpu(lock);
	long n = sysconf(_SC_NPROCESSORS_CONF);

	p->nr_cpus = n > 0 ? (unsigned int)n : 1;
	p->count = aligned_alloc(64, p->nr_cpus * sizeof(*p->count));
	if (!p->count)
		abort();
	memset(p->count, 0, p->nr_cpus * sizeof(*p->count));
	pthread_mutex_init(&p->writers, NULL);
}

static void pcpu_add(struct cgt_lock *lock, long v)
{
	struct pcpu_ref *p = pcpu(lock);
	int cpu = sched_getcpu();

	urcu_memb_read_lock();
	__atomic_fetch_add(&p->count[(unsigned int)(cpu > 0 ? cpu : 0) % p->nr_cpus].n, v,
			   __ATOMIC_RELAXED);
	urcu_memb_read_unlock();
}

static void pcpu_read_lock(struct cgt_lock *lock)
{
	pcpu_add(lock, 1);
}

static void pcpu_read_unlock(struct cgt_lock *lock)
{
	pcpu_add(lock, -1);
}

static void pcpu_write_lock(struct cgt_lock *lock)
{
	pthread_mutex_lock(&pcpu(lock)->writers);
}

static void pcpu_write_unlock(struct cgt_lock *lock)
{
	pthread_mutex_unlock(&pcpu(lock)->writers);
}

static void pcpu_destroy(struct cgt_lock *lock)
{
	pthread_mutex_destroy(&pcpu(lock)->writers);
	free(pcpu(lock)->count);
}

CGT_LOCK_LOOPS(pcpu, pcpu_read_lock, pcpu_read_unlock, pcpu_write_lock, pcpu_write_unlock);

#define REFERENCE(n, d, i, l, x)	{ .name = n, .desc = d, .init = i, .loops = &l##_loops, .destroy = x }

static const struct cgt_lock_ops references[] = {
	REFERENCE("pthread_rwlock", "glibc pthread_rwlock_rdlock/wrlock, default attributes",
		  prw_init, prw, prw_destroy),
	REFERENCE("pthread_rwlock_wpref", "glibc pthread_rwlock, writer-preferring kind",
		  prw_wpref_init, prw, prw_destroy),
	REFERENCE("pthread_mutex", "glibc pthread_mutex_lock/unlock", mtx_init, mtx, mtx_destroy),
	REFERENCE("ck_spinlock_ticket", "Concurrency Kit's ticket spinlock", ticket_init, ticket,
		  NULL),
	REFERENCE("ck_rwlock", "Concurrency Kit's reader/writer spinlock", ckrw_init, ckrw, NULL),
	REFERENCE("urcu+ck_spinlock_ticket", "liburcu readers (inline); writers on a ck ticket lock",
		  ticket_init, urcu_ticket, NULL),
	REFERENCE("urcu+pthread_mutex",
		  "liburcu readers (inline); writers on a pthread_mutex, then synchronize_rcu",
		  mtx_init, urcu_mtx, mtx_destroy),
	REFERENCE("urcu+percpu_counter",
		  "readers bump this CPU's count in a liburcu reader; writers only take a mutex",
		  pcpu_init, pcpu, pcpu_destroy),
};

const struct cgt_lock_ops *cgt_cmp_reference(const struct cgt_lock_ops *ops)
{
	for (size_t i = 0; ops->reference && i < ARRAY_SIZE(references); i++)
		if (!strcmp(references[i].name, ops->reference))
			return &references[i];
	return NULL;
}
