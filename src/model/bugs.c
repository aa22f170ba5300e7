// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>

#include "bugs.h"

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

int cgt_bug_parse(const char *name, enum cgt_bug *bug)
{
	for (int i = 0; i < CGT_NR_BUGS; i++) {
		if (!strcmp(name, cgt_bug_names[i])) {
			*bug = (enum cgt_bug)i;
			return 0;
		}
	}
	return -EINVAL;
}
