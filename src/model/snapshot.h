/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The linkage near some threads, copied out of the live model as plain data (snapshot.c), for
 * a picture of a failure: the thread groups (the thread_group ring, signal->thread_head),
 * the pid hash entries, the css_sets with their tasks and cgrp_cset_links, and a walk's
 * start thread and the path next_thread() takes from it. Read-only: it takes no model lock
 * and passes no marked point, so it may be taken at the moment a detector fires.
 */
#ifndef CGT_SNAPSHOT_H
#define CGT_SNAPSHOT_H

#include <stdbool.h>

#include "model.h"

#define CGT_SNAP_GROUPS		4
#define CGT_SNAP_RING		24	/* members of a list drawn */
#define CGT_SNAP_PIDS		12
#define CGT_SNAP_CSETS		8
#define CGT_SNAP_CSET_TASKS	12

struct cgt_snap_task {
	int tid, tgid;
	bool leader, exiting, hashed;	/* group_leader, PF_EXITING, pid_alive */
	int exit_state;			/* TASK_ALIVE, EXIT_ZOMBIE, EXIT_DEAD */
	int cset;			/* index in csets[], or -1 */
};

struct cgt_snap_group {
	int tgid;			/* the leader's tid */
	int nr_threads, live;
	bool group_exit;		/* SIGNAL_GROUP_EXIT, or an exec under way */
	struct cgt_snap_task ring[CGT_SNAP_RING];	/* thread_group, from the leader */
	int nring;
	bool ring_closed;		/* came back to the leader */
	int head[CGT_SNAP_RING];	/* signal->thread_head, in order */
	int nhead;
};

struct cgt_snap_pid {
	int nr;
	bool found;			/* in the pid hash */
	int tasks[3];			/* its PIDTYPE_PID list: two tasks briefly after an exec */
	int ntasks;
};

struct cgt_snap_cset {
	const void *key;		/* which css_set (only compared) */
	int refcount;
	char cgroups[CGT_NR_HIERARCHIES][24];	/* subsys[]: one cgrp_cset_link each */
	int tasks[CGT_SNAP_CSET_TASKS];	/* its task list (cg_list) */
	int ntasks;
	bool more;			/* more tasks than drawn */
	bool from_list;			/* the list itself was read (model held still) */
};

struct cgt_snap_walk {
	bool valid;
	const char *iter;
	struct cgt_snap_task start;
	bool start_on_ring;		/* next_thread() from the start comes back to it */
	struct cgt_snap_task path[CGT_SNAP_RING];	/* next_thread() from the start, until a tid repeats */
	int npath;
	int loops_to;			/* the tid the path came round to, or 0 */
	int cur;			/* where the walk stands */
	long steps;
};

struct cgt_linkage {
	bool taken;
	bool still;			/* the model was held still (a controlled run) */
	struct cgt_snap_group groups[CGT_SNAP_GROUPS];
	int ngroups;
	struct cgt_snap_pid pids[CGT_SNAP_PIDS];
	int npids;
	struct cgt_snap_cset csets[CGT_SNAP_CSETS];
	int ncsets;
	struct cgt_snap_walk walk;
};

/*
 * Copy the linkage near the tasks @tids (and @walk's, if not NULL) into @out. @still: no
 * other thread can change the model now (a controlled run), so the css_sets' task lists
 * are read too; otherwise only what RCU keeps safe to read is followed, and a css_set's
 * tasks are those of the drawn groups that point at it. The caller must be a registered
 * RCU reader.
 */
void cgt_linkage_snapshot(struct cgt_linkage *out, const int *tids, int ntids,
			  const struct cgt_walk *walk, bool still);

#endif
