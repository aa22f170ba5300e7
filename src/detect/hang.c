// SPDX-License-Identifier: GPL-2.0
/*
 * hang: a wait-for chain that stopped, reported as the kernel's hung-task report would be,
 * with the chain (who waits for whom, down to the holders at its end and what they are
 * doing), the wait-for picture over every model lock and the RCU grace period, and the
 * deadlock cycle when there is one. A free-running run judges by progress, not time alone:
 * a thread that has waited past --stall is hung only if nothing along its chain has moved
 * within the stall (no lock on it was taken, no thread on it passed a marked point, none at
 * its end is runnable). A long queue that keeps moving is a convoy: counted per lock class,
 * never a failure (the kernel's hung_task waits 120 s for the same reason). A controlled run
 * reports the moment no model thread can run (stuck).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "detect.h"
#include "../core/rcu.h"
#include "../locks/lock.h"

#define MAX_EDGES	(1 << 22)	/* past it the graph is cut: unfinished chains move */
#define CHAIN_LINES	24		/* threads of a chain named in a report */

static double stall_s;

/*
 * The wait-for graph of one look: an edge from each waiter to each thread in its way, found
 * through sorted indexes (of held locks, waiting writers, RCU readers and thread groups) so
 * that a look at 30,000 threads stays cheap; the edges of one waiter are adjacent in to[].
 */
struct graph {
	const struct cgt_thread *v;
	int n;
	int *first, *nout;		/* per thread: its edges in to[] */
	int *to;
	long nedges;
	bool cut;			/* MAX_EDGES reached: every chain counts as moving */
	char *moves;			/* its chain moved within the stall: MOVES, STOPPED, or
					 * 0 not yet looked at (a look at /proc costs) */
};

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

/* Does @t wait for a lock whose waiters sleep until they are woken? (static locks, as above) */
static bool sleeping_lock(const struct cgt_thread *t)
{
	return t->wait_static && (t->wait_kind == CGT_WAIT_READ || t->wait_kind == CGT_WAIT_WRITE) &&
	       ((const struct cgt_lock *)t->wait_obj)->ops->sleeps;
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

static void graph_free(struct graph *g)
{
	free(g->first);
	free(g->nout);
	free(g->to);
	free(g->moves);
	memset(g, 0, sizeof(*g));
}

/* Edges counted first, then written: one allocation of the size they need. */
static int graph_build(struct graph *g, const struct cgt_thread *v, int n)
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
		graph_free(g);
	return ret;
}

/*
 * When each static lock was last seen taken: a lock that moved once after a thread began to
 * wait (its writer got in, then deadlocked) has not moved since. And when a waiter of it last
 * had someone in its way. Looked at by the watchdog alone; a lock seen for the first time
 * counts as just moved, and as never in anyone's way.
 */
#define MAX_LOCKS_SEEN	32
static struct {
	const void *lock;
	long acquisitions;
	uint64_t changed_ns;
	uint64_t in_way_ns;
	uint64_t spun_look;		/* the look that asked whether its waiters all ran */
	bool spun;			/* and the answer */
} locks_seen[MAX_LOCKS_SEEN];
static int nlocks_seen;

/* @lock's entry, made when first seen; NULL if the table is full. */
static int lock_seen(const void *lock, uint64_t now)
{
	long acq = cgt_lock_acquisitions(lock);
	int k;

	for (k = 0; k < nlocks_seen && locks_seen[k].lock != lock; k++)
		;
	if (k == nlocks_seen) {
		if (k == MAX_LOCKS_SEEN)
			return -1;
		nlocks_seen++;
		locks_seen[k].lock = lock;
		locks_seen[k].acquisitions = acq;
		locks_seen[k].changed_ns = now;
		locks_seen[k].in_way_ns = 0;
		locks_seen[k].spun_look = 0;
	} else if (locks_seen[k].acquisitions != acq) {
		locks_seen[k].acquisitions = acq;
		locks_seen[k].changed_ns = now;
	}
	return k;
}

static uint64_t lock_changed(const void *lock, uint64_t now)
{
	int k = lock_seen(lock, now);

	return k < 0 ? now : locks_seen[k].changed_ns;
}

