/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The failure of interest (interest.c): of a run's failures, the one it was after. The story
 * tells it, a child run sends it back, replay and shrink look for it again.
 */
#ifndef CGT_INTEREST_H
#define CGT_INTEREST_H

/*
 * The first failure of the --stop-on detector @stop_on, else the first failure: its index
 * among the @n failures whose detectors are @detector[], in the order seen. A known failure
 * (the era's own behaviour) is given as -1 and is never of interest; -1 if none is left.
 */
int cgt_failure_of_interest(int stop_on, const int *detector, int n);

struct cgt_failure;

/* The same among @n failures as cgt_failures_get gives them, known ones left out. */
int cgt_failures_of_interest(int stop_on, const struct cgt_failure *f, int n);

#endif
