// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>

#include "bugs.h"

const char *const cgt_bug_names[CGT_NR_BUGS] = {
#define X(id, name) [CGT_BUG_##id] = name,
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
