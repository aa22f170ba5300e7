// SPDX-License-Identifier: GPL-2.0
/*
 * The model's invariants. cgt_check_invariants() needs the model still (every model thread
 * parked between operations); cgt_check_group_in() runs inside a migration; cgt_check_leaks()
 * runs once every task but init has gone and rcu_barrier() has returned.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "model.h"
#include "cgroup_internal.h"

/* A broken rule seen while the run goes on goes to the failure list, as @det's. */
void cgt_vviolation(enum cgt_detector det, const char *fmt, va_list ap)
{
	char msg[320];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	cgt_fail(det, cgt_self ? cgt_self->id : 0, NULL, "%s", msg);
}

void cgt_violation(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cgt_vviolation(CGT_DET_INVARIANT, fmt, ap);
	va_end(ap);
}

static bool is_exempt(const struct task *t, struct task *const *exempt, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (exempt[i] == t)
			return true;
	return false;
}

#define fail(...) do { snprintf(why, len, __VA_ARGS__); return -1; } while (0)

/*
 * A migrated group lies wholly in @cgrp; caller holds the threadgroup lock. Threads that
 * cgroup_post_fork has not linked yet are not in any css_set and are left out, and so are
 * the @exempt ones, which the migration found unlinked and left to join their parent's.
 */
int cgt_check_group_in(struct task *leader, const struct cgroup *cgrp,
		       struct task *const *exempt, size_t nexempt)
{
	struct task *t;
	int bad = 0, badpid = 0;

	cgt_read_lock(&css_set_lock);
	rcu_read_lock();
	cds_list_for_each_entry_rcu(t, &leader->signal->thread_head, thread_node) {
		if ((READ_ONCE(t->flags) & PF_EXITING) || cds_list_empty(&t->cg_list) ||
		    is_exempt(t, exempt, nexempt))
			continue;
		if (task_css_set(t)->subsys[cgrp->hierarchy] != cgrp) {
			bad++;
			badpid = READ_ONCE(t->pid);
		}
	}
	rcu_read_unlock();
	cgt_read_unlock(&css_set_lock);
	if (bad)
		cgt_violation("migration of tgid %d to %s left %d thread(s) behind (tid %d)",
			      READ_ONCE(leader->pid), cgrp->name, bad, badpid);
	return bad ? -1 : 0;
}

struct cset_check {
	long tasks_on_csets;
	long csets;
	char *why;
	size_t len;
	int err;
};

static bool link_on(const struct cds_list_head *head, const struct cds_list_head *node)
{
	const struct cds_list_head *pos;

	for (pos = head->next; pos != head; pos = pos->next)
		if (pos == node)
			return true;
	return false;
}

/* Every css_set: refcount == its tasks; one link per hierarchy, each on its cgroup's list. */
static void check_cset(struct css_set *cset, void *arg)
{
	struct cset_check *c = arg;
	struct cgrp_cset_link *link;
	struct cds_list_head *pos;
	struct task *t;
	int ntasks = 0, nlinks = 0, niters = 0;

	if (c->err)
		return;
	c->csets++;
	cds_list_for_each_entry(t, &cset->tasks, cg_list) {
		ntasks++;
		if (task_css_set(t) != cset) {
			snprintf(c->why, c->len, "tid %d is on one css_set's list but points at another",
				 t->pid);
			c->err = -1;
			return;
		}
		if (!pid_alive(t) || (t->flags & PF_EXITING)) {
			snprintf(c->why, c->len, "tid %d is exiting or unhashed yet still on a css_set",
				 t->pid);
			c->err = -1;
			return;
		}
	}
	c->tasks_on_csets += ntasks;
	/* and a pin for each per-step css_task_iter on it (4.4 on) */
	for (pos = cset->task_iters.next; pos != &cset->task_iters; pos = pos->next)
		niters++;
	if (cset->refcount != ntasks + niters + (cset == &init_css_set)) {
		snprintf(c->why, c->len, "css_set refcount %d but %d tasks and %d iterators",
			 cset->refcount, ntasks, niters);
		c->err = -1;
		return;
	}
	cds_list_for_each_entry(link, &cset->cgrp_links, cgrp_link) {
		nlinks++;
		if (link->cset != cset || link->cgrp != cset->subsys[link->cgrp->hierarchy] ||
		    !link_on(&link->cgrp->cset_links, &link->cset_link)) {
			snprintf(c->why, c->len, "cgrp_cset_link to %s inconsistent", link->cgrp->name);
			c->err = -1;
			return;
		}
	}
	if (nlinks != CGT_NR_HIERARCHIES) {
		snprintf(c->why, c->len, "css_set has %d links, want %d", nlinks, CGT_NR_HIERARCHIES);
		c->err = -1;
	}
}

