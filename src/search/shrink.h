/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shrink's state, shared by its passes: the driver (shrink.c), the configuration's cuts
 * (shrink_config.c) and the schedule's (shrink_schedule.c), each made of trials
 * (shrink_trial.c). Each pass proposes a smaller
 * run; a trial keeps it if the same failure comes back, the same detector with the same
 * kind (report/kind.h: the same walk and cause, the same lock cycle), as reproduce matches.
 */
#ifndef CGT_SHRINK_H
#define CGT_SHRINK_H

#include <stdbool.h>

#include "child.h"

/* CHESS: most bugs show within this many preemptions; fewer is no better to a reader */
#define SHRINK_BOUND	3

/*
 * How big a run is, up to its failure, in the order a cut must lower it (shrink_size.c):
 * preemptions past SHRINK_BOUND, the threads that ran, the operations done, the decisions,
 * the preemptions, and the switches to break a tie.
 */
struct shrink_size {
	long ran, ops, dec, pre, switches;
};

struct shrink {
	struct cgt_run_config *cfg;	/* the smallest configuration so far */
	struct cgt_schedule best;	/* the choices that made the failure under it */
	struct shrink_size size;	/* and how big that run is */
	struct shrink_size found;	/* how big the report's own run is */
	long best_stop, best_step, best_pre;
	long *best_at;			/* the decisions of all best_pre preemptions, or NULL */
	int target;			/* the detector */
	char kind[256];			/* and the kind of its failure */
	long runs, budget;		/* trial runs made, and at most */
	double deadline;		/* cgt_now() past which no trial starts */
	bool tty;			/* a progress line on stderr */
	const char *pass;		/* what is being cut, for the progress line */
};

/* shrink_trial.c: whether the budget (trials, time, a signal) lets another trial start */
bool shrink_can_try(const struct shrink *sh);
/*
 * shrink_trial.c: one trial of @cfg following @follow as far as it fits (NULL: its own
 * seed's schedule); kept, as the new best, if the failure came back and the run it made is
 * smaller (the first trial: any run is). A cut of the configuration (@cfg_cut) is weighed
 * without the bound's key, and as small will do.
 */
bool shrink_try(struct shrink *sh, const struct cgt_run_config *cfg,
		const struct cgt_schedule *follow, bool cfg_cut);

/* shrink_trial.c: the first @n choices of @s into @out (zeroed first); false: out of memory */
bool shrink_prefix(const struct cgt_schedule *s, long n, struct cgt_schedule *out);

/* shrink_config.c: fewer model threads, walkers and kinds of operation, largest cut first */
void shrink_config(struct shrink *sh);
/* shrink_schedule.c: fewer threads that run, turns, decisions, preemptions and switches */
void shrink_schedule(struct shrink *sh);
/* shrink_size.c: how many threads ran up to decision @upto of @s */
int shrink_threads_ran(const struct cgt_schedule *s, long upto);
/* shrink_size.c: how big @res's run is up to its failure */
struct shrink_size shrink_size_of(const struct cgt_child_result *res);
/*
 * shrink_size.c: <0, 0 or >0 as @a is smaller than, as big as or bigger than @b; the
 * preemptions past SHRINK_BOUND the first key if @bound
 */
int shrink_size_cmp(const struct shrink_size *a, const struct shrink_size *b, bool bound);
/* shrink_size.c: whether @a is no bigger than @b in any key (preemptions: past the bound) */
bool shrink_size_within(const struct shrink_size *a, const struct shrink_size *b);

#endif
