// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/resource.h>

#include "machine.h"

static long read_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/* Threads on the machine now: the fourth field of /proc/loadavg ("running/total"). */
static long threads_now(void)
{
	FILE *f = fopen("/proc/loadavg", "r");
	long running, total = 0;

	if (f) {
		if (fscanf(f, "%*s %*s %*s %ld/%ld", &running, &total) != 2)
			total = 0;
		fclose(f);
	}
	return total;
}

static void lower(long *cap, long v)
{
	if (v >= 0 && (*cap < 0 || v < *cap))
		*cap = v;
}

long cgt_machine_thread_cap(char *why, size_t len)
{
	long pid_max = read_long("/proc/sys/kernel/pid_max");
	long threads_max = read_long("/proc/sys/kernel/threads-max");
	long maps = read_long("/proc/sys/vm/max_map_count");
	long now = threads_now(), cap = -1, nproc = -1;
	struct rlimit rl;

	if (!getrlimit(RLIMIT_NPROC, &rl) && rl.rlim_cur != RLIM_INFINITY)
		nproc = (long)rl.rlim_cur;
	lower(&cap, pid_max >= 0 ? pid_max - now : -1);
	lower(&cap, threads_max >= 0 ? threads_max - now : -1);
	lower(&cap, maps >= 0 ? maps / 2 : -1);
	lower(&cap, nproc >= 0 ? nproc - now : -1);
	snprintf(why, len, "pid_max %ld, threads-max %ld, max_map_count %ld (two maps a stack), "
		 "RLIMIT_NPROC %ld, %ld threads running", pid_max, threads_max, maps, nproc, now);
	return cap;
}

#ifndef PR_FUTEX_HASH
#define PR_FUTEX_HASH			78
#define PR_FUTEX_HASH_SET_SLOTS		1
#define PR_FUTEX_HASH_GET_SLOTS		2
#endif
#define FUTEX_HASH_MAX			(1L << 17)

long cgt_machine_futex_hash(long sleepers)
{
	long have = prctl(PR_FUTEX_HASH, PR_FUTEX_HASH_GET_SLOTS, 0, 0, 0), want = 16;

	if (have <= 0)
		return have < 0 ? 0 : have;
	while (want < 4 * sleepers && want < FUTEX_HASH_MAX)
		want *= 2;
	/* the kernel may refuse a size (its memory, its own bound): try the next smaller */
	for (; want > have; want /= 2)
		if (!prctl(PR_FUTEX_HASH, PR_FUTEX_HASH_SET_SLOTS, want, 0, 0))
			return want;
	return have;
}