/* The other way: every link on a cgroup's list is on its css_set's list. */
static int check_cgroup_links(char *why, size_t len)
{
	struct cgrp_cset_link *link;

	for (int h = 0; h < CGT_NR_HIERARCHIES; h++) {
		for (int c = 0; c <= CGT_CGROUPS_PER_ROOT; c++) {
			struct cgroup *cg = &cgroups[h][c];

			cds_list_for_each_entry(link, &cg->cset_links, cset_link)
				if (link->cgrp != cg || !link_on(&link->cset->cgrp_links, &link->cgrp_link))
					fail("%s lists a link that its css_set does not", cg->name);
		}
	}
	return 0;
}

/* Every process: both thread lists agree with nr_threads; pids point back at their tasks. */
static int check_threads(long *live_tasks, char *why, size_t len)
{
	struct task *leader, *t;

	(*live_tasks)++;	/* init_task heads the process list instead of being on it */
	cds_list_for_each_entry(leader, &init_task.tasks, tasks) {
		struct signal_struct *sig = leader->signal;
		long on_node = 0, on_ring = 0;

		if (leader->group_leader != leader)
			fail("tid %d is on the process list but not a group leader", leader->pid);
		cds_list_for_each_entry(t, &sig->thread_head, thread_node) {
			on_node++;
			if (t->signal != sig || t->group_leader != leader)
				fail("tid %d of tgid %d points at another group", t->pid, leader->pid);
			if (pid_task(t->pids[PIDTYPE_PID].pid, PIDTYPE_PID) == NULL ||
			    t->pids[PIDTYPE_PID].pid->nr != t->pid)
				fail("tid %d is not found by its pid", t->pid);
			if (!(t->flags & PF_EXITING))
				(*live_tasks)++;
		}
		t = leader;
		do {
			on_ring++;
			if (on_ring > on_node + 1)
				break;
		} while ((t = next_thread(t)) != leader);
		if (on_node != sig->nr_threads || on_ring != sig->nr_threads)
			fail("tgid %d: nr_threads %d, thread_head %ld, thread_group ring %ld",
			     leader->pid, sig->nr_threads, on_node, on_ring);
	}
	return 0;
}

/* The whole model, held still. 0 if sound, else -1 and the first problem in @why. */
int cgt_check_invariants(char *why, size_t len)
{
	struct cset_check c = { .why = why, .len = len };
	long live_tasks = 0;
	int ret;

	cgt_read_lock(&tasklist_lock);
	cgt_read_lock(&css_set_lock);
	rcu_read_lock();
	ret = check_threads(&live_tasks, why, len);
	if (!ret) {
		cgt_for_each_css_set(check_cset, &c);
		ret = c.err;
	}
	if (!ret)
		ret = check_cgroup_links(why, len);
	if (!ret)
		ret = cgt_pid_check(why, len);
	if (!ret && c.tasks_on_csets != live_tasks) {
		snprintf(why, len, "%ld live tasks but %ld on css_sets", live_tasks, c.tasks_on_csets);
		ret = -1;
	}
	rcu_read_unlock();
	cgt_read_unlock(&css_set_lock);
	cgt_read_unlock(&tasklist_lock);
	return ret;
}

/*
 * Once every task, init included, has let go and grace periods have passed, only the static
 * objects may remain: init_task, its signal, init_css_set (with its own reference) and links.
 */
int cgt_check_leaks(char *why, size_t len)
{
	struct cgt_model_counts n;

	cgt_model_counts(&n);
	if (n.tasks || n.signals || n.pids || n.csets || n.links)
		fail("leaked: %ld tasks, %ld signals, %ld pids, %ld css_sets, %ld links",
		     n.tasks, n.signals, n.pids, n.csets, n.links);
	if (READ_ONCE(init_css_set.refcount) != 1)
		fail("init_css_set refcount %d, want 1", READ_ONCE(init_css_set.refcount));
	return 0;
}
