// SPDX-License-Identifier: GPL-2.0
/*
 * Cgroups, css_sets and their links (kernel/cgroup.c, 3.15). Every task is in one css_set;
 * css_sets are hashed by their cgroups in css_set_table and shared; cgrp_cset_links join
 * css_sets and cgroups both ways. css_set_lock (the variant under test) guards the table,
 * the links and the task lists; cgroup_mutex serialises migrations.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "cgroup_internal.h"
#include "refcount.h"

struct cgt_lock css_set_lock;		/* css_set_rwsem in 3.15, css_set_lock before and after */
struct cgt_lock cgroup_mutex;		/* cgroup_mutex */
struct cgroup cgroups[CGT_NR_HIERARCHIES][CGT_CGROUPS_PER_ROOT + 1];
struct css_set init_css_set;		/* init_css_set */
static struct cgrp_cset_link init_links[CGT_NR_HIERARCHIES];
static struct cds_lfht *css_set_table;	/* css_set_table */

static const char *const root_names[CGT_NR_HIERARCHIES] = { "cpu", "memory" };

struct cgt_lock cgroup_threadgroup_rwsem;	/* the global threadgroup lock, 4.4 on */

/* The threadgroup lock of @tsk's group: its signal->group_rwsem, or the era's global one. */
static struct cgt_lock *threadgroup_rwsem(struct task *tsk)
{
	if (cgt_model_cfg()->era->threadgroup_global)
		return &cgroup_threadgroup_rwsem;
	return &tsk->signal->group_rwsem;
}

/* threadgroup_lock: keep the thread list still while a migration walks and moves it. */
void threadgroup_lock(struct task *tsk)
{
	cgt_write_lock(threadgroup_rwsem(tsk));
}

void threadgroup_unlock(struct task *tsk)
{
	cgt_write_unlock(threadgroup_rwsem(tsk));
}

/*
 * A reader of the threadgroup lock that leaves the CPU holding it, as a fork in direct
 * reclaim or a throttled cgroup does in the hung-task chains behind percpu_down_write: the
 * reader numbered off_cpu_at, for off_cpu_s (armed by cgt_model_off_cpu_arm; --off-cpu arms
 * the 16th, a few forks into the run, so that migrations have begun).
 */
#define OFF_CPU_READER	16
static long threadgroup_readers;
static long off_cpu_at;
static double off_cpu_s;

void cgt_model_off_cpu_arm(double seconds, long nth)
{
	__atomic_store(&off_cpu_s, &seconds, __ATOMIC_RELAXED);
	__atomic_store_n(&off_cpu_at, __atomic_load_n(&threadgroup_readers, __ATOMIC_RELAXED) +
			 nth, __ATOMIC_RELEASE);
}

/* threadgroup_change_begin: fork (of a thread, or of anything from 4.4), exit_signals, exec. */
void threadgroup_change_begin(struct task *tsk)
{
	const struct cgt_model_config *cfg = cgt_model_cfg();
	long at = __atomic_load_n(&off_cpu_at, __ATOMIC_ACQUIRE);
	double seconds;

	cgt_read_lock(threadgroup_rwsem(tsk));
	/* counted only while armed: once the reader goes, the forks count nothing */
	if (at && cfg->hooks->off_cpu &&
	    __atomic_add_fetch(&threadgroup_readers, 1, __ATOMIC_RELAXED) == at &&
	    __atomic_compare_exchange_n(&off_cpu_at, &at, 0, false, __ATOMIC_RELAXED,
					__ATOMIC_RELAXED)) {
		__atomic_load(&off_cpu_s, &seconds, __ATOMIC_RELAXED);
		cgt_cover(CGT_PATH_OFF_CPU);
		cfg->hooks->off_cpu(seconds);
	}
}

void threadgroup_change_end(struct task *tsk)
{
	cgt_read_unlock(threadgroup_rwsem(tsk));
}

/*
 * task_css_set: under RCU or css_set_lock (check_cgroups_read says what else will do). Not
 * inlined: its return address is the reader's call site, which a warning names once.
 */
__attribute__((noinline)) struct css_set *task_css_set(struct task *t)
{
	check_cgroups_read(t, threadgroup_rwsem(t), __builtin_return_address(0));
	return rcu_dereference(t->cgroups);
}

