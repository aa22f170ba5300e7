// SPDX-License-Identifier: GPL-2.0
/*
 * The hang detector's judgement: whether anything along a waiter's chain moved within the
 * stall (a lock taken, a marked point passed, a holder runnable, a wake on its way), so
 * that only a chain that stopped is a hang.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>

#include "hang.h"
#include "../core/rcu.h"
#include "../locks/lock.h"

/*
 * Does @t wait for a lock whose waiters sleep until they are woken? Asked of the locks that
 * live as long as the run alone, as hang_graph.c's writer_first is.
 */
static bool sleeping_lock(const struct cgt_thread *t)
{
	return t->wait_static && (t->wait_kind == CGT_WAIT_READ || t->wait_kind == CGT_WAIT_WRITE) &&
	       ((const struct cgt_lock *)t->wait_obj)->ops->sleeps;
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
const char *hang_cpu_state(const struct cgt_thread *t, char *buf, size_t len)
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

static bool static_lock_wait(const struct cgt_thread *t)
{
	return t->wait_obj && t->wait_static &&
	       (t->wait_kind == CGT_WAIT_READ || t->wait_kind == CGT_WAIT_WRITE);
}

/* Each waiter of a static lock with someone in its way: when that lock was last so. */
void hang_note_in_way(const struct graph *g, uint64_t now)
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
void hang_graph_progress(struct graph *g, uint64_t now, uint64_t stall)
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

/* A run's first look: no lock seen yet, no wait's CPU time kept. */
void hang_judge_reset(void)
{
	nlocks_seen = 0;
	free(spun);
	spun = NULL;
	spun_slots = spun_used = 0;
}
