/* SPDX-License-Identifier: GPL-2.0 */
/*
 * liburcu's own read side, inlined from its LGPL static headers as its benchmarks build it:
 * what an RCU reader costs without the model's bookkeeping (core/rcu.c), for compare's loops
 * only. The model's readers go through rcu_read_lock(), which the controlled scheduler, the
 * lifetime checks and ThreadSanitizer's grace-period token need.
 */
#ifndef CGT_RCU_FAST_H
#define CGT_RCU_FAST_H

#ifndef _LGPL_SOURCE
#error "define _LGPL_SOURCE before the first include: only then is liburcu's read side inline"
#endif

#include <urcu/urcu-memb.h>

#include "lock.h"

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
