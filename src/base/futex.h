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

#endif
