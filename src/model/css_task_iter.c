// SPDX-License-Identifier: GPL-2.0
/*
 * css_task_iter: the tasks of a cgroup, css_set by css_set, as cgroup.procs and tasks read
 * them. Two designs, by era (era.c, CGT_ERA_ITER):
 *
 * - whole walk (kernel/cgroup.c @ v3.14.1, v3.15.5): css_task_iter_start takes css_set_lock
 *   (css_set_rwsem in 3.15) for reading and css_task_iter_end drops it; no task can leave
 *   a list under the walk, and a caller that sleeps in between holds up every writer.
 * - per step (kernel/cgroup.c @ v4.4.1, kernel/cgroup/cgroup.c @ v6.18.2): each call takes
 *   the lock alone. Between calls the iterator pins its css_set (get_css_set) and sits on
 *   its task_iters, holds a reference on the task it returned, and task_pos names the next
 *   task; a task that leaves the css_set moves every iterator pointing at it on
 *   (css_set_move_task: css_task_iter_advance in 4.4, css_task_iter_skip in 6.x).
 *
 * Left out of the per-step walk, since the model has no such lists or readers: 4.4's and
 * 6.x's mg_tasks (a migration here moves a task straight from one tasks list to another
 * under one lock section), 6.x's dying_tasks (cgroup_exit unlinks at once: FIDELITY H3),
 * the CSS_TASK_ITER_PROCS and _THREADED flags (every reader visits every task) and the
 * per-subsystem e_csets walk (the model walks cgrp->cset_links).
 */
#include "model.h"
#include "cgroup_internal.h"
#include "refcount.h"

/* whole walk: css_task_iter_start (kernel/cgroup.c @ v3.15.5) */
static void whole_start(const struct cgroup *cgrp, struct css_task_iter *it)
{
	/* cset-walk-unlocked leaves the lock out: a migration's list_move can take it away */
	it->locked = !cgt_bug(CGT_BUG_CSET_WALK_UNLOCKED);
	if (it->locked)
		cgt_read_lock(&css_set_lock);
	it->cset_pos = cgrp->cset_links.next;
}

/*
 * whole walk: css_task_iter_next (v3.15.5), moving on to the next css_set when one runs out.
 * Unlocked, a list can have no end the walk recognises: the step bound stops it.
 */
static struct task *whole_next(struct css_task_iter *it)
{
	struct cgrp_cset_link *link;

	while (it->cset_pos != &it->cgrp->cset_links) {
		if (++it->steps > cgt_model_cfg()->walk_limit)
			return NULL;
		link = container_of(it->cset_pos, struct cgrp_cset_link, cset_link);
		it->task_pos = it->task_pos ? it->task_pos->next : link->cset->tasks.next;
		if (it->task_pos != &link->cset->tasks) {
			struct task *t = container_of(it->task_pos, struct task, cg_list);

			cgt_point(CGT_PT_ITER_STEP, t);
			if (it->locked)
				check_cset_task_locked(link->cset, t);
			/* css-task-iter-block: the iteration's callback sleeps on a mutex */
			if (cgt_bug(CGT_BUG_CSS_TASK_ITER_BLOCK)) {
				cgt_write_lock(&cgroup_mutex);
				cgt_write_unlock(&cgroup_mutex);
			}
			return t;
		}
		it->task_pos = NULL;
		it->cset_pos = it->cset_pos->next;
	}
	return NULL;
}

/*
 * css_task_iter_advance_css_set (v4.4.1): under css_set_lock, the cgroup's next css_set with
 * tasks, pinned, the iterator moved to its task_iters and the last one's pin dropped. At the
 * end task_pos is NULL and the last css_set stays pinned until css_task_iter_end.
 */
static void css_task_iter_advance_css_set(struct css_task_iter *it)
{
	/* a pinned css_set keeps its links, so cset_pos is still on the cgroup's list */
	struct cds_list_head *l = it->cset_pos ? it->cset_pos->next : it->cgrp->cset_links.next;
	struct css_set *cset;

	for (;; l = l->next) {
		if (l == &it->cgrp->cset_links) {
			it->task_pos = NULL;
			return;
		}
		cset = container_of(l, struct cgrp_cset_link, cset_link)->cset;
		if (!cds_list_empty(&cset->tasks))
			break;
	}
	it->cset_pos = l;
	it->task_pos = cset->tasks.next;
	if (it->cur_cset) {
		cds_list_del(&it->iters_node);
		put_css_set_locked(it->cur_cset);
	}
	get_css_set(cset);
	it->cur_cset = cset;
	cds_list_add(&it->iters_node, &cset->task_iters);
}

/*
 * css_task_iter_advance (v4.4.1; v6.18.2 less its PROCS/THREADED filters): task_pos to the
 * next task, or to the next css_set past the list's end. A skipped iterator (6.x) is at its
 * next task already and only looks for the end.
 */
