/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The loops cgtorture compare times a variant with, compiled in the variant's own file from
 * its own lock functions (CGT_LOCK_LOOPS), so that its fast path is inlined into the loop:
 * no indirect call and no call into another file sits between the loop and the primitive,
 * as Concurrency Kit's regressions build one benchmark per lock. What the loop itself costs
 * is measured with CGT_LOCK_LOOPS over locks that do nothing (compare's "loop" context).
 *
 * Both loops walk a plan of acquisitions (the side of each, and the length of its critical
 * section) from their own place in it, CGT_LOCK_SAMPLE at a time, until told to stop. The
 * limit takes and drops the lock and counts; the bare loop runs the critical sections too and
 * times one acquisition in CGT_LOCK_SAMPLE, chosen at random, so the count is never paid for
 * by a clock read.
 */
#ifndef CGT_LOCK_LOOP_H
#define CGT_LOCK_LOOP_H

#include "lock.h"
#include "../base/clock.h"
#include "../base/compiler.h"
#include "../base/prng.h"

#define CGT_LOCK_PLAN		4096	/* steps in a plan; a power of two */
#define CGT_LOCK_SAMPLE		64	/* one acquisition in this many is timed */

struct cgt_lock_step {
	unsigned char side;	/* CGT_READ or CGT_WRITE */
	unsigned char len;	/* the critical section's length */
};

struct cgt_lock_loop {
	const struct cgt_lock_step *plan;
	unsigned int pos;		/* where this thread starts in the plan */
	const int *stop;		/* release-stored: stop at the end of a run of CGT_LOCK_SAMPLE */
	struct prng *rng;
	/* the bare loop's critical sections, on @data, and where its timed acquisitions go */
	long (*read_section)(void *data, struct prng *rng, unsigned int len);
	void (*write_section)(void *data, struct prng *rng, unsigned int len);
	void *data;
	/* @lock_ns: one acquisition; @clock_ns: the clock read that timed it, timed by a third */
	void (*sampled)(void *arg, int side, uint64_t lock_ns, uint64_t clock_ns);
	void *arg;
	long ops[2];			/* out: acquisitions, [CGT_READ] and [CGT_WRITE] */
	long sink;			/* out: what the readers read, so no read is optimised away */
};

typedef void cgt_lock_loop_fn(struct cgt_lock *lock, struct cgt_lock_loop *l);

struct cgt_lock_loops {
	cgt_lock_loop_fn *limit;
	cgt_lock_loop_fn *bare;
};

typedef void cgt_lock_fn(struct cgt_lock *lock);

#define CGT_LOCK_PLAN_NEXT(pos)	(((pos) + 1) & (CGT_LOCK_PLAN - 1))

/* The lock functions are constants at every use, so each call below is inlined. */
static inline __attribute__((always_inline)) void
cgt_lock_loop_limit(struct cgt_lock *lock, struct cgt_lock_loop *l, cgt_lock_fn *rl,
		    cgt_lock_fn *ru, cgt_lock_fn *wl, cgt_lock_fn *wu)
{
	unsigned int pos = l->pos;
	long n[2] = { 0, 0 };

	do {
		for (unsigned int i = 0; i < CGT_LOCK_SAMPLE; i++, pos = CGT_LOCK_PLAN_NEXT(pos)) {
			int side = l->plan[pos].side;

			if (side == CGT_READ) {
				rl(lock);
				ru(lock);
			} else {
				wl(lock);
				wu(lock);
			}
			n[side]++;
		}
	} while (!__atomic_load_n(l->stop, __ATOMIC_ACQUIRE));
	l->ops[CGT_READ] = n[CGT_READ];
	l->ops[CGT_WRITE] = n[CGT_WRITE];
}

static inline __attribute__((always_inline)) void
cgt_lock_loop_bare(struct cgt_lock *lock, struct cgt_lock_loop *l, cgt_lock_fn *rl,
		   cgt_lock_fn *ru, cgt_lock_fn *wl, cgt_lock_fn *wu)
{
	unsigned int pos = l->pos;
	long n[2] = { 0, 0 }, sink = 0;

	do {
		unsigned int pick = prng_below(l->rng, CGT_LOCK_SAMPLE);

		for (unsigned int i = 0; i < CGT_LOCK_SAMPLE; i++, pos = CGT_LOCK_PLAN_NEXT(pos)) {
			const struct cgt_lock_step *step = &l->plan[pos];
			int side = step->side;
			uint64_t t0 = 0, t1, t2;

			if (unlikely(i == pick))
				t0 = cgt_clock_ns();
			if (side == CGT_READ)
				rl(lock);
			else
				wl(lock);
			if (unlikely(i == pick)) {
				t1 = cgt_clock_ns();
				t2 = cgt_clock_ns();
				l->sampled(l->arg, side, t1 - t0, t2 - t1);
			}
			if (side == CGT_READ) {
				sink += l->read_section(l->data, l->rng, step->len);
				ru(lock);
			} else {
				l->write_section(l->data, l->rng, step->len);
				wu(lock);
			}
			n[side]++;
		}
	} while (!__atomic_load_n(l->stop, __ATOMIC_ACQUIRE));
	l->ops[CGT_READ] = n[CGT_READ];
	l->ops[CGT_WRITE] = n[CGT_WRITE];
	l->sink = sink;
}

/* A variant's loops, from its lock functions: one line in its file, and .loops in its ops. */
#define CGT_LOCK_LOOPS(name, rl, ru, wl, wu)						\
	static void name##_limit(struct cgt_lock *lock, struct cgt_lock_loop *l)		\
	{										\
		cgt_lock_loop_limit(lock, l, rl, ru, wl, wu);				\
	}										\
	static void name##_bare(struct cgt_lock *lock, struct cgt_lock_loop *l)		\
	{										\
		cgt_lock_loop_bare(lock, l, rl, ru, wl, wu);				\
	}										\
	static const struct cgt_lock_loops name##_loops = { name##_limit, name##_bare }

#endif
