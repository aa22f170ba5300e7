/* SPDX-License-Identifier: GPL-2.0 */
/* Which build this is, and how much slower than the plain one: time bounds scale by it. */
#ifndef CGT_BUILD_H
#define CGT_BUILD_H

const char *cgt_build_name(void);	/* "plain", "tsan" or "asan" */
int cgt_build_slowdown(void);

#endif
