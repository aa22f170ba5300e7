// SPDX-License-Identifier: GPL-2.0
/* What a model thread does at each turn: fork, exec, exit, migrate or observe. */
#include <errno.h>
#include <sched.h>

#include "meet.h"
#include "park.h"

const char *const cgt_op_names[CGT_NR_OPS] = {
#define X(id, name) [CGT_OP_##id] = name,
	CGT_OPS(X)
#undef X
};

const char *const cgt_read_names[CGT_NR_READS] = {
#define X(id, name, fn, lock) [CGT_READ_##id] = name,
	CGT_READS(X)
#undef X
};

struct cgt_lock *const cgt_read_locks[CGT_NR_READS] = {
#define X(id, name, fn, lock) [CGT_READ_##id] = lock,
	CGT_READS(X)
#undef X
};

/* One of @n choices by @weight (not all 0). */
static int pick(const unsigned int *weight, int n, struct prng *rng)
{
	unsigned int total = 0, r;
	int i;

	for (i = 0; i < n; i++)
		total += weight[i];
	r = prng_below(rng, total);
	for (i = 0; i < n - 1; i++) {
		if (r < weight[i])
			break;
		r -= weight[i];
	}
	return i;
}

/* The operation mix of the phase in force (swarm.h), or a fork while the run ramps up. */
enum cgt_op cgt_pick_op(const struct cgt_run *run, struct prng *rng)
{
	const struct cgt_phase *p = cgt_phase_now();

	if (__atomic_load_n(&run->ramping, __ATOMIC_RELAXED))
		return CGT_OP_FORK;
	return (enum cgt_op)pick(p ? p->mix : run->cfg->mix, CGT_NR_OPS, rng);
}

/*
 * A pid handed out lately: live, exited or exec'd away, as a user would pass one. The
 * window is twice the live population, so about half the picks find a task. One pick in
 * two aims where a group is changing (meet.h): a thread that just forked, exited or exec'd.
 */
static int random_recent_pid(struct cgt_run *run, struct prng *rng)
{
	long live = READ_ONCE(run->stats.live);
	int window = live > 8 ? 2 * (int)live : 16;
	int last = cgt_last_pid();
	int lo = last - window > 1 ? last - window : 1;

	/* none in a controlled run: its draws stay as they were */
	if (cgt_meet_hot() && prng_below(rng, 2))
		return cgt_meet_hot_tid(prng_below(rng, CGT_MEET_HOT));
	return cgt_pid_back(last - lo - (int)prng_below(rng, (uint32_t)(last - lo + 1)));
}

static struct cgroup *random_cgroup(struct prng *rng)
{
	return &cgroups[prng_below(rng, CGT_NR_HIERARCHIES)][prng_below(rng, CGT_CGROUPS_PER_ROOT + 1)];
}

static struct task *get_random_task(struct cgt_run *run, struct prng *rng)
{
	struct task *t;

	/* get_proc_task: a reference, so the reader may leave RCU */
	rcu_read_lock();
	t = find_task_by_vpid(random_recent_pid(run, rng));
	if (t)
		get_task_struct(t);
	rcu_read_unlock();
	return t;
}

/*
 * A thread-group walk: the OOM killer's scan of every thread, khungtaskd's, and the OOM
 * killer's kill of a victim (dump_header's lines, then the victim's threads under
 * tasklist_lock in the eras that had it), one in sixteen each; find_lock_task_mm (under RCU)
 * five in sixteen, and taskstats under siglock the rest (model/). A walker with a watch
 * keeps walking a live process for a while, as a monitor polls it.
 */
