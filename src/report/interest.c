// SPDX-License-Identifier: GPL-2.0
/* The failure of interest: one rule for the story, the child runs, replay and shrink. */
#include "interest.h"

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
