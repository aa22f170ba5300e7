// SPDX-License-Identifier: GPL-2.0
#include <pthread.h>
#include <time.h>

#include "clock.h"
#include "compiler.h"

static uint64_t clock_base;
long cgt_step_clock = -1;

static uint64_t raw_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t cgt_clock_coarse_ns(void)
{
	struct timespec ts;
	uint64_t now, base = READ_ONCE(clock_base);

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	now = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	/* just after a reset the last tick can be before the base */
	return now > base ? now - base : 0;
}

void cgt_clock_reset(void)
{
	WRITE_ONCE(clock_base, raw_ns());
}

uint64_t cgt_clock_ns(void)
{
	return raw_ns() - READ_ONCE(clock_base);
}

double cgt_now(void)
{
	return (double)raw_ns() * 1e-9;
}

uint64_t cgt_tick;
static pthread_mutex_t tick_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t tick_once = PTHREAD_ONCE_INIT;
static pthread_t ticker;
static int tick_users;
static int tick_stop;

static void *ticker_main(void *arg)
{
	struct timespec ts = { 0, CGT_TICK_NS };

	(void)arg;
	while (!__atomic_load_n(&tick_stop, __ATOMIC_ACQUIRE)) {
		__atomic_store_n(&cgt_tick, cgt_clock_ns() + 1, __ATOMIC_RELAXED);
		nanosleep(&ts, NULL);
	}
	return NULL;
}

/* A child of fork() has no ticker: its tick would stand still. */
static void tick_forked(void)
{
	__atomic_store_n(&cgt_tick, 0, __ATOMIC_RELAXED);
	tick_users = 0;
	pthread_mutex_init(&tick_lock, NULL);
}

static void tick_atfork(void)
{
	pthread_atfork(NULL, NULL, tick_forked);
}

void cgt_tick_start(void)
{
	pthread_once(&tick_once, tick_atfork);
	pthread_mutex_lock(&tick_lock);
	if (!tick_users) {
		__atomic_store_n(&tick_stop, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&cgt_tick, cgt_clock_ns() + 1, __ATOMIC_RELAXED);
		if (pthread_create(&ticker, NULL, ticker_main, NULL))
			__atomic_store_n(&cgt_tick, 0, __ATOMIC_RELAXED);	/* the coarse clock serves */
		else
			tick_users = 1;
	} else {
		tick_users++;
	}
	pthread_mutex_unlock(&tick_lock);
}

void cgt_tick_stop(void)
{
	pthread_mutex_lock(&tick_lock);
	if (tick_users && !--tick_users) {
		__atomic_store_n(&tick_stop, 1, __ATOMIC_RELEASE);
		pthread_join(ticker, NULL);
		__atomic_store_n(&cgt_tick, 0, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&tick_lock);
}
