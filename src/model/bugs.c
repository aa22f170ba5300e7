// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>

#include "bugs.h"
#include "../base/registry.h"

const struct cgt_bug_info cgt_bug_catalogue[CGT_NR_BUGS] = {
#define X(id, ...) [CGT_BUG_##id] = { __VA_ARGS__ },
	CGT_BUGS(X)
#undef X
};

unsigned long cgt_bugs_enabled;

static const char *bug_name(size_t i)
{
	return cgt_bug_catalogue[i].name;
}

int cgt_bug_parse(const char *name, enum cgt_bug *bug)
{
	long i = cgt_registry_index(CGT_NR_BUGS, bug_name, name);

	if (i < 0)
		return -EINVAL;
	*bug = (enum cgt_bug)i;
	return 0;
}

bool cgt_bug_in_era(enum cgt_bug bug, const char *era)
{
	const char *p = cgt_bug_catalogue[bug].eras;
	size_t n = strlen(era);

	if (!p)
		return true;
	for (; *p; p += strcspn(p, ","), p += *p == ',')
		if (strcspn(p, ",") == n && !strncmp(p, era, n))
			return true;
	return false;
}