/* Has the static lock @t waits for been taken since @t began to wait, and within the stall? */
static bool lock_moved(const struct cgt_thread *t, uint64_t now, uint64_t stall)
{
	if (!t->wait_static || (t->wait_kind != CGT_WAIT_READ && t->wait_kind != CGT_WAIT_WRITE))
		return false;
	return cgt_lock_acquisitions(t->wait_obj) != t->wait_acq_seen &&
	       cgt_age_ns(now, lock_changed(t->wait_obj, now)) <= stall;
}

/* A sleep the thread chose (--off-cpu's holder, perturbation), not a wait for another. */
static bool sleep_call(long nr)
{
	return nr == SYS_nanosleep || nr == SYS_clock_nanosleep;
}

/*
 * A thread asleep with no model wait of its own (a model wait always names what it waits
 * for) is off the CPU on purpose, in a sleep call, or blocked below the model: a lock of
 * libc or liburcu, the kernel's mmap_lock for a new thread's stack. At 30,000 threads those
 * take seconds: the machine is slow, the model has not stopped (the run's hard deadline
 * bounds the machine).
 */
static bool below_the_model(const struct cgt_thread *t)
{
	long nr;

	if (t->wait_obj)
		return false;
	nr = cgt_thread_syscall(t->os_tid);
	return nr >= 0 && !sleep_call(nr);
}

/*
 * What a thread shows of progress on its own: a marked point passed within the stall (a
 * thread that began its wait then, or steps a walk while it holds a lock), a lock it waits
 * for that others keep taking, a CPU it is on or waits for (a loaded machine: slow, not
 * stuck; a thread released and not yet run waits for its first), or the driver holding it
 * still. A waiter's own chain is judged by what it waits
 * for: its wait began long ago, or it would not be asked about.
 */
static bool thread_moves(const struct cgt_thread *t, uint64_t now, uint64_t stall)
{
	if (t->parked || t->starting || lock_moved(t, now, stall))
		return true;
	if (cgt_age_ns(now, t->heartbeat_ns) <= stall)
		return true;
	if (READ_ONCE(t->off_cpu))
		return false;
	/* a grace period's waiter moves while grace periods end: its own is queued behind */
	if (t->wait_kind == CGT_WAIT_GP && cgt_age_ns(now, cgt_rcu_gp_ended_ns()) <= stall)
		return true;
	/*
	 * A spinning waiter is runnable by design: only its lock can show it moves. A group
	 * exit or a sleeping lock is waited for asleep: runnable, the waiter was woken (its
	 * group gone, or the lock handed to it or free to try again) and waits for a CPU.
	 */
	if (t->wait_obj && t->wait_kind != CGT_WAIT_GROUP_EXIT && !sleeping_lock(t))
		return false;
	return cgt_thread_runnable(t->os_tid) || below_the_model(t);
}

/* As the kernel shows a thread: on or waiting for a CPU, asleep and in which call; or not run yet. */
static const char *cpu_state(const struct cgt_thread *t, char *buf, size_t len)
{
	long nr;

	if (t->starting)
		return "starting (released, not yet run)";
	if (READ_ONCE(t->off_cpu))
		return "off the CPU (--off-cpu)";
	if (cgt_thread_runnable(t->os_tid))
		return "runnable";
	nr = cgt_thread_syscall(t->os_tid);
	if (nr == SYS_futex)
		return "asleep in futex";
	if (sleep_call(nr))
		return "asleep in nanosleep";
	if (nr < 0)
		return "asleep";
	snprintf(buf, len, "asleep in system call %ld", nr);
	return buf;
}

enum { MOVES = 1, STOPPED };

static bool static_lock_wait(const struct cgt_thread *t)
{
	return t->wait_obj && t->wait_static &&
	       (t->wait_kind == CGT_WAIT_READ || t->wait_kind == CGT_WAIT_WRITE);
}

/* Each waiter of a static lock with someone in its way: when that lock was last so. */
static void note_in_way(const struct graph *g, uint64_t now)
{
	for (int w = 0; w < g->n; w++) {
		int k;

		if (g->nout[w] && static_lock_wait(&g->v[w]) &&
		    (k = lock_seen(g->v[w].wait_obj, now)) >= 0)
			locks_seen[k].in_way_ns = now;
	}
}

