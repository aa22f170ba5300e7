// SPDX-License-Identifier: GPL-2.0
/* do_exit, exit_notify, release_task, and the parent's wait (kernel/exit.c). */
#include "model.h"

/* Zombies their parent has yet to wait for, oldest first (the model's parent is implicit). */
static CDS_LIST_HEAD(zombies);
static pthread_mutex_t zombie_lock = PTHREAD_MUTEX_INITIALIZER;
static long zombie_clock;		/* model operations so far */
static long nr_zombies;			/* on the list: read without the lock */
static long reap_delay;			/* in force: cgt_model_config's, or a phase's */

void cgt_set_reap_delay(long delay)
{
	__atomic_store_n(&reap_delay, delay, __ATOMIC_RELAXED);
}

/*
 * do_notify_parent: true if the parent ignores SIGCHLD and @p goes at once (reap_delay 0);
 * otherwise @p stays a zombie until the parent's wait(), and is queued for it.
 */
static bool do_notify_parent(struct task *p)
{
	if (!__atomic_load_n(&reap_delay, __ATOMIC_RELAXED))
		return true;
	pthread_mutex_lock(&zombie_lock);
	p->zombie_since = __atomic_load_n(&zombie_clock, __ATOMIC_RELAXED);
	cds_list_add_tail(&p->zombie, &zombies);
	__atomic_add_fetch(&nr_zombies, 1, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&zombie_lock);
	cgt_cover(CGT_PATH_ZOMBIE_WAITS);
	return false;
}

/*
 * wait_task_zombie as the parent's wait4() does it: release every zombie older than the
 * delay (or all of them), one at a time, outside the queue's lock. Zombies queued under a
 * delay that has since become 0 (the parent now ignores SIGCHLD) are all due.
 */
void cgt_reap_zombies(bool all)
{
	const long delay = __atomic_load_n(&reap_delay, __ATOMIC_RELAXED);
	long now;
	struct task *p;

	if (!__atomic_load_n(&nr_zombies, __ATOMIC_RELAXED))
		return;
	all = all || !delay;
	now = all ? 0 : __atomic_add_fetch(&zombie_clock, 1, __ATOMIC_RELAXED);
	while (__atomic_load_n(&nr_zombies, __ATOMIC_RELAXED)) {
		pthread_mutex_lock(&zombie_lock);
		p = cds_list_empty(&zombies) ? NULL :
		    cds_list_first_entry(&zombies, struct task, zombie);
		if (p && (all || now - p->zombie_since >= delay)) {
			cds_list_del(&p->zombie);
			__atomic_sub_fetch(&nr_zombies, 1, __ATOMIC_RELAXED);
		} else {
			p = NULL;
		}
		pthread_mutex_unlock(&zombie_lock);
		if (!p)
			return;
		release_task(p);
	}
}

/* delayed_put_task_struct: the task's memory goes back a grace period after release. */
static void delayed_put_task_struct(struct rcu_head *rhp)
{
	rcu_callback_enter();
	put_task_struct(container_of(rhp, struct task, rcu));
}

/* mt-exec: de_thread() waits for the group leader to turn zombie (notify_count < 0). */
static void wake_group_exit_task(struct signal_struct *sig)
{
	cgt_mutex_lock(&sig->siglock);
	if (sig->notify_count < 0)
		cgt_cond_broadcast(&sig->group_exit_wait);
	cgt_mutex_unlock(&sig->siglock);
}

/* __unhash_process: the walkers lose sight of @p; list_del_rcu keeps its ->next. */
static void __unhash_process(struct task *p, bool group_dead)
{
	detach_pid(p, PIDTYPE_PID);
	if (group_dead) {
		detach_pid(p, PIDTYPE_PGID);
		detach_pid(p, PIDTYPE_SID);
		cds_list_del_rcu(&p->tasks);
	}
	cds_list_del_rcu(&p->thread_group);
	cds_list_del_rcu(&p->thread_node);
	WRITE_ONCE(p->rcu_retired_by, cgt_self ? cgt_self->id : 0);
	WRITE_ONCE(p->rcu_retired, cgt_rcu_retire());
}

