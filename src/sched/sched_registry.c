// SPDX-License-Identifier: GPL-2.0
/* The one place schedulers are registered: a scheduler is a file and a line here. */
#include <string.h>

#include "sched.h"

#define CGT_SCHEDULERS(X)	\
	X(random)		\
	X(pct)

#define X(name) extern const struct cgt_sched_ops name##_sched_ops;
CGT_SCHEDULERS(X)
#undef X

const struct cgt_sched_ops *const cgt_schedulers[] = {
#define X(name) &name##_sched_ops,
	CGT_SCHEDULERS(X)
#undef X
};

const int cgt_nr_schedulers = (int)ARRAY_SIZE(cgt_schedulers);

const struct cgt_sched_ops *cgt_sched_find(const char *name)
{
	for (int i = 0; i < cgt_nr_schedulers; i++)
		if (!strcmp(cgt_schedulers[i]->name, name))
			return cgt_schedulers[i];
	return NULL;
}

const char *cgt_sched_names(void)
{
	static char buf[128];

	if (!buf[0])
		for (int i = 0; i < cgt_nr_schedulers; i++) {
			if (i)
				strcat(buf, ", ");
			strcat(buf, cgt_schedulers[i]->name);
		}
	return buf;
}
