/* SPDX-License-Identifier: GPL-2.0 */
/* What this machine lets a process have: the pthreads the run's model threads need. */
#ifndef CGT_MACHINE_H
#define CGT_MACHINE_H

#include <stddef.h>

/*
 * About how many threads this process can still start: the least of pid_max and threads-max
 * (less the threads already running on the machine), half of max_map_count (a thread's
 * stack and its guard page are two mappings) and RLIMIT_NPROC. @why names the limits read.
 * -1 if none could be read.
 */
long cgt_machine_thread_cap(char *why, size_t len);

#endif
