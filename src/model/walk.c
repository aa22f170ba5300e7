// SPDX-License-Identifier: GPL-2.0
/*
 * The two thread-group walks (include/linux/sched.h, 3.14):
 *
 *   while_each: t = g; do { ... } while_each_thread(g, t);  -- next_thread() round the
 *               headless thread_group ring until it meets g again; if g is unhashed while
 *               the walk is under way, the ring no longer holds g and the walk never ends.
 *   for_each:   for_each_thread(p, t)  -- thread_node from p->signal->thread_head; the head
 *               lives in signal_struct, so the walk always ends under RCU.
 *
 * Both need rcu_read_lock. Every walk publishes its progress in its thread's state and
 * passes a marked point at every step, where the livelock detector (src/detect/livelock.c)
 * may stop it (cgt_walk_stop) and report it with what became of its start thread, so that
 * the run goes on. A walk longer than the model's walk_limit stops by itself.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "model.h"

static const char *const iter_names[] = {
	[CGT_ITER_WHILE_EACH]	= "while_each",
	[CGT_ITER_FOR_EACH]	= "for_each",
};

const char *cgt_iter_name(enum cgt_iter iter)
{
	return iter_names[iter];
}

/* "while_each, for_each": what --iter takes, for its help and its errors */
const char *cgt_iter_names(void)
{
	static char buf[64];

	if (!buf[0])
		for (size_t i = 0; i < ARRAY_SIZE(iter_names); i++)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s",
				 i ? ", " : "", iter_names[i]);
	return buf;
}

int cgt_iter_parse(const char *name, enum cgt_iter *iter)
{
	for (size_t i = 0; i < ARRAY_SIZE(iter_names); i++) {
		if (!strcmp(name, iter_names[i])) {
			*iter = (enum cgt_iter)i;
			return 0;
		}
	}
	return -EINVAL;
}

/* What became of the start thread; the walker is still inside rcu_read_lock. */
static void walk_fate(struct cgt_walk *w)
{
	struct task *g = w->start;
	int successor = READ_ONCE(g->exec_successor);
	int state = READ_ONCE(g->exit_state);

	if (successor)
		snprintf(w->fate, sizeof(w->fate),
			 "released by an exec: tid %d took over its pid", successor);
	else if (!pid_alive(g))
		snprintf(w->fate, sizeof(w->fate), "exited and was unhashed (release_task)");
	else if (state == EXIT_ZOMBIE)
		snprintf(w->fate, sizeof(w->fate), "a zombie leader, still hashed");
	else if (READ_ONCE(g->flags) & PF_EXITING)
		snprintf(w->fate, sizeof(w->fate), "exiting, still hashed");
	else
		snprintf(w->fate, sizeof(w->fate), "alive and hashed");
}

/*
 * End the walk at its next step, as the livelock detector asks or the walk limit demands;
 * the walker is still inside rcu_read_lock, so what became of the start thread can be read.
 */
void cgt_walk_stop(struct cgt_walk *w, const char *why)
{
	if (w->overran)
		return;
	w->overran = true;
	w->why = why;
	walk_fate(w);
}

static struct task *walk_visit(struct cgt_walk *w, struct task *t)
{
	struct cgt_thread *self = cgt_self;

	w->cur = t;
	if (!t) {
		if (self)
			WRITE_ONCE(self->walk_active, 0);
		if (!pid_alive(w->start))
			cgt_cover(CGT_PATH_WALK_START_GONE);
		return NULL;
	}
	check_walk_visit(w->start, t);
	/*
	 * A walk meets each thread once; one met again has gone round a ring its end is no
	 * longer on (while_each from an unhashed thread). Brent's method: compare with a
	 * thread kept at steps 1, 2, 4, 8, ...; a loop of n threads shows within 2n steps,
	 * whatever the walk limit.
	 */
	if (t == w->anchor) {
		w->looped = true;
	} else if (++w->lap >= w->power) {
		w->anchor = t;
		w->power = w->power ? 2 * w->power : 1;
		w->lap = 0;
	}
	w->steps++;
	if (READ_ONCE(t->fork_seq) <= w->fork_seq)
		w->old_steps++;
	if (self)
		WRITE_ONCE(self->walk_steps, w->steps);
	if (!READ_ONCE(t->exit_state))
		w->live++;
	/* what an exit has done to the thread under the walk */
	if (!pid_alive(t))
		cgt_cover(CGT_PATH_WALK_UNHASHED);
	else if (READ_ONCE(t->flags) & PF_EXITING)
		cgt_cover(CGT_PATH_WALK_EXITING);
	return t;
}

