// SPDX-License-Identifier: GPL-2.0
/* The model's globals and its life cycle: the boot of init (pid 1) and the cgroup roots. */
#include <stdio.h>
#include <string.h>

#include "model.h"
#include "cgroup_internal.h"
#include "refcount.h"

struct task init_task;			/* init_task, here standing for pid 1 */
static struct signal_struct init_signals;	/* init_signals */
struct cgt_lock tasklist_lock;		/* tasklist_lock */
struct cgt_model_counts cgt_live;

static struct cgt_model_config model_cfg;

const struct cgt_model_config *cgt_model_cfg(void)
{
	return &model_cfg;
}

void cgt_model_count(long *counter, long delta)
{
	__atomic_fetch_add(counter, delta, __ATOMIC_RELAXED);
}

void cgt_model_counts(struct cgt_model_counts *out)
{
	out->tasks = READ_ONCE(cgt_live.tasks);
	out->signals = READ_ONCE(cgt_live.signals);
	out->pids = READ_ONCE(cgt_live.pids);
	out->csets = READ_ONCE(cgt_live.csets);
	out->links = READ_ONCE(cgt_live.links);
}

void cgt_signal_init(struct signal_struct *sig)
{
	memset(sig, 0, sizeof(*sig));
	sig->sigcnt = 1;
	sig->live = 1;
	CDS_INIT_LIST_HEAD(&sig->thread_head);
	/* group_rwsem is a percpu_rw_semaphore in later kernels, an rw_semaphore in 3.14 */
	cgt_lock_init(&sig->group_rwsem, cgt_lock_find("rwsem"), "group_rwsem");
	sig->group_rwsem.dynamic = true;
	pthread_mutex_init(&sig->siglock, NULL);
	pthread_cond_init(&sig->group_exit_wait, NULL);
}

void cgt_task_init(struct task *p)
{
	memset(p, 0, sizeof(*p));
	p->usage = 1;
	CDS_INIT_LIST_HEAD(&p->tasks);
	CDS_INIT_LIST_HEAD(&p->thread_group);
	CDS_INIT_LIST_HEAD(&p->thread_node);
	CDS_INIT_LIST_HEAD(&p->cg_list);
	CDS_INIT_LIST_HEAD(&p->zombie);
}

/* start_kernel() + rest_init(), as far as the model needs: init runs in the root cgroups. */
int cgt_model_init(const struct cgt_model_config *cfg)
{
	struct pid *pid;

	model_cfg = *cfg;
	if (!model_cfg.era)
		model_cfg.era = cgt_era_find(CGT_DEFAULT_ERA);
	memset(&cgt_live, 0, sizeof(cgt_live));
	/*
	 * Start liburcu's call_rcu thread now: made lazily by the first call_rcu(), at the
	 * thread limit its creation fails and liburcu aborts the process.
	 */
	urcu_memb_get_default_call_rcu_data();
	__atomic_store_n(&cgt_bugs_enabled, cfg->bugs, __ATOMIC_RELAXED);
	cgt_set_reap_delay(cfg->reap_delay);
	cgt_lock_init(&tasklist_lock, cfg->tasklist_lock_ops, "tasklist_lock");
	cgt_window_checks_reset();
	refcount_zeroed_reset();
	if (cgroup_init())
		return -1;

	if (cgt_pid_space_init(cfg->pid_max))
		return -1;
	cgt_task_init(&init_task);
	cgt_signal_init(&init_signals);
	init_task.signal = &init_signals;
	init_task.group_leader = &init_task;
	CDS_INIT_LIST_HEAD(&init_task.tasks);
	pid = alloc_pid();
	if (!pid)
		return -1;
	init_task.pid = pid->nr;
	cgt_write_lock(&tasklist_lock);
	attach_pid(&init_task, PIDTYPE_PID, pid);
	attach_pid(&init_task, PIDTYPE_PGID, pid);
	attach_pid(&init_task, PIDTYPE_SID, pid);
	cds_list_add_tail_rcu(&init_task.thread_node, &init_signals.thread_head);
	init_signals.nr_threads = 1;
	cgt_write_unlock(&tasklist_lock);

	cgt_write_lock(&css_set_lock);
	get_css_set(&init_css_set);
	RCU_INIT_POINTER(init_task.cgroups, &init_css_set);
	cds_list_add(&init_task.cg_list, &init_css_set.tasks);
	cgt_write_unlock(&css_set_lock);
	return 0;
}

/*
 * Undo cgt_model_init() once every other task is gone: init lets go of its pid and css_set,
 * grace periods pass, and then nothing but the static objects may remain (the leak check),
 * which are freed last. Returns the leak check's verdict (0: nothing leaked).
 */
int cgt_model_exit(char *why, size_t len)
{
	int ret;

	cgt_model_release_init();
	ret = cgt_check_leaks(why, len);
	cgt_model_free();
	return ret;
}

void cgt_model_release_init(void)
{
	cgt_reap_zombies(true);		/* init waits for every zombie left */
	cgt_write_lock(&tasklist_lock);
	cds_list_del_rcu(&init_task.thread_node);
	detach_pid(&init_task, PIDTYPE_SID);
	detach_pid(&init_task, PIDTYPE_PGID);
	detach_pid(&init_task, PIDTYPE_PID);
	cgt_write_unlock(&tasklist_lock);
	/* exiting, as exit_signals() would mark it: cgroup_exit reads its css_set unlocked */
	__atomic_fetch_or(&init_task.flags, PF_EXITING, __ATOMIC_RELAXED);
	cgroup_exit(&init_task);
	rcu_barrier();
}

void cgt_model_free(void)
{
	cgroup_exit_all();
	cgt_lock_destroy(&init_signals.group_rwsem);
	pthread_mutex_destroy(&init_signals.siglock);
	pthread_cond_destroy(&init_signals.group_exit_wait);
	cgt_lock_destroy(&tasklist_lock);
	cgt_pid_space_free();
}
