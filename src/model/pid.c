// SPDX-License-Identifier: GPL-2.0
/*
 * struct pid, the pid hash and the pid space (kernel/pid.c, 3.14). Lookups run under RCU
 * alone, as find_vpid() does; changes to a pid's task lists happen under tasklist_lock held
 * for writing, and the hash itself changes under pidmap_lock. By default numbers are never
 * reused, so a stale number finds nothing; with a pid_max (--pid-max) they are, as in the
 * kernel: alloc_pidmap takes the next free number after last_pid and wraps at pid_max to
 * RESERVED_PIDS, and free_pid frees the number as it unhashes the pid, at once, not after
 * the grace period that frees struct pid: a reader under RCU may still hold the old struct
 * pid while a new one with the same number is hashed, and a stale number may find a task
 * it never named.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "model.h"
#include "refcount.h"

#define PID_HASH_SIZE	(1u << CGT_PID_HASH_BITS)

static struct cds_hlist_head pid_hash[PID_HASH_SIZE];	/* pid_hash */
static pthread_mutex_t pidmap_lock = PTHREAD_MUTEX_INITIALIZER;	/* pidmap_lock */
static int last_pid;					/* pid_namespace.last_pid */
static int pid_max;					/* 0: no pid space, no reuse */
static unsigned long *pidmap;				/* pid_namespace.pidmap: numbers in use */

#define BITS	(8 * (int)sizeof(unsigned long))

static unsigned int pid_hashfn(int nr)
{
	return ((unsigned int)nr * 2654435761u) >> (32 - CGT_PID_HASH_BITS);
}

int cgt_last_pid(void)
{
	return READ_ONCE(last_pid);
}

int cgt_pid_back(int back)
{
	int nr = READ_ONCE(last_pid) - back;

	if (pid_max && nr < RESERVED_PIDS && READ_ONCE(last_pid) + back >= pid_max)
		nr += pid_max - RESERVED_PIDS;	/* numbers handed out before the wrap */
	return nr > 1 ? nr : 1;
}

/* The ns_last_pid sysctl (kernel/pid_namespace.c): where the next search starts. */
void cgt_ns_last_pid_write(int nr)
{
	pthread_mutex_lock(&pidmap_lock);
	WRITE_ONCE(last_pid, nr);
	pthread_mutex_unlock(&pidmap_lock);
}

/* A pid space of @max numbers (0: none); numbers start again from 1. */
int cgt_pid_space_init(int max)
{
	free(pidmap);
	pidmap = NULL;
	pid_max = max;
	last_pid = 0;
	if (!max)
		return 0;
	pidmap = calloc((size_t)(max + BITS - 1) / BITS, sizeof(*pidmap));
	if (!pidmap)
		return -1;
	pidmap[0] = 1;			/* pid 0 is reserved, never freed */
	return 0;
}

void cgt_pid_space_free(void)
{
	cgt_pid_space_init(0);
}

static bool pidmap_test(int nr)
{
	return pidmap[nr / BITS] & (1UL << (nr % BITS));
}

/*
 * What alloc_pidmap promises, checked under pidmap_lock as it hands @nr out: it is the first
 * free number after last_pid, cyclically (wrapping at pid_max to RESERVED_PIDS), so a number
 * freed behind last_pid waits a whole cycle before it is given again; and no hashed pid
 * holds it.
 */
static void alloc_pidmap_check(int nr)
{
	struct pid *pid;
	int n = READ_ONCE(last_pid);

	for (int i = 0; i < pid_max; i++) {
		if (++n >= pid_max)
			n = RESERVED_PIDS;
		if (n == nr)
			break;
		if (!pidmap_test(n)) {
			cgt_violation("alloc_pidmap: pid %d handed out before %d, the first free number "
				      "after last_pid %d", nr, n, READ_ONCE(last_pid));
			break;
		}
	}
	cds_hlist_for_each_entry_rcu_2(pid, &pid_hash[pid_hashfn(nr)], pid_chain)
		if (pid->nr == nr)
			cgt_violation("alloc_pidmap: pid %d handed out twice: a live struct pid "
				      "holds it", nr);
}

int cgt_pid_check(char *why, size_t len)
{
	int ret = 0;

	pthread_mutex_lock(&pidmap_lock);
	for (unsigned int h = 0; h < PID_HASH_SIZE && !ret; h++) {
		struct pid *pid, *other;

		cds_hlist_for_each_entry_rcu_2(pid, &pid_hash[h], pid_chain) {
			if (pid_max && (pid->nr >= pid_max || !pidmap_test(pid->nr))) {
				snprintf(why, len, "pid %d is hashed but free in the pidmap", pid->nr);
				ret = -1;
				break;
			}
			cds_hlist_for_each_entry_rcu_2(other, &pid_hash[h], pid_chain)
				if (other != pid && other->nr == pid->nr) {
					snprintf(why, len, "pid %d is held by two live struct pids",
						 pid->nr);
					ret = -1;
				}
			if (ret)
				break;
		}
	}
	pthread_mutex_unlock(&pidmap_lock);
	return ret;
}

static bool pidmap_test_and_set(int nr)
{
	unsigned long bit = 1UL << (nr % BITS);

	if (pidmap[nr / BITS] & bit)
		return true;
	pidmap[nr / BITS] |= bit;
	return false;
}

/*
 * alloc_pidmap: the first free number from last_pid + 1, wrapping at pid_max to
 * RESERVED_PIDS; -EAGAIN if every number is taken. The kernel scans its bitmap with atomic
 * bit operations; here pidmap_lock covers the scan.
 */
