// SPDX-License-Identifier: GPL-2.0
#include <time.h>

#include "clock.h"
#include "compiler.h"

static uint64_t clock_base;
long cgt_step_clock = -1;

static uint64_t raw_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void cgt_clock_reset(void)
{
	WRITE_ONCE(clock_base, raw_ns());
}

uint64_t cgt_clock_ns(void)
{
	return raw_ns() - READ_ONCE(clock_base);
}

double cgt_now(void)
{
	return (double)raw_ns() * 1e-9;
}