static void css_task_iter_advance(struct css_task_iter *it)
{
	if (it->skipped)
		it->skipped = false;
	else
		it->task_pos = it->task_pos->next;
	if (it->task_pos == &it->cur_cset->tasks)
		css_task_iter_advance_css_set(it);
}

/*
 * css_set_move_task's loop over @cset->task_iters (v4.4.1), css_set_skip_task_iters in 6.x
 * (v6.18.2): before @task leaves @cset, every iterator whose next task it is moves on: 4.4
 * advances it at once; 6.x's css_task_iter_skip only steps task_pos and sets
 * CSS_TASK_ITER_SKIPPED, and the iterator's next call completes the advance (b636fd38dc40).
 * css-iter-stale-pos leaves them where they are.
 */
void css_set_skip_task_iters(struct css_set *cset, struct task *task)
{
	struct css_task_iter *it, *pos;

	if (cgt_bug(CGT_BUG_CSS_ITER_STALE_POS))
		return;
	cds_list_for_each_entry_safe(it, pos, &cset->task_iters, iters_node) {
		if (it->task_pos != &task->cg_list)
			continue;
		if (it->mode == CGT_CSS_ITER_ADVANCE) {
			css_task_iter_advance(it);
		} else {
			it->task_pos = it->task_pos->next;
			it->skipped = true;
		}
	}
}

/*
 * The reference css_task_iter_next takes on the task at task_pos, and the harness's check of
 * that task. One freed since the last step is a use-after-free (refcount.h reports it, ASan
 * in its build), and the caller must touch it no further. One alive but on another css_set's
 * list, with the iterator still on it, would lead the walk through that list and past its
 * head as if it were a task ("crashes or infinite loops", 5ee01f1a7343): reported, and the
 * walk ends there. One that exited, unlinked (list_del_init), is followed as the kernel
 * follows it: round its own cg_list, one step at a time, until it is freed.
 */
static bool css_task_iter_get(struct css_task_iter *it, struct task *t)
{
	if (!refcount_inc_live(&t->usage, "css_task_iter_next's get_task_struct on a task "
			       "freed since the iterator's last step"))
		return false;
	if (!cds_list_empty(&t->cg_list) && task_css_set(t) != it->cur_cset) {
		cgt_violation("css_task_iter_next: its next task, tid %d, moved to another css_set "
			      "and the iterator was not moved on (css_set_move_task): its walk goes "
			      "on in that css_set's list", READ_ONCE(t->pid));
		put_task_struct(t);
		return false;
	}
	return true;
}

/* css_task_iter_start (v4.4.1): the first css_set with tasks, pinned, under the lock. */
void css_task_iter_start(const struct cgroup *cgrp, struct css_task_iter *it)
{
	*it = (struct css_task_iter){ .cgrp = cgrp, .mode = cgt_model_cfg()->era->css_task_iter };
	if (it->mode == CGT_CSS_ITER_WHOLE) {
		whole_start(cgrp, it);
		return;
	}
	/* a spinlock in both eras: the iterator changes task_iters and refcounts under it */
	cgt_write_lock(&css_set_lock);
	css_task_iter_advance_css_set(it);
	cgt_write_unlock(&css_set_lock);
}

/*
 * css_task_iter_next (v4.4.1, v6.18.2): drop the last task's reference, then under the lock
 * take one on the task at task_pos and advance past it. A skipped iterator is advanced first
 * (cee0c33c546a, 6.x). The point between steps is outside the lock, where the kernel's
 * readers (cgroup_procs_show) sleep and every fork, exit and migration may run.
 */
struct task *css_task_iter_next(struct css_task_iter *it)
{
	if (it->mode == CGT_CSS_ITER_WHOLE)
		return whole_next(it);
	if (it->cur_task) {
		put_task_struct(it->cur_task);
		it->cur_task = NULL;
	}
	if (++it->steps > cgt_model_cfg()->walk_limit)
		return NULL;
	cgt_write_lock(&css_set_lock);
	if (it->skipped)
		css_task_iter_advance(it);
	if (it->task_pos) {
		struct task *t = container_of(it->task_pos, struct task, cg_list);

		if (css_task_iter_get(it, t)) {
			it->cur_task = t;
			css_task_iter_advance(it);
		} else {
			it->task_pos = NULL;
		}
	}
	cgt_write_unlock(&css_set_lock);
	if (it->cur_task)
		cgt_point(CGT_PT_ITER_STEP, it->cur_task);
	return it->cur_task;
}

/* css_task_iter_end (v4.4.1): off the css_set's task_iters, its pin and the task's dropped. */
void css_task_iter_end(struct css_task_iter *it)
{
	if (it->mode == CGT_CSS_ITER_WHOLE) {
		if (it->locked)
			cgt_read_unlock(&css_set_lock);
		return;
	}
	if (it->cur_cset) {
		cgt_write_lock(&css_set_lock);
		cds_list_del(&it->iters_node);
		put_css_set_locked(it->cur_cset);
		cgt_write_unlock(&css_set_lock);
	}
	if (it->cur_task)
		put_task_struct(it->cur_task);
}