struct cgroup *task_cgroup(struct task *t, int hierarchy)
{
	return task_css_set(t)->subsys[hierarchy];
}

void get_css_set(struct css_set *cset)
{
	refcount_inc(&cset->refcount, "get_css_set on a css_set whose last reference is gone");
}

/* css_set_hash */
static unsigned long css_set_hash(struct cgroup *const subsys[])
{
	unsigned long key = 0;

	for (int i = 0; i < CGT_NR_HIERARCHIES; i++)
		key = key * 31 + (unsigned long)subsys[i]->id;
	return key * 0x9e3779b97f4a7c15UL;
}

static int css_set_match(struct cds_lfht_node *node, const void *key)
{
	const struct css_set *cset = container_of(node, struct css_set, hlist);

	return !memcmp(cset->subsys, key, sizeof(cset->subsys));
}

static void free_css_set_rcu(struct rcu_head *head)
{
	rcu_callback_enter();
	cgt_free_poisoned(container_of(head, struct css_set, rcu_head), sizeof(struct css_set));
	cgt_model_count(&cgt_live.csets, -1);
}

/*
 * A put under css_set_lock held for writing, put_css_set's and put_css_set_locked's: the
 * last reference unlinks the css_set from the table and its cgroups; true if it did, and the
 * caller frees it.
 */
static bool css_set_put_locked(struct css_set *cset)
{
	struct cgrp_cset_link *link, *tmp;

	if (!refcount_dec_and_test(&cset->refcount, "put_css_set"))
		return false;
	cgt_cover(CGT_PATH_CSET_FREED);
	rcu_read_lock();
	cds_lfht_del(css_set_table, &cset->hlist);
	rcu_read_unlock();
	cds_list_for_each_entry_safe(link, tmp, &cset->cgrp_links, cgrp_link) {
		cds_list_del(&link->cset_link);
		cds_list_del(&link->cgrp_link);
		free(link);
		cgt_model_count(&cgt_live.links, -1);
	}
	WRITE_ONCE(cset->rcu_retired_by, cgt_self ? cgt_self->id : 0);
	WRITE_ONCE(cset->rcu_retired, cgt_rcu_retire());
	return true;
}

/* put_css_set_locked (kernel/cgroup.c @ v4.4.1): a put under css_set_lock, freed after RCU. */
void put_css_set_locked(struct css_set *cset)
{
	if (css_set_put_locked(cset))
		call_rcu(&cset->rcu_head, free_css_set_rcu);
}

