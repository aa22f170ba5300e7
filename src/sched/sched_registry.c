// SPDX-License-Identifier: GPL-2.0
/* The one place schedulers are registered: a scheduler is a file and a line here. */
#include <string.h>

#include "sched.h"
#include "../base/registry.h"

#define CGT_SCHEDULERS(X)	\
	X(random)		\
	X(pct)			\
	X(bounded)

#define X(name) extern const struct cgt_sched_ops name##_sched_ops;
CGT_SCHEDULERS(X)
#undef X

const struct cgt_sched_ops *const cgt_schedulers[] = {
#define X(name) &name##_sched_ops,
	CGT_SCHEDULERS(X)
#undef X
};

const int cgt_nr_schedulers = (int)ARRAY_SIZE(cgt_schedulers);

static const char *sched_name(size_t i)
{
	return cgt_schedulers[i]->name;
}

const struct cgt_sched_ops *cgt_sched_find(const char *name)
{
	long i = cgt_registry_index((size_t)cgt_nr_schedulers, sched_name, name);

	return i < 0 ? NULL : cgt_schedulers[i];
}

const char *cgt_sched_names(void)
{
	static char buf[128];

	return cgt_registry_names(buf, sizeof(buf), (size_t)cgt_nr_schedulers, sched_name);
}