struct task *cgt_walk_first(struct cgt_walk *w, struct task *start, enum cgt_iter iter,
			    const char *fn)
{
	struct cgt_thread *self = cgt_self;
	struct cds_list_head *head, *first;

	memset(w, 0, sizeof(*w));
	w->iter = iter;
	w->fn = fn;
	w->start = start;
	w->start_pid = READ_ONCE(start->pid);
	w->fork_seq = __atomic_load_n(&cgt_fork_seq, __ATOMIC_RELAXED);
	w->section = cgt_rcu_section();
	if (self) {
		WRITE_ONCE(self->walk_abort, 0);
		WRITE_ONCE(self->walk_start_pid, w->start_pid);
		WRITE_ONCE(self->walk_fn, fn);
		WRITE_ONCE(self->walk_steps, 0);
		WRITE_ONCE(self->walk_since_ns, cgt_clock_ns());
		WRITE_ONCE(self->walk_active, 1);
	}
	cgt_point(CGT_PT_WALK_START, w);
	if (iter == CGT_ITER_WHILE_EACH)
		return walk_visit(w, start);	/* it always visits g itself */
	head = &start->signal->thread_head;
	first = rcu_dereference(head->next);
	return walk_visit(w, first == head ? NULL : container_of(first, struct task, thread_node));
}

struct task *cgt_walk_next(struct cgt_walk *w)
{
	struct cds_list_head *head, *next;
	struct task *t;

	cgt_point(CGT_PT_WALK_STEP, w);
	/* the model's own bounds, for a walk that no detector watches */
	if (w->looped)
		cgt_walk_stop(w, CGT_WALK_LOOPED);
	else if (w->old_steps >= cgt_model_cfg()->walk_limit)
		cgt_walk_stop(w, CGT_WALK_TOO_LONG);
	if (w->overran)
		return walk_visit(w, NULL);
	check_walk_rcu(w);
	if (w->iter == CGT_ITER_WHILE_EACH) {
		t = next_thread(w->cur);
		return walk_visit(w, t == w->start ? NULL : t);
	}
	head = &w->start->signal->thread_head;
	next = rcu_dereference(w->cur->thread_node.next);
	return walk_visit(w, next == head ? NULL : container_of(next, struct task, thread_node));
}

/*
 * fill_stats_for_tgid (kernel/taskstats.c, 3.14): sum a statistic over every thread of the
 * group found by @tgid, with lock_task_sighand(first) held across the walk. Under siglock no
 * thread of the group can be unhashed (__exit_signal runs under it), so even the 3.14
 * while_each_thread walk from a thread that is exiting always ends. lock_task_sighand()
 * fails once the task has been released: pid_alive() under siglock is that check here.
 * Returns -ESRCH if there is no such task, -ELOOP if the walk was cut short.
 */
int fill_stats_for_tgid(int tgid, enum cgt_iter iter, struct cgt_walk *w)
{
	struct signal_struct *sig;
	struct task *first, *t;
	int ret = 0;

	memset(w, 0, sizeof(*w));
	rcu_read_lock();
	cgt_point(CGT_PT_RCU_ENTER, NULL);
	first = find_task_by_vpid(tgid);
	if (!first) {
		ret = -ESRCH;
		goto out;
	}
	sig = first->signal;		/* first's memory, and its signal, outlive our RCU section */
	cgt_mutex_lock(&sig->siglock);	/* lock_task_sighand */
	if (!pid_alive(first)) {
		cgt_mutex_unlock(&sig->siglock);
		ret = -ESRCH;
		goto out;
	}
	cgt_walk_for_each(w, first, iter, "fill_stats_for_tgid", t) {
		/* walk_visit() reads each thread's exit_state, the statistic we sum */
	}
	cgt_mutex_unlock(&sig->siglock);	/* unlock_task_sighand */
	if (w->overran)
		ret = -ELOOP;
out:
	rcu_read_unlock();
	return ret;
}

