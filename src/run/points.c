// SPDX-License-Identifier: GPL-2.0
/*
 * The point hook of a run, what happens at every marked point: an event in its thread's
 * ring (what a report tells as the story) and a heartbeat; then, in a controlled run, a
 * scheduling decision, or with --perturb sometimes a short delay or a yield, seeded per
 * thread, to widen race windows; then the detectors' look at it.
 */
#include <sched.h>
#include <time.h>

#include "meet.h"
#include "points.h"
#include "../base/prng.h"
#include "../core/thread.h"
#include "../detect/detect.h"
#include "../model/model.h"
#include "../sched/sched.h"

static int perturb_permille;	/* the phase's: read at every point, set between */
static bool meet_on;		/* delay where threads meet on a group (meet.h) */
static uint64_t perturb_seed;
static __thread struct prng perturb_rng;
static __thread int perturb_rng_for;	/* the thread id the generator was seeded for */
static __thread const struct cgt_walk *walk_now;	/* the walk this thread last stepped */
static __thread const void *holding;	/* the group of the task this operation last looked
					 * up under RCU (a key only) */

/*
 * @max_ns: the longest delay at this point. Most points get a short one (to 200 us); a
 * walker under rcu_read_lock may be preempted (PREEMPT_RCU) for longer, but not so long
 * that grace periods stall (2 ms), and so may a task just out of its read-side section
 * (2 ms: what it found there may be freed meanwhile), and so may a reader holding a lock a
 * writer waits for (softirqs on its CPU, or an rwsem reader preempted: on a reader-first
 * lock, the readers that come meanwhile pass the writer); filldir copies to user space and may
 * fault on a page that must be read in, the longest sleep (20 ms, past liburcu's 10 ms
 * callback batching), as long as a task out of its section may be preempted where its
 * group is changing: no grace period bounds it, and what it found is freed under it.
 */
static bool perturb(long max_ns, bool meets)
{
	struct cgt_thread *t = cgt_self;
	struct timespec ts = { 0, 0 };
	uint32_t r;

	if (!t)
		return false;
	if (perturb_rng_for != t->id) {
		prng_seed(&perturb_rng, perturb_seed, 0x9e37u + (uint64_t)t->id);
		perturb_rng_for = t->id;
	}
	r = prng_below(&perturb_rng, 1000);
	/* where another thread is on the same group (meet.h): a sleep one time in two */
	if (meets && r < 500)
		r = 0;
	else if (r >= (uint32_t)READ_ONCE(perturb_permille))
		return false;
	if (r & 1) {
		sched_yield();
		return true;
	}
	ts.tv_nsec = 1000 + (long)prng_below(&perturb_rng, (uint32_t)max_ns);
	nanosleep(&ts, NULL);
	return true;
}

/* The thread whose group a point reads or changes (meet.h), or NULL. */
static const struct task *point_task(enum cgt_point_id id, const void *obj,
				     enum cgt_meet_role *role)
{
	const struct cgt_point_info *p = &cgt_point_info[id];

	*role = p->group == CGT_PG_READS ? CGT_MEET_READ : CGT_MEET_CHANGE;
	if (p->group == CGT_PG_NONE)
		return NULL;
	if (p->obj == CGT_PO_WALK || p->obj == CGT_PO_WALK_STEP)
		return ((const struct cgt_walk *)obj)->start;
	return obj;
}

/*
 * A reader that got a reader-first lock a writer is waiting for: whether the next readers
 * get in past that writer is decided while this one holds it, so its hold is the window. On
 * a fair or writer-first lock nobody passes the writer, and a delay there only stalls the
 * queue behind it.
 */
static bool read_held_writer_waits(const struct cgt_lock_op *op)
{
	return op->side == CGT_READ && op->lock->ops->policy == CGT_POLICY_READER_FIRST &&
	       __atomic_load_n(&op->lock->writers_waiting, __ATOMIC_RELAXED) > 0;
}

/*
 * Does this point meet another thread on its group? A change also marks its tid as hot. A
 * reader that looked a task up under RCU (an RCU entry that names it) may leave its
 * read-side section still holding it, about to take a reference or a lock on it: its RCU
 * exit meets on that task's group, until its operation ends. A walk's exit does not: what it
 * found there it is done with, and a 20-ms delay after each walk near a changing group cost
 * the walkers most of their walks. A reader holding a lock meets the writer waiting for it.
 */
