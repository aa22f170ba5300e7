/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lock variants, described as the kernel's locktorture describes a lock type: one ops table
 * per variant, registered in lock_registry.c and chosen by name at run time. The model takes
 * every lock through cgt_read_lock() and friends, which pass the marked points around the
 * variant's own code.
 */
#ifndef CGT_LOCK_H
#define CGT_LOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/point.h"

struct cgt_lock;
struct cgt_lock_loops;

/*
 * Who gets a contended lock first: what the controlled scheduler keeps (it takes the
 * variant's place in a controlled run, where waiting must go through the scheduler).
 */
enum cgt_lock_policy {
	CGT_POLICY_FIFO,		/* in arrival order, readers and writers alike */
	CGT_POLICY_WRITER_FIRST,	/* a waiting writer keeps new readers out */
	CGT_POLICY_READER_FIRST,	/* readers get in while any reader holds it */
	CGT_POLICY_UNFAIR,		/* whoever asks when it is free */
};

struct cgt_lock_ops {
	const char *name;
	const char *desc;	/* how waiters wait and what fairness they get */
	bool sleeps;		/* waiters sleep in the kernel (futex) rather than spin */
	bool shared;		/* readers share the lock */
	/*
	 * Every shared access and wait of its code goes through step.h, so a controlled run
	 * can run that code (--locks code); the scheduler keeps the others itself.
	 */
	bool steps;
	const char *bug;	/* a deliberately unfair variant: the catalogued bug it is */
	/*
	 * Readers run beside writers (under RCU) instead of being kept out: the model's plain
	 * list walks are unsafe under such a css_set lock, so only cgtorture compare takes it.
	 */
	bool rcu_readers;
	enum cgt_lock_policy policy;
	/*
	 * A variant whose code says nothing (glibc's) may say from its own words, read as a
	 * reader asks, whether a writer has queued that this reader must let in first by the
	 * variant's policy: a read that then gets in before any write breaks the policy
	 * (cgt_lock_writer_queued is the same promise, said by a variant's own code).
	 */
	bool (*writer_registered)(struct cgt_lock *lock);
	void (*init)(struct cgt_lock *lock);
	void (*read_lock)(struct cgt_lock *lock);
	void (*read_unlock)(struct cgt_lock *lock);
	void (*write_lock)(struct cgt_lock *lock);
	void (*write_unlock)(struct cgt_lock *lock);
	void (*destroy)(struct cgt_lock *lock);
	/* compare's loops, with the fast path above inlined (CGT_LOCK_LOOPS, lock_loop.h) */
	const struct cgt_lock_loops *loops;
	/* what compare --reference times beside it: a primitive as its users write it */
	const char *reference;
};

/* Room for any variant's state; each variant checks its own fits with a static assert. */
#define CGT_LOCK_PRIV_SIZE	64

enum { CGT_READ, CGT_WRITE };

/*
 * Statistics per lock class (every group_rwsem is one class), as lockdep keeps them. Each
 * thread counts its acquisitions in its own tally, summed by cgt_lock_classes().
 */
struct cgt_lock_class {
	const char *name;
	bool sleeps;
	long acquired[2];		/* [CGT_READ], [CGT_WRITE] */
	uint64_t wait_max_ns[2];	/* worst single wait */
	long passed_over;		/* reads taken while a writer waited and no writer got in */
	uint64_t worst_writer_passed;	/* most reads that passed one waiting writer */
	/* most reads that asked after one writer had queued and got in before it */
	uint64_t worst_queued_passed;
	/*
	 * Convoys, as the hang watch sees them: the most threads seen waiting at once, and the
	 * most seen at once past --stall in a queue that kept moving (slow, not hung).
	 */
	uint64_t queue_max;
	uint64_t convoy_max;
};

struct cgt_lock {
	const struct cgt_lock_ops *ops;
	const char *name;	/* which model lock: "tasklist_lock", "css_set_lock", ... */
	struct cgt_lock_class *class;
	/*
	 * What a waiter's watchers compare to see the lock move. Writes count always; reads
	 * (and the reads asked for, at least reads by those waiting) only while a writer waits,
	 * so that a shared lock's readers, when no writer waits, write no shared counter; a
	 * reader that asked before a writer waited but gets in while one waits counts in
	 * read_moves (it passed nobody); an exclusive variant's readers (who hold it alone)
	 * count every read besides.
	 */
	long reads;
	long writes;
	long read_asks;
	long read_moves;
	long exclusive_reads;
	int writers_waiting;	/* writers between asking for it and holding it */
	long writer_queued_at;	/* read_asks when a variant's writer queued, or -1 */
	long passed_queued;	/* reads that asked after that and got in before it */
	int writer_queued_id;	/* the harness thread whose writer_queued_at stands */
	int writer_asked_id;	/* the harness thread that last began to wait to write */
	int writer_in;		/* the harness thread holding it for writing, or 0 */
	bool dynamic;		/* freed during the run (group_rwsem): watchdogs must not touch it */
	_Alignas(16) unsigned char priv[CGT_LOCK_PRIV_SIZE];
};

#define cgt_lock_priv(lock, type) ((type *)(void *)(lock)->priv)

