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

/*
 * Room in this process's futex hash for @sleepers threads asleep at once. Since Linux 6.17 a
 * process hashes its private futexes in a table of its own, sized for its CPUs (16 buckets
 * on two), and each wake walks its bucket: 25,000 queued waiters made futex_wake a third of
 * a run's CPU time. The table is grown to the kernel's own four buckets a thread (it never
 * shrinks); an older kernel, with one global table, has nothing to grow. Returns the
 * buckets the process has, 0 for the global table.
 */
long cgt_machine_futex_hash(long sleepers);

#endif
