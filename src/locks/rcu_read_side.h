/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An RCU read-side section as a lock's read side, in the two forms the variants need. The
 * model's (rcu_read_lock, core/rcu.c): what the controlled scheduler, the lifetime checks and
 * ThreadSanitizer's grace-period token need, so every reader the model or the harness runs
 * takes it. liburcu's own, inlined from its LGPL static headers as its benchmarks build it:
 * what an RCU reader costs without that bookkeeping, for compare's loops only. The caller
 * must be a registered RCU reader (cgt_rcu_register_thread).
 */
#ifndef CGT_RCU_READ_SIDE_H
#define CGT_RCU_READ_SIDE_H

#ifndef _LGPL_SOURCE
#error "define _LGPL_SOURCE before the first include: only then is liburcu's read side inline"
#endif

#include <urcu/urcu-memb.h>

#include "lock.h"
#include "../core/rcu.h"

static inline void rcu_read_lock_model(struct cgt_lock *lock)
{
	(void)lock;
	rcu_read_lock();
}

static inline void rcu_read_unlock_model(struct cgt_lock *lock)
{
	(void)lock;
	rcu_read_unlock();
}

static inline void rcu_read_lock_fast(struct cgt_lock *lock)
{
	(void)lock;
	urcu_memb_read_lock();
}

static inline void rcu_read_unlock_fast(struct cgt_lock *lock)
{
	(void)lock;
	urcu_memb_read_unlock();
}

#endif
