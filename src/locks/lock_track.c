// SPDX-License-Identifier: GPL-2.0
/*
 * What every model lock acquisition goes through: the marked points, the record of the
 * wait and the hold (core/thread.h) that the hang watchdog draws its wait-for graph from,
 * per-class statistics for the starvation figures, and two lockdep checks made the first
 * time they happen, even in a run where the deadlock never comes: an inversion of the
 * order of two classes, and a sleeping lock taken inside an RCU read-side section.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "lock.h"
#include "../core/failure.h"
#include "../core/rcu.h"
#include "../core/thread.h"
#include "../core/sync.h"

#define MAX_CLASSES	16

static pthread_mutex_t class_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cgt_lock_class classes[MAX_CLASSES];
static int nclasses;
/* order[a][b]: class b was taken while class a was held */
static unsigned char order[MAX_CLASSES][MAX_CLASSES];
static unsigned char rcu_nesting_seen[MAX_CLASSES];
static uint64_t starve_ns;

void cgt_lock_set_starve_ns(uint64_t ns)
{
	WRITE_ONCE(starve_ns, ns);
}

uint64_t cgt_lock_starve_ns(void)
{
	return READ_ONCE(starve_ns);
}

static struct cgt_lock_class *class_get(const char *name, bool sleeps)
{
	struct cgt_lock_class *c = NULL;

	pthread_mutex_lock(&class_lock);
	for (int i = 0; i < nclasses; i++)
		if (!strcmp(classes[i].name, name))
			c = &classes[i];
	if (!c && nclasses < MAX_CLASSES) {
		c = &classes[nclasses++];
		c->name = name;
	}
	if (c)
		c->sleeps = sleeps;
	pthread_mutex_unlock(&class_lock);
	return c ? c : &classes[MAX_CLASSES - 1];
}

void cgt_lock_init(struct cgt_lock *lock, const struct cgt_lock_ops *ops, const char *name)
{
	memset(lock, 0, offsetof(struct cgt_lock, priv));
	lock->ops = ops;
	lock->name = name;
	lock->class = class_get(name, ops->sleeps);
	ops->init(lock);
	if (cgt_sync())
		cgt_sync()->lock_init(lock);
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
		const long *s = (const long *)&classes[i];
		long *d = (long *)&out[i];

		for (size_t k = 0; k < sizeof(classes[i]) / sizeof(long); k++)
			d[k] = __atomic_load_n(&s[k], __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&class_lock);
	return n;
}

void cgt_lock_classes_reset(void)
{
	pthread_mutex_lock(&class_lock);
	memset(classes, 0, sizeof(classes));
	memset(order, 0, sizeof(order));
	memset(rcu_nesting_seen, 0, sizeof(rcu_nesting_seen));
	nclasses = 0;
	pthread_mutex_unlock(&class_lock);
}

static const char *side_name(int side)
{
	return side == CGT_WRITE ? "write" : "read";
}

/* lockdep's check_prev_add, for the classes this thread holds as it takes @lock. */
static void check_order(struct cgt_thread *t, struct cgt_lock *lock, int side)
{
	int b = (int)(lock->class - classes);

	for (int i = 0; i < READ_ONCE(t->nheld); i++) {
		const struct cgt_lock *held = t->held[i].lock;
		int a = (int)(held->class - classes);
		char evidence[512];

		if (a == b) {
			if (__atomic_exchange_n(&order[a][a], 1, __ATOMIC_RELAXED))
				continue;
			snprintf(evidence, sizeof(evidence),
				 "thread %d holds %s (%s) and takes another %s (%s)\n",
				 t->id, held->name, side_name(t->held[i].write), lock->name,
				 side_name(side));
			cgt_fail(CGT_DET_LOCK_ORDER, t->id, evidence,
				 "possible recursive locking: %s taken while one is held", lock->name);
			continue;
		}
		if (__atomic_exchange_n(&order[a][b], 1, __ATOMIC_RELAXED))
			continue;
		if (__atomic_load_n(&order[b][a], __ATOMIC_RELAXED)) {
			snprintf(evidence, sizeof(evidence),
				 "thread %d (tid %d) takes %s (%s) while holding %s (%s);\n"
				 "another thread earlier took %s while holding %s\n",
				 t->id, READ_ONCE(t->pid), lock->name, side_name(side), held->name,
				 side_name(t->held[i].write), held->name, lock->name);
			cgt_fail(CGT_DET_LOCK_ORDER, t->id, evidence,
				 "possible circular locking: %s -> %s and %s -> %s",
				 held->name, lock->name, lock->name, held->name);
		}
	}
}

/* "BUG: sleeping function called from invalid context" / suspicious RCU usage. */
static void check_rcu_nesting(struct cgt_thread *t, struct cgt_lock *lock, int side)
{
	int c = (int)(lock->class - classes);
	char evidence[256];

	if (!lock->ops->sleeps || !cgt_rcu_read_depth())
		return;
	if (__atomic_exchange_n(&rcu_nesting_seen[c], 1, __ATOMIC_RELAXED))
		return;
	snprintf(evidence, sizeof(evidence),
		 "thread %d (tid %d) is inside rcu_read_lock (depth %d) and takes %s (%s),\n"
		 "which may sleep: a writer that waits for a grace period under it deadlocks\n",
		 t->id, READ_ONCE(t->pid), cgt_rcu_read_depth(), lock->name, side_name(side));
	cgt_fail(CGT_DET_RCU_NESTING, t->id, evidence,
		 "sleeping lock %s taken inside an RCU read-side section", lock->name);
}

