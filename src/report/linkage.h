/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The linkage at a failure as a picture (linkage.c): linkage.dot from the capture, and
 * linkage.svg from it by Graphviz's dot when it is installed.
 */
#ifndef CGT_LINKAGE_H
#define CGT_LINKAGE_H

#include "capture.h"

/* The DOT text of @c's linkage, malloc'd; NULL if no memory. */
char *cgt_linkage_dot(const struct cgt_capture *c);
/* dot -Tsvg @dir/linkage.dot into @dir/linkage.svg: 0, or -1 with why in @why. */
int cgt_linkage_svg(const char *dir, char *why, size_t len);

#endif
