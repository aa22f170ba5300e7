// SPDX-License-Identifier: GPL-2.0
/*
 * hang (src/detect/hang.c) judged by progress: a wait past --stall is a hang only when
 * nothing along its wait-for chain moved within the stall. A queue whose holder keeps
 * stepping, or whose lock keeps changing hands, is a convoy (its waiters past the stall
 * counted per lock class, not reported); a chain whose holder at the end has gone silent and asleep is a hang, and its
 * report names that holder and the chain. Each test builds its chain with a handshake, so
 * the order of events is fixed; only the watchdog's looks are timed, with margins of several
 * stalls, so a loaded machine makes a test slower, not wrong.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "model_fixture.h"
#include "../../src/detect/detect.h"
#include "../../src/run/points.h"

#define STALL_S		0.5
#define NWAITERS	4

struct chain_ctx {
	struct cgt_lock a, b;		/* the holder holds a; the middle thread b, waits for a */
	int stop;			/* a silent holder sleeps until a signal ends it */
	int holder_awake;		/* it is out of its sleep */
	int below;			/* the holder blocks on a libc semaphore instead */
	sem_t below_sem;
	int holding;			/* the holder has a */
	int stepping;			/* the holder passes marked points while it holds a */
	int middle_holds_b;
	struct cgt_thread self[NWAITERS + 2];
	int ids[NWAITERS + 2];
};

static struct chain_ctx ctx;

static void start_detectors(void)
{
	struct cgt_detect_config dc = { .stall = STALL_S, .starve = 0, .deadline = 0 };

	cgt_clock_reset();
	cgt_failures_reset();
	cgt_lock_classes_reset();
	cgt_events_install(0, false, 1);
	cr_assert_eq(cgt_detect_start(&dc), 0, "cgt_detect_start failed");
	cr_assert_eq(cgt_detect_watch(), 0, "cgt_detect_watch failed");
}

static void register_as(int k)
{
	cgt_thread_register(&ctx.self[k], CGT_ROLE_ACTOR, 100 + k);
	__atomic_store_n(&ctx.ids[k], ctx.self[k].id, __ATOMIC_RELEASE);
}

/*
 * Holds a until told to stop: stepping (a marked point every 10 ms), or silent and asleep
 * throughout, off the CPU as --off-cpu's holder is: one sleep call (not naps that a loaded
 * machine would catch it waking from; not a futex, which is a lock below the model), until
 * chain_stop's signal ends it.
 */
static void *holder(void *arg)
{
	struct timespec forever = { 3600, 0 };

	(void)arg;
	register_as(0);
	cgt_write_lock(&ctx.a);
	__atomic_store_n(&ctx.holding, 1, __ATOMIC_RELEASE);
	if (ctx.below)
		sem_wait(&ctx.below_sem);
	while (!ctx.stepping && !ctx.below && !__atomic_load_n(&ctx.stop, __ATOMIC_ACQUIRE))
		nanosleep(&forever, NULL);
	__atomic_store_n(&ctx.holder_awake, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&ctx.stop, __ATOMIC_ACQUIRE)) {
		struct timespec ts = { 0, 10000000L };

		nanosleep(&ts, NULL);
		cgt_point(CGT_PT_LOOP, NULL);
	}
	cgt_write_unlock(&ctx.a);
	cgt_thread_unregister(&ctx.self[0]);
	return NULL;
}

/* Takes b, then waits for a behind the holder. */
static void *middle(void *arg)
{
	(void)arg;
	register_as(1);
	cgt_write_lock(&ctx.b);
	__atomic_store_n(&ctx.middle_holds_b, 1, __ATOMIC_RELEASE);
	cgt_write_lock(&ctx.a);
	cgt_write_unlock(&ctx.a);
	cgt_write_unlock(&ctx.b);
	cgt_thread_unregister(&ctx.self[1]);
	return NULL;
}

/* Waits for b, behind the middle thread. */
static void *waiter(void *arg)
{
	int k = (int)(long)arg;

	register_as(k);
	cgt_write_lock(&ctx.b);
	cgt_write_unlock(&ctx.b);
	cgt_thread_unregister(&ctx.self[k]);
	return NULL;
}

/* holder <- middle <- NWAITERS waiters: a chain two locks long, the holder at its end. */
static void on_wake(int sig)
{
	(void)sig;
}

