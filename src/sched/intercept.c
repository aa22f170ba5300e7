// SPDX-License-Identifier: GPL-2.0
/*
 * What a controlled run intercepts, and when: the table of core/sync.h hooks that sends RCU,
 * siglock and the model locks to the scheduler, installed as a controlled run starts and
 * removed as it ends. The baton itself is sched.c's; the model locks are coop_lock.c's.
 */
#include <pthread.h>

#include "sched.h"
#include "../core/sync.h"

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

static const struct cgt_sync_ops sched_sync_ops = {
	.rcu_read_lock		= cgt_sched_rcu_lock,
	.rcu_read_unlock	= cgt_sched_rcu_unlock,
	.call_rcu		= cgt_sched_call_rcu,
	.synchronize_rcu	= cgt_sched_synchronize_rcu,
	.rcu_barrier		= cgt_sched_rcu_barrier,
	.mutex_lock		= sched_mutex_lock,
	.mutex_unlock		= sched_mutex_unlock,
	.cond_wait		= sched_cond_wait,
	.cond_broadcast		= sched_cond_broadcast,
	.lock_init		= cgt_coop_init,
	.lock_acquire		= cgt_coop_lock,
	.lock_release		= cgt_coop_unlock,
};

int cgt_sched_init(const struct cgt_sched_config *cfg)
{
	int ret = cgt_sched_baton_init(cfg);

	cgt_coop_reset();
	cgt_sync_install(&sched_sync_ops);
	return ret;
}

void cgt_sched_finish(void)
{
	cgt_sync_install(NULL);
	cgt_sched_baton_finish();
}
