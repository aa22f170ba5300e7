/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the harness knows of each of its threads, kept by the thread itself and read by the
 * detectors: its role and model tid, a heartbeat, the lock or grace period it waits for,
 * the locks it holds (as lockdep's held_locks), its RCU nesting, its current walk, and a ring
 * of its last events (the story a report tells), and its coverage counts. Fields read by
 * other threads are atomics.
 */
#ifndef CGT_THREAD_H
#define CGT_THREAD_H

#include <stdbool.h>
#include <stdint.h>

#include "../base/clock.h"
#include "../base/compiler.h"
#include "coverage.h"
#include "point.h"

enum cgt_role { CGT_ROLE_DRIVER, CGT_ROLE_ACTOR, CGT_ROLE_WALKER, CGT_ROLE_WATCHDOG };

enum cgt_wait_kind {
	CGT_WAIT_NONE,
	CGT_WAIT_READ,		/* a lock, for reading */
	CGT_WAIT_WRITE,		/* a lock, for writing */
	CGT_WAIT_GP,		/* an RCU grace period (synchronize_rcu) */
	CGT_WAIT_GROUP_EXIT,	/* de_thread: the rest of the group to go */
};

/* Which detectors have reported a thread's current wait: one report per wait each. */
enum {
	CGT_REPORTED_HANG	= 1 << 0,
	CGT_REPORTED_STARVED	= 1 << 1,
};

#define CGT_MAX_HELD	8
#define CGT_RING_SIZE	128	/* a power of two: enough for the window before a failure */

struct cgt_event {
	uint64_t ns;			/* since the run started; a decision number if controlled */
	uint16_t point;			/* enum cgt_point_id */
	int16_t side;			/* lock side, or -1 */
	int32_t pid;			/* the task concerned, 0 if none */
	const char *name;		/* static: a lock's name, or NULL */
};

struct cgt_held {
	const void *lock;
	const char *name;
	int write;
	uint64_t since_ns;
};

struct cgt_thread {
	int id;				/* harness thread number, never reused */
	int role;			/* enum cgt_role */
	int pid;			/* model tid, for an actor (changes on exec) */
	const void *group;		/* an actor's thread group (its signal_struct), or NULL */
	const void *releasing;		/* a group whose new thread it has linked, not yet woken */
	int os_tid;			/* its thread in the kernel below us (gettid) */
	int starting;			/* released (wake_up_new_task), not yet run: runnable */
	int parked;			/* held still by the driver: not hung */
	int off_cpu;			/* --off-cpu: off the CPU holding its locks; not moving */
	uint32_t park_word;		/* futex: a parked thread sleeps on it, bumped to wake it */
	int sched_id;			/* T<n> in a controlled run, else 0 */
	uint64_t heartbeat_ns;		/* last marked point passed */
	/* what it waits for */
	const void *wait_obj;
	const char *wait_name;
	int wait_kind;			/* enum cgt_wait_kind */
	uint64_t wait_since_ns;
	int wait_static;		/* the lock lives as long as the run */
	long wait_acq_seen;		/* the lock's acquisitions when the wait began */
	long wait_reads_seen;		/* the lock's read and write acquisitions */
	long wait_writes_seen;		/* when the wait began */
	/* a writer: since when readers could keep it out (the wait's start, or a rebase) */
	uint64_t wait_readers_since_ns;
	int wait_reported;		/* CGT_REPORTED_*: detectors that reported this wait */
	/* what it holds */
	int nheld;
	struct cgt_held held[CGT_MAX_HELD];
	int rcu_depth;
	uint64_t rcu_since_ns;
	/* its thread-group walk, for the livelock watchdog */
	int walk_active;
	int walk_start_pid;
	const char *walk_fn;		/* the kernel function that walks */
	long walk_steps;
	uint64_t walk_since_ns;
	int walk_abort;			/* set by the livelock detector: stop this walk */
	/* its story */
	uint32_t ring_head;
	struct cgt_event ring[CGT_RING_SIZE];
	/* what it exercised: folded into the run's totals as it unregisters */
	struct cgt_cover cover;
	struct cgt_thread *next;	/* on the registry, under its lock */
	struct cgt_thread **pprev;	/* what points at it there: leaving is O(1) */
};

extern __thread struct cgt_thread *cgt_self;

/* Registering a thread makes it visible to the detectors and gives it a ring. */
void cgt_thread_register(struct cgt_thread *t, enum cgt_role role, int pid);
/*
 * The same, by the thread that releases a new one (of thread group @group), before it has
 * run: from then on a wait for its group sees it, starting, though a loaded machine may not
 * give it a CPU for seconds. The new thread takes @t over with cgt_thread_attach. @t comes
 * zeroed (calloc) and is not cleared here: an exec may already be looking at it, to kill.
 */
void cgt_thread_register_new(struct cgt_thread *t, enum cgt_role role, int pid,
			     const void *group);
void cgt_thread_attach(struct cgt_thread *t);
void cgt_thread_unregister(struct cgt_thread *t);
/* The thread group the calling actor belongs to, so a wait for the group can be judged. */
void cgt_thread_set_group(const void *group);
/*
 * copy_process between linking a new thread into @group and waking it (NULL: done): the
 * group's exits wait for that thread, and it waits for the caller to let it run.
 */
void cgt_thread_set_releasing(const void *group);
/*
 * --off-cpu: the calling thread is off the CPU on purpose (true) or back (false). Its naps
 * wake it to look at the clock, runnable for a moment each time: not progress.
 */
void cgt_thread_set_off_cpu(bool off);
/*
 * Is the harness thread with kernel tid @os_tid runnable (running, or waiting for a CPU)
 * rather than asleep? On a loaded machine a thread can go seconds without a CPU: slow, not
 * stuck.
 */
bool cgt_thread_runnable(int os_tid);
/*
 * The system call the harness thread with kernel tid @os_tid is blocked in (SYS_futex,
 * SYS_nanosleep, ...), or -1: running, or it cannot be told.
 */
long cgt_thread_syscall(int os_tid);
/*
 * How long the harness thread with kernel tid @os_tid has been on a CPU, in ns (schedstat),
 * or -1 if it cannot be told.
 */
long long cgt_thread_cpu_ns(int os_tid);
/* "driver", "actor", ...; "none", "read", "write", "grace period", "group exit" */
const char *cgt_role_name(int role);
const char *cgt_wait_name(int kind);

/* Walk the live threads (and the last ones to finish) under the registry lock. */
void cgt_threads_lock(void);
void cgt_threads_unlock(void);
struct cgt_thread *cgt_threads_first(void);
/* Recently finished threads, kept for their stories. */
int cgt_threads_graveyard(struct cgt_thread **out, int max);
/* The coverage of the live threads and of those gone since the last reset. */
void cgt_threads_cover(struct cgt_cover *out);
/* Forget the coverage of the threads gone so far: a new run begins. */
void cgt_threads_cover_reset(void);
/* Copy a thread's state with atomic loads: it may still be running. */
void cgt_thread_copy(struct cgt_thread *dst, const struct cgt_thread *src);
/*
 * Copies of the state of every live thread (not their event rings or coverage), taken under
 * the registry lock, into *@buf, which is grown (*@cap: its room) to hold them all: a hang's
 * holder may be any one of 30,000. How many, or -1 if memory ran out.
 */
int cgt_threads_snapshot(struct cgt_thread **buf, int *cap);
/*
 * Which of the @n threads copied into @v have moved since the copy: gone, past a marked point,
 * or in another wait (@moved[i] set to 1, else 0). A copy of 30,000 threads is a moment, but a
 * look at it takes longer: a waiter copied asleep may have been woken, run and gone to sleep
 * in its next wait by the time /proc is read, which a verdict from the copy alone would call
 * a hang with nobody in its way. One pass over the registry, under its lock.
 */
int cgt_threads_moved(const struct cgt_thread *v, int n, char *moved);
/*
 * What a detector, looking at a copy, marks on the live thread @id: only if it is still in
 * the wait (or the walk) that began at @since, so a mark never lands on a later one.
 */
void cgt_thread_mark_wait(int id, uint64_t since, int reported);
void cgt_thread_abort_walk(int id, uint64_t since);

static inline void cgt_event_record(int point, int side, int pid, const char *name)
{
	struct cgt_thread *t = cgt_self;
	struct cgt_event *e;
	uint64_t now;
	uint32_t i;

	if (!t)
		return;
	now = cgt_clock_ns();
	i = READ_ONCE(t->ring_head);
	e = &t->ring[i & (CGT_RING_SIZE - 1)];
	WRITE_ONCE(e->ns, READ_ONCE(cgt_step_clock) >= 0 ? (uint64_t)READ_ONCE(cgt_step_clock) : now);
	WRITE_ONCE(e->point, (uint16_t)point);
	WRITE_ONCE(e->side, (int16_t)side);
	WRITE_ONCE(e->pid, pid);
	WRITE_ONCE(e->name, name);
	__atomic_store_n(&t->ring_head, i + 1, __ATOMIC_RELEASE);
	WRITE_ONCE(t->heartbeat_ns, now);
}

/* A blocking wait the hang watchdog should see (lock waits are tracked by the lock layer). */
void cgt_wait_begin(const void *obj, const char *name, enum cgt_wait_kind kind);
/* The same, begun at @since (cgt_clock_ns): a caller that read the clock saves a read. */
static inline void cgt_wait_begin_at(const void *obj, const char *name, enum cgt_wait_kind kind,
				     uint64_t since)
{
	struct cgt_thread *t = cgt_self;

	if (!t)
		return;
	WRITE_ONCE(t->wait_name, name);
	WRITE_ONCE(t->wait_kind, (int)kind);
	WRITE_ONCE(t->wait_since_ns, since);
	WRITE_ONCE(t->wait_reported, 0);
	__atomic_store_n(&t->wait_obj, obj, __ATOMIC_RELEASE);
}

/*
 * Does this thread hold @lock, as lockdep_is_held() asks? A thread that keeps no book (not
 * registered), or whose book is full, may: it says yes, so a check never cries wolf.
 */
static inline bool cgt_self_holds(const void *lock)
{
	const struct cgt_thread *t = cgt_self;

	if (!t || t->nheld >= CGT_MAX_HELD)
		return true;
	for (int i = 0; i < t->nheld; i++)
		if (t->held[i].lock == lock)
			return true;
	return false;
}

static inline void cgt_wait_end(void)
{
	struct cgt_thread *t = cgt_self;

	if (!t)
		return;
	__atomic_store_n(&t->wait_obj, NULL, __ATOMIC_RELEASE);
	WRITE_ONCE(t->wait_kind, CGT_WAIT_NONE);
}

#endif
