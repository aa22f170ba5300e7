// SPDX-License-Identifier: GPL-2.0
/*
 * The hang detector's wait-for graph of one look: an edge from each waiter to each thread in
 * its way, through sorted indexes, and the search for a deadlock cycle in it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hang.h"
#include "../locks/lock.h"

#define MAX_EDGES	(1 << 22)	/* past it the graph is cut: unfinished chains move */

struct entry {
	uintptr_t key;			/* a lock, a thread group; 0 for RCU readers */
	uint64_t since;			/* a writer's wait, a reader's section began */
	int idx;
	int write;
};

static int entry_cmp(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->since < y->since ? -1 : x->since > y->since;
}

/* The first entry of @e (sorted) whose key is @key, or @n. */
static int entry_find(const struct entry *e, int n, uintptr_t key)
{
	int lo = 0, hi = n;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (e[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct indexes {
	struct entry *held, *wwait, *rcu, *group;
	int nheld, nwwait, nrcu, ngroup;
};

static void edge(struct graph *g, long *e, int to)
{
	if (*e >= MAX_EDGES) {
		g->cut = true;
		return;
	}
	if (g->to)
		g->to[*e] = to;
	++*e;
}

/*
 * Does the lock @t waits for keep readers out while a writer waits? Asked of the locks that
 * live as long as the run alone: a process's own lock may be gone by the time we look.
 */
static bool writer_first(const struct cgt_thread *t)
{
	return t->wait_static &&
	       ((const struct cgt_lock *)t->wait_obj)->ops->policy == CGT_POLICY_WRITER_FIRST;
}

/* The edges out of waiter @w, written to g->to if it is there, else only counted. */
static void edges_of(struct graph *g, const struct indexes *x, int w, long *e)
{
	const struct cgt_thread *t = &g->v[w];
	uintptr_t obj = (uintptr_t)t->wait_obj;
	int k;

	switch (t->wait_kind) {
	case CGT_WAIT_READ:
	case CGT_WAIT_WRITE:
		for (k = entry_find(x->held, x->nheld, obj); k < x->nheld && x->held[k].key == obj; k++)
			if (x->held[k].idx != w && (t->wait_kind == CGT_WAIT_WRITE || x->held[k].write))
				edge(g, e, x->held[k].idx);
		/*
		 * a reader queues behind a writer that waited before it (one that asked in the
		 * same tick of the coarse clock may have come first); on a writer-first lock,
		 * behind any waiting writer, however late it came (a percpu-rwsem writer's
		 * ->block turns back every reader, those already waiting too)
		 */
		if (t->wait_kind == CGT_WAIT_READ)
			for (k = entry_find(x->wwait, x->nwwait, obj);
			     k < x->nwwait && x->wwait[k].key == obj &&
			     (writer_first(t) || x->wwait[k].since <= t->wait_since_ns); k++)
				edge(g, e, x->wwait[k].idx);
		break;
	case CGT_WAIT_GP:
		for (k = 0; k < x->nrcu && x->rcu[k].since <= t->wait_since_ns; k++)
			if (x->rcu[k].idx != w)
				edge(g, e, x->rcu[k].idx);
		break;
	case CGT_WAIT_GROUP_EXIT:
		for (k = entry_find(x->group, x->ngroup, obj); k < x->ngroup && x->group[k].key == obj;
		     k++)
			if (x->group[k].idx != w)
				edge(g, e, x->group[k].idx);
		break;
	default:
		break;
	}
}

static int indexes_build(struct indexes *x, const struct cgt_thread *v, int n)
{
	size_t room = (size_t)(n ? n : 1);

	memset(x, 0, sizeof(*x));
	x->held = malloc(sizeof(struct entry) * room * CGT_MAX_HELD);
	x->wwait = malloc(sizeof(struct entry) * room);
	x->rcu = malloc(sizeof(struct entry) * room);
	x->group = malloc(sizeof(struct entry) * room * 2);	/* its group, one it releases into */
	if (!x->held || !x->wwait || !x->rcu || !x->group)
		return -1;
	for (int i = 0; i < n; i++) {
		const struct cgt_thread *t = &v[i];

		for (int h = 0; h < t->nheld && h < CGT_MAX_HELD; h++)
			x->held[x->nheld++] = (struct entry){ (uintptr_t)t->held[h].lock, 0, i,
							      t->held[h].write };
		if (t->wait_obj && t->wait_kind == CGT_WAIT_WRITE)
			x->wwait[x->nwwait++] = (struct entry){ (uintptr_t)t->wait_obj,
								t->wait_since_ns, i, 1 };
		if (t->rcu_depth)
			x->rcu[x->nrcu++] = (struct entry){ 0, t->rcu_since_ns, i, 0 };
		if (t->group)
			x->group[x->ngroup++] = (struct entry){ (uintptr_t)t->group, 0, i, 0 };
		/* a thread it linked into a group and has not woken yet waits for it */
		if (t->releasing)
			x->group[x->ngroup++] = (struct entry){ (uintptr_t)t->releasing, 0, i, 0 };
	}
	qsort(x->held, (size_t)x->nheld, sizeof(struct entry), entry_cmp);
	qsort(x->wwait, (size_t)x->nwwait, sizeof(struct entry), entry_cmp);
	qsort(x->rcu, (size_t)x->nrcu, sizeof(struct entry), entry_cmp);
	qsort(x->group, (size_t)x->ngroup, sizeof(struct entry), entry_cmp);
	return 0;
}

static void indexes_free(struct indexes *x)
{
	free(x->held);
	free(x->wwait);
	free(x->rcu);
	free(x->group);
}

void hang_graph_free(struct graph *g)
{
	free(g->first);
	free(g->nout);
	free(g->to);
	free(g->moves);
	memset(g, 0, sizeof(*g));
}

/* Edges counted first, then written: one allocation of the size they need. */
int hang_graph_build(struct graph *g, const struct cgt_thread *v, int n)
{
	size_t room = (size_t)(n ? n : 1);
	struct indexes x;
	long e = 0;
	int ret = -1;

	memset(g, 0, sizeof(*g));
	g->v = v;
	g->n = n;
	g->first = calloc(room, sizeof(int));
	g->nout = calloc(room, sizeof(int));
	g->moves = calloc(room, 1);
	if (indexes_build(&x, v, n) || !g->first || !g->nout || !g->moves)
		goto out;
	for (int w = 0; w < n && !g->cut; w++)
		if (v[w].wait_obj)
			edges_of(g, &x, w, &e);
	g->nedges = e;
	g->to = malloc(sizeof(int) * (size_t)(g->cut ? 1 : e ? e : 1));
	if (!g->to)
		goto out;
	e = 0;
	for (int w = 0; w < n && !g->cut; w++) {
		g->first[w] = (int)e;
		if (v[w].wait_obj)
			edges_of(g, &x, w, &e);
		g->nout[w] = (int)(e - g->first[w]);
	}
	ret = 0;
out:
	indexes_free(&x);
	if (ret)
		hang_graph_free(g);
	return ret;
}

/*
 * Depth-first search from @at for a cycle in the wait-for graph; the hung thread need not be
 * on it (it may wait on a cycle). Fills @path with the cycle and returns its length, or 0.
 */
int hang_find_cycle(const struct graph *g, int at, int *stack, int depth, char *state,
		      int *path)
{
	if (depth >= 32)
		return 0;
	stack[depth] = at;
	state[at] = 1;			/* on the stack */
	for (int k = 0; k < g->nout[at]; k++) {
		int j = g->to[g->first[at] + k];

		if (state[j] == 1) {
			int s = depth, len;

			while (stack[s] != j)
				s--;
			len = depth - s + 1;
			memcpy(path, &stack[s], sizeof(int) * (size_t)len);
			return len;
		}
		if (!state[j]) {
			int len = hang_find_cycle(g, j, stack, depth + 1, state, path);

			if (len)
				return len;
		}
	}
	state[at] = 2;			/* done: no cycle through here */
	return 0;
}