void cgt_lock_init(struct cgt_lock *lock, const struct cgt_lock_ops *ops, const char *name);
void cgt_lock_destroy(struct cgt_lock *lock);

/*
 * A lock being taken or released: what its marked points (LOCK_WAIT, LOCK_HELD,
 * LOCK_RELEASE) hand to whoever watches them.
 */
struct cgt_lock_op {
	struct cgt_lock *lock;
	int side;			/* CGT_READ or CGT_WRITE */
	uint64_t waited_ns;		/* LOCK_HELD: how long the wait lasted */
	uint64_t readers_ns;		/* LOCK_HELD, a writer: of it, since readers could pass */
	long reads_passed;		/* LOCK_HELD, a writer: reads that got in meanwhile */
	long writes_passed;		/* and writes */
	int excluded;			/* LOCK_HELD: the thread it should have kept out, or 0 */
	long passed_queued;		/* LOCK_HELD, a reader that asked after a writer had
					 * queued and got in first: how many have, this one
					 * included; else 0 */
	int passed_writer;		/* and the writer it passed (a harness thread), or 0 */
};

/*
 * A shared variant says when its writer has queued: for one that promises queued writers to
 * later readers (a FIFO or writer-first policy), at the point past which its own code keeps
 * new readers out. A read asked for after it that still gets in first breaks that promise (a
 * check inside the variant's window, which no wait growing long need show; reported with
 * both threads); on a reader-first variant such reads are counted, the measure of how far
 * readers starve it. A variant built on glibc cannot say so from its code: its
 * .writer_registered reads glibc's own words instead, at each read's ask.
 */
void cgt_lock_writer_queued(struct cgt_lock *lock);

/*
 * A waiting writer whose wait so far was for something readers cannot prolong (a
 * percpu-rwsem writer's grace period in rcu_sync_enter, during which readers go on by
 * design) says so when that part is over: the reads before and the time until now do not
 * count as readers keeping it out.
 */
void cgt_lock_writer_rebase(struct cgt_lock *lock);

/*
 * Taking and releasing a model lock: the marked points around the variant's own code, and
 * the wait and the hold recorded for the detectors.
 */
void cgt_lock_acquire(struct cgt_lock *lock, int side);
void cgt_lock_release(struct cgt_lock *lock, int side);

/* The variant's own code for @side, and nothing else: what the two above wrap. */
static inline void cgt_lock_ops_take(struct cgt_lock *lock, int side)
{
	if (side == CGT_WRITE)
		lock->ops->write_lock(lock);
	else
		lock->ops->read_lock(lock);
}

static inline void cgt_lock_ops_drop(struct cgt_lock *lock, int side)
{
	if (side == CGT_WRITE)
		lock->ops->write_unlock(lock);
	else
		lock->ops->read_unlock(lock);
}

static inline void cgt_read_lock(struct cgt_lock *lock)
{
	cgt_lock_acquire(lock, CGT_READ);
}

static inline void cgt_read_unlock(struct cgt_lock *lock)
{
	cgt_lock_release(lock, CGT_READ);
}

static inline void cgt_write_lock(struct cgt_lock *lock)
{
	cgt_lock_acquire(lock, CGT_WRITE);
}

static inline void cgt_write_unlock(struct cgt_lock *lock)
{
	cgt_lock_release(lock, CGT_WRITE);
}

/* Lock classes, for reports and the starvation figures. */
#define CGT_MAX_LOCK_CLASSES	16
int cgt_lock_classes(struct cgt_lock_class *out, int max);
/*
 * What a watcher saw of the class named @name: @waiters threads in its queue at once, of
 * which @convoy had waited past --stall in a queue that kept moving.
 */
void cgt_lock_class_note_queue(const char *name, int waiters, int convoy);
/* A class's number, below CGT_MAX_LOCK_CLASSES, for tables indexed by class. */
int cgt_lock_class_id(const struct cgt_lock_class *c);
void cgt_lock_classes_reset(void);
/*
 * The counts a watcher compares to see whether a lock moves while a thread waits for it
 * (reads only while a writer waits: struct cgt_lock).
 */
static inline long cgt_lock_acquisitions(const struct cgt_lock *lock)
{
	return __atomic_load_n(&lock->reads, __ATOMIC_RELAXED) +
	       __atomic_load_n(&lock->writes, __ATOMIC_RELAXED) +
	       __atomic_load_n(&lock->read_moves, __ATOMIC_RELAXED) +
	       __atomic_load_n(&lock->exclusive_reads, __ATOMIC_RELAXED);
}

static inline long cgt_lock_reads(const struct cgt_lock *lock)
{
	return __atomic_load_n(&lock->reads, __ATOMIC_RELAXED);
}

static inline long cgt_lock_writes(const struct cgt_lock *lock)
{
	return __atomic_load_n(&lock->writes, __ATOMIC_RELAXED);
}

/* The registry (lock_registry.c). */
extern const struct cgt_lock_ops *const cgt_lock_variants[];
extern const size_t cgt_nr_lock_variants;
const struct cgt_lock_ops *cgt_lock_find(const char *name);
/* "rwlock, rwsem, spinlock": for error messages and --help. */
const char *cgt_lock_names(void);
/* The same, less the rcu_readers variants: those the stress run's model can take. */
const char *cgt_lock_run_names(void);

#endif
