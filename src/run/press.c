// SPDX-License-Identifier: GPL-2.0
/* Reader pressure on a reader-first lock whose readers pass its waiting writer (press.h). */
#include <pthread.h>
#include <string.h>

#include "press.h"
#include "../base/compiler.h"
#include "../core/failure.h"
#include "../locks/lock.h"

static struct pressable {
	struct cgt_lock *lock;
	enum cgt_read kinds[CGT_NR_READS];	/* its readers */
	int nkinds;
	long passed_seen;		/* the class's passed_over at the last look */
	int presses;
} pressable[CGT_NR_READS];
static int npressable;

static struct cgt_press_config conf;
/* read by every walker; released after its kinds were filled, so an acquire sees them */
static struct pressable *pressing;
static double until_s, pressed_s;
/* written by the driver; read by it at the end, or by the deadline's abort at any time */
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cgt_press log_[CGT_PRESS_LOG];
static int nlog;

/* The locks the readers hold across their walks (the model's, once it is set up). */
static void find_pressable(void)
{
	for (int k = 0; k < CGT_NR_READS; k++) {
		struct cgt_lock *l = cgt_read_locks[k];
		int i = 0;

		if (!l)
			continue;
		while (i < npressable && pressable[i].lock != l)
			i++;
		if (i == npressable)
			pressable[npressable++].lock = l;
		pressable[i].kinds[pressable[i].nkinds++] = (enum cgt_read)k;
	}
}

void cgt_press_reset(const struct cgt_press_config *cfg)
{
	conf = *cfg;
	pressed_s = 0;
	WRITE_ONCE(pressing, NULL);
	memset(pressable, 0, sizeof(pressable));
	npressable = 0;
	pthread_mutex_lock(&log_lock);
	nlog = 0;
	pthread_mutex_unlock(&log_lock);
}

/* A starvation report (known or not) names @l: pressing it again shows nothing new. */
static bool starved(const struct cgt_lock *l)
{
	return cgt_failure_about(CGT_DET_STARVATION, l->name);
}

void cgt_press_stop(double now_s)
{
	struct pressable *p = READ_ONCE(pressing);
	bool shown;

	if (!p)
		return;
	shown = starved(p->lock);
	WRITE_ONCE(pressing, NULL);
	pthread_mutex_lock(&log_lock);
	log_[nlog - 1].length_s = now_s - log_[nlog - 1].start_s;
	log_[nlog - 1].starved = shown;
	pressed_s += log_[nlog - 1].length_s;
	pthread_mutex_unlock(&log_lock);
}

/* Worth pressing now: reader-first, not yet shown starving, and not the era's known one. */
static bool pressable_now(const struct pressable *p)
{
	return p->lock->ops->policy == CGT_POLICY_READER_FIRST &&
	       p->presses < CGT_PRESS_PER_LOCK && !starved(p->lock) &&
	       (conf.known_too || !cgt_failure_is_known(CGT_DET_STARVATION, p->lock->name));
}

void cgt_press_refresh(double now_s)
{
	struct pressable *now = READ_ONCE(pressing);
	double length = CGT_PRESS_STARVES * conf.starve;

	if (!npressable)
		find_pressable();
	if (now && (now_s >= until_s || starved(now->lock)))
		cgt_press_stop(now_s);
	for (int i = 0; i < npressable; i++) {
		struct pressable *p = &pressable[i];
		long passed = __atomic_load_n(&p->lock->class->passed_over, __ATOMIC_RELAXED);
		bool grew = passed > p->passed_seen;

		p->passed_seen = passed;
		if (READ_ONCE(pressing) || !grew || nlog >= CGT_PRESS_LOG ||
		    now_s + length > conf.duration || pressed_s + length > conf.duration / 3 ||
		    !pressable_now(p))
			continue;
		p->presses++;
		pthread_mutex_lock(&log_lock);
		log_[nlog++] = (struct cgt_press){ .lock = p->lock->name, .start_s = now_s };
		pthread_mutex_unlock(&log_lock);
		until_s = now_s + length;
		__atomic_store_n(&pressing, p, __ATOMIC_RELEASE);
	}
}

bool cgt_press_read(struct cgt_run *run, struct prng *rng, struct cgt_watch *watch)
{
	const struct pressable *p = __atomic_load_n(&pressing, __ATOMIC_ACQUIRE);

	if (!p)
		return false;
	cgt_read(run, p->kinds[prng_below(rng, (uint32_t)p->nkinds)], rng, watch);
	return true;
}

const char *cgt_press_now(void)
{
	const struct pressable *p = __atomic_load_n(&pressing, __ATOMIC_ACQUIRE);

	return p ? p->lock->name : NULL;
}

int cgt_presses(struct cgt_press *out, int max)
{
	int n;

	pthread_mutex_lock(&log_lock);
	n = nlog < max ? nlog : max;
	memcpy(out, log_, (size_t)n * sizeof(*out));
	pthread_mutex_unlock(&log_lock);
	return n;
}
