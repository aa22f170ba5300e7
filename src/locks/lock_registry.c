// SPDX-License-Identifier: GPL-2.0
/* The one place lock variants are registered: a variant is a file and a line here. */
#include <string.h>

#include "lock.h"
#include "../base/registry.h"

#define CGT_LOCK_VARIANTS(X)	\
	X(rwlock)		\
	X(rwsem)		\
	X(spinlock)		\
	X(mutex)		\
	X(rwlock_rpref)		\
	X(rcu_spinlock)		\
	X(percpu_rwsem)		\
	X(pthread_rwlock)	\
	X(pthread_rwlock_wpref)	\
	X(rcu_mutex)

#define X(name) extern const struct cgt_lock_ops name##_lock_ops;
CGT_LOCK_VARIANTS(X)
#undef X

const struct cgt_lock_ops *const cgt_lock_variants[] = {
#define X(name) &name##_lock_ops,
	CGT_LOCK_VARIANTS(X)
#undef X
};

const size_t cgt_nr_lock_variants = ARRAY_SIZE(cgt_lock_variants);

static const char *variant_name(size_t i)
{
	return cgt_lock_variants[i]->name;
}

/* a run's locks: RCU readers beside writers suit no model lock */
static const char *run_variant_name(size_t i)
{
	return cgt_lock_variants[i]->rcu_readers ? NULL : cgt_lock_variants[i]->name;
}

const struct cgt_lock_ops *cgt_lock_find(const char *name)
{
	long i = cgt_registry_index(cgt_nr_lock_variants, variant_name, name);

	return i < 0 ? NULL : cgt_lock_variants[i];
}

const char *cgt_lock_names(void)
{
	static char buf[256];

	return cgt_registry_names(buf, sizeof(buf), cgt_nr_lock_variants, variant_name);
}

const char *cgt_lock_run_names(void)
{
	static char buf[256];

	return cgt_registry_names(buf, sizeof(buf), cgt_nr_lock_variants, run_variant_name);
}
