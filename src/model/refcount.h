/* SPDX-License-Identifier: GPL-2.0 */
/*
 * refcount_t (include/linux/refcount.h, 4.11) on the model's counts: an increment from 0, a
 * decrement below 0 and a put that frees twice fail at once, named as the kernel names them
 * ("refcount_t: addition on 0; use-after-free"), in every build, before the freed memory is
 * touched further. A count read from a poisoned object (base/quarantine.h) is a freed one.
 * @what says whose count it is, for the report.
 */
#ifndef CGT_REFCOUNT_H
#define CGT_REFCOUNT_H

#include "model.h"
#include "../base/quarantine.h"

/* refcount.c: a last put recorded, and a misuse reported with the thread that made it */
void refcount_zeroed(const int *r);
void refcount_zeroed_reset(void);
void refcount_misuse(const int *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * refcount_inc, and whether the object was live: false once the use-after-free is reported,
 * and the caller then touches the object no further.
 */
static inline bool refcount_inc_live(int *r, const char *what)
{
	int old = __atomic_fetch_add(r, 1, __ATOMIC_RELAXED);

	if (likely(old > 0 && old != CGT_POISON_INT))
		return true;
	/* left as found: a second late access sees the same poison */
	__atomic_fetch_sub(r, 1, __ATOMIC_RELAXED);
	refcount_misuse(r, "refcount_t: addition on 0; use-after-free: %s (count %d)", what, old);
	return false;
}

/* refcount_inc: the caller must already hold a reference, so the count is never 0. */
static inline void refcount_inc(int *r, const char *what)
{
	(void)refcount_inc_live(r, what);
}

/* refcount_inc_not_zero: a reference only on a live object (a lookup under RCU alone). */
static inline bool refcount_inc_not_zero(int *r)
{
	int old = __atomic_load_n(r, __ATOMIC_RELAXED);

	do {
		if (old <= 0 || old == CGT_POISON_INT)
			return false;
	} while (!__atomic_compare_exchange_n(r, &old, old + 1, true, __ATOMIC_ACQUIRE,
					      __ATOMIC_RELAXED));
	return true;
}

/* refcount_dec_and_test: true for the put that drops the last reference, and only that one. */
static inline bool refcount_dec_and_test(int *r, const char *what)
{
	int left = __atomic_sub_fetch(r, 1, __ATOMIC_ACQ_REL);

	if (unlikely(left < 0 || left == CGT_POISON_INT - 1)) {
		refcount_misuse(r, "refcount_t: underflow; use-after-free: %s (count %d)", what, left);
		return false;
	}
	if (left)
		return false;
	refcount_zeroed(r);
	return true;
}

/* refcount_dec: a put that must not be the last (the kernel warns and leaks). */
static inline void refcount_dec(int *r, const char *what)
{
	if (unlikely(refcount_dec_and_test(r, what)))
		cgt_violation("refcount_t: decrement hit 0; leaking memory: %s", what);
}

#endif
