// SPDX-License-Identifier: GPL-2.0
/*
 * Checks inside the windows: what a reader can verify with no more than the locks it holds,
 * checked where it reads, while every other thread runs, rather than only with the model held
 * still (invariants.c). Each rests on one locking rule of the kernel; a check that fires
 * says which rule was broken, by a writer that changed the state without the lock, or by a
 * reader that looked at freed memory (in the plain build, poisoned: base/quarantine.h).
 *
 *   RCU                 task->signal is set by copy_process and never changes, and a walk
 *                       reaches only threads of its own group, live or just unhashed:
 *                       every thread a walk visits shares its start thread's signal.
 *   tasklist_lock (r)   the process list, leadership and the thread count change only under
 *                       it for writing (copy_process, __unhash_process, de_thread): a
 *                       process on init_task.tasks leads its group, and its thread_head
 *                       holds exactly signal->nr_threads threads; a task on a pid's list
 *                       for a type is linked to that pid for it (attach_pid, change_pid).
 *   css_set_lock        a task joins, leaves and changes css_set only under it for writing
 *                       (cgroup_post_fork, cgroup_exit, cgroup_task_migrate), and the last
 *                       reference unlinks a css_set under it (put_css_set): a task on a
 *                       css_set's list points to it, and a linked css_set is referenced and
 *                       belongs to the cgroup its link names.
 *   RCU lifetimes       a reader finds under RCU only what was still linked when its
 *                       read-side section began (core/rcu.h): a walk with no reference
 *                       stays in the section it began in and never stands on a thread
 *                       unhashed before it; a css_set read under css_set_lock was not put
 *                       for the last time (that unlinks it under the lock for writing).
 */

#include "model.h"
#include "cgroup_internal.h"

void check_walk_visit(const struct cgt_walk *w, const struct task *t)
{
	const struct signal_struct *sig = READ_ONCE(w->start->signal), *its = READ_ONCE(t->signal);

	/* a walk under a lock alone (oom_kill_process, 3.13) may reach freed memory */
	if (unlikely(its != sig))
		cgt_violation("under %s: %s's walk of tgid %d's threads reached a thread with "
			      "another signal_struct (%p, not %p): freed, or on the wrong list",
			      w->held && !w->section ? w->held->name : "RCU", w->fn, w->start_pid,
			      (const void *)its, (const void *)sig);
}

void check_process_locked(struct task *p)
{
	struct signal_struct *sig = p->signal;
	struct task *t;
	int n = 0;

	if (unlikely(p->group_leader != p))
		cgt_violation("under tasklist_lock: tid %d is on the process list but does not "
			      "lead its group (its leader: tid %d)", READ_ONCE(p->pid),
			      READ_ONCE(p->group_leader->pid));
	cds_list_for_each_entry(t, &sig->thread_head, thread_node)
		n++;
	if (unlikely(n != sig->nr_threads))
		cgt_violation("under tasklist_lock: tgid %d's thread_head holds %d threads, "
			      "its nr_threads says %d", READ_ONCE(p->pid), n, sig->nr_threads);
}

void check_pid_task_locked(const struct pid *pid, const struct task *t, enum pid_type type)
{
	if (unlikely(t->pids[type].pid != pid))
		cgt_violation("under tasklist_lock: tid %d is on pid %d's list of type %d but "
			      "linked to another pid", READ_ONCE(t->pid), pid->nr, (int)type);
}

void check_cset_task_locked(const struct css_set *cset, const struct task *t)
{
	if (unlikely(rcu_dereference(t->cgroups) != cset))
		cgt_violation("under css_set_lock: tid %d is on a css_set's task list but its "
			      "->cgroups points to another css_set", READ_ONCE(t->pid));
	if (unlikely(READ_ONCE(cset->refcount) < 1))
		cgt_violation("under css_set_lock: a css_set with tasks on its list has refcount %d",
			      READ_ONCE(cset->refcount));
}

void check_cset_link_locked(const struct cgrp_cset_link *link, const struct cgroup *cgrp)
{
	if (unlikely(link->cgrp != cgrp || link->cset->subsys[cgrp->hierarchy] != cgrp))
		cgt_violation("under css_set_lock: a cgrp_cset_link on %s's list names another "
			      "cgroup, or its css_set is in another", cgrp->name);
	if (unlikely(READ_ONCE(link->cset->refcount) < 1))
		cgt_violation("under css_set_lock: %s links a css_set of refcount %d, whose "
			      "last reference should have unlinked it", cgrp->name,
			      READ_ONCE(link->cset->refcount));
}

