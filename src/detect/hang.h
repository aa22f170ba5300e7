/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hang detector's parts (hang.c), private to them: the wait-for graph of one look
 * (hang_graph.c), the judgement of what along a chain moved (hang_judge.c), and the report
 * of a hang (hang_report.c).
 */
#ifndef CGT_HANG_H
#define CGT_HANG_H

#include <stdbool.h>
#include <stdint.h>

#include "detect.h"

/*
 * The wait-for graph of one look: an edge from each waiter to each thread in its way, found
 * through sorted indexes (of held locks, waiting writers, RCU readers and thread groups) so
 * that a look at 30,000 threads stays cheap; the edges of one waiter are adjacent in to[].
 */
struct graph {
	const struct cgt_thread *v;
	int n;
	int *first, *nout;		/* per thread: its edges in to[] */
	int *to;
	long nedges;
	bool cut;			/* MAX_EDGES reached: every chain counts as moving */
	char *moves;			/* its chain moved within the stall: MOVES, STOPPED, or
					 * 0 not yet looked at (a look at /proc costs) */
};


/* struct graph.moves: a thread's chain moved within the stall, or stopped */
enum { MOVES = 1, STOPPED };

/* hang_graph.c: 0, or -1 out of memory; the graph over the @n threads @v of one look */
int hang_graph_build(struct graph *g, const struct cgt_thread *v, int n);
void hang_graph_free(struct graph *g);
int hang_find_cycle(const struct graph *g, int at, int *stack, int depth, char *state,
		    int *path);

/* hang_judge.c */
void hang_judge_reset(void);
void hang_note_in_way(const struct graph *g, uint64_t now);
void hang_graph_progress(struct graph *g, uint64_t now, uint64_t stall);
const char *hang_cpu_state(const struct cgt_thread *t, char *buf, size_t len);

/* hang_report.c: the hang of @g's thread @i, at @now (or at decision @blocked_step) */
void hang_report(const struct graph *g, int i, uint64_t now, long blocked_step,
		 double stall_s);

#endif
