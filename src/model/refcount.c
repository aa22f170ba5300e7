// SPDX-License-Identifier: GPL-2.0
/*
 * Who dropped a count to 0, for refcount_t's reports (refcount.h). A misuse is two threads'
 * story: the one that put the last reference (and freed, or is about to) and the one that
 * comes after it. The kernel's splat shows only the second; the model keeps the recent last
 * puts by counter address, so that the report names the first and its events come with it.
 * The newest put at an address wins: the object that lived there last is the one misused.
 */
#include <stdarg.h>
#include <stdio.h>

#include "refcount.h"

#define ZEROED_LOG	4096	/* last puts kept: tens of milliseconds of a busy run's frees */

struct zeroed {
	const int *r;
	int id;			/* harness thread */
	int pid;		/* the model thread it acted as */
	uint64_t at;		/* cgt_clock_ns, or the controlled run's decision */
};

static struct zeroed zeroed_log[ZEROED_LOG];
static unsigned long zeroed_next;

/* A run's own puts only: another run's object may have lived at the same address. */
void refcount_zeroed_reset(void)
{
	for (int i = 0; i < ZEROED_LOG; i++)
		__atomic_store_n(&zeroed_log[i].r, NULL, __ATOMIC_RELAXED);
}

/* No lock: a slot torn by a racing writer only blurs one report's evidence. */
void refcount_zeroed(const int *r)
{
	struct zeroed *z = &zeroed_log[__atomic_fetch_add(&zeroed_next, 1, __ATOMIC_RELAXED) %
				       ZEROED_LOG];
	long step = READ_ONCE(cgt_step_clock);

	__atomic_store_n(&z->r, NULL, __ATOMIC_RELAXED);
	__atomic_store_n(&z->id, cgt_self ? cgt_self->id : 0, __ATOMIC_RELAXED);
	__atomic_store_n(&z->pid, cgt_self ? READ_ONCE(cgt_self->pid) : 0, __ATOMIC_RELAXED);
	__atomic_store_n(&z->at, step >= 0 ? (uint64_t)step : cgt_clock_ns(), __ATOMIC_RELAXED);
	__atomic_store_n(&z->r, r, __ATOMIC_RELEASE);
}

void refcount_misuse(const int *r, const char *fmt, ...)
{
	const int self = cgt_self ? cgt_self->id : 0;
	int involved[2], n = 0, newest = -1;
	uint64_t best = 0, now = cgt_clock_ns();
	char evidence[160] = "", msg[320];
	va_list ap;

	for (int i = 0; i < ZEROED_LOG; i++) {
		uint64_t at = __atomic_load_n(&zeroed_log[i].at, __ATOMIC_RELAXED);

		if (__atomic_load_n(&zeroed_log[i].r, __ATOMIC_ACQUIRE) == r &&
		    (newest < 0 || at > best)) {
			newest = i;
			best = at;
		}
	}
	if (self)
		involved[n++] = self;
	if (newest >= 0) {
		const struct zeroed *z = &zeroed_log[newest];
		int id = __atomic_load_n(&z->id, __ATOMIC_RELAXED);
		int pid = __atomic_load_n(&z->pid, __ATOMIC_RELAXED);

		if (READ_ONCE(cgt_step_clock) >= 0)
			snprintf(evidence, sizeof(evidence), "the last reference was put by thread %d "
				 "(tid %d) at decision %llu\n", id, pid, (unsigned long long)best);
		else
			snprintf(evidence, sizeof(evidence), "the last reference was put by thread %d "
				 "(tid %d) %.3f ms before\n", id, pid,
				 (double)(now > best ? now - best : 0) / 1e6);
		if (id && id != self)
			involved[n++] = id;
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	cgt_fail_involving(CGT_DET_INVARIANT, self, involved, n, evidence[0] ? evidence : NULL,
			   "%s", msg);
}