static void stat_max(uint64_t *max, uint64_t v)
{
	uint64_t old = __atomic_load_n(max, __ATOMIC_RELAXED);

	while (v > old && !__atomic_compare_exchange_n(max, &old, v, true, __ATOMIC_RELAXED,
						       __ATOMIC_RELAXED))
		;
}

/*
 * A writer is passed over when readers keep getting the lock while it waits and no writer
 * at all gets in: the readers, not a queue of writers, keep it out. Past --starve that is
 * starvation (the watchdog says so while it still waits, this at the end of the wait).
 */
static void writer_got_in(struct cgt_thread *t, struct cgt_lock *lock, long reads0, long writes0,
			  uint64_t waited)
{
	struct cgt_lock_class *c = lock->class;
	long reads = __atomic_load_n(&lock->reads, __ATOMIC_RELAXED) - reads0;
	long writes = __atomic_load_n(&lock->writes, __ATOMIC_RELAXED) - writes0;
	uint64_t starve = READ_ONCE(starve_ns);

	if (writes || !reads)
		return;
	__atomic_fetch_add(&c->passed_over, reads, __ATOMIC_RELAXED);
	stat_max(&c->worst_writer_passed, (uint64_t)reads);
	/* a controlled run's clock is its decisions: there a writer is starved by a count */
	if (cgt_sync() ? !lock->ops->shared || reads < CGT_STARVE_READS :
	    !starve || waited <= starve || (t && (READ_ONCE(t->wait_reported) & 2)))
		return;
	cgt_fail(CGT_DET_STARVATION, t ? t->id : 0, NULL,
		 "writer waited %.2f s for %s while %ld reads got in and no writer did",
		 (double)waited / 1e9, lock->name, reads);
}

void cgt_lock_acquire(struct cgt_lock *lock, int side)
{
	struct cgt_thread *t = cgt_self;
	struct cgt_lock_class *c = lock->class;
	long reads0 = __atomic_load_n(&lock->reads, __ATOMIC_RELAXED);
	long writes0 = __atomic_load_n(&lock->writes, __ATOMIC_RELAXED);
	uint64_t since, waited;

	cgt_point(CGT_PT_LOCK_WAIT, lock);
	if (t) {
		check_order(t, lock, side);
		check_rcu_nesting(t, lock, side);
		WRITE_ONCE(t->wait_reads_seen, reads0);
		WRITE_ONCE(t->wait_writes_seen, writes0);
		WRITE_ONCE(t->wait_static, !lock->dynamic);
		WRITE_ONCE(t->wait_acq_seen, __atomic_load_n(&lock->acquisitions, __ATOMIC_RELAXED));
	}
	/*
	 * Two clock reads per acquisition, the wait's start and end; at some 30 ns each in a
	 * VM's vDSO they are most of what tracking costs, so the wait record shares the first.
	 */
	since = cgt_clock_ns();
	if (t)
		cgt_wait_begin_at(lock, lock->name,
				  side == CGT_WRITE ? CGT_WAIT_WRITE : CGT_WAIT_READ, since);

	if (cgt_sync())
		cgt_sync()->lock_acquire(lock, side);
	else if (side == CGT_WRITE)
		lock->ops->write_lock(lock);
	else
		lock->ops->read_lock(lock);

	waited = cgt_clock_ns() - since;
	if (side == CGT_WRITE) {
		writer_got_in(t, lock, reads0, writes0, waited);
		__atomic_fetch_add(&lock->writes, 1, __ATOMIC_RELAXED);
	} else {
		__atomic_fetch_add(&lock->reads, 1, __ATOMIC_RELAXED);
	}
	if (t)
		cgt_wait_end();
	__atomic_fetch_add(&lock->acquisitions, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&c->acquired[side], 1, __ATOMIC_RELAXED);
	stat_max(&c->wait_max_ns[side], waited);

	if (t) {
		int n = READ_ONCE(t->nheld);

		if (n < CGT_MAX_HELD) {
			WRITE_ONCE(t->held[n].lock, lock);
			WRITE_ONCE(t->held[n].name, lock->name);
			WRITE_ONCE(t->held[n].write, side);
			WRITE_ONCE(t->held[n].since_ns, since + waited);
			__atomic_store_n(&t->nheld, n + 1, __ATOMIC_RELEASE);
		}
	}
	cgt_point(CGT_PT_LOCK_HELD, lock);
}

void cgt_lock_release(struct cgt_lock *lock, int side)
{
	struct cgt_thread *t = cgt_self;

	if (cgt_sync())
		cgt_sync()->lock_release(lock, side);
	else if (side == CGT_WRITE)
		lock->ops->write_unlock(lock);
	else
		lock->ops->read_unlock(lock);
	if (t) {
		int n = READ_ONCE(t->nheld);

		/* locks are mostly released in reverse order; search from the top */
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
			break;
		}
	}
	cgt_point(CGT_PT_LOCK_RELEASE, lock);
}