/*
 * A waiter with nobody in its way whose lock had someone in a waiter's way within the stall
 * was just let go: its holder left, and the wake is on its way to a machine too loaded to
 * have run it yet (a 3.14 run's cgroup_mutex, held for seconds by a writer the reader-first
 * css_set_lock kept out, had 16 sleepers and no holder for a moment, and was reported).
 * A lock let go with sleepers that stays free for a whole stall is a lost wake-up still.
 */
static bool just_let_go(const struct graph *g, int i, uint64_t now, uint64_t stall)
{
	const struct cgt_thread *t = &g->v[i];
	int k;

	if (g->nout[i] || !static_lock_wait(t) || (k = lock_seen(t->wait_obj, now)) < 0)
		return false;
	return locks_seen[k].in_way_ns && cgt_age_ns(now, locks_seen[k].in_way_ns) <= stall;
}

/*
 * A spinning lock with nobody recorded in its waiters' way may still be held: our spinning
 * variants touch the lock word before the harness records a holder (a writer's cmpxchg, a
 * reader's count, even one it takes back because a writer is in), and a thread preempted
 * there on a machine loaded many times over may go seconds without a CPU while the yielding
 * spinners, cheap in CFS's books, get it (a night's 3.15 cell, four runs of 1,500 threads
 * beside three burners: 600 writers of tasklist_lock stopped for 2 s, nobody holding it).
 * The kernel's spinners, preemption off, never leave a word so. Such a lock is left locked
 * only once each of its waiters has been on a CPU since the watch first saw it wait, or
 * sleeps in the lock's own futex wait, so that whoever touched the word has had a turn:
 * each waiter's time on a CPU is kept then, per wait, in a table by thread id that is
 * cleared when half full.
 */
struct spun {
	int id;				/* harness thread id, 0: empty */
	uint64_t since;			/* its wait's start */
	long long cpu_ns;		/* its time on a CPU when first seen waiting */
};
#define SPUN_MAX	(1u << 18)
static struct spun *spun;
static size_t spun_slots, spun_used;

/*
 * Has @t been on a CPU since the watch first saw this wait of it (first seen: no), or is it
 * asleep in the variant's own futex wait (a ticket's sleeper: it waits for a wake, and one
 * lost is a hang)?
 */
static bool spun_ran(const struct cgt_thread *t)
{
	long long cpu = cgt_thread_cpu_ns(t->os_tid);
	size_t h;

	if (cpu < 0)
		return true;		/* it cannot be told: as before */
	if (spun_used * 2 >= spun_slots) {	/* half full: start again, larger up to 2^18 */
		size_t want = !spun_slots ? 4096 : spun_slots < SPUN_MAX ? 2 * spun_slots :
			      spun_slots;
		struct spun *fresh = calloc(want, sizeof(*fresh));

		if (!fresh)
			return true;
		free(spun);
		spun = fresh;
		spun_slots = want;
		spun_used = 0;
	}
	for (h = (size_t)t->id * 2654435761u % spun_slots; spun[h].id && spun[h].id != t->id;
	     h = (h + 1) % spun_slots)
		;
	if (spun[h].id == t->id && spun[h].since == t->wait_since_ns) {
		if (cpu > spun[h].cpu_ns)
			return true;
	} else {
		if (!spun[h].id)
			spun_used++;
		spun[h] = (struct spun){ t->id, t->wait_since_ns, cpu };
	}
	/* not preempted: it waits for a wake */
	return cgt_thread_syscall(t->os_tid) == SYS_futex;
}

static bool spinning_lock_wait(const struct cgt_thread *t)
{
	return static_lock_wait(t) && !sleeping_lock(t);
}

/*
 * A waiter of a spinning lock, nobody in its way, is stopped only if every waiter of that
 * lock has run since first seen waiting (asked once per lock per look).
 */