/* __exit_signal: under tasklist_lock for writing and siglock. */
static void __exit_signal(struct task *tsk)
{
	struct signal_struct *sig = tsk->signal;
	bool group_dead = thread_group_leader(tsk);

	sig->nr_threads--;
	if (!group_dead && sig->notify_count > 0 && !--sig->notify_count)
		cgt_cond_broadcast(&sig->group_exit_wait);
	__unhash_process(tsk, group_dead);
}

/* release_task: unhash, and reap a zombie leader whose last thread this was. */
void release_task(struct task *p)
{
	struct task *leader;
	bool zap_leader;

repeat:
	cgt_write_lock(&tasklist_lock);
	cgt_mutex_lock(&p->signal->siglock);
	__exit_signal(p);
	cgt_mutex_unlock(&p->signal->siglock);
	/*
	 * If we are the last non-leader member of the thread group, and the leader is zombie,
	 * then the leader goes too (its parent, here implicit, reaps it at once).
	 */
	zap_leader = false;
	leader = p->group_leader;
	if (leader != p && thread_group_empty(leader) && leader->exit_state == EXIT_ZOMBIE) {
		zap_leader = do_notify_parent(leader);
		if (zap_leader) {
			WRITE_ONCE(leader->exit_state, EXIT_DEAD);
			cgt_cover(CGT_PATH_LEADER_REAPED);
		}
	}
	cgt_write_unlock(&tasklist_lock);
	cgt_point(CGT_PT_RELEASE, p);		/* before call_rcu: @p may go after it */
	call_rcu(&p->rcu, delayed_put_task_struct);

	p = leader;
	if (zap_leader)
		goto repeat;
}

/* exit_notify: a leader with live threads stays a zombie; anything else is reaped now. */
static void exit_notify(struct task *tsk)
{
	bool autoreap, delayed;

	cgt_write_lock(&tasklist_lock);
	/* a leader waits for its threads (delay_group_leader), then for its parent */
	delayed = thread_group_leader(tsk) && !thread_group_empty(tsk);
	if (thread_group_leader(tsk))
		autoreap = thread_group_empty(tsk) && do_notify_parent(tsk);
	else
		autoreap = true;
	WRITE_ONCE(tsk->exit_state, autoreap ? EXIT_DEAD : EXIT_ZOMBIE);
	if (thread_group_leader(tsk))
		wake_group_exit_task(tsk->signal);
	cgt_write_unlock(&tasklist_lock);
	cgt_point(CGT_PT_EXIT_NOTIFY, tsk);

	if (autoreap)
		release_task(tsk);
	else if (delayed)
		cgt_cover(CGT_PATH_LEADER_ZOMBIE);
}

/* exit_signals: PF_EXITING is set under the threadgroup lock, which migration relies on. */
static void exit_signals(struct task *tsk)
{
	threadgroup_change_begin(tsk);
	__atomic_fetch_or(&tsk->flags, PF_EXITING, __ATOMIC_RELAXED);
	threadgroup_change_end(tsk);
}

/* do_exit: the thread @tsk exits; after this the caller must not touch @tsk. */
void do_exit(struct task *tsk)
{
	exit_signals(tsk);
	atomic_dec(&tsk->signal->live);
	cgt_point(CGT_PT_EXIT_SIGNALS, tsk);
	cgroup_exit(tsk);
	cgt_point(CGT_PT_EXIT_CGROUP, tsk);
	exit_notify(tsk);
}

/*
 * do_group_exit (kernel/exit.c, every era): exit_group(2), glibc's exit(). Unless an exec or
 * another group exit got there first, SIGNAL_GROUP_EXIT and SIGKILL to every other thread
 * under siglock; then the caller's own do_exit, the others' as each sees its SIGKILL: the
 * whole group goes at once.
 */
void do_group_exit(struct task *tsk)
{
	struct signal_struct *sig = tsk->signal;

	/* the kernel looks at signal_group_exit() first without siglock: the model asks under it */
	if (!thread_group_empty(tsk)) {
		cgt_mutex_lock(&sig->siglock);
		if (!signal_group_exit(sig)) {
			sig->flags |= SIGNAL_GROUP_EXIT;
			zap_other_threads(tsk);
			cgt_cover(CGT_PATH_GROUP_EXIT);
		}
		cgt_mutex_unlock(&sig->siglock);
	}
	do_exit(tsk);
}