static void chain_start(pthread_t *th, bool stepping, bool below)
{
	struct sigaction sa = { .sa_handler = on_wake };	/* no SA_RESTART: the sleep ends */

	sigaction(SIGUSR1, &sa, NULL);
	memset(&ctx, 0, sizeof(ctx));
	sem_init(&ctx.below_sem, 0, 0);
	ctx.stepping = stepping;
	ctx.below = below;
	start_detectors();
	cgt_lock_init(&ctx.a, cgt_lock_find("mutex"), "test_mutex_a");
	cgt_lock_init(&ctx.b, cgt_lock_find("mutex"), "test_mutex_b");
	cr_assert_eq(pthread_create(&th[0], NULL, holder, NULL), 0);
	while (!__atomic_load_n(&ctx.holding, __ATOMIC_ACQUIRE))
		nap();
	cr_assert_eq(pthread_create(&th[1], NULL, middle, NULL), 0);
	while (!__atomic_load_n(&ctx.middle_holds_b, __ATOMIC_ACQUIRE))
		nap();
	for (long k = 2; k < NWAITERS + 2; k++)
		cr_assert_eq(pthread_create(&th[k], NULL, waiter, (void *)k), 0);
}

/* Wake @th until @flag is set: a signal just before its sleep began is lost to it. */
static void wake_until(pthread_t th, int *flag)
{
	while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE)) {
		pthread_kill(th, SIGUSR1);
		nap();
	}
}

static void chain_stop(pthread_t *th)
{
	__atomic_store_n(&ctx.stop, 1, __ATOMIC_RELEASE);
	sem_post(&ctx.below_sem);
	wake_until(th[0], &ctx.holder_awake);
	for (int k = 0; k < NWAITERS + 2; k++)
		pthread_join(th[k], NULL);
	cgt_detect_stop();
	sem_destroy(&ctx.below_sem);
}

static void sleep_s(double s)
{
	double end = now_sec() + s;

	while (now_sec() < end)
		nap();
}

TestSuite(hang, .timeout = 60);

/*
 * A convoy: the holder steps on for six stalls while its queue waits, as a migration of a
 * large process holds cgroup_mutex. No report; the waits past the stall are counted.
 */
Test(hang, a_queue_whose_holder_steps_is_a_convoy_not_a_hang)
{
	struct cgt_lock_class c[CGT_MAX_LOCK_CLASSES];
	pthread_t th[NWAITERS + 2];
	uint64_t convoy = 0;
	uint64_t queue = 0;
	int n;

	chain_start(th, true, false);
	sleep_s(6 * STALL_S);
	cr_assert_eq(cgt_failure_count(CGT_DET_HANG), 0, "a moving chain was reported as a hang");
	chain_stop(th);
	n = cgt_lock_classes(c, CGT_MAX_LOCK_CLASSES);
	for (int i = 0; i < n; i++) {
		if (!strcmp(c[i].name, "test_mutex_b")) {
			convoy = c[i].convoy_max;
			queue = c[i].queue_max;
		}
	}
	cr_assert_eq(cgt_failure_count(CGT_DET_HANG), 0);
	cr_assert_eq(convoy, NWAITERS, "waits past the stall in the moving queue: %llu",
		     (unsigned long long)convoy);
	cr_assert_eq(queue, NWAITERS, "longest queue on b: %llu", (unsigned long long)queue);
}

/*
 * The same chain with the holder silent and asleep: a hang, reported once for the episode,
 * naming the holder at the chain's end and the chain.
 */
Test(hang, a_chain_whose_end_stopped_is_a_hang_naming_its_holder)
{
	pthread_t th[NWAITERS + 2];
	struct cgt_failure all[CGT_MAX_FAILURES];
	char holder_line[64], at_end[] = "at its end:\n";
	const char *ev, *end;
	int n;

	chain_start(th, false, false);
	for (int i = 0; i < 200 && !cgt_failure_count(CGT_DET_HANG); i++)
		sleep_s(0.05);
	sleep_s(2 * STALL_S);		/* later looks must not report the same waits again */
	n = cgt_failures_get(all, CGT_MAX_FAILURES);
	chain_stop(th);
	cr_assert_eq(cgt_failure_count(CGT_DET_HANG), 1, "hang reports: %ld",
		     cgt_failure_count(CGT_DET_HANG));
	cr_assert_eq(n, 1);
	ev = all[0].evidence;
	cr_assert_not_null(ev);
	cr_assert_not_null(strstr(ev, "wait-for chain"), "no chain in:\n%s", ev);
	end = strstr(ev, at_end);
	cr_assert_not_null(end, "no chain end in:\n%s", ev);
	snprintf(holder_line, sizeof(holder_line), "  thread %d (actor, tid 100) holds test_mutex_a",
		 ctx.ids[0]);
	cr_assert(!strncmp(end + strlen(at_end), holder_line, strlen(holder_line)),
		  "the holder is not named at the chain's end:\n%s", ev);
	cr_assert_not_null(strstr(end, "asleep"), "the holder's state is not given:\n%s", ev);
}