static bool spin_unproven(const struct graph *g, int i, uint64_t now)
{
	const void *lock = g->v[i].wait_obj;
	bool all = true;
	int k;

	if (g->nout[i] || !spinning_lock_wait(&g->v[i]) || (k = lock_seen(lock, now)) < 0)
		return false;
	if (locks_seen[k].spun_look == now)
		return !locks_seen[k].spun;
	for (int w = 0; w < g->n; w++)
		if (g->v[w].wait_obj == lock && spinning_lock_wait(&g->v[w]))
			all &= spun_ran(&g->v[w]);
	locks_seen[k].spun_look = now;
	locks_seen[k].spun = all;
	return !all;
}

static bool moves(struct graph *g, int i, uint64_t now, uint64_t stall)
{
	if (!g->moves[i])
		g->moves[i] = g->cut || thread_moves(&g->v[i], now, stall) ||
			      just_let_go(g, i, now, stall) || spin_unproven(g, i, now) ?
			      MOVES : STOPPED;
	return g->moves[i] == MOVES;
}

/*
 * Every waiter's verdict: it moves, or some thread along its chain does. Backwards over the
 * edges until nothing changes (a chain is a few threads long: a few passes); a thread in
 * nobody's way is looked at only once some waiter's chain reaches it.
 */
static void graph_progress(struct graph *g, uint64_t now, uint64_t stall)
{
	bool changed = true;

	for (int pass = 0; changed && pass < g->n; pass++) {
		changed = false;
		for (int w = 0; w < g->n; w++) {
			if (!g->v[w].wait_obj || moves(g, w, now, stall))
				continue;
			for (int k = 0; k < g->nout[w]; k++)
				if (moves(g, g->to[g->first[w] + k], now, stall)) {
					g->moves[w] = MOVES;
					changed = true;
					break;
				}
		}
	}
}

/*
 * Depth-first search from @at for a cycle in the wait-for graph; the hung thread need not be
 * on it (it may wait on a cycle). Fills @path with the cycle and returns its length, or 0.
 */
static int find_cycle(const struct graph *g, int at, int *stack, int depth, char *state,
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
			int len = find_cycle(g, j, stack, depth + 1, state, path);

			if (len)
				return len;
		}
	}
	state[at] = 2;			/* done: no cycle through here */
	return 0;
}

#define put(...) do { if (off < len) off += (size_t)snprintf(buf + off, len - off, __VA_ARGS__); } while (0)

static size_t describe(char *buf, size_t len, const struct cgt_thread *t, uint64_t now)
{
	size_t off = 0;

	put("  thread %d (%s", t->id, cgt_role_name(t->role));
	if (t->pid)
		put(", tid %d", t->pid);
	put(")");
	if (t->rcu_depth)
		put(" in rcu_read_lock for %.2f s;", (double)cgt_age_ns(now, t->rcu_since_ns) / 1e9);
	for (int i = 0; i < t->nheld && i < CGT_MAX_HELD; i++)
		put(" holds %s (%s) for %.2f s;", t->held[i].name,
		    t->held[i].write ? "write" : "read", (double)cgt_age_ns(now, t->held[i].since_ns) / 1e9);
	if (t->wait_obj)
		put(" waits for %s (%s) for %.2f s", t->wait_name, cgt_wait_name(t->wait_kind),
		    (double)cgt_age_ns(now, t->wait_since_ns) / 1e9);
	if (t->walk_active)
		put(" walking (%s) from tid %d, %ld steps", t->walk_fn, t->walk_start_pid,
		    t->walk_steps);
	put("\n");
	return off;
}

/* Only the threads that wait, hold a model lock or read under RCU are in the picture. */
static size_t picture(char *buf, size_t len, const struct cgt_thread *v, int n, uint64_t now)
{
	size_t off = 0;

	for (int i = 0; i < n && off < len; i++) {
		const struct cgt_thread *t = &v[i];

		if (t->wait_obj || t->nheld || t->rcu_depth)
			off += describe(buf + off, len - off, t, now);
	}
	return off;
}

/*
 * The chain from @w, breadth first: each waiter and what stands in its way, then the
 * threads at its end (in nobody's way but their own work) and what each is doing, or that
 * nobody holds what the last waiters wait for (a lost wakeup, or a lock left locked).
 */
