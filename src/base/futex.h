/* SPDX-License-Identifier: GPL-2.0 */
/* futex(2): sleep while a word holds a value, and wake sleepers, within this process. */
#ifndef CGT_FUTEX_H
#define CGT_FUTEX_H

#include <linux/futex.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static inline void futex_wait(void *addr, uint32_t val, const struct timespec *timeout)
{
	syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, timeout, NULL, 0);
}

static inline void futex_wake(void *addr, int n)
{
	syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
}

/* Sleepers tag themselves with @mask; a wake reaches only those whose tag meets its mask. */
static inline void futex_wait_bitset(void *addr, uint32_t val, uint32_t mask)
{
	syscall(SYS_futex, addr, FUTEX_WAIT_BITSET_PRIVATE, val, NULL, NULL, mask);
}

static inline void futex_wake_bitset(void *addr, int n, uint32_t mask)
{
	syscall(SYS_futex, addr, FUTEX_WAKE_BITSET_PRIVATE, n, NULL, NULL, mask);
}

#endif
