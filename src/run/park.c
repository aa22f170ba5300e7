// SPDX-License-Identifier: GPL-2.0
/*
 * The pause of a run: a model thread parks here, at the top of its loop, while the driver
 * holds the model still to check it; free-running asleep on a futex word, or, in a
 * controlled run, blocked in the scheduler until the driver lets it go.
 */
#include "park.h"
#include "../base/futex.h"

/*
 * A model thread waits here, between operations, while the driver inspects the model. Free
 * running, it sleeps on park_gen, which every resume and every SIGKILL bumps: a mutex and
 * condition variable made 30,000 parked threads wake into one queue for the mutex. The
 * count of the parked is a release, so the driver that reads it all sees what each did.
 */
void cgt_run_park(struct cgt_run *run, struct task *me)
{
	uint32_t gen;

	if (cgt_self)
		WRITE_ONCE(cgt_self->parked, 1);
	if (cgt_sched_on()) {
		/* the lock orders the model's state before the driver's check, for TSan */
		pthread_mutex_lock(&run->park_lock);
		__atomic_add_fetch(&run->parked, 1, __ATOMIC_RELEASE);
		pthread_mutex_unlock(&run->park_lock);
		if (!(me && fatal_signal_pending(me)))
			cgt_sched_block(&run->pause);
		pthread_mutex_lock(&run->park_lock);
		__atomic_sub_fetch(&run->parked, 1, __ATOMIC_RELAXED);
		pthread_mutex_unlock(&run->park_lock);
		if (cgt_self)
			WRITE_ONCE(cgt_self->parked, 0);
		return;
	}
	__atomic_add_fetch(&run->parked, 1, __ATOMIC_SEQ_CST);
	/* a SIGKILL from an exec that began before the pause must still take effect */
	for (;;) {
		gen = __atomic_load_n(&run->park_gen, __ATOMIC_SEQ_CST);
		if (!__atomic_load_n(&run->pause, __ATOMIC_SEQ_CST) || cgt_run_stopping(run) ||
		    (me && fatal_signal_pending(me)))
			break;
		futex_wait(&run->park_gen, gen, NULL);
	}
	__atomic_sub_fetch(&run->parked, 1, __ATOMIC_RELAXED);
	if (cgt_self)
		WRITE_ONCE(cgt_self->parked, 0);
}

/*
 * Let the parked threads look again: the pause ended, or one of them got a SIGKILL (which
 * is set before this bump, so a thread that read the old word sees it on waking).
 */
void cgt_run_wake_parked(struct cgt_run *run)
{
	/* the SIGKILL's plain store before the count's load: a thread counted sees the signal */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (!__atomic_load_n(&run->parked, __ATOMIC_SEQ_CST))
		return;
	__atomic_add_fetch(&run->park_gen, 1, __ATOMIC_SEQ_CST);
	futex_wake(&run->park_gen, INT32_MAX);
}