/*
 * find_lock_task_mm (mm/oom_kill.c), as oom_badness() called it on each thread @p that
 * select_bad_process() found in its do_each_thread() walk under rcu_read_lock alone
 * (6b0c81b3be11 dropped tasklist_lock there). Until the 3.14 cycle it walked
 * while_each_thread(p, t) from that thread, which may exit mid-walk: walk-from-exiting puts
 * that back. Oleg Nesterov's "oom_kill: change oom_kill.c to use for_each_thread()", merged
 * with 0c740d0afc3b, made it for_each_thread(p, t). The model finds @p by @pid, as the scan
 * would meet it. Returns -ESRCH, -ELOOP, or 0.
 */
int oom_badness(int pid, enum cgt_iter iter, struct cgt_walk *w)
{
	struct task *p, *t;
	int ret = 0;

	if (cgt_bug(CGT_BUG_WALK_FROM_EXITING))
		iter = CGT_ITER_WHILE_EACH;
	memset(w, 0, sizeof(*w));
	rcu_read_lock();
	cgt_point(CGT_PT_RCU_ENTER, NULL);
	p = find_task_by_vpid(pid);
	/* oom_scan_process_thread: a thread already exiting is skipped */
	if (!p || READ_ONCE(p->exit_state)) {
		ret = -ESRCH;
		goto out;
	}
	cgt_walk_for_each(w, p, iter, "find_lock_task_mm", t) {
		/* task_lock(t); if (t->mm) return t; -- the model looks at every thread */
	}
	if (w->overran)
		ret = -ELOOP;
out:
	rcu_read_unlock();
	return ret;
}

#define HUNG_TASK_BATCHING	1024	/* kernel/hung_task.c */

/*
 * rcu_lock_break (kernel/hung_task.c, since 6027ce497d44): let a grace period pass in the
 * middle of the scan, holding references to @g and @t; go on only if both are still hashed,
 * and then the walk @w goes on in the new read-side section.
 */
static bool rcu_lock_break(struct cgt_walk *w, struct task *g, struct task *t)
{
	bool can_cont;

	get_task_struct(g);
	get_task_struct(t);
	rcu_read_unlock();
	cgt_point(CGT_PT_RCU_ENTER, t);		/* cond_resched() */
	rcu_read_lock();
	can_cont = pid_alive(g) && pid_alive(t);
	if (can_cont)
		w->section = cgt_rcu_section();
	put_task_struct(t);
	put_task_struct(g);
	return can_cont;
}

/*
 * check_hung_uninterruptible_tasks (kernel/hung_task.c, khungtaskd): every thread of every
 * process under rcu_read_lock alone. 3.14 and 3.15 still walked do_each_thread(g, t) /
 * while_each_thread(g, t): g is a group leader, which survives its threads' exits as a
 * zombie but not an exec by another thread, which releases it (0c740d0afc3b: "it can
 * exec"); 6027ce497d44 says the walk can livelock and that only max_count bounds it. The
 * later for_each_process_thread() cannot. walk-leader-exec puts the old walk back. Each
 * group's walk is one struct cgt_walk, so the livelock detector sees it; @w holds the
 * last. Returns the threads seen, or -ELOOP if a walk was cut short.
 */
