/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lock variants, described as the kernel's locktorture describes a lock type: one ops table
 * per variant, registered in lock_registry.c and chosen by name at run time. The model takes
 * every lock through cgt_read_lock() and friends, which pass the marked points around the
 * variant's own code.
 */
#ifndef CGT_LOCK_H
#define CGT_LOCK_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/point.h"

struct cgt_lock;

struct cgt_lock_ops {
	const char *name;
	const char *desc;	/* how waiters wait and what fairness they get */
	bool sleeps;		/* waiters sleep in the kernel (futex) rather than spin */
	bool shared;		/* readers share the lock */
	void (*init)(struct cgt_lock *lock);
	void (*read_lock)(struct cgt_lock *lock);
	void (*read_unlock)(struct cgt_lock *lock);
	void (*write_lock)(struct cgt_lock *lock);
	void (*write_unlock)(struct cgt_lock *lock);
	void (*destroy)(struct cgt_lock *lock);
};

/* Room for any variant's state; each variant checks its own fits with a static assert. */
#define CGT_LOCK_PRIV_SIZE	64

struct cgt_lock {
	const struct cgt_lock_ops *ops;
	const char *name;	/* which model lock: "tasklist_lock", "css_set_lock", ... */
	_Alignas(16) unsigned char priv[CGT_LOCK_PRIV_SIZE];
};

#define cgt_lock_priv(lock, type) ((type *)(void *)(lock)->priv)

void cgt_lock_init(struct cgt_lock *lock, const struct cgt_lock_ops *ops, const char *name);
void cgt_lock_destroy(struct cgt_lock *lock);

static inline void cgt_read_lock(struct cgt_lock *lock)
{
	cgt_point(CGT_PT_LOCK_WAIT, lock);
	lock->ops->read_lock(lock);
	cgt_point(CGT_PT_LOCK_HELD, lock);
}

static inline void cgt_read_unlock(struct cgt_lock *lock)
{
	lock->ops->read_unlock(lock);
	cgt_point(CGT_PT_LOCK_RELEASE, lock);
}

static inline void cgt_write_lock(struct cgt_lock *lock)
{
	cgt_point(CGT_PT_LOCK_WAIT, lock);
	lock->ops->write_lock(lock);
	cgt_point(CGT_PT_LOCK_HELD, lock);
}

static inline void cgt_write_unlock(struct cgt_lock *lock)
{
	lock->ops->write_unlock(lock);
	cgt_point(CGT_PT_LOCK_RELEASE, lock);
}

/* The registry (lock_registry.c). */
extern const struct cgt_lock_ops *const cgt_lock_variants[];
extern const size_t cgt_nr_lock_variants;
const struct cgt_lock_ops *cgt_lock_find(const char *name);
/* "rwlock, rwsem, spinlock": for error messages and --help. */
const char *cgt_lock_names(void);

#endif
