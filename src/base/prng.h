/* SPDX-License-Identifier: GPL-2.0 */
/* Per-thread seeded generator (splitmix64 seeding, xorshift64*), so a run is described by its seed. */
#ifndef CGT_PRNG_H
#define CGT_PRNG_H

#include <stdint.h>

struct prng {
	uint64_t s;
};

static inline uint64_t splitmix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static inline void prng_seed(struct prng *r, uint64_t seed, uint64_t stream)
{
	r->s = splitmix64(seed ^ splitmix64(stream)) | 1;
}

static inline uint64_t prng_next(struct prng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545f4914f6cdd1dULL;
}

/* Uniform in [0, n), n > 0. */
static inline uint32_t prng_below(struct prng *r, uint32_t n)
{
	return (uint32_t)(((prng_next(r) >> 32) * (uint64_t)n) >> 32);
}

#endif