/* put_css_set: the last reference unlinks the css_set under css_set_lock and frees it after RCU. */
void put_css_set(struct css_set *cset)
{
	int old = READ_ONCE(cset->refcount);

	/* Ensure that the refcount doesn't hit zero while any readers can see it. */
	while (old > 1)
		if (__atomic_compare_exchange_n(&cset->refcount, &old, old - 1, true,
						__ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
			return;

	/* the last reference, not yet dropped: find_css_set may take it again meanwhile */
	cgt_window(CGT_PATH_CSET_REVIVED);
	cgt_write_lock(&css_set_lock);
	if (!css_set_put_locked(cset)) {
		cgt_write_unlock(&css_set_lock);
		cgt_cover(CGT_PATH_CSET_REVIVED);
		return;
	}
	if (cgt_bug(CGT_BUG_RWSEM_INSIDE_RCU)) {
		/* free synchronously, still under the write lock: wait for the readers */
		synchronize_rcu();
		cgt_write_unlock(&css_set_lock);
		cgt_free_poisoned(cset, sizeof(*cset));
		cgt_model_count(&cgt_live.csets, -1);
		return;
	}
	cgt_write_unlock(&css_set_lock);
	call_rcu(&cset->rcu_head, free_css_set_rcu);
}

/* link_css_set: join @cset and @cgrp; under css_set_lock held for writing. */
static void link_css_set(struct cgrp_cset_link *link, struct css_set *cset, struct cgroup *cgrp)
{
	link->cset = cset;
	link->cgrp = cgrp;
	cds_list_add(&link->cgrp_link, &cset->cgrp_links);
	cds_list_add_tail(&link->cset_link, &cgrp->cset_links);
}

/* find_existing_css_set: under css_set_lock. */
static struct css_set *find_existing_css_set(struct cgroup *const template[])
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;

	rcu_read_lock();
	cds_lfht_lookup(css_set_table, css_set_hash(template), css_set_match, template, &iter);
	node = cds_lfht_iter_get_node(&iter);
	rcu_read_unlock();
	return node ? container_of(node, struct css_set, hlist) : NULL;
}

/*
 * find_css_set: the css_set that is @old_cset with @cgrp in @cgrp's hierarchy, with a
 * reference; made (with its links) if there is none. Callers hold cgroup_mutex, so two
 * cannot make the same css_set.
 */
static struct css_set *find_css_set(struct css_set *old_cset, struct cgroup *cgrp)
{
	struct cgroup *template[CGT_NR_HIERARCHIES];
	struct cgrp_cset_link *links[CGT_NR_HIERARCHIES];
	struct css_set *cset;
	int i;

	memcpy(template, old_cset->subsys, sizeof(template));
	template[cgrp->hierarchy] = cgrp;

	cgt_read_lock(&css_set_lock);
	cset = find_existing_css_set(template);
	if (cset)
		get_css_set(cset);
	cgt_read_unlock(&css_set_lock);
	if (cset) {
		cgt_cover(CGT_PATH_CSET_FOUND);
		return cset;
	}

	cset = calloc(1, sizeof(*cset));
	if (!cset)
		return NULL;
	for (i = 0; i < CGT_NR_HIERARCHIES; i++) {	/* allocate_cgrp_cset_links */
		links[i] = calloc(1, sizeof(*links[i]));
		if (!links[i]) {
			while (i--)
				free(links[i]);
			free(cset);
			return NULL;
		}
	}
	cgt_model_count(&cgt_live.csets, 1);
	cgt_model_count(&cgt_live.links, CGT_NR_HIERARCHIES);
	cset->refcount = 1;
	CDS_INIT_LIST_HEAD(&cset->tasks);
	CDS_INIT_LIST_HEAD(&cset->cgrp_links);
	CDS_INIT_LIST_HEAD(&cset->task_iters);
	memcpy(cset->subsys, template, sizeof(template));
	cds_lfht_node_init(&cset->hlist);

	cgt_write_lock(&css_set_lock);
	for (i = 0; i < CGT_NR_HIERARCHIES; i++)
		link_css_set(links[i], cset, template[i]);
	rcu_read_lock();
	cds_lfht_add(css_set_table, css_set_hash(template), &cset->hlist);
	rcu_read_unlock();
	cgt_write_unlock(&css_set_lock);
	cgt_cover(CGT_PATH_CSET_CREATED);
	return cset;
}

/*
 * cgroup_fork. 3.15 (kernel/cgroup.c @ v3.15.5): the child points at init_css_set until
 * cgroup_post_fork links it. 3.14 (@ v3.14.1): under task_lock(current), a reference to the
 * parent's css_set and a copy of the pointer, which cgroup_post_fork links; a new process
 * forks under no threadgroup lock there, so a migration of the parent in between leaves
 * the child in the old cgroup (the window 3.15's cgroup_post_fork closed). The model's
 * migrations change ->cgroups under css_set_lock, which stands in for task_lock here.
 */
void cgroup_fork(struct task *child, struct task *parent)
{
	struct css_set *cset;

	CDS_INIT_LIST_HEAD(&child->cg_list);
	if (!cgt_model_cfg()->era->fork_copies_cset) {
		RCU_INIT_POINTER(child->cgroups, &init_css_set);
		return;
	}
	cgt_read_lock(&css_set_lock);
	cset = task_css_set(parent);
	get_css_set(cset);
	RCU_INIT_POINTER(child->cgroups, cset);
	cgt_read_unlock(&css_set_lock);
}

/*
 * 3.14's bad_fork_cleanup_cgroup: cgroup_exit puts what cgroup_fork took (v3.14.1), outside
 * any RCU read-side section: the last put takes css_set_lock for writing, which may sleep
 * (css_set_rwsem's variant in a 3.14 run).
 */
void cgroup_cancel_fork(struct task *child)
{
	struct css_set *cset;

	if (!cgt_model_cfg()->era->fork_copies_cset)
		return;
	rcu_read_lock();
	cset = rcu_dereference(child->cgroups);	/* held: cgroup_fork's reference */
	rcu_read_unlock();
	RCU_INIT_POINTER(child->cgroups, &init_css_set);
	put_css_set(cset);
}

/*
 * cgroup_post_fork. 3.15: the child joins its parent's css_set, read under css_set_lock so
 * that a migration of the parent either precedes it (the child follows) or waits. 3.14:
 * the child joins the css_set cgroup_fork copied (or the one a migration that found it
 * since has set: cgroup_attach_task). No migration links an unlinked child in either.
 */
void cgroup_post_fork(struct task *child, struct task *parent)
{
	const bool copied = cgt_model_cfg()->era->fork_copies_cset;
	struct css_set *cset;

	cgt_write_lock(&css_set_lock);
	cset = task_css_set(copied ? child : parent);
	check_cset_rcu(cset, copied ? child : parent);
	if (!copied) {
		get_css_set(cset);
		rcu_assign_pointer(child->cgroups, cset);
	}
	cds_list_add(&child->cg_list, &cset->tasks);
	cgt_write_unlock(&css_set_lock);
}

/*
 * cgroup_exit: leave the css_set; the task points at init_css_set, unreferenced. 3.15 puts
 * the css_set if the task was linked; 3.14's put_css_set_taskexit puts the one cgroup_fork
 * took, linked or not: the same here, where every task is linked before it runs.
 */
void cgroup_exit(struct task *tsk)
{
	struct css_set *cset;
	bool linked;

	cgt_write_lock(&css_set_lock);
	linked = !cds_list_empty(&tsk->cg_list);
	if (linked) {
		/* 4.4's css_set_move_task(tsk, cset, NULL): the iterators first */
		css_set_skip_task_iters(task_css_set(tsk), tsk);
		cds_list_del_init(&tsk->cg_list);
	}
	cgt_write_unlock(&css_set_lock);

	cset = task_css_set(tsk);
	RCU_INIT_POINTER(tsk->cgroups, &init_css_set);
	if (linked)
		put_css_set(cset);
}

/*
 * cgroup_task_migrate (3.15); css_set_move_task from 4.4, whose iterators pointing at @tsk
 * move on first. Under css_set_lock held for writing; returns the old css_set.
 */
static struct css_set *cgroup_task_migrate(struct task *tsk, struct css_set *new_cset)
{
	struct css_set *old_cset = task_css_set(tsk);

	css_set_skip_task_iters(old_cset, tsk);
	rcu_assign_pointer(tsk->cgroups, new_cset);
	cds_list_move(&tsk->cg_list, &new_cset->tasks);
	return old_cset;
}

struct attach_set {
	struct task *task;
	struct css_set *cset;	/* new css_set, then the old one to put */
};

/*
 * cgroup_attach_task (3.14, 3.15): move @leader's whole group (or only @leader) to @cgrp. The
 * caller holds cgroup_mutex and, for a group, threadgroup_lock(@leader).
 */
int cgroup_attach_task(struct cgroup *cgrp, struct task *leader, bool threadgroup)
{
	const enum cgt_iter iter = cgt_model_cfg()->iter;
	const bool locks_csets = cgt_model_cfg()->era->attach_locks_csets;
	struct attach_set *set = NULL;
	size_t n = 0, cap = 0, i;
	struct task *t;
	struct cgt_walk w;
	struct task **unlinked;
	size_t nunlinked = 0;
	int ret = 0;

	/*
	 * Take a snapshot of the group; PF_EXITING threads are left to cgroup_exit. From 3.15
	 * the source css_sets are collected under css_set_rwsem held for reading, taken
	 * outside the RCU read side (96d365e0b86e); 3.14 walked under RCU alone.
	 */
	if (locks_csets)
		cgt_read_lock(&css_set_lock);
	rcu_read_lock();
	if (!threadgroup) {
		set = malloc(sizeof(*set));
		if (set && !(READ_ONCE(leader->flags) & PF_EXITING)) {
			get_task_struct(leader);
			set[n++].task = leader;
		}
	} else {
		cgt_walk_for_each(&w, leader, iter, "cgroup_attach_task", t) {
			if (READ_ONCE(t->flags) & PF_EXITING) {
				cgt_cover(CGT_PATH_MIGRATE_EXITING);
				continue;
			}
			if (ret)
				continue;
			if (n == cap) {
				struct attach_set *bigger;

				cap = cap ? 2 * cap : 16;
				bigger = realloc(set, cap * sizeof(*set));
				if (!bigger) {
					ret = -ENOMEM;
					continue;
				}
				set = bigger;
			}
			get_task_struct(t);
			set[n++].task = t;
		}
	}
	rcu_read_unlock();
	if (locks_csets)
		cgt_read_unlock(&css_set_lock);
	cgt_point(CGT_PT_ATTACH_SNAPSHOT, leader);

	for (i = 0; i < n && !ret; i++) {
		set[i].cset = find_css_set(task_css_set(set[i].task), cgrp);
		if (!set[i].cset)
			ret = -ENOMEM;
	}
	if (ret) {
		while (i--)
			if (set[i].cset)
				put_css_set(set[i].cset);
		goto out;
	}

	/* the tasks left alone because cgroup_post_fork had not linked them yet */
	unlinked = malloc((n + 1) * sizeof(*unlinked));
	if (!unlinked) {
		for (i = 0; i < n; i++)
			put_css_set(set[i].cset);
		ret = -ENOMEM;
		goto out;
	}
	cgt_write_lock(&css_set_lock);
	for (i = 0; i < n; i++) {
		/*
		 * A task cgroup_post_fork has not linked yet: 3.15 leaves it alone, to join
		 * its parent's css_set; 3.14's cgroup_task_migrate sets its ->cgroups, which
		 * cgroup_post_fork links.
		 */
		if (cds_list_empty(&set[i].task->cg_list)) {
			cgt_cover(CGT_PATH_MIGRATE_UNLINKED);
			if (cgt_model_cfg()->era->fork_copies_cset) {
				struct css_set *old = task_css_set(set[i].task);

				rcu_assign_pointer(set[i].task->cgroups, set[i].cset);
				set[i].cset = old;
				continue;
			}
			unlinked[nunlinked++] = set[i].task;
			continue;
		}
		set[i].cset = cgroup_task_migrate(set[i].task, set[i].cset);
		cgt_point(CGT_PT_ATTACH_MOVE, set[i].task);
	}
	cgt_write_unlock(&css_set_lock);
	for (i = 0; i < n; i++)
		put_css_set(set[i].cset);
	/*
	 * The harness's own check, while the group is still held: did the whole group move?
	 * A task not yet linked joins its parent's css_set later; 3.15 accepts that.
	 */
	if (threadgroup)
		cgt_check_group_in(leader, cgrp, unlinked, nunlinked);
	free(unlinked);
out:
	for (i = 0; i < n; i++)
		put_task_struct(set[i].task);
	free(set);
	return ret;
}

/*
 * cgroup_lock_live_group (3.14, 3.15): cgroup_mutex, unless @cgrp died while we waited for
 * it. The flag is set without cgroup_mutex (cgroup_offline_all), hence the acquire.
 */
static bool cgroup_lock_live_group(struct cgroup *cgrp)
{
	cgt_write_lock(&cgroup_mutex);
	if (__atomic_load_n(&cgrp->dead, __ATOMIC_ACQUIRE)) {
		cgt_write_unlock(&cgroup_mutex);
		return false;
	}
	return true;
}

/*
 * The harness's teardown, not a kernel path: each cgroup is marked dead as
 * cgroup_destroy_locked does, but at once, without cgroup_mutex, and roots too. Hundreds of
 * writers queued on cgroup_mutex would otherwise each move a process before the run could
 * end (at 2,000 threads, 471 of them took 4 s; on a slower machine, past the deadline).
 */
void cgroup_offline_all(void)
{
	for (int h = 0; h < CGT_NR_HIERARCHIES; h++)
		for (int c = 0; c <= CGT_CGROUPS_PER_ROOT; c++)
			__atomic_store_n(&cgroups[h][c].dead, true, __ATOMIC_RELEASE);
}

/*
 * __cgroup_procs_write / attach_task_by_pid (3.14, 3.15): move the task with @pid to @cgrp,
 * with its whole group (cgroup.procs) or alone (the v1 "tasks" file). Both hold the group's
 * threadgroup lock. An exec by another thread can strip the leader we found of its
 * leadership; then look again.
 */
static int __cgroup_procs_write(struct cgroup *cgrp, int pid, bool threadgroup)
{
	struct task *tsk;
	bool locked;
	int ret;

	if (!cgroup_lock_live_group(cgrp))
		return -ENODEV;
retry:
	rcu_read_lock();
	tsk = find_task_by_vpid(pid);
	if (!tsk) {
		rcu_read_unlock();
		cgt_cover(CGT_PATH_MIGRATE_VANISHED);
		ret = -ESRCH;
		goto out;
	}
	if (threadgroup)
		tsk = rcu_dereference(tsk->group_leader);
	get_task_struct(tsk);
	rcu_read_unlock();
	/* the leader found, its group not yet held: an exec by another thread may take over */
	cgt_window(CGT_PATH_MIGRATE_RETRY);

	/* attach-no-threadgroup-lock: forks and exits of the group go on during the move */
	locked = !cgt_bug(CGT_BUG_ATTACH_NO_THREADGROUP_LOCK);
	if (locked)
		threadgroup_lock(tsk);
	if (threadgroup && !thread_group_leader(tsk)) {
		if (locked)
			threadgroup_unlock(tsk);
		put_task_struct(tsk);
		cgt_cover(CGT_PATH_MIGRATE_RETRY);
		goto retry;
	}
	ret = cgroup_attach_task(cgrp, tsk, threadgroup);
	if (locked)
		threadgroup_unlock(tsk);
	put_task_struct(tsk);
out:
	cgt_write_unlock(&cgroup_mutex);
	return ret;
}

/* cgroup_procs_write: a pid written to cgroup.procs moves its whole process. */
int cgroup_procs_write(struct cgroup *cgrp, int pid)
{
	return __cgroup_procs_write(cgrp, pid, true);
}

/* cgroup_tasks_write: a tid written to the v1 "tasks" file moves that thread alone. */
int cgroup_tasks_write(struct cgroup *cgrp, int pid)
{
	return __cgroup_procs_write(cgrp, pid, false);
}

/*
 * cgroup_task_count (3.14): the sum of the refcounts of the cgroup's css_sets. In the kernel
 * init_css_set's count is init's and the kthreads' references; the model's init_css_set also
 * holds its own static reference (cgroup_init), which is no task, so it is left out.
 */
int cgroup_task_count(const struct cgroup *cgrp)
{
	struct cgrp_cset_link *link;
	int count = 0;

	cgt_read_lock(&css_set_lock);
	cds_list_for_each_entry(link, &cgrp->cset_links, cset_link) {
		check_cset_link_locked(link, cgrp);
		count += READ_ONCE(link->cset->refcount) - (link->cset == &init_css_set);
	}
	cgt_read_unlock(&css_set_lock);
	return count;
}

/*
 * proc_cgroup_show: "/proc/<pid>/cgroup", one line per hierarchy. To 6.7 the kernel takes
 * cgroup_mutex first, then the css_set lock for reading (3.14: read_lock(&css_set_lock) in
 * task_cgroup_from_root; 3.15: down_read(&css_set_rwsem); 4.4: spin_lock_bh); the css_set
 * lock nests outside rcu_read_lock (96d365e0b86e fixed task_cgroup_path so); rwsem-inside-rcu
 * takes those two the other way round. From 9067d90006df (6.8; kernel/cgroup/cgroup.c @
 * v6.18.2) no cgroup_mutex: rcu_read_lock, then spin_lock_irq(&css_set_lock), an order
 * that matters only to a lock that sleeps, which 6.x's is not.
 */
int proc_cgroup_show(struct task *t, char *buf, size_t len)
{
	bool inside = cgt_bug(CGT_BUG_RWSEM_INSIDE_RCU);
	bool mutex = cgt_model_cfg()->era->proc_cgroup_mutex;
	struct css_set *cset;
	size_t off = 0;

	if (mutex)
		cgt_write_lock(&cgroup_mutex);
	if (inside) {
		rcu_read_lock();
		cgt_read_lock(&css_set_lock);
	} else {
		cgt_read_lock(&css_set_lock);
		rcu_read_lock();
	}
	cset = task_css_set(t);
	check_cset_rcu(cset, t);
	for (int i = 0; i < CGT_NR_HIERARCHIES && off < len; i++) {
		int n = snprintf(buf + off, len - off, "%d:%s\n", i + 1, cset->subsys[i]->name);

		if (n < 0)
			break;
		off += (size_t)n;
	}
	if (inside) {
		cgt_read_unlock(&css_set_lock);
		rcu_read_unlock();
	} else {
		rcu_read_unlock();
		cgt_read_unlock(&css_set_lock);
	}
	if (mutex)
		cgt_write_unlock(&cgroup_mutex);
	return (int)off;
}

void cgt_for_each_css_set(void (*fn)(struct css_set *cset, void *arg), void *arg)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;

	/* cds_lfht_for_each, not _entry: that one forms container_of(NULL) at the end */
	rcu_read_lock();
	cds_lfht_for_each(css_set_table, &iter, node)
		fn(container_of(node, struct css_set, hlist), arg);
	rcu_read_unlock();
}