static void read_walk(struct cgt_run *run, struct prng *rng, struct cgt_watch *watch)
{
	struct cgt_walk w;
	int tgid, ret;

	if (watch && watch->left > 0) {
		tgid = watch->tgid;
		watch->left--;
	} else {
		tgid = random_recent_pid(run, rng);
	}
	ret = prng_below(rng, 16);
	if (!ret) {
		ret = select_bad_process(run->cfg->iter, &w) < 0 ? -ELOOP : 0;
	} else if (ret == 1) {
		check_hung_uninterruptible_tasks(&w);	/* a scan always ends */
		ret = 0;
	} else if (ret == 2) {
		ret = oom_kill_process(tgid, run->cfg->iter, &w);
	} else if (ret <= 7) {
		ret = oom_badness(tgid, run->cfg->iter, &w);
	} else {
		ret = fill_stats_for_tgid(tgid, run->cfg->iter, &w);
	}
	if (watch && !ret && watch->left <= 0) {
		watch->tgid = tgid;		/* found a live one: keep watching it */
		watch->left = 50;
	} else if (watch && ret) {
		watch->left = 0;
	}

	stat_inc(run, walks);
	stat_add(run, walk_steps, w.steps);
	if (ret == -ELOOP)
		stat_inc(run, livelocks);
}

/* /proc/<pid>/task, listed a few names per getdents call. */
static void read_readdir(struct cgt_run *run, struct prng *rng, struct cgt_watch *watch)
{
	long n, missed;

	(void)watch;
	if (!proc_task_readdir(random_recent_pid(run, rng), &n, &missed)) {
		stat_inc(run, readdirs);
		stat_add(run, readdir_tasks, n);
		stat_add(run, readdir_missed, missed);
	}
}

/* The readers of tasklist_lock: one process group, or every process. */
static void read_tasklist(struct cgt_run *run, struct prng *rng, struct cgt_watch *watch)
{
	long n;

	(void)watch;
	if (prng_below(rng, 2))
		cgt_all_process_walk();
	else if (cgt_pgrp_walk(random_recent_pid(run, rng), &n))
		return;
	stat_inc(run, pgrp_walks);
}

/* cgroup_task_count of a cgroup. */
static void read_count(struct cgt_run *run, struct prng *rng, struct cgt_watch *watch)
{
	(void)watch;
	cgroup_task_count(random_cgroup(rng));
	stat_inc(run, counts);
}

/* css_task_iter over a cgroup's tasks. */
static void read_iter(struct cgt_run *run, struct prng *rng, struct cgt_watch *watch)
{
	struct css_task_iter it;
	long n = 0;

	(void)watch;
	/*
	 * From 4.4 each step queues for css_set_lock again: a root's thousands of tasks behind
	 * hundreds of model threads (the kernel's spinlock has a CPU's worth of waiters) would
	 * keep the model from coming to rest for seconds; the listing stops there instead.
	 */
	css_task_iter_start(random_cgroup(rng), &it);
	while (css_task_iter_next(&it) && !cgt_run_wants_rest(run))
		n++;
	css_task_iter_end(&it);
	stat_inc(run, iters);
	stat_add(run, iter_tasks, n);
}

/* /proc/<pid>/cgroup. */
static void read_show(struct cgt_run *run, struct prng *rng, struct cgt_watch *watch)
{
	struct task *t = get_random_task(run, rng);
	char buf[128];

	(void)watch;
	if (t) {
		proc_cgroup_show(t, buf, sizeof(buf));
		put_task_struct(t);
	}
	stat_inc(run, shows);
}

static void (*const readers[CGT_NR_READS])(struct cgt_run *, struct prng *, struct cgt_watch *) = {
#define X(id, name, fn, lock) [CGT_READ_##id] = fn,
	CGT_READS(X)
#undef X
};

void cgt_read(struct cgt_run *run, enum cgt_read kind, struct prng *rng, struct cgt_watch *watch)
{
	readers[kind](run, rng, watch);
}

/* One reader, of the kinds the phase in force weighs. */
void cgt_observe(struct cgt_run *run, struct prng *rng, struct cgt_watch *watch)
{
	cgt_read(run, (enum cgt_read)pick(cgt_phase_now()->reads, CGT_NR_READS, rng), rng, watch);
}

enum cgt_op_result cgt_do_op(struct cgt_run *run, struct task *me, enum cgt_op op,
			     struct prng *rng)
{
	int ret;

