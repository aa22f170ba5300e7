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
 * running, it sleeps on its own word (cgt_thread.park_word), bumped by the resume and by a
 * SIGKILL for it: on one word shared by every parked thread, each exec's zap woke all
 * 30,000 of them once per thread it killed. The count of the parked is a release, so the
 * driver that reads it all sees what each did.
 */
void cgt_run_park(struct cgt_run *run, struct task *me)
{
	struct cgt_thread *self = cgt_self;
	uint32_t gen;

	__atomic_store_n(&self->parked, 1, __ATOMIC_SEQ_CST);
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
		WRITE_ONCE(self->parked, 0);
		return;
	}
	__atomic_add_fetch(&run->parked, 1, __ATOMIC_SEQ_CST);
	/* a SIGKILL from an exec that began before the pause must still take effect */
	for (;;) {
		gen = __atomic_load_n(&self->park_word, __ATOMIC_SEQ_CST);
		__atomic_thread_fence(__ATOMIC_SEQ_CST);	/* the SIGKILL's plain store */
		if (!__atomic_load_n(&run->pause, __ATOMIC_SEQ_CST) || cgt_run_stopping(run) ||
		    (me && fatal_signal_pending(me)))
			break;
		futex_wait(&self->park_word, gen, NULL);
	}
	__atomic_sub_fetch(&run->parked, 1, __ATOMIC_RELAXED);
	WRITE_ONCE(self->parked, 0);
}

/*
 * Let @t look again if it is parked: its SIGKILL (set before this call) or the end of the
 * pause. Either @t, parking, sees what changed, or this sees it parked and bumps its word,
 * which its futex_wait will not sleep through (both sides sequentially consistent).
 */
void cgt_run_wake_thread(struct cgt_thread *t)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (!__atomic_load_n(&t->parked, __ATOMIC_SEQ_CST))
		return;
	__atomic_add_fetch(&t->park_word, 1, __ATOMIC_SEQ_CST);
	futex_wake(&t->park_word, 1);
}

/* The pause is over: every parked thread looks again. */
void cgt_run_wake_parked(struct cgt_run *run)
{
	if (!__atomic_load_n(&run->parked, __ATOMIC_SEQ_CST))
		return;
	cgt_threads_lock();
	for (struct cgt_thread *t = cgt_threads_first(); t; t = t->next)
		cgt_run_wake_thread(t);
	cgt_threads_unlock();
}
