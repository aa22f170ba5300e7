// SPDX-License-Identifier: GPL-2.0
/*
 * Actors: every model thread is a real pthread. copy_process() asks for one through the
 * model's hooks (spawn at dup_task_struct, start at wake_up_new_task), so a failed
 * pthread_create is a failed fork in the model, never a crash. The pthread runs the model
 * thread's life: operations until it exits, is killed (an exec of its group), or the run
 * stops.
 */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdlib.h>
#include <time.h>

#include "actor.h"
#include "park.h"
#include "../base/clock.h"
#include "../base/machine.h"

struct actor {
	pthread_t thread;
	sem_t gate;			/* opened by wake_up_new_task, or to abandon */
	bool abandoned;			/* copy_process failed: go without running */
	struct task *task;
	struct prng rng;
	struct cgt_thread state;	/* what the detectors see of it */
	struct cgt_sched_ent ent;	/* its place in a controlled run */
};

static struct cgt_run *actor_run;
static pthread_attr_t actor_attr;
static uint64_t actor_stream;

/*
 * The task outlives its pthread (a zombie leader) and an exec's zap, under the group's
 * siglock, may have just looked its actor up to wake it (actor_kill): the actor lets go of
 * the task under the same lock, so no zap still holds it when it is freed. (A controlled
 * run moves one thread at a time: a zap never overlaps this.)
 */
static void actor_detach(struct task *me)
{
	if (cgt_sched_on()) {
		WRITE_ONCE(me->ctx, NULL);
		return;
	}
	pthread_mutex_lock(&me->signal->siglock);
	WRITE_ONCE(me->ctx, NULL);
	pthread_mutex_unlock(&me->signal->siglock);
}

/* The life of one model thread. */
static void *actor_main(void *arg)
{
	struct actor *a = arg;
	struct cgt_run *run = actor_run;
	struct task *me;

	sem_wait(&a->gate);
	if (a->abandoned)
		goto out;
	me = a->task;
	cgt_rcu_register_thread();
	cgt_thread_attach(&a->state);
	if (cgt_sched_on())
		cgt_sched_enter(&a->ent);
	for (;;) {
		cgt_point(CGT_PT_LOOP, NULL);
		if (fatal_signal_pending(me) || cgt_run_stopping(run))
			break;
		if (__atomic_load_n(&run->pause, __ATOMIC_ACQUIRE)) {
			/* an exec's SIGKILL that came before the pause must still take effect */
			if (!fatal_signal_pending(me))
				cgt_run_park(run, me);
			continue;
		}
		if (cgt_do_op(run, me, cgt_pick_op(run, &a->rng), &a->rng) == CGT_OP_EXITED)
			goto exited;
	}
	if (fatal_signal_pending(me))
		stat_inc(run, killed);
	do_exit(me);
exited:
	stat_add(run, live, -1);
	actor_detach(me);
	put_task_struct(me);
	cgt_sched_exit();
	cgt_thread_unregister(&a->state);
	cgt_rcu_unregister_thread();
out:
	sem_destroy(&a->gate);
	free(a);
	/* release: the driver frees the run once this count reaches zero */
	__atomic_fetch_sub(&run->stats.actors, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* dup_task_struct: the child's pthread, waiting at its gate. */
static int actor_spawn(struct task *child)
{
	struct actor *a = calloc(1, sizeof(*a));
	int err;

	if (!a)
		return -ENOMEM;
	a->task = child;
	prng_seed(&a->rng, actor_run->cfg->seed,
		  __atomic_add_fetch(&actor_stream, 1, __ATOMIC_RELAXED));
	sem_init(&a->gate, 0, 0);
	child->ctx = a;
	stat_add(actor_run, actors, 1);
	err = pthread_create(&a->thread, &actor_attr, actor_main, a);
	if (err) {
		stat_add(actor_run, actors, -1);
		sem_destroy(&a->gate);
		free(a);
		child->ctx = NULL;
		return -err;
	}
	return 0;
}

/* wake_up_new_task */
static void actor_start(struct task *child)
{
	struct actor *a = child->ctx;

	get_task_struct(child);		/* the pthread's own reference, dropped as it ends */
	/* from here an exec's wait for the group counts it: the detectors must see it */
	cgt_thread_register_new(&a->state, CGT_ROLE_ACTOR, child->pid, child->signal);
	if (cgt_sched_on())
		cgt_sched_add(&a->ent);
	sem_post(&a->gate);
}

static void actor_abandon(struct task *child)
{
	struct actor *a = child->ctx;

	a->abandoned = true;
	sem_post(&a->gate);
}

/* signal_wake_up: a parked thread must go and see its SIGKILL. */
static void actor_kill(struct task *t)
{
	struct actor *a;

	a = READ_ONCE(t->ctx);
	if (!a)
		return;
	if (cgt_sched_on())
		cgt_sched_wake_ent(&a->ent, &actor_run->pause);
	else
		cgt_run_wake_thread(&a->state);
}

/*
 * --off-cpu: the caller leaves the CPU holding what it holds. A free-running thread sleeps
 * in naps until the time is up, the run's --duration is over or a signal asks for the end
 * (the last check then finds it back: a run never outlasts its duration for it), marked off
 * the CPU: the hang watch sees a holder that does not move, though each nap's end makes it
 * runnable for a moment. A
 * controlled one is blocked on a token nobody wakes, so the schedule goes on without it
 * until nothing else can run.
 */
static const int off_cpu_token;

static void actor_off_cpu(double seconds)
{
	double end = cgt_now() + seconds, run_end = actor_run->start + actor_run->cfg->duration;
	struct timespec ts = { 0, 10000000 };

	if (cgt_sched_on()) {
		cgt_sched_block(&off_cpu_token);
		return;
	}
	cgt_thread_set_off_cpu(true);
	while (cgt_now() < end && cgt_now() < run_end && !cgt_run_stopping(actor_run) &&
	       !cgt_run_interrupted())
		nanosleep(&ts, NULL);
	cgt_thread_set_off_cpu(false);
}

const struct cgt_model_hooks cgt_actor_hooks = {
	.spawn	 = actor_spawn,
	.start	 = actor_start,
	.abandon = actor_abandon,
	.kill	 = actor_kill,
	.off_cpu = actor_off_cpu,
};

int cgt_actors_init(struct cgt_run *run)
{
	actor_run = run;
	actor_stream = 0;
	pthread_attr_init(&actor_attr);
	pthread_attr_setdetachstate(&actor_attr, PTHREAD_CREATE_DETACHED);
	cgt_machine_futex_hash(run->cfg->threads);
	return pthread_attr_setstacksize(&actor_attr, (size_t)run->cfg->stack_kib * 1024);
}