long check_hung_uninterruptible_tasks(enum cgt_iter iter, struct cgt_walk *w)
{
	int batch_count = HUNG_TASK_BATCHING;
	long seen = 0;
	struct task *g, *t;

	if (cgt_bug(CGT_BUG_WALK_LEADER_EXEC))
		iter = CGT_ITER_WHILE_EACH;
	memset(w, 0, sizeof(*w));
	rcu_read_lock();
	cgt_point(CGT_PT_RCU_ENTER, NULL);
	cds_list_for_each_entry_rcu(g, &init_task.tasks, tasks) {
		cgt_walk_for_each(w, g, iter, "check_hung_uninterruptible_tasks", t) {
			seen++;
			if (!--batch_count) {
				batch_count = HUNG_TASK_BATCHING;
				if (!rcu_lock_break(w, g, t))
					goto unlock;
			}
		}
		if (w->overran) {
			seen = -ELOOP;
			goto unlock;
		}
	}
unlock:
	rcu_read_unlock();
	return seen;
}

/*
 * next_tid (fs/proc/base.c): the thread after @start, with a reference, or NULL after the
 * last. @start is held by reference only, outside any RCU section: if it has been unhashed,
 * its ->thread_group.next may point at a thread that has since been freed, which is why the
 * kernel checks pid_alive() first (no-pid-alive leaves the check out).
 */
static struct task *next_tid(struct task *start)
{
	struct task *pos = NULL;

	rcu_read_lock();
	cgt_point(CGT_PT_RCU_ENTER, start);
	if (cgt_bug(CGT_BUG_NO_PID_ALIVE) || pid_alive(start)) {
		pos = next_thread(start);
		if (thread_group_leader(pos))
			pos = NULL;
		else
			get_task_struct(pos);
	} else {
		cgt_cover(CGT_PATH_READDIR_UNHASHED);
	}
	rcu_read_unlock();
	put_task_struct(start);
	return pos;
}

/*
 * first_tid (fs/proc/base.c, 3.14): where a getdents call resumes, with a reference: the
 * thread whose tid the last call could not return (f_version), if it is still in the group,
 * else the @nr-th thread from the leader (the position), walked under RCU. NULL past the end.
 */
static struct task *first_tid(struct pid *pid, int tid, long nr)
{
	struct task *pos = NULL, *task;

	rcu_read_lock();
	task = pid_task(pid, PIDTYPE_PID);
	cgt_point(CGT_PT_RCU_ENTER, task);	/* the group it lists, for perturbation's aim */
	if (!task)
		goto out;
	if (tid && nr) {	/* attempt to start with the tid of a thread */
		pos = find_task_by_vpid(tid);
		if (pos && READ_ONCE(pos->signal) == task->signal)
			goto found;
	}
	/*
	 * Walk nr threads forward from the leader (3.14's do/while_each_thread), or find
	 * nothing: the kernel first compares nr with get_nr_threads(), a lockless read that
	 * the ring's own end stands in for here.
	 */
	task = rcu_dereference(task->group_leader);
	pos = task;
	do {
		if (!nr--)
			goto found;
		pos = next_thread(pos);
	} while (pos != task);
	pos = NULL;
	goto out;
found:
	get_task_struct(pos);
out:
	rcu_read_unlock();
	return pos;
}

static bool listed(const int *tids, long n, int tid)
{
	for (long i = 0; i < n; i++)
		if (tids[i] == tid)
			return true;
	return false;
}

/*
 * proc_task_readdir (fs/proc/base.c): list /proc/<tgid>/task as a reader with a small
 * getdents buffer does, CGT_GETDENTS_ENTRIES names per call. Each call resumes with
 * first_tid() from the tid the last one could not return and the position (f_pos), then
 * steps with next_tid() holding only a reference between threads; the reader is back in
 * user space between calls. Threads exiting meanwhile shift the positions, so a thread alive
 * through the whole listing can be missed, as on the running kernel: *@missed counts those
 * (threads of the group at the start, still hashed at the end, never listed; watched by
 * tid, as a reference would keep their memory, and the listing's neighbours', alive).
 * Returns -ESRCH if there is no such process; *@nr is the number of names listed.
 */
