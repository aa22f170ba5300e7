// SPDX-License-Identifier: GPL-2.0
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "quarantine.h"

#if defined(CGT_TSAN) || defined(CGT_ASAN)
void cgt_free_poisoned(void *p, size_t size)
{
	(void)size;
	free(p);
}
#else
/*
 * Some 4096 objects: at the model's rate of frees (about 10^4 a second) a freed object stays
 * poisoned for a few tenths of a second, much longer than the grace periods a late access
 * races with.
 */
#define QUARANTINE_SIZE	4096

static void *held[QUARANTINE_SIZE];
static unsigned int next;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void cgt_free_poisoned(void *p, size_t size)
{
	void *old;

	if (!p)
		return;
	memset(p, CGT_POISON_FREE, size);
	pthread_mutex_lock(&lock);
	old = held[next];
	held[next] = p;
	next = (next + 1) % QUARANTINE_SIZE;
	pthread_mutex_unlock(&lock);
	free(old);
}
#endif
