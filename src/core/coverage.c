// SPDX-License-Identifier: GPL-2.0
/* The names of the kernel paths coverage counts, and sums of counts. */
#include "coverage.h"

const char *const cgt_path_names[CGT_NR_PATHS] = {
#define X(id, name, desc) [CGT_PATH_##id] = name,
	CGT_PATHS(X)
#undef X
};

const char *const cgt_path_descs[CGT_NR_PATHS] = {
#define X(id, name, desc) [CGT_PATH_##id] = desc,
	CGT_PATHS(X)
#undef X
};

cgt_window_hook_t cgt_window_hook;

void cgt_cover_add(struct cgt_cover *sum, const struct cgt_cover *c)
{
	for (size_t i = 0; i < ARRAY_SIZE(sum->n); i++)
		sum->n[i] += __atomic_load_n(&c->n[i], __ATOMIC_RELAXED);
}

int cgt_cover_paths_reached(const struct cgt_cover *c)
{
	int n = 0;

	for (int i = 0; i < CGT_NR_PATHS; i++)
		n += cgt_cover_path(c, i) != 0;
	return n;
}

int cgt_cover_points_passed(const struct cgt_cover *c)
{
	int n = 0;

	for (int i = 0; i < CGT_NR_POINTS; i++)
		n += cgt_cover_point(c, i) != 0;
	return n;
}
