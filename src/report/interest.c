// SPDX-License-Identifier: GPL-2.0
/* The failure of interest: one rule for the story, the child runs, replay and shrink. */
#include "interest.h"
#include "../core/failure.h"

int cgt_failure_of_interest(int stop_on, const int *detector, int n)
{
	int first = -1;

	for (int i = 0; i < n; i++) {
		if (detector[i] < 0)
			continue;
		if (detector[i] == stop_on)
			return i;
		if (first < 0)
			first = i;
	}
	return first;
}

int cgt_failures_of_interest(int stop_on, const struct cgt_failure *f, int n)
{
	int detector[CGT_MAX_FAILURES];

	if (n > CGT_MAX_FAILURES)
		n = CGT_MAX_FAILURES;
	for (int i = 0; i < n; i++)
		detector[i] = f[i].known[0] ? -1 : (int)f[i].detector;
	return cgt_failure_of_interest(stop_on, detector, n);
}
