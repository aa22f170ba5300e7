// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>

#include "bugs.h"
#include "../base/registry.h"

const struct cgt_bug_info cgt_bug_catalogue[CGT_NR_BUGS] = {
#define X(id, name_, det, build_, history_, twin_, options_, explore_)			\
	[CGT_BUG_##id] = { .name = name_, .detector = CGT_DET_##det, .build = build_,	\
			   .history = history_, .twin = twin_, .options = options_,	\
			   .explore = explore_ },
	CGT_BUGS(X)
#undef X
};

const char *const cgt_bug_names[CGT_NR_BUGS] = {
#define X(id, name, det, build, history, twin, options, explore) [CGT_BUG_##id] = name,
	CGT_BUGS(X)
#undef X
};

unsigned long cgt_bugs_enabled;

static const char *bug_name(size_t i)
{
	return cgt_bug_names[i];
}

int cgt_bug_parse(const char *name, enum cgt_bug *bug)
{
	long i = cgt_registry_index(CGT_NR_BUGS, bug_name, name);

	if (i < 0)
		return -EINVAL;
	*bug = (enum cgt_bug)i;
	return 0;
}
