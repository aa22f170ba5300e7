// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
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
