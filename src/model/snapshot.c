// SPDX-License-Identifier: GPL-2.0
/*
 * The linkage near a failure, copied out of the live model (snapshot.h): what the article's
 * pictures draw by hand. Everything is read as the model's lockless readers read it, under
 * RCU (liburcu's own read lock: no sync hook, no marked point, so a controlled run's
 * schedule does not change), and every list is followed a bounded number of steps, since
 * a free-running model goes on changing while it is read. The reads are ignored by TSan:
 * they race with the model by design, and are never used to decide anything.
 */
#include <stdio.h>
#include <string.h>

#include "snapshot.h"

#ifdef CGT_TSAN
void __tsan_ignore_thread_begin(void);
void __tsan_ignore_thread_end(void);
#else
static inline void __tsan_ignore_thread_begin(void) {}
static inline void __tsan_ignore_thread_end(void) {}
#endif

static int cset_index(struct cgt_linkage *out, const struct css_set *cset)
{
	struct cgt_snap_cset *c;

	if (!cset)
		return -1;
	for (int i = 0; i < out->ncsets; i++)
		if (out->csets[i].key == cset)
			return i;
	if (out->ncsets == CGT_SNAP_CSETS)
		return -1;
	c = &out->csets[out->ncsets];
	c->key = cset;
	c->refcount = READ_ONCE(cset->refcount);
	for (int h = 0; h < CGT_NR_HIERARCHIES; h++) {
		const struct cgroup *cg = READ_ONCE(cset->subsys[h]);

		snprintf(c->cgroups[h], sizeof(c->cgroups[h]), "%s", cg ? cg->name : "?");
	}
	return out->ncsets++;
}

static void snap_task(struct cgt_linkage *out, struct task *p, struct cgt_snap_task *s)
{
	struct task *leader = READ_ONCE(p->group_leader);

	s->tid = READ_ONCE(p->pid);
	s->tgid = leader ? READ_ONCE(leader->pid) : 0;
	s->leader = leader == p;
	s->exiting = READ_ONCE(p->flags) & PF_EXITING;
	s->hashed = pid_alive(p);
	s->exit_state = READ_ONCE(p->exit_state);
	s->cset = cset_index(out, rcu_dereference(p->cgroups));
}

/* @leader's group: its ring, its thread_head list, and the css_sets its threads are in. */
static void snap_group(struct cgt_linkage *out, struct task *leader)
{
	struct cgt_snap_group *g;
	struct signal_struct *sig = READ_ONCE(leader->signal);
	struct task *t = leader;
	struct cds_list_head *pos;

	for (int i = 0; i < out->ngroups; i++)
		if (out->groups[i].tgid == READ_ONCE(leader->pid))
			return;
	if (out->ngroups == CGT_SNAP_GROUPS || !sig)
		return;
	g = &out->groups[out->ngroups++];
	g->tgid = READ_ONCE(leader->pid);
	g->nr_threads = READ_ONCE(sig->nr_threads);
	g->live = READ_ONCE(sig->live);
	g->group_exit = (READ_ONCE(sig->flags) & SIGNAL_GROUP_EXIT) ||
			READ_ONCE(sig->group_exit_task);
	do {
		snap_task(out, t, &g->ring[g->nring++]);
		t = next_thread(t);
	} while (t != leader && g->nring < CGT_SNAP_RING);
	g->ring_closed = t == leader;
	for (pos = rcu_dereference(sig->thread_head.next);
	     pos != &sig->thread_head && g->nhead < CGT_SNAP_RING; pos = rcu_dereference(pos->next))
		g->head[g->nhead++] = READ_ONCE(container_of(pos, struct task, thread_node)->pid);
}

static void snap_pid(struct cgt_linkage *out, int nr)
{
	struct cgt_snap_pid *s;
	struct cds_hlist_node *n;
	struct pid *pid;

	for (int i = 0; i < out->npids; i++)
		if (out->pids[i].nr == nr)
			return;
	if (nr <= 0 || out->npids == CGT_SNAP_PIDS)
		return;
	s = &out->pids[out->npids++];
	s->nr = nr;
	pid = find_vpid(nr);
	s->found = pid != NULL;
	if (!pid)
		return;
	for (n = rcu_dereference(pid->tasks[PIDTYPE_PID].next); n && s->ntasks < 3;
	     n = rcu_dereference(n->next))
		s->tasks[s->ntasks++] = READ_ONCE(container_of(n, struct task,
							       pids[PIDTYPE_PID].node)->pid);
}

/* Each css_set's tasks: its own list when nothing moves, else the drawn tasks in it. */
static void snap_cset_tasks(struct cgt_linkage *out)
{
	for (int i = 0; i < out->ncsets; i++) {
		struct cgt_snap_cset *c = &out->csets[i];
		struct css_set *cset = (struct css_set *)c->key;
		struct cds_list_head *pos;

		c->from_list = out->still;
		if (out->still) {
			for (pos = cset->tasks.next; pos != &cset->tasks; pos = pos->next) {
				if (c->ntasks == CGT_SNAP_CSET_TASKS) {
					c->more = true;
					break;
				}
				c->tasks[c->ntasks++] = container_of(pos, struct task, cg_list)->pid;
			}
			continue;
		}
		for (int k = 0; k < out->ngroups; k++)
			for (int j = 0; j < out->groups[k].nring; j++) {
				if (out->groups[k].ring[j].cset != i)
					continue;
				if (c->ntasks == CGT_SNAP_CSET_TASKS)
					c->more = true;
				else
					c->tasks[c->ntasks++] = out->groups[k].ring[j].tid;
			}
	}
}

/* The path next_thread() takes from the walk's start, until it comes round to a tid seen. */
static void snap_walk(struct cgt_linkage *out, const struct cgt_walk *w)
{
	struct cgt_snap_walk *s = &out->walk;
	struct task *start = READ_ONCE(w->start), *cur = READ_ONCE(w->cur), *t;

	if (!start)
		return;
	s->valid = true;
	s->iter = cgt_iter_name(w->iter);
	s->steps = READ_ONCE(w->steps);
	s->cur = cur ? READ_ONCE(cur->pid) : 0;
	snap_task(out, start, &s->start);
	t = start;
	while (s->npath < CGT_SNAP_RING) {
		int tid = READ_ONCE(t->pid);

		for (int i = 0; i < s->npath; i++)
			if (s->path[i].tid == tid)
				s->loops_to = tid;
		if (s->loops_to)
			break;
		snap_task(out, t, &s->path[s->npath++]);
		t = next_thread(t);
	}
	s->start_on_ring = s->loops_to == s->start.tid;
	if (cur)
		snap_group(out, READ_ONCE(cur->group_leader));
	snap_group(out, READ_ONCE(start->group_leader));
	snap_pid(out, s->start.tid);
}

void cgt_linkage_snapshot(struct cgt_linkage *out, const int *tids, int ntids,
			  const struct cgt_walk *walk, bool still)
{
	memset(out, 0, sizeof(*out));
	out->taken = true;
	out->still = still;
	__tsan_ignore_thread_begin();
	urcu_memb_read_lock();
	if (walk)
		snap_walk(out, walk);
	for (int i = 0; i < ntids; i++) {
		struct task *t = find_task_by_vpid(tids[i]);

		snap_pid(out, tids[i]);
		if (t && READ_ONCE(t->group_leader))
			snap_group(out, READ_ONCE(t->group_leader));
	}
	for (int k = 0; k < out->ngroups; k++)
		snap_pid(out, out->groups[k].tgid);
	snap_cset_tasks(out);
	urcu_memb_read_unlock();
	__tsan_ignore_thread_end();
}
