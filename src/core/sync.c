// SPDX-License-Identifier: GPL-2.0
#include "point.h"
#include "sync.h"

const struct cgt_sync_ops *cgt_sync_ops;

void cgt_sync_install(const struct cgt_sync_ops *ops)
{
	__atomic_store_n(&cgt_sync_ops, ops, __ATOMIC_RELEASE);
}

/* A marked point before it: so perturbation and the scheduler reach siglock's windows too. */
void cgt_mutex_lock(pthread_mutex_t *m)
{
	const struct cgt_sync_ops *s = cgt_sync();

	cgt_point(CGT_PT_SIGLOCK, m);
	if (s)
		s->mutex_lock(m);
	else
		pthread_mutex_lock(m);
}

void cgt_mutex_unlock(pthread_mutex_t *m)
{
	const struct cgt_sync_ops *s = cgt_sync();

	if (s)
		s->mutex_unlock(m);
	else
		pthread_mutex_unlock(m);
}

void cgt_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
	const struct cgt_sync_ops *s = cgt_sync();

	if (s)
		s->cond_wait(c, m);
	else
		pthread_cond_wait(c, m);
}

void cgt_cond_broadcast(pthread_cond_t *c)
{
	const struct cgt_sync_ops *s = cgt_sync();

	if (s)
		s->cond_broadcast(c);
	else
		pthread_cond_broadcast(c);
}
