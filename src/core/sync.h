/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a controlled run must intercept, as a table of hooks the scheduler installs from
 * above when such a run starts and removes at its end: RCU (read-side sections, call_rcu,
 * synchronize_rcu, rcu_barrier), the pthread mutex and condition variable that stand for
 * siglock and de_thread's waits, and model lock acquisition. With no table installed each
 * is the plain primitive. So core and the locks never call the scheduler, and a free-running
 * run pays one relaxed load per call.
 */
#ifndef CGT_SYNC_H
#define CGT_SYNC_H

#include <pthread.h>
#include <stdint.h>

#include "../base/compiler.h"

struct rcu_head;
struct cgt_lock;

struct cgt_sync_ops {
	/* after urcu's read lock, before its unlock: the nesting a grace period waits for */
	void (*rcu_read_lock)(void);
	void (*rcu_read_unlock)(void);
	/* in place of liburcu's: grace periods end, and callbacks run, when the hooks say */
	void (*call_rcu)(struct rcu_head *head, void (*func)(struct rcu_head *head));
	void (*synchronize_rcu)(void);
	/* before liburcu's own barrier */
	void (*rcu_barrier)(void);
	void (*mutex_lock)(pthread_mutex_t *m);
	void (*mutex_unlock)(pthread_mutex_t *m);
	void (*cond_wait)(pthread_cond_t *c, pthread_mutex_t *m);
	void (*cond_broadcast)(pthread_cond_t *c);
	/* a model lock: initialised (its memory may have held another), taken, released */
	void (*lock_init)(struct cgt_lock *lock);
	void (*lock_acquire)(struct cgt_lock *lock, int side);
	void (*lock_release)(struct cgt_lock *lock, int side);
	/*
	 * Inside a variant whose own code runs under the scheduler (--locks code): a decision
	 * before each atomic operation on its words, the spinners woken after each write, a
	 * spinner's wait for one, futex(2)'s wait and wake (locks/step.h). NULL while the
	 * scheduler keeps every lock itself.
	 */
	void (*lock_step)(void);
	void (*lock_wrote)(void);
	void (*lock_spin)(void);
	void (*futex_wait)(uint32_t *addr, uint32_t val);
	void (*futex_wake)(uint32_t *addr);
};

extern const struct cgt_sync_ops *cgt_sync_ops;

/* The hooks in force, or NULL: a free-running run. */
static inline const struct cgt_sync_ops *cgt_sync(void)
{
	return __atomic_load_n(&cgt_sync_ops, __ATOMIC_RELAXED);
}

/* Before any thread that may use them starts, and after the last has stopped. */
void cgt_sync_install(const struct cgt_sync_ops *ops);

/* siglock and its waits: pthread's, or the installed hooks' */
void cgt_mutex_lock(pthread_mutex_t *m);
void cgt_mutex_unlock(pthread_mutex_t *m);
void cgt_cond_wait(pthread_cond_t *c, pthread_mutex_t *m);
void cgt_cond_broadcast(pthread_cond_t *c);

#endif