/* cgroup_init: the roots and their children, and init_css_set in every root. */
int cgroup_init(void)
{
	int h, c, id = 0;

	threadgroup_readers = 0;
	off_cpu_at = 0;
	if (cgt_model_cfg()->off_cpu > 0)
		cgt_model_off_cpu_arm(cgt_model_cfg()->off_cpu, OFF_CPU_READER);
	cgt_lock_init(&css_set_lock, cgt_model_cfg()->css_set_lock_ops, "css_set_lock");
	cgt_lock_init(&cgroup_mutex, cgt_lock_find("mutex"), "cgroup_mutex");
	cgt_lock_init(&cgroup_threadgroup_rwsem,
		      cgt_lock_find(cgt_model_cfg()->era->threadgroup_lock),
		      "cgroup_threadgroup_rwsem");
	css_set_table = cds_lfht_new_flavor(64, 64, 0, CDS_LFHT_AUTO_RESIZE, &urcu_memb_flavor, NULL);
	if (!css_set_table)
		return -1;
	for (h = 0; h < CGT_NR_HIERARCHIES; h++) {
		for (c = 0; c <= CGT_CGROUPS_PER_ROOT; c++) {
			struct cgroup *cg = &cgroups[h][c];

			cg->id = ++id;
			cg->hierarchy = h;
			cg->parent = c ? &cgroups[h][0] : NULL;
			cg->dead = false;
			CDS_INIT_LIST_HEAD(&cg->cset_links);
			if (c)
				snprintf(cg->name, sizeof(cg->name), "%s:/g%d", root_names[h], c);
			else
				snprintf(cg->name, sizeof(cg->name), "%s:/", root_names[h]);
		}
	}
	memset(&init_css_set, 0, sizeof(init_css_set));
	/*
	 * The static object's own reference, never dropped: pid 1 may migrate away, yet
	 * init_css_set must not be freed (in the kernel, kernel threads keep it busy).
	 */
	init_css_set.refcount = 1;
	CDS_INIT_LIST_HEAD(&init_css_set.tasks);
	CDS_INIT_LIST_HEAD(&init_css_set.cgrp_links);
	CDS_INIT_LIST_HEAD(&init_css_set.task_iters);
	cds_lfht_node_init(&init_css_set.hlist);
	for (h = 0; h < CGT_NR_HIERARCHIES; h++) {
		init_css_set.subsys[h] = &cgroups[h][0];
		link_css_set(&init_links[h], &init_css_set, &cgroups[h][0]);
	}
	rcu_read_lock();
	cds_lfht_add(css_set_table, css_set_hash(init_css_set.subsys), &init_css_set.hlist);
	rcu_read_unlock();
	return 0;
}

/* Tear the table down once every task has gone; only init_css_set may be left. */
void cgroup_exit_all(void)
{
	rcu_read_lock();
	cds_lfht_del(css_set_table, &init_css_set.hlist);
	rcu_read_unlock();
	cds_lfht_destroy(css_set_table, NULL);
	css_set_table = NULL;
	cgt_lock_destroy(&cgroup_threadgroup_rwsem);
	cgt_lock_destroy(&cgroup_mutex);
	cgt_lock_destroy(&css_set_lock);
}