static size_t chain(char *buf, size_t len, const struct graph *g, int w, bool cycle,
		    uint64_t now)
{
	int *queue = malloc(sizeof(int) * (size_t)g->n);
	char *seen = calloc((size_t)g->n, 1);
	int head = 0, tail = 0, ends = 0, orphans = 0;
	char state[48];
	size_t off = 0;

	if (!queue || !seen)
		goto out;
	queue[tail++] = w;
	seen[w] = 1;
	put("wait-for chain (each waiter, then who is in its way):\n");
	while (head < tail) {
		int u = queue[head++];
		const struct cgt_thread *t = &g->v[u];

		if (!t->wait_obj)
			continue;
		if (head <= CHAIN_LINES) {
			put("  thread %d waits for %s (%s) for %.2f s:", t->id, t->wait_name,
			    cgt_wait_name(t->wait_kind), (double)cgt_age_ns(now, t->wait_since_ns) / 1e9);
			if (!g->nout[u])
				put(" nobody in its way holds it, and it is %s",
				    cpu_state(t, state, sizeof(state)));
		}
		orphans += !g->nout[u];
		for (int k = 0; k < g->nout[u]; k++) {
			int h = g->to[g->first[u] + k];

			if (head <= CHAIN_LINES && k < 8)
				put(" thread %d", g->v[h].id);
			if (!seen[h] && tail < g->n) {
				seen[h] = 1;
				queue[tail++] = h;
			}
		}
		if (head <= CHAIN_LINES)
			put("%s\n", g->nout[u] > 8 ? " ..." : "");
	}
	put("at its end:\n");
	for (int k = 0; k < tail; k++) {
		const struct cgt_thread *t = &g->v[queue[k]];

		if (t->wait_obj || ends++ >= CHAIN_LINES)
			continue;
		off += describe(buf + off, off < len ? len - off : 0, t, now);
		put("    last marked point %.2f s ago; %s\n",
		    (double)cgt_age_ns(now, t->heartbeat_ns) / 1e9, cpu_state(t, state, sizeof(state)));
	}
	if (!ends && orphans)
		put("  no thread holds what the chain waits for (%d waiter(s) with nobody in the way)\n",
		    orphans);
	else if (!ends && cycle)
		put("  none: the chain closes on itself (the deadlock cycle below)\n");
out:
	free(queue);
	free(seen);
	return off;
}
#undef put