static void rcu_violation(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void rcu_violation(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cgt_vviolation(CGT_DET_RCU_LIFETIME, fmt, ap);
	va_end(ap);
}

/*
 * Before a walk that began under RCU steps on from the thread it stands on (its start is
 * the caller's: found in this section, or held by a reference). Once a walk.
 */
void check_walk_rcu(struct cgt_walk *w)
{
	const struct task *t = w->cur;
	uint64_t retired;

	if (!w->section || t == w->start || w->rcu_reported)
		return;
	retired = READ_ONCE(t->rcu_retired);
	if (cgt_rcu_section() != w->section) {
		w->rcu_reported = true;
		rcu_violation("%s's walk of tgid %d's threads went on in %s, standing on tid %d "
			      "with no reference to it: it may have been released and freed meanwhile",
			      w->fn, w->start_pid, cgt_rcu_section() ? "another RCU read-side section" :
			      "no RCU read-side section", READ_ONCE(t->pid));
	} else if (cgt_rcu_stale(retired)) {
		w->rcu_reported = true;
		rcu_violation("%s's walk of tgid %d's threads stands on tid %d, unhashed by thread "
			      "%d before the walker's RCU read-side section began: no reader in that "
			      "section could have found it", w->fn, w->start_pid, READ_ONCE(t->pid),
			      READ_ONCE(t->rcu_retired_by));
	}
}

#define WARNED_SITES	16
static const void *warned_sites[WARNED_SITES];

/* A new boot of the model: every call site may warn again. */
void cgt_window_checks_reset(void)
{
	for (int i = 0; i < WARNED_SITES; i++)
		__atomic_store_n(&warned_sites[i], NULL, __ATOMIC_RELAXED);
}

/*
 * Once per call site and boot, as RCU_LOCKDEP_WARN's static __warned: a mistake on a hot
 * path would otherwise fill the report with one splat per read, and bury the rest.
 */
static bool first_warning(const void *site)
{
	for (int i = 0; i < WARNED_SITES; i++) {
		const void *was = NULL;

		/* claim the first free slot; a taken one says whose it is */
		if (__atomic_compare_exchange_n(&warned_sites[i], &was, site, false,
						__ATOMIC_RELAXED, __ATOMIC_RELAXED))
			return true;
		if (was == site)
			return false;
	}
	return true;
}

/*
 * task_css_set_check (include/linux/cgroup.h): @t->cgroups read under RCU or css_set_lock,
 * by @t once it is exiting, or where neither an exit nor a migration can change it. The
 * kernel's lockdep also takes cgroup_mutex alone; but cgroup_exit puts the css_set without
 * it, so here cgroup_mutex counts only with @t's threadgroup lock (@threadgroup), as
 * cgroup_attach_task holds it: a reader under cgroup_mutex alone may have the css_set freed
 * under it, a grace period after an exit, while it waits for css_set_lock. Every read is
 * checked, so the mistake shows the first time its path runs, not when a free meets it;
 * @site is the reader's call site.
 */
void check_cgroups_read(const struct task *t, const struct cgt_lock *threadgroup,
			const void *site)
{
	if (likely(cgt_rcu_read_depth() || cgt_self_holds(&css_set_lock) ||
		   (READ_ONCE(t->flags) & PF_EXITING) ||
		   (cgt_self_holds(&cgroup_mutex) && cgt_self_holds(threadgroup))) ||
	    !first_warning(site))
		return;
	rcu_violation("suspicious RCU usage: tid %d's css_set (task->cgroups) read outside any "
		      "RCU read-side section and without css_set_lock%s: an exit may put it, "
		      "and a grace period later free it, while it is in use",
		      READ_ONCE(t->pid), cgt_self_holds(&cgroup_mutex) ?
		      " (cgroup_mutex alone keeps no exit away)" : "");
}

/* A css_set read under css_set_lock (or RCU alone) that its last put had already unlinked. */
void check_cset_rcu(const struct css_set *cset, const struct task *t)
{
	if (unlikely(cgt_rcu_stale(READ_ONCE(cset->rcu_retired))))
		rcu_violation("tid %d's css_set was put for the last time and unlinked by thread %d "
			      "before this reader's protection began: it was read outside the lock "
			      "and RCU section that keep it alive", READ_ONCE(t->pid),
			      READ_ONCE(cset->rcu_retired_by));
}