/*
 * The holder blocked below the model, on a lock of libc (as a thread may wait seconds for
 * liburcu's registry lock or the kernel's mmap_lock at 30,000 threads): the machine is
 * slow, the model has not stopped, so no report; a model wait would have named its object.
 */
Test(hang, a_holder_blocked_below_the_model_is_no_hang)
{
	pthread_t th[NWAITERS + 2];

	chain_start(th, false, true);
	sleep_s(6 * STALL_S);
	cr_assert_eq(cgt_failure_count(CGT_DET_HANG), 0,
		     "a holder blocked in libc, below the model, was called hung");
	chain_stop(th);
}

/*
 * The watchdog judges a copy of the threads and reads /proc a moment later; at 30,000
 * threads that moment is long. A waiter copied in a group-exit wait with nobody in its way,
 * since woken, run and asleep again in its next wait, has moved: only a copy that still
 * holds is a hang. The copy is handed to the detector by hand, and the thread is asleep
 * (one sleep call, as the silent holder above) when the detector looks.
 */
static struct {
	struct cgt_thread self;
	char first, next;		/* what it waits for, then */
	int waits, go, moved, stop, os_tid;
} stale;

static void *stale_waiter(void *arg)
{
	struct timespec forever = { 3600, 0 };

	(void)arg;
	cgt_thread_register(&stale.self, CGT_ROLE_ACTOR, 200);
	__atomic_store_n(&stale.os_tid, stale.self.os_tid, __ATOMIC_RELEASE);
	cgt_wait_begin(&stale.first, "test group", CGT_WAIT_GROUP_EXIT);
	__atomic_store_n(&stale.waits, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&stale.go, __ATOMIC_ACQUIRE) &&
	       !__atomic_load_n(&stale.stop, __ATOMIC_ACQUIRE))
		nanosleep(&forever, NULL);
	cgt_wait_end();
	cgt_wait_begin(&stale.next, "test group", CGT_WAIT_GROUP_EXIT);
	__atomic_store_n(&stale.moved, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&stale.stop, __ATOMIC_ACQUIRE))
		nanosleep(&forever, NULL);
	cgt_wait_end();
	cgt_thread_unregister(&stale.self);
	return NULL;
}

static long judge_stale_copy(bool moves_after_copy)
{
	struct cgt_detect_config dc = { .stall = STALL_S };
	struct sigaction sa = { .sa_handler = on_wake };
	const struct cgt_detector_ops *hang = cgt_detectors[CGT_DET_HANG];
	struct cgt_thread *v = NULL;
	int cap = 0, n;
	pthread_t th;
	long reports;

	sigaction(SIGUSR1, &sa, NULL);
	memset(&stale, 0, sizeof(stale));
	cgt_clock_reset();
	cgt_failures_reset();
	cr_assert_eq(hang->start(&dc), 0);
	cr_assert_eq(pthread_create(&th, NULL, stale_waiter, NULL), 0);
	while (!__atomic_load_n(&stale.waits, __ATOMIC_ACQUIRE))
		nap();
	n = cgt_threads_snapshot(&v, &cap);
	cr_assert_gt(n, 0);
	if (moves_after_copy) {
		__atomic_store_n(&stale.go, 1, __ATOMIC_RELEASE);
		wake_until(th, &stale.moved);
	}
	/* asleep when the detector reads /proc, as the woken waiter was in its next wait */
	while (cgt_thread_runnable(__atomic_load_n(&stale.os_tid, __ATOMIC_ACQUIRE)))
		nap();
	hang->watch(v, n, cgt_clock_ns() + (uint64_t)(10 * STALL_S * 1e9));
	reports = cgt_failure_count(CGT_DET_HANG);
	__atomic_store_n(&stale.stop, 1, __ATOMIC_RELEASE);
	pthread_kill(th, SIGUSR1);
	while (pthread_tryjoin_np(th, NULL)) {
		pthread_kill(th, SIGUSR1);
		nap();
	}
	free(v);
	return reports;
}

Test(hang, a_waiter_that_moved_since_the_copy_is_no_hang)
{
	cr_assert_eq(judge_stale_copy(true), 0,
		     "a waiter woken and asleep again since the copy was called hung");
}

Test(hang, a_waiter_still_as_copied_is_a_hang)
{
	cr_assert_eq(judge_stale_copy(false), 1, "a waiter whose copy still holds was not reported");
}
