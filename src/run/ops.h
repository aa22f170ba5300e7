/* SPDX-License-Identifier: GPL-2.0 */
/* What a model thread does at each turn (ops.c): the operations, picked by weight. */
#ifndef CGT_RUN_OPS_H
#define CGT_RUN_OPS_H

#include <stdbool.h>

#include "../base/prng.h"
#include "../model/model.h"

#define CGT_OPS(X)				\
	X(FORK,		"fork")			\
	X(EXEC,		"exec")			\
	X(EXIT,		"exit")			\
	X(MIGRATE,	"migrate")		\
	X(OBSERVE,	"observe")

enum cgt_op {
#define X(id, name) CGT_OP_##id,
	CGT_OPS(X)
#undef X
	CGT_NR_OPS
};

extern const char *const cgt_op_names[CGT_NR_OPS];

/*
 * The readers an observation may be (cgt_observe), each as likely unless a phase says: its
 * name, the function in ops.c that reads, and the shared lock it holds across its walk, whose
 * readers it is one of when that lock is pressed (press.h), or NULL (proc_cgroup_show reads
 * css_set_lock inside cgroup_mutex, so two never overlap). A new reader is one line here and
 * its function.
 */
#define CGT_READS(X)							\
	X(WALK,		"walk",		read_walk,	NULL)		\
	X(READDIR,	"readdir",	read_readdir,	NULL)		\
	X(TASKLIST,	"tasklist",	read_tasklist,	&tasklist_lock)	\
	X(COUNT,	"count",	read_count,	&css_set_lock)	\
	X(ITER,		"iter",		read_iter,	&css_set_lock)	\
	X(SHOW,		"show",		read_show,	NULL)

enum cgt_read {
#define X(id, name, fn, lock) CGT_READ_##id,
	CGT_READS(X)
#undef X
	CGT_NR_READS
};

extern const char *const cgt_read_names[CGT_NR_READS];
/* The shared lock each reader holds across its walk (the table's last column), or NULL. */
extern struct cgt_lock *const cgt_read_locks[CGT_NR_READS];

struct cgt_run;
struct cgt_run_config;

enum cgt_op_result { CGT_OP_DONE, CGT_OP_EXITED };
enum cgt_op cgt_pick_op(const struct cgt_run *run, struct prng *rng);
enum cgt_op_result cgt_do_op(struct cgt_run *run, struct task *me, enum cgt_op op,
			     struct prng *rng);
/* A reader that keeps watching one process for a while, as a monitor polling taskstats. */
struct cgt_watch {
	int tgid;
	int left;			/* walks of it still to do */
};
void cgt_observe(struct cgt_run *run, struct prng *rng, struct cgt_watch *watch);
/* One reader of kind @kind. */
void cgt_read(struct cgt_run *run, enum cgt_read kind, struct prng *rng, struct cgt_watch *watch);
/* fork of @parent (a thread if @thread) within the --threads cap; 0 or -errno */
int cgt_fork_from(struct cgt_run *run, struct task *parent, bool thread);

#endif
