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
/* put_css_set_locked: a put under css_set_lock held for writing (css_task_iter.c). */
void put_css_set_locked(struct css_set *cset);
/*
 * css_set_move_task's care for iterators, before @task leaves @cset (css_task_iter.c); under
 * css_set_lock held for writing.
 */
void css_set_skip_task_iters(struct css_set *cset, struct task *task);
/* Walk the css_set table; caller holds css_set_lock. */
void cgt_for_each_css_set(void (*fn)(struct css_set *cset, void *arg), void *arg);

#endif
