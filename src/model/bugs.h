/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The catalogue of known bugs, as switches in the model: each puts one historical mistake
 * back (../shared/BUGS.md tells them step by step). The model checks cgt_bug() where the
 * fixed code and the mistake part ways; src/drive/catalogue.c says what each is.
 */
#ifndef CGT_BUGS_H
#define CGT_BUGS_H

#include <stdbool.h>

#define CGT_BUGS(X)							\
	X(WALK_FROM_EXITING,		"walk-from-exiting")		\
	X(WALK_LEADER_EXEC,		"walk-leader-exec")		\
	X(NO_PID_ALIVE,			"no-pid-alive")			\
	X(ATTACH_NO_THREADGROUP_LOCK,	"attach-no-threadgroup-lock")	\
	X(RWSEM_INSIDE_RCU,		"rwsem-inside-rcu")		\
	X(READER_PREF_RWLOCK,		"reader-pref-rwlock")		\
	X(CSET_WALK_UNLOCKED,		"cset-walk-unlocked")		\
	X(CSS_TASK_ITER_BLOCK,		"css-task-iter-block")

enum cgt_bug {
#define X(id, name) CGT_BUG_##id,
	CGT_BUGS(X)
#undef X
	CGT_NR_BUGS
};

extern const char *const cgt_bug_names[CGT_NR_BUGS];
extern unsigned long cgt_bugs_enabled;

static inline bool cgt_bug(enum cgt_bug bug)
{
	return __atomic_load_n(&cgt_bugs_enabled, __ATOMIC_RELAXED) & (1UL << bug);
}

int cgt_bug_parse(const char *name, enum cgt_bug *bug);

#endif
