// SPDX-License-Identifier: GPL-2.0
/*
 * Rare paths tried on purpose (steer.h). Which windows want holding is decided by the driver
 * from the coverage of every thread, a few times a second; the hook itself reads one flag
 * and, one time in four, sleeps up to 2 ms: a window a few instructions wide becomes one of
 * milliseconds, long enough for a migration, an exec or a lookup to land in it.
 */
#include <time.h>

#include "steer.h"
#include "../base/compiler.h"
#include "../base/prng.h"
#include "../core/coverage.h"
#include "../core/thread.h"

#define HOLD_MAX_NS	2000000

static int wanted[CGT_NR_PATHS];
static uint64_t steer_seed;
static __thread struct prng rng;
static __thread int rng_for;		/* the thread id the generator was seeded for, + 1 */

static void hold(enum cgt_path_id id)
{
	struct cgt_thread *t = cgt_self;
	struct timespec ts = { 0, 0 };

	if (!t || !READ_ONCE(wanted[id]))
		return;
	if (rng_for != t->id + 1) {
		prng_seed(&rng, steer_seed, 0x5733u + (uint64_t)t->id);
		rng_for = t->id + 1;
	}
	if (prng_below(&rng, 4))
		return;
	ts.tv_nsec = 1000 + (long)prng_below(&rng, HOLD_MAX_NS);
	nanosleep(&ts, NULL);
}

void cgt_steer_refresh(void)
{
	struct cgt_cover c;

	cgt_threads_cover(&c);
	for (int id = 0; id < CGT_NR_PATHS; id++)
		WRITE_ONCE(wanted[id], cgt_cover_path(&c, id) < CGT_STEER_ENOUGH);
}

void cgt_steer_install(uint64_t seed)
{
	steer_seed = seed;
	cgt_steer_refresh();
	__atomic_store_n(&cgt_window_hook, hold, __ATOMIC_RELEASE);
}

void cgt_steer_remove(void)
{
	__atomic_store_n(&cgt_window_hook, NULL, __ATOMIC_RELEASE);
	for (int id = 0; id < CGT_NR_PATHS; id++)
		WRITE_ONCE(wanted[id], 0);
}