static int alloc_pidmap(void)
{
	int nr = -EAGAIN, last;

	if (!pid_max)
		return __atomic_add_fetch(&last_pid, 1, __ATOMIC_RELAXED);
	pthread_mutex_lock(&pidmap_lock);
	last = last_pid;
	for (int i = 0, n = last + 1; i < pid_max; i++, n++) {
		if (n >= pid_max)
			n = RESERVED_PIDS;
		if (!pidmap_test_and_set(n)) {
			nr = n;
			break;
		}
	}
	if (nr > 0) {
		alloc_pidmap_check(nr);
		if (nr <= last)
			cgt_cover(CGT_PATH_PID_WRAP);
		WRITE_ONCE(last_pid, nr);
	}
	pthread_mutex_unlock(&pidmap_lock);
	return nr;
}

/* alloc_pid: a number, hashed at once, as the kernel does before the task is linked. */
struct pid *alloc_pid(void)
{
	struct pid *pid = calloc(1, sizeof(*pid));

	if (!pid)
		return NULL;
	pid->count = 1;
	pid->nr = alloc_pidmap();
	if (pid->nr < 0) {
		free(pid);
		return NULL;
	}
	pthread_mutex_lock(&pidmap_lock);
	cds_hlist_add_head_rcu(&pid->pid_chain, &pid_hash[pid_hashfn(pid->nr)]);
	pthread_mutex_unlock(&pidmap_lock);
	cgt_model_count(&cgt_live.pids, 1);
	return pid;
}

/* get_pid */
void get_pid(struct pid *pid)
{
	refcount_inc(&pid->count, "get_pid on a freed struct pid");
}

/* put_pid */
void put_pid(struct pid *pid)
{
	if (pid && refcount_dec_and_test(&pid->count, "put_pid on a freed struct pid")) {
		free(pid);
		cgt_model_count(&cgt_live.pids, -1);
	}
}

/* delayed_put_pid */
static void delayed_put_pid(struct rcu_head *rhp)
{
	rcu_callback_enter();
	put_pid(container_of(rhp, struct pid, rcu));
}

/*
 * free_pid: unhash now and free the number (free_pidmap), drop the allocation reference
 * after a grace period.
 */
void free_pid(struct pid *pid)
{
	pthread_mutex_lock(&pidmap_lock);
	cds_hlist_del_rcu(&pid->pid_chain);
	if (pid_max)
		pidmap[pid->nr / BITS] &= ~(1UL << (pid->nr % BITS));
	pthread_mutex_unlock(&pidmap_lock);
	call_rcu(&pid->rcu, delayed_put_pid);
}

/* find_vpid: under rcu_read_lock. */
struct pid *find_vpid(int nr)
{
	struct pid *pid;

	/* the _2 form: the older one forms container_of(NULL), which UBSan rightly flags */
	cds_hlist_for_each_entry_rcu_2(pid, &pid_hash[pid_hashfn(nr)], pid_chain)
		if (pid->nr == nr)
			return pid;
	return NULL;
}

/* pid_task: the first task on one of the pid's lists, under rcu_read_lock. */
struct task *pid_task(struct pid *pid, enum pid_type type)
{
	struct cds_hlist_node *first;

	if (!pid)
		return NULL;
	first = rcu_dereference(pid->tasks[type].next);
	return first ? container_of(first, struct task, pids[type].node) : NULL;
}

/* find_task_by_vpid: under rcu_read_lock. */
struct task *find_task_by_vpid(int nr)
{
	return pid_task(find_vpid(nr), PIDTYPE_PID);
}

/* attach_pid: under tasklist_lock held for writing. */
void attach_pid(struct task *task, enum pid_type type, struct pid *pid)
{
	struct pid_link *link = &task->pids[type];

	WRITE_ONCE(link->pid, pid);
	cds_hlist_add_head_rcu(&link->node, &pid->tasks[type]);
}

/* __change_pid: detach, attach the new pid if any, free the old one once no list holds it. */
static void __change_pid(struct task *task, enum pid_type type, struct pid *new)
{
	struct pid_link *link = &task->pids[type];
	struct pid *pid = link->pid;
	int tmp;

	cds_hlist_del_rcu(&link->node);
	WRITE_ONCE(link->pid, new);
	for (tmp = PIDTYPE_MAX; --tmp >= 0; )
		if (pid->tasks[tmp].next)
			return;
	free_pid(pid);
}

/* detach_pid: under tasklist_lock held for writing. */
void detach_pid(struct task *task, enum pid_type type)
{
	__change_pid(task, type, NULL);
}

/* change_pid: de_thread gives the exec-er the leader's pid; both are on its list a while. */
void change_pid(struct task *task, enum pid_type type, struct pid *pid)
{
	__change_pid(task, type, pid);
	attach_pid(task, type, pid);
}

/* hlist_replace_rcu: @new takes @old's place; a reader sees one or the other, never both. */
static void hlist_replace_rcu(struct cds_hlist_node *old, struct cds_hlist_node *new)
{
	struct cds_hlist_node *next = old->next;

	new->next = next;
	new->prev = old->prev;
	rcu_assign_pointer(new->prev->next, new);
	if (next)
		next->prev = new;
}

/*
 * transfer_pid: @new takes @old's place on the pid's list in one step, as the kernel's
 * hlist_replace_rcu does. The kernel leaves old->pids[type].pid set; the model clears it so
 * that its invariants see one task per link.
 */
void transfer_pid(struct task *old, struct task *new, enum pid_type type)
{
	struct pid *pid = old->pids[type].pid;

	WRITE_ONCE(new->pids[type].pid, pid);
	hlist_replace_rcu(&old->pids[type].node, &new->pids[type].node);
	WRITE_ONCE(old->pids[type].pid, NULL);
}
