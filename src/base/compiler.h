/* SPDX-License-Identifier: GPL-2.0 */
/* Small helpers shared by every layer: branch hints, atomics spelled as the kernel spells them. */
#ifndef CGT_COMPILER_H
#define CGT_COMPILER_H

#include <stddef.h>

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

#ifndef container_of
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#endif

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/*
 * READ_ONCE/WRITE_ONCE as relaxed C11 atomics, not volatile: fields that are read without
 * the lock that guards their writes must be atomics so that ThreadSanitizer stays honest.
 */
#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#define smp_load_acquire(p)	__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define smp_store_release(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define atomic_inc(p)		((void)__atomic_fetch_add((p), 1, __ATOMIC_RELAXED))
#define atomic_dec(p)		((void)__atomic_fetch_sub((p), 1, __ATOMIC_RELAXED))
#define atomic_add_return(p, n)	__atomic_add_fetch((p), (n), __ATOMIC_ACQ_REL)
#define atomic_dec_and_test(p)	(__atomic_sub_fetch((p), 1, __ATOMIC_ACQ_REL) == 0)

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

#if defined(__SANITIZE_THREAD__)
#define CGT_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CGT_TSAN 1
#endif
#endif

#if defined(__SANITIZE_ADDRESS__)
#define CGT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CGT_ASAN 1
#endif
#endif

#endif
