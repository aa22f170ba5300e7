// SPDX-License-Identifier: GPL-2.0
/* The failure of interest: one rule for the story, the child runs, replay and shrink. */
#include "interest.h"

int cgt_failure_of_interest(int stop_on, const int *detector, int n)
{
	for (int i = 0; i < n; i++)
		if (detector[i] == stop_on)
			return i;
	return n ? 0 : -1;
}