static bool meets(enum cgt_point_id id, const void *obj)
{
	enum cgt_meet_role role;
	const struct task *t;
	const void *group;

	if (!READ_ONCE(meet_on) || !cgt_self)
		return false;
	if (id == CGT_PT_LOCK_HELD)
		return read_held_writer_waits(obj);
	if (id == CGT_PT_LOOP)
		holding = NULL;
	if (id == CGT_PT_RCU_EXIT)
		return holding && cgt_meet(holding, CGT_MEET_READ, cgt_self->id, cgt_clock_ns());
	if (!(t = point_task(id, obj, &role)))
		return false;
	group = READ_ONCE(t->signal);
	if (role == CGT_MEET_CHANGE)
		cgt_meet_changing(READ_ONCE(t->pid));
	else if (id == CGT_PT_RCU_ENTER)
		holding = group;
	return cgt_meet(group, role, cgt_self->id, cgt_clock_ns());
}

/*
 * The steps of one walk perturbed at most: a walk over 10,000 processes under
 * tasklist_lock, perturbed at one step in ten, slept and yielded for seconds holding it
 * (the kernel's reader, preemption off, is held up only by interrupts). A thread-group
 * walk at a few hundred threads is perturbed as before.
 */
#define STEP_PERTURBS_MAX	16
static __thread int step_perturbs;	/* steps delayed since the last other point */

static bool walk_step(enum cgt_point_id id)
{
	return cgt_point_info[id].obj == CGT_PO_WALK_STEP ||
	       cgt_point_info[id].obj == CGT_PO_TASK_STEP;
}

/* A point's longest delay (see perturb), and whether it meets another thread. */
static void perturb_at(enum cgt_point_id id, const void *obj)
{
	bool met = meets(id, obj), step = walk_step(id), delayed;

	if (!step)
		step_perturbs = 0;
	else if (step_perturbs >= STEP_PERTURBS_MAX)
		return;
	if (id == CGT_PT_READDIR_STEP || (id == CGT_PT_RCU_EXIT && met))
		delayed = perturb(20000000, met);
	else if (id == CGT_PT_WALK_STEP || id == CGT_PT_RCU_EXIT || (id == CGT_PT_LOCK_HELD && met))
		delayed = perturb(2000000, met);
	else
		delayed = perturb(200000, met);
	step_perturbs += step && delayed;
}

static void record_point(enum cgt_point_id id, const void *obj)
{
	const char *name = cgt_point_info[id].name;
	int pid = 0, side = -1;

	switch (cgt_point_info[id].obj) {
	case CGT_PO_LOCK:
		name = ((const struct cgt_lock_op *)obj)->lock->name;
		side = ((const struct cgt_lock_op *)obj)->side;
		break;
	case CGT_PO_WALK:
		walk_now = obj;
		pid = ((const struct cgt_walk *)obj)->start_pid;
		name = ((const struct cgt_walk *)obj)->fn;
		break;
	case CGT_PO_WALK_STEP:
		walk_now = obj;
		/* fall through */
	case CGT_PO_TASK_STEP:
		/* too many to keep: a heartbeat, and a chance to perturb */
		if (cgt_self)
			WRITE_ONCE(cgt_self->heartbeat_ns, cgt_clock_ns());
		goto out;
	case CGT_PO_TASK:
		pid = obj ? READ_ONCE(((const struct task *)obj)->pid) : 0;
		break;
	case CGT_PO_NONE:
	case CGT_PO_LOOKUP:
		break;
	}
	cgt_event_record(id, side, pid, name);
out:
	cgt_detect_point(id, obj);
	/*
	 * The end of a read-side section is a window for perturbation only: one point in nine
	 * of a controlled run, it would thin out the decisions a schedule's budget has for the
	 * locks and steps, where the catalogue's bugs are found.
	 */
	if (cgt_sched_on()) {
		if (id != CGT_PT_RCU_EXIT)
			cgt_sched_point(id);
	}
	else if (READ_ONCE(perturb_permille) || READ_ONCE(meet_on))
		perturb_at(id, obj);
	cgt_detect_resume(id, obj);
}

void cgt_events_install(int perturb_pm, bool meet, uint64_t seed)
{
	WRITE_ONCE(perturb_permille, perturb_pm);
	WRITE_ONCE(meet_on, meet);
	perturb_seed = seed;
	cgt_meet_reset();
	cgt_point_set_hook(record_point);
}

void cgt_events_set_perturb(int permille)
{
	WRITE_ONCE(perturb_permille, permille);
}

void cgt_events_calm(void)
{
	WRITE_ONCE(perturb_permille, 0);
	WRITE_ONCE(meet_on, false);
}

const struct cgt_walk *cgt_events_walk(void)
{
	return cgt_self && READ_ONCE(cgt_self->walk_active) ? walk_now : NULL;
}

void cgt_events_remove(void)
{
	cgt_point_set_hook(NULL);
}
