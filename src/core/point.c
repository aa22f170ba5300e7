// SPDX-License-Identifier: GPL-2.0
#include "point.h"

cgt_point_hook_t cgt_point_hook;
__thread long *cgt_cover_counts;

const char *const cgt_point_names[CGT_NR_POINTS] = {
#define X(id, desc, obj, group, name) [CGT_PT_##id] = #id,
	CGT_POINTS(X)
#undef X
};

const struct cgt_point_info cgt_point_info[CGT_NR_POINTS] = {
#define X(id, desc, obj, group, name) [CGT_PT_##id] = { desc, CGT_PO_##obj, CGT_PG_##group, name },
	CGT_POINTS(X)
#undef X
};

void cgt_point_set_hook(cgt_point_hook_t hook)
{
	__atomic_store_n(&cgt_point_hook, hook, __ATOMIC_RELEASE);
}
