// SPDX-License-Identifier: GPL-2.0
/* The one place lock variants are registered: a variant is a file and a line here. */
#include <string.h>

#include "lock.h"

#define CGT_LOCK_VARIANTS(X)	\
	X(rwlock)		\
	X(rwsem)		\
	X(spinlock)		\
	X(mutex)		\
	X(rwlock_rpref)		\
	X(rcu_spinlock)		\
	X(percpu_rwsem)		\
	X(pthread_rwlock)	\
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

const struct cgt_lock_ops *cgt_lock_find(const char *name)
{
	for (size_t i = 0; i < cgt_nr_lock_variants; i++)
		if (!strcmp(cgt_lock_variants[i]->name, name))
			return cgt_lock_variants[i];
	return NULL;
}

static const char *names(char *buf, bool with_rcu_readers)
{
	if (!buf[0]) {
		for (size_t i = 0; i < cgt_nr_lock_variants; i++) {
			if (cgt_lock_variants[i]->rcu_readers && !with_rcu_readers)
				continue;
			if (buf[0])
				strcat(buf, ", ");
			strcat(buf, cgt_lock_variants[i]->name);
		}
	}
	return buf;
}

const char *cgt_lock_names(void)
{
	static char buf[256];

	return names(buf, true);
}

const char *cgt_lock_run_names(void)
{
	static char buf[256];

	return names(buf, false);
}
