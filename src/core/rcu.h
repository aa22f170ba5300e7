/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RCU for the model: liburcu's memb flavour, its rculist/rcuhlist primitives, and the glue
 * that makes them visible to ThreadSanitizer.
 *
 * Debian 12 ships liburcu 0.13, which predates its TSan support (0.15): rcu_assign_pointer is
 * a volatile store after a fence and list_del_rcu a plain CMM_STORE_SHARED, which TSan sees as
 * plain stores racing with the readers' loads. Redefining the three publication macros as
 * C11 release/acquire atomics before <urcu/rculist.h> is parsed makes every rculist operation
 * a real atomic, at no cost on x86, so the model uses the library's lists unchanged.
 */
#ifndef CGT_RCU_H
#define CGT_RCU_H

#include <urcu/urcu-memb.h>
#include <urcu-pointer.h>
#include <urcu/list.h>
#include <urcu/hlist.h>

#include "../base/compiler.h"

#undef rcu_dereference
#define rcu_dereference(p)		__atomic_load_n(&(p), __ATOMIC_ACQUIRE)
#undef rcu_assign_pointer
#define rcu_assign_pointer(p, v)	__atomic_store_n(&(p), (v), __ATOMIC_RELEASE)
#undef CMM_STORE_SHARED
#define CMM_STORE_SHARED(x, v)		__atomic_store_n(&(x), (v), __ATOMIC_RELEASE)

#include <urcu/rculist.h>
#include <urcu/rcuhlist.h>

/* RCU_INIT_POINTER: a store no reader can see yet (or a NULLing), still atomic for TSan. */
#define RCU_INIT_POINTER(p, v)		__atomic_store_n(&(p), (v), __ATOMIC_RELAXED)

void rcu_read_lock(void);
void rcu_read_unlock(void);
void call_rcu(struct rcu_head *head, void (*func)(struct rcu_head *head));
/* First statement of every RCU callback: makes the grace period visible to TSan (rcu.c). */
void rcu_callback_enter(void);
void synchronize_rcu(void);
void rcu_barrier(void);
/*
 * When a grace period last ended, as seen by the model (a callback ran, a synchronize_rcu
 * returned), on cgt_clock_coarse_ns; 0 before the first. A synchronize_rcu caller with no
 * reader in its way waits in the queue of grace periods: it moves while they end.
 */
uint64_t cgt_rcu_gp_ended_ns(void);
void cgt_rcu_register_thread(void);
void cgt_rcu_unregister_thread(void);
/* Nesting depth of this thread's read-side sections (for the RCU-nesting checks). */
int cgt_rcu_read_depth(void);

/*
 * RCU lifetimes. An object is retired once no RCU reader can find it any more (unlinked,
 * before call_rcu): cgt_rcu_retire() gives the moment, on one counter with the starts of
 * read-side sections. A reader whose section began after an object was retired cannot
 * have found it there: touching it without a reference means it kept the pointer from an
 * earlier section, or from no section at all (cgt_rcu_stale). Each outermost
 * rcu_read_lock also starts a new section number (cgt_rcu_section), for code that must
 * stay in one section from start to end, as a walk without references must.
 */
uint64_t cgt_rcu_retire(void);
bool cgt_rcu_stale(uint64_t retired);
uint64_t cgt_rcu_section(void);

#endif
