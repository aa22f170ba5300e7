/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A variant's own atomics and waits, spelled so that a controlled run can step through them
 * (--locks code), as CHESS and loom step through a program's atomics: a scheduling decision
 * before each atomic operation on the lock's words, so that explore tries the interleavings
 * inside the variant (a lost update, a plain store where a compare-and-exchange belongs) the
 * way it tries the model's; a spinner that found the lock unchanged waits, off the CPU,
 * until another thread writes a lock word (else a scheduler that favours it would spin for
 * ever); futex(2) waits and wakes as the scheduler's blocks and wakes, so a lost wake leaves
 * its sleeper blocked for good, a deadlock the scheduler reports.
 *
 * A free-running run, and compare's loops, pay one relaxed load of the hooks per operation.
 * A variant whose every shared access and wait goes through here (its mutex and condition
 * variable through core/sync.h) says so (.steps in its ops); the others, built on glibc,
 * are kept by the scheduler's model locks in either mode.
 */
#ifndef CGT_LOCK_STEP_H
#define CGT_LOCK_STEP_H

#include <stdbool.h>
#include <stdint.h>

#include "../base/futex.h"
#include "../core/sync.h"

/* The hooks, when the variant's code runs under the scheduler; NULL otherwise. */
static inline const struct cgt_sync_ops *lk_stepper(void)
{
	const struct cgt_sync_ops *s = cgt_sync();

	return unlikely(s) && s->lock_step ? s : NULL;
}

static inline void lk_step(void)
{
	const struct cgt_sync_ops *s = lk_stepper();

	if (s)
		s->lock_step();
}

static inline void lk_wrote(void)
{
	const struct cgt_sync_ops *s = lk_stepper();

	if (s)
		s->lock_wrote();
}

/*
 * The value stored is worked out before the decision, so that a store of what a load just
 * read (lk_store(p, lk_load(p) | x)) has a decision between the two, as two instructions do.
 */
#define lk_load(p, mo)		(lk_step(), __atomic_load_n((p), (mo)))
#define lk_store(p, v, mo) do {						\
		__typeof__(*(p)) lk_v_ = (v);				\
		lk_step();						\
		__atomic_store_n((p), lk_v_, (mo));			\
		lk_wrote();						\
	} while (0)

/* A read-modify-write: a decision before it, the spinners woken after it. */
#define lk_rmw(op, p, v, mo) ({						\
		__typeof__(*(p)) lk_v_ = (v), lk_r_;			\
		lk_step();						\
		lk_r_ = op((p), lk_v_, (mo));				\
		lk_wrote();						\
		lk_r_;							\
	})
#define lk_fetch_add(p, v, mo)	lk_rmw(__atomic_fetch_add, p, v, mo)
#define lk_add_fetch(p, v, mo)	lk_rmw(__atomic_add_fetch, p, v, mo)
#define lk_fetch_sub(p, v, mo)	lk_rmw(__atomic_fetch_sub, p, v, mo)
#define lk_fetch_or(p, v, mo)	lk_rmw(__atomic_fetch_or, p, v, mo)
#define lk_fetch_and(p, v, mo)	lk_rmw(__atomic_fetch_and, p, v, mo)
#define lk_xchg(p, v, mo)	lk_rmw(__atomic_exchange_n, p, v, mo)

/* compare-and-exchange: the spinners are woken only if it wrote */
#define lk_cmpxchg(p, expected, desired, weak, mo_ok, mo_fail) ({		\
		__typeof__(*(p)) lk_v_ = (desired);			\
		bool lk_ok_;						\
		lk_step();						\
		lk_ok_ = __atomic_compare_exchange_n((p), (expected), lk_v_, (weak),	\
						     (mo_ok), (mo_fail));	\
		if (lk_ok_)						\
			lk_wrote();					\
		lk_ok_;							\
	})

/* A spinner that found the lock unchanged: off the CPU until another writes a lock word. */
static inline bool lk_spin(void)
{
	const struct cgt_sync_ops *s = lk_stepper();

	if (!s)
		return false;
	s->lock_spin();
	return true;
}

static inline void lk_futex_wait(uint32_t *addr, uint32_t val)
{
	const struct cgt_sync_ops *s = lk_stepper();

	if (s)
		s->futex_wait(addr, val);
	else
		futex_wait(addr, val, NULL);
}

static inline void lk_futex_wake(uint32_t *addr, int n)
{
	const struct cgt_sync_ops *s = lk_stepper();

	if (s)
		s->futex_wake(addr);
	else
		futex_wake(addr, n);
}

#endif
