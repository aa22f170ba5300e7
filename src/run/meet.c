// SPDX-License-Identifier: GPL-2.0
/*
 * The table of meet.h: direct-mapped by the group's address, a reader's and a changer's mark
 * per slot; and a ring of the tids that changed last. Every field is a relaxed atomic of its
 * own: a torn mark (a key from one group, a time from another) costs a delay too many or
 * too few, never a verdict.
 */
#include <string.h>

#include "meet.h"

#define MEET_SLOTS	1024

struct meet_mark {
	uintptr_t group;
	int by;
	uint64_t ns;
};

static struct meet_mark marks[MEET_SLOTS][2];
static int hot[CGT_MEET_HOT];
static unsigned int nhot;

/* @m is @group's, made by another thread than @by within CGT_MEET_NS of @now_ns */
static bool met(const struct meet_mark *m, uintptr_t group, int by, uint64_t now_ns)
{
	uint64_t then;

	if (__atomic_load_n(&m->group, __ATOMIC_RELAXED) != group ||
	    __atomic_load_n(&m->by, __ATOMIC_RELAXED) == by)
		return false;
	then = __atomic_load_n(&m->ns, __ATOMIC_RELAXED);
	return now_ns >= then && now_ns - then < CGT_MEET_NS;
}

bool cgt_meet(const void *group, enum cgt_meet_role role, int by, uint64_t now_ns)
{
	uintptr_t key = (uintptr_t)group;
	struct meet_mark *slot = marks[(key >> 6) * 0x9e3779b1u % MEET_SLOTS];
	bool meets = met(&slot[CGT_MEET_CHANGE], key, by, now_ns) ||
		     (role == CGT_MEET_CHANGE && met(&slot[CGT_MEET_READ], key, by, now_ns));

	__atomic_store_n(&slot[role].group, key, __ATOMIC_RELAXED);
	__atomic_store_n(&slot[role].by, by, __ATOMIC_RELAXED);
	__atomic_store_n(&slot[role].ns, now_ns, __ATOMIC_RELAXED);
	return meets;
}

void cgt_meet_changing(int tid)
{
	unsigned int i = __atomic_fetch_add(&nhot, 1, __ATOMIC_RELAXED);

	__atomic_store_n(&hot[i % CGT_MEET_HOT], tid, __ATOMIC_RELAXED);
}

bool cgt_meet_hot(void)
{
	return __atomic_load_n(&nhot, __ATOMIC_RELAXED);
}

int cgt_meet_hot_tid(uint32_t r)
{
	unsigned int n = __atomic_load_n(&nhot, __ATOMIC_RELAXED);

	if (!n)
		return 0;
	return __atomic_load_n(&hot[r % (n < CGT_MEET_HOT ? n : CGT_MEET_HOT)], __ATOMIC_RELAXED);
}

/* Between runs, no thread running. */
void cgt_meet_reset(void)
{
	memset(marks, 0, sizeof(marks));
	memset(hot, 0, sizeof(hot));
	nhot = 0;
}
