// SPDX-License-Identifier: GPL-2.0
#include "build.h"
#include "compiler.h"

#if defined(CGT_TSAN)
#define BUILD_NAME	"tsan"
#define BUILD_SLOWDOWN	8
#elif defined(CGT_ASAN)
#define BUILD_NAME	"asan"
#define BUILD_SLOWDOWN	4
#else
#define BUILD_NAME	"plain"
#define BUILD_SLOWDOWN	1
#endif

const char *cgt_build_name(void)
{
	return BUILD_NAME;
}

int cgt_build_slowdown(void)
{
	return BUILD_SLOWDOWN;
}
