/* SPDX-License-Identifier: GPL-2.0 */
/* What the model's own files share and nobody outside the model needs. */
#ifndef CGT_CGROUP_INTERNAL_H
#define CGT_CGROUP_INTERNAL_H

#include "model.h"

int cgroup_init(void);
void cgroup_exit_all(void);
void cgt_task_init(struct task *p);
void cgt_signal_init(struct signal_struct *sig);
void free_signal_struct(struct signal_struct *sig);
/* Walk the css_set table; caller holds css_set_lock. */
void cgt_for_each_css_set(void (*fn)(struct css_set *cset, void *arg), void *arg);

#endif