int proc_task_readdir(int tgid, long *nr, long *missed)
{
	int start[CGT_READDIR_WATCH], tids[CGT_READDIR_MAX];
	struct pid *start_pid[CGT_READDIR_WATCH];
	struct cds_list_head *head;
	long nstart = 0, pos = 0;
	struct pid *pid;
	struct task *t;
	int resume = 0;

	*nr = *missed = 0;
	rcu_read_lock();
	pid = find_vpid(tgid);
	t = pid_task(pid, PIDTYPE_PID);
	head = t ? &t->signal->thread_head : NULL;
	/* the threads to list if they live through it, by tid: no reference keeps them */
	if (head)
		cds_list_for_each_entry_rcu(t, head, thread_node) {
			if (nstart == CGT_READDIR_WATCH)
				break;
			start_pid[nstart] = READ_ONCE(t->pids[PIDTYPE_PID].pid);
			if (!start_pid[nstart])
				continue;	/* unhashed since the walk met it */
			get_pid(start_pid[nstart]);
			start[nstart++] = READ_ONCE(t->pid);
		}
	if (pid)
		get_pid(pid);
	rcu_read_unlock();
	if (!pid)
		return -ESRCH;

	for (;;) {		/* one getdents call */
		int room = CGT_GETDENTS_ENTRIES;

		t = first_tid(pid, resume, pos);
		resume = 0;
		if (!t)
			break;
		while (t) {
			int tid = READ_ONCE(t->pid);

			if (!room--) {	/* no room left: the next call starts here */
				resume = tid;
				put_task_struct(t);
				break;
			}
			cgt_point(CGT_PT_READDIR_STEP, t);	/* filldir: the reader may sleep */
			if (*nr < CGT_READDIR_MAX)
				tids[*nr] = tid;
			++*nr;
			pos++;
			if (*nr > cgt_model_cfg()->walk_limit) {
				put_task_struct(t);
				goto out;
			}
			t = next_tid(t);
		}
		if (!resume)
			break;
		cgt_point(CGT_PT_READDIR_STEP, NULL);	/* back in user space between calls */
	}
out:
	/* by struct pid, not number: with --pid-max a number may name another task by now */
	rcu_read_lock();
	for (long i = 0; i < nstart; i++) {
		if (pid_task(start_pid[i], PIDTYPE_PID) &&
		    !listed(tids, *nr < CGT_READDIR_MAX ? *nr : CGT_READDIR_MAX, start[i]))
			++*missed;
	}
	rcu_read_unlock();
	for (long i = 0; i < nstart; i++)
		put_pid(start_pid[i]);
	put_pid(pid);
	return 0;
}

/*
 * do_each_pid_task(pgrp, PIDTYPE_PGID, p) under read_lock(&tasklist_lock), as kill_pgrp()
 * and getpriority(PRIO_PGRP) walk a process group: the readers that keep tasklist_lock busy.
 */
int cgt_pgrp_walk(int pgid, long *nr)
{
	struct cds_hlist_node *pos;
	struct pid *pid;

	*nr = 0;
	cgt_read_lock(&tasklist_lock);
	rcu_read_lock();
	pid = find_vpid(pgid);
	if (pid) {
		cds_hlist_for_each_rcu(pos, &pid->tasks[PIDTYPE_PGID]) {
			struct task *p = container_of(pos, struct task, pids[PIDTYPE_PGID].node);

			cgt_point(CGT_PT_PGRP_STEP, p);
			check_pid_task_locked(pid, p, PIDTYPE_PGID);
			++*nr;
		}
	}
	rcu_read_unlock();
	cgt_read_unlock(&tasklist_lock);
	return pid ? 0 : -ESRCH;
}

/*
 * for_each_process under read_lock(&tasklist_lock), as kill(-1, sig) (kill_something_info)
 * and getpriority(PRIO_USER) go over every process: long read sections, so readers overlap.
 */
long cgt_all_process_walk(void)
{
	struct task *p;
	long nr = 0;

	cgt_read_lock(&tasklist_lock);
	rcu_read_lock();
	cds_list_for_each_entry_rcu(p, &init_task.tasks, tasks) {
		cgt_point(CGT_PT_PGRP_STEP, p);
		check_process_locked(p);
		nr++;
	}
	rcu_read_unlock();
	cgt_read_unlock(&tasklist_lock);
	return nr;
}