	cgt_reap_zombies(false);	/* the parents' wait() for zombies that are due */
	switch (op) {
	case CGT_OP_FORK:
		cgt_fork_from(run, me, prng_below(rng, 100) <
			     (uint32_t)cgt_phase_now()->clone_thread_pct);
		break;
	case CGT_OP_EXEC:
		ret = de_thread(me);
		if (ret == -EAGAIN)
			stat_inc(run, exec_eagain);
		else
			stat_inc(run, ops[CGT_OP_EXEC]);
		WRITE_ONCE(cgt_self->pid, READ_ONCE(me->pid));	/* it may have taken the leader's */
		break;
	case CGT_OP_EXIT:
		/* one exit in four is the whole process's: exit_group(2), as glibc's exit() */
		if (prng_below(rng, 4))
			do_exit(me);
		else
			do_group_exit(me);
		stat_inc(run, ops[CGT_OP_EXIT]);
		return CGT_OP_EXITED;
	case CGT_OP_MIGRATE:
		/* a pid to cgroup.procs, or one in four times a tid to the v1 "tasks" file */
		if (prng_below(rng, 4))
			ret = cgroup_procs_write(random_cgroup(rng), random_recent_pid(run, rng));
		else
			ret = cgroup_tasks_write(random_cgroup(rng), random_recent_pid(run, rng));
		if (ret == -ESRCH)
			stat_inc(run, migrate_esrch);
		else if (ret != -ENODEV)	/* the run's end took the cgroups offline */
			stat_inc(run, ops[CGT_OP_MIGRATE]);
		break;
	case CGT_OP_OBSERVE:
		cgt_observe(run, rng, NULL);
		stat_inc(run, ops[CGT_OP_OBSERVE]);
		break;
	default:
		break;
	}
	return CGT_OP_DONE;
}

/*
 * A fork refused at the cap: the ramp's population is there, so the mix takes over (the
 * driver ends the ramp too, but on a machine loaded many times over it may not run for a
 * second, while 1,500 threads refused forks 99 million times and starved every lock holder
 * of the CPU); and a free-running thread leaves the CPU, as a fork that fails costs a
 * system call.
 */
static void fork_refused(struct cgt_run *run)
{
	stat_inc(run, fork_at_cap);
	/* the cap counts forks under way: the population is there once they have finished */
	if (__atomic_load_n(&run->ramping, __ATOMIC_RELAXED) &&
	    READ_ONCE(run->stats.peak) >= run->stats.ramp_target)
		cgt_run_ramp_end(run, cgt_now() - run->start, true);
	if (!cgt_sched_on())
		sched_yield();
}

/*
 * fork: a live-thread slot is reserved first, so --threads is a hard cap; a failed
 * copy_process gives it back and says why in the statistics.
 */
int cgt_fork_from(struct cgt_run *run, struct task *parent, bool thread)
{
	long live = __atomic_load_n(&run->stats.live, __ATOMIC_RELAXED);
	struct task *child;
	int err;

	do {
		if (live >= cgt_phase_now()->threads) {
			fork_refused(run);
			return -EAGAIN;
		}
	} while (!__atomic_compare_exchange_n(&run->stats.live, &live, live + 1, true,
					      __ATOMIC_RELAXED, __ATOMIC_RELAXED));

	err = copy_process(parent, thread ? CLONE_THREAD : 0, &child);
	if (err) {
		stat_add(run, live, -1);
		if (err == -EINTR)
			stat_inc(run, fork_eintr);
		else
			stat_inc(run, fork_eagain);
		return err;
	}
	stat_inc(run, ops[CGT_OP_FORK]);
	if (thread)
		stat_inc(run, fork_thread);
	live++;
	for (long peak = READ_ONCE(run->stats.peak); live > peak; )
		if (__atomic_compare_exchange_n(&run->stats.peak, &peak, live, true,
						__ATOMIC_RELAXED, __ATOMIC_RELAXED))
			break;
	return 0;
}