/* @blocked_step: a controlled run where no thread can run, at this decision; else -1. */
static void report_hang(const struct graph *g, int i, uint64_t now, long blocked_step)
{
	const struct cgt_thread *v = g->v, *t = &v[i];
	char *state = calloc((size_t)g->n, 1);
	int stack[32], path[32], cycle[32], len = 0;
	size_t off = 0, cap = 16384;
	char *ev = malloc(cap);

	if (!ev || !state)
		goto out;
	len = find_cycle(g, i, stack, 0, state, path);
	if (blocked_step >= 0)
		off += (size_t)snprintf(ev + off, cap - off,
					"INFO: at decision %ld no model thread can run; thread %d (%s, tid %d)\n"
					"waits for %s (%s)\n\n", blocked_step,
					t->id, cgt_role_name(t->role), t->pid, t->wait_name,
					cgt_wait_name(t->wait_kind));
	else
		off += (size_t)snprintf(ev + off, cap - off,
					"INFO: thread %d (%s, tid %d) blocked for more than %g seconds,\n"
					"waiting for %s (%s), and nothing along its wait-for chain moved\n\n",
					t->id, cgt_role_name(t->role), t->pid, stall_s, t->wait_name,
					cgt_wait_name(t->wait_kind));
	off += chain(ev + off, cap - off, g, i, len > 0, now);
	if (off < cap)
		off += (size_t)snprintf(ev + off, cap - off, "\nwait-for picture:\n");
	off += picture(ev + off, off < cap ? cap - off : 0, v, g->n, now);
	if (len && off < cap) {
		off += (size_t)snprintf(ev + off, cap - off, "\n" CGT_HANG_CYCLE);
		for (int k = 0; k < len && off < cap; k++)
			off += (size_t)snprintf(ev + off, cap - off, " thread %d ->", v[path[k]].id);
		if (off < cap)
			off += (size_t)snprintf(ev + off, cap - off, " thread %d\n", v[path[0]].id);
		for (int k = 0; k < len && off < cap; k++) {
			const struct cgt_thread *a = &v[path[k]], *b = &v[path[(k + 1) % len]];

			if (a->wait_kind == CGT_WAIT_GP)
				off += (size_t)snprintf(ev + off, cap - off,
					"  thread %d waits for an RCU grace period, held up by thread %d inside rcu_read_lock\n",
					a->id, b->id);
			else
				off += (size_t)snprintf(ev + off, cap - off,
					"  thread %d waits for %s (%s), %s thread %d\n", a->id,
					a->wait_name, cgt_wait_name(a->wait_kind),
					b->wait_obj == a->wait_obj ? "queued behind the write of" :
					"held by", b->id);
		}
	}
	/* the cycle's threads, as data: the report's picture and timeline are theirs */
	for (int k = 0; k < len; k++)
		cycle[k] = v[path[k]].id;
	if (blocked_step >= 0)
		cgt_fail_involving(CGT_DET_HANG, t->id, cycle, len, ev,
				   "no thread can run: thread %d (%s, tid %d) waits for %s (%s)%s",
				   t->id, cgt_role_name(t->role), t->pid, t->wait_name,
				   cgt_wait_name(t->wait_kind), len ? "; deadlock cycle found" : "");
	else
		cgt_fail_involving(CGT_DET_HANG, t->id, cycle, len, ev,
				   "thread %d (%s, tid %d) blocked %.1f s waiting for %s (%s)%s",
				   t->id, cgt_role_name(t->role), t->pid,
				   (double)cgt_age_ns(now, t->wait_since_ns) / 1e9,
				   t->wait_name, cgt_wait_name(t->wait_kind),
				   len ? "; deadlock cycle found" : "");
out:
	free(state);
	free(ev);
}

static void hang_stuck(long step)
{
	struct cgt_thread *v = NULL;
	struct graph g;
	int cap = 0, n, first = -1;

	n = cgt_threads_snapshot(&v, &cap);
	if (n < 0 || graph_build(&g, v, n)) {
		cgt_fail(CGT_DET_HANG, 0, NULL, "at decision %ld no model thread can run", step);
		free(v);
		return;
	}
	/* the lowest thread number among the waiters: the same one in every run */
	for (int i = 0; i < n; i++)
		if (v[i].wait_obj && !v[i].parked &&
		    (first < 0 || v[i].sched_id < v[first].sched_id))
			first = i;
	if (first >= 0)
		report_hang(&g, first, cgt_clock_ns(), step);
	else
		cgt_fail(CGT_DET_HANG, 0, NULL, "at decision %ld no model thread can run", step);
	graph_free(&g);
	free(v);
}

/* Threads waiting per lock class in this look, and those past the stall in a moving queue. */
static void note_queues(const struct graph *g, uint64_t now, uint64_t stall)
{
	enum { MAX_NAMES = 32 };
	const char *name[MAX_NAMES];
	int waiters[MAX_NAMES] = { 0 }, convoy[MAX_NAMES] = { 0 }, nnames = 0;

	for (int i = 0; i < g->n; i++) {
		const struct cgt_thread *t = &g->v[i];
		int k;

		if (!t->wait_obj || (t->wait_kind != CGT_WAIT_READ && t->wait_kind != CGT_WAIT_WRITE))
			continue;
		for (k = 0; k < nnames && name[k] != t->wait_name; k++)
			;
		if (k == nnames) {
			if (nnames == MAX_NAMES)
				continue;
			name[nnames++] = t->wait_name;
		}
		waiters[k]++;
		if (cgt_age_ns(now, t->wait_since_ns) > stall && g->moves[i] == MOVES)
			convoy[k]++;
	}
	for (int k = 0; k < nnames; k++)
		cgt_lock_class_note_queue(name[k], waiters[k], convoy[k]);
}

