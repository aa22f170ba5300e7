// SPDX-License-Identifier: GPL-2.0
/*
 * What a controlled run intercepts, and when: the table of core/sync.h hooks that sends RCU,
 * siglock and the model locks to the scheduler, installed as a controlled run starts and
 * removed as it ends. The baton itself is sched.c's; the model locks are coop_lock.c's.
 * With --locks code a second table runs each variant that can be stepped through
 * (locks/step.h) in its own code, a decision before each of its atomic operations.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "sched.h"
#include "sched_internal.h"
#include "../core/sync.h"
#include "../locks/lock.h"

/* siglock: a thread that finds it taken waits in the scheduler, not in the kernel */
static void sched_mutex_lock(pthread_mutex_t *m)
{
	if (!cgt_sched_self) {
		pthread_mutex_lock(m);
		return;
	}
	while (pthread_mutex_trylock(m))
		cgt_sched_block(m);
}

static void sched_mutex_unlock(pthread_mutex_t *m)
{
	pthread_mutex_unlock(m);
	cgt_sched_wake(m);
}

static void sched_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
	if (!cgt_sched_self) {
		pthread_cond_wait(c, m);
		return;
	}
	sched_mutex_unlock(m);
	cgt_sched_block(c);
	sched_mutex_lock(m);
}

static void sched_cond_broadcast(pthread_cond_t *c)
{
	cgt_sched_wake(c);
}

/*
 * A variant's own code under the scheduler. Its spinners block on one token that every
 * write to a lock word releases: a spinner looks again only after something it may be
 * waiting for has changed, and a lock nobody will ever write leaves its spinners blocked,
 * which the driver reports as a deadlock.
 */
static const int spin_token;

/*
 * The driver takes locks only while the model is at rest, and an RCU callback runs inside a
 * decision: neither may wait, and none can be held for them to wait on.
 */
static void no_wait(const char *what)
{
	fprintf(stderr, "cgtorture: %s %s\n", what, cgt_sched_self ?
		"inside an RCU callback (a decision)" : "while the model is at rest");
	abort();
}

static bool cannot_wait(void)
{
	return !cgt_sched_self || sched_rcu_calling_back();
}

static void code_step(void)
{
	if (!sched_rcu_calling_back())
		cgt_sched_step();
}

static void code_wrote(void)
{
	cgt_sched_wake(&spin_token);
}

static void code_spin(void)
{
	if (cannot_wait())
		no_wait("a lock spins");
	cgt_sched_block(&spin_token);
}

/* futex(2): the value looked at and the sleep one step, as the kernel's hash bucket lock makes them */
static void code_futex_wait(uint32_t *addr, uint32_t val)
{
	if (__atomic_load_n(addr, __ATOMIC_RELAXED) != val)
		return;
	if (cannot_wait())
		no_wait("a lock sleeps");
	cgt_sched_block(addr);
}

/* every sleeper on @addr: each looks again, as after a spurious wake */
static void code_futex_wake(uint32_t *addr)
{
	cgt_sched_wake(addr);
}

static void code_lock_acquire(struct cgt_lock *lock, int side)
{
	if (lock->ops->steps)
		cgt_lock_ops_take(lock, side);
	else
		cgt_coop_lock(lock, side);
}

static void code_lock_release(struct cgt_lock *lock, int side)
{
	if (lock->ops->steps)
		cgt_lock_ops_drop(lock, side);
	else
		cgt_coop_unlock(lock, side);
}

/* What every controlled run sends to the scheduler: RCU, siglock and its waits, lock init. */
#define SCHED_SYNC_COMMON						\
	.rcu_read_lock		= cgt_sched_rcu_lock,			\
	.rcu_read_unlock	= cgt_sched_rcu_unlock,			\
	.call_rcu		= cgt_sched_call_rcu,			\
	.synchronize_rcu	= cgt_sched_synchronize_rcu,		\
	.rcu_barrier		= cgt_sched_rcu_barrier,		\
	.mutex_lock		= sched_mutex_lock,			\
	.mutex_unlock		= sched_mutex_unlock,			\
	.cond_wait		= sched_cond_wait,			\
	.cond_broadcast		= sched_cond_broadcast,			\
	.lock_init		= cgt_coop_init

static const struct cgt_sync_ops sched_sync_ops = {
	SCHED_SYNC_COMMON,
	.lock_acquire		= cgt_coop_lock,
	.lock_release		= cgt_coop_unlock,
};

static const struct cgt_sync_ops sched_code_sync_ops = {
	SCHED_SYNC_COMMON,
	.lock_acquire		= code_lock_acquire,
	.lock_release		= code_lock_release,
	.lock_step		= code_step,
	.lock_wrote		= code_wrote,
	.lock_spin		= code_spin,
	.futex_wait		= code_futex_wait,
	.futex_wake		= code_futex_wake,
};

int cgt_sched_init(const struct cgt_sched_config *cfg)
{
	int ret = cgt_sched_baton_init(cfg);

	cgt_coop_reset();
	cgt_sync_install(cfg->lock_code ? &sched_code_sync_ops : &sched_sync_ops);
	return ret;
}

void cgt_sched_finish(void)
{
	cgt_sync_install(NULL);
	cgt_sched_baton_finish();
}
