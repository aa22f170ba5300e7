/* SPDX-License-Identifier: GPL-2.0 */
/* The kinds of tunable value compare's command line takes (compare_kinds.c). */
#ifndef CGT_COMPARE_KINDS_H
#define CGT_COMPARE_KINDS_H

#include "../base/tunable.h"

/*
 * "a,b,c": lock variants or "all" (struct cgt_lock_list), numbers (struct cgt_int_list),
 * workloads or "all" (struct cgt_workload_list)
 */
extern const struct tunable_kind_ops cgt_tunable_locks, cgt_tunable_ints, cgt_tunable_workloads;

#endif