/* Does @w's chain reach a wait already reported: the same episode, grown longer? */
static bool reaches_reported(const struct graph *g, int w)
{
	int *queue = malloc(sizeof(int) * (size_t)g->n);
	char *seen = calloc((size_t)g->n, 1);
	int head = 0, tail = 0;
	bool found = false;

	if (!queue || !seen)
		goto out;
	queue[tail++] = w;
	seen[w] = 1;
	while (head < tail && !found) {
		int u = queue[head++];

		found = u != w && g->v[u].wait_obj && (g->v[u].wait_reported & CGT_REPORTED_HANG);
		for (int k = 0; k < g->nout[u]; k++) {
			int h = g->to[g->first[u] + k];

			if (!seen[h]) {
				seen[h] = 1;
				queue[tail++] = h;
			}
		}
	}
out:
	free(queue);
	free(seen);
	return found;
}

/* A waiter past the stall, not yet reported, whose chain stopped: a hang, if the copy holds. */
static bool stopped_candidate(const struct graph *g, int i, uint64_t now, uint64_t stall)
{
	const struct cgt_thread *t = &g->v[i];

	return t->wait_obj && !t->parked && !(t->wait_reported & CGT_REPORTED_HANG) &&
	       cgt_age_ns(now, t->wait_since_ns) > stall && g->moves[i] != MOVES;
}

/*
 * A chain judged stopped on the copy is judged again on the live threads: one that moved
 * since it was copied (woken, run, and asleep in its next wait by the time /proc was read)
 * moves, and so does every chain through it. Only when some chain stopped: one pass over
 * the registry.
 */
static void recheck_stopped(struct graph *g, uint64_t now, uint64_t stall)
{
	char *moved;
	int i;

	for (i = 0; i < g->n && !stopped_candidate(g, i, now, stall); i++)
		;
	if (i == g->n || !(moved = malloc((size_t)g->n)))
		return;
	if (!cgt_threads_moved(g->v, g->n, moved)) {
		for (i = 0; i < g->n; i++)
			if (moved[i])
				g->moves[i] = MOVES;
		graph_progress(g, now, stall);
	}
	free(moved);
}

/*
 * One report per episode: every thread blocked past the stall with nothing moving along its
 * chain is in its picture, and only the first is reported; each is marked so that it is not
 * reported again for the same wait, and a waiter that joins a reported chain later (it began
 * to wait a moment after) is marked without a report of its own.
 */
static void hang_watch(const struct cgt_thread *v, int n, uint64_t now)
{
	uint64_t stall = (uint64_t)(stall_s * 1e9);
	struct graph g;
	int hung = -1;
	bool any = false;

	for (int i = 0; i < n && !any; i++)
		any = v[i].wait_obj != NULL;
	if (!any || graph_build(&g, v, n))
		return;
	note_in_way(&g, now);
	graph_progress(&g, now, stall);
	recheck_stopped(&g, now, stall);
	note_queues(&g, now, stall);
	for (int i = 0; i < n; i++) {
		const struct cgt_thread *t = &v[i];

		if (!stopped_candidate(&g, i, now, stall))
			continue;
		cgt_thread_mark_wait(t->id, t->wait_since_ns, CGT_REPORTED_HANG);
		if (hung < 0 && !reaches_reported(&g, i))
			hung = i;
	}
	if (hung >= 0)
		report_hang(&g, hung, now, -1);
	graph_free(&g);
}

/* Someone never came to park: stuck in the model, though perhaps not in any wait we see. */
static void hang_no_rest(double timeout)
{
	cgt_fail(CGT_DET_HANG, cgt_self ? cgt_self->id : 0, NULL,
		 "the model did not come to rest within %gs for the final check", timeout);
}

static int hang_start(const struct cgt_detect_config *cfg)
{
	stall_s = cfg->stall;
	nlocks_seen = 0;
	free(spun);
	spun = NULL;
	spun_slots = spun_used = 0;
	return 0;
}

const struct cgt_detector_ops hang_detector = {
	.id		= CGT_DET_HANG,
	.start		= hang_start,
	.watch		= hang_watch,
	.stuck		= hang_stuck,
	.no_rest	= hang_no_rest,
	.kind		= cgt_hang_kind,
};
