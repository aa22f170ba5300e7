// SPDX-License-Identifier: GPL-2.0
/*
 * The pause of a run: a model thread parks here, at the top of its loop, while the driver
 * holds the model still to check it; free-running on a condition variable, or, in a
 * controlled run, blocked in the scheduler until the driver lets it go.
 */
#include "park.h"

/* A model thread waits here, between operations, while the driver inspects the model. */
void cgt_run_park(struct cgt_run *run, struct task *me)
{
	if (cgt_self)
		WRITE_ONCE(cgt_self->parked, 1);
	pthread_mutex_lock(&run->park_lock);
	run->parked++;
	if (cgt_sched_on()) {
		/* the lock orders the model's state before the driver's check, for TSan */
		pthread_mutex_unlock(&run->park_lock);
		if (!(me && fatal_signal_pending(me)))
			cgt_sched_block(&run->pause);
		pthread_mutex_lock(&run->park_lock);
		run->parked--;
		pthread_mutex_unlock(&run->park_lock);
		if (cgt_self)
			WRITE_ONCE(cgt_self->parked, 0);
		return;
	}
	pthread_cond_broadcast(&run->park_cond);
	/* a SIGKILL from an exec that began before the pause must still take effect */
	while (__atomic_load_n(&run->pause, __ATOMIC_ACQUIRE) && !cgt_run_stopping(run) &&
	       !(me && fatal_signal_pending(me)))
		pthread_cond_wait(&run->park_cond, &run->park_lock);
	run->parked--;
	pthread_mutex_unlock(&run->park_lock);
	if (cgt_self)
		WRITE_ONCE(cgt_self->parked, 0);
}

/*
 * signal_wake_up in a free run: a parked thread must go and see its SIGKILL. The signal is
 * set before this lock is taken, and a thread parks and looks at it under the lock, so
 * either it sees the signal or it is waiting here to be woken.
 */
void cgt_run_wake_parked(struct cgt_run *run)
{
	pthread_mutex_lock(&run->park_lock);
	if (run->parked)
		pthread_cond_broadcast(&run->park_cond);
	pthread_mutex_unlock(&run->park_lock);
}
