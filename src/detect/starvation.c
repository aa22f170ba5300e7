// SPDX-License-Identifier: GPL-2.0
/*
 * starvation: a writer kept out by readers. A writer is passed over when reads keep getting
 * the lock while it waits and no writer at all gets in (the readers, not a queue of writers,
 * keep it out). In a free-running run it is starved once it has waited past --starve: seen
 * while it still waits (watch), or when it finally gets in (at LOCK_HELD). A controlled run's
 * clock is its decisions, so there a writer is starved by a count: CGT_STARVE_READS reads
 * passing it, where a fair lock lets none pass.
 */
#include <stdio.h>
#include <string.h>

#include "detect.h"
#include "../locks/lock.h"

#define MAX_STARVED	8	/* starved writers reported per look */

static uint64_t starve_ns;
static bool controlled;
static int passed_queued_reported;

static int starvation_start(const struct cgt_detect_config *cfg)
{
	starve_ns = (uint64_t)(cfg->starve * 1e9);
	controlled = cfg->controlled;
	passed_queued_reported = 0;
	return 0;
}

/*
 * A read got in before a writer that had queued before it asked: on a lock that promises
 * queued writers a place (a FIFO or writer-first policy: the queued rwlock, the rwsem,
 * percpu-rwsem, glibc's writer-preferring kind) the first such read breaks the promise. On a reader-first lock passing is what the lock is designed to do: the
 * count is a figure (report.json's locks, compare), and only a writer that waited --starve
 * is starved. Reported once a run.
 */
static void passed_queued(const struct cgt_lock_op *op, struct cgt_thread *t)
{
	if (op->lock->ops->policy == CGT_POLICY_READER_FIRST || op->passed_queued != 1 ||
	    __atomic_exchange_n(&passed_queued_reported, 1, __ATOMIC_RELAXED))
		return;
	cgt_fail_on(CGT_DET_STARVATION, t ? t->id : 0, op->lock->name, NULL,
		    "a read of %s by thread %d (%s: %s) got in before the write of thread %d, "
		    "queued before it asked",
		    op->lock->name, t ? t->id : 0, op->lock->ops->name, op->lock->ops->desc,
		    op->passed_writer);
}

/* A writer got in: was it passed over for too long, or by too many? */
static void starvation_point(enum cgt_point_id id, const void *obj)
{
	const struct cgt_lock_op *op = obj;
	struct cgt_thread *t = cgt_self;

	if (id == CGT_PT_LOCK_HELD && op->passed_queued)
		passed_queued(op, t);
	if (id != CGT_PT_LOCK_HELD || op->side != CGT_WRITE || op->writes_passed ||
	    !op->reads_passed)
		return;
	if (controlled ? !op->lock->ops->shared || op->reads_passed < CGT_STARVE_READS :
	    !starve_ns || op->readers_ns <= starve_ns ||
	    (t && (READ_ONCE(t->wait_reported) & CGT_REPORTED_STARVED)))
		return;
	cgt_fail_on(CGT_DET_STARVATION, t ? t->id : 0, op->lock->name, NULL,
		    "writer waited %.2f s for %s while %ld reads got in and no writer did",
		    (double)op->readers_ns / 1e9, op->lock->name, op->reads_passed);
}

/* Writers still waiting past --starve while reads keep passing them. */
static void starvation_watch(const struct cgt_thread *v, int n, uint64_t now)
{
	int nstarved = 0;

	for (int i = 0; i < n && starve_ns && nstarved < MAX_STARVED; i++) {
		const struct cgt_thread *t = &v[i];
		const struct cgt_lock *l = t->wait_obj;
		long reads, writes;

		if (!l || t->parked || t->wait_kind != CGT_WAIT_WRITE || !t->wait_static ||
		    cgt_age_ns(now, t->wait_readers_since_ns) <= starve_ns ||
		    (t->wait_reported & CGT_REPORTED_STARVED))
			continue;
		reads = cgt_lock_reads(l) - t->wait_reads_seen;
		writes = cgt_lock_writes(l) - t->wait_writes_seen;
		if (reads <= 0 || writes)
			continue;
		cgt_thread_mark_wait(t->id, t->wait_since_ns, CGT_REPORTED_STARVED);
		nstarved++;
		cgt_fail_on(CGT_DET_STARVATION, t->id, l->name, NULL,
			    "thread %d (tid %d) has waited %.2f s to write %s while %ld reads got in and no writer did",
			    t->id, t->pid, (double)cgt_age_ns(now, t->wait_readers_since_ns) / 1e9,
			    t->wait_name, reads);
	}
}

/* "a writer of LOCK starved": from "... for LOCK while" (at the write) or "... to write LOCK while" */
static void starvation_kind(const char *summary, const char *evidence, char *buf, size_t len)
{
	const char *p = strstr(summary, " while ");

	(void)evidence;
	while (p && p > summary && p[-1] != ' ')
		p--;
	snprintf(buf, len, "a writer of %.*s starved", p ? (int)strcspn(p, " ") : 1, p ? p : "?");
}

const struct cgt_detector_ops starvation_detector = {
	.id	= CGT_DET_STARVATION,
	.start	= starvation_start,
	.point	= starvation_point,
	.watch	= starvation_watch,
	.kind	= starvation_kind,
};
