// SPDX-License-Identifier: GPL-2.0
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/compiler.h"
#include "failure.h"
#include "point.h"
#include "thread.h"

const char *const cgt_detector_names[CGT_NR_DETECTORS] = {
#define X(id, sym, name, desc) [CGT_DET_##id] = name,
	CGT_DETECTORS(X)
#undef X
};

const char *const cgt_detector_descs[CGT_NR_DETECTORS] = {
#define X(id, sym, name, desc) [CGT_DET_##id] = desc,
	CGT_DETECTORS(X)
#undef X
};

static pthread_mutex_t failure_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cgt_failure failures[CGT_MAX_FAILURES];
static int nfailures;
static long counts[CGT_NR_DETECTORS], known_counts[CGT_NR_DETECTORS];
static void (*fail_hook)(enum cgt_detector det, bool known);

#define MAX_KNOWN	4

static struct known {
	enum cgt_detector det;
	char subject[48], as[48];
} knowns[MAX_KNOWN];
static int nknowns;

void cgt_failure_know(enum cgt_detector det, const char *subject, const char *as)
{
	pthread_mutex_lock(&failure_lock);
	if (nknowns < MAX_KNOWN) {
		knowns[nknowns].det = det;
		snprintf(knowns[nknowns].subject, sizeof(knowns[0].subject), "%s", subject);
		snprintf(knowns[nknowns].as, sizeof(knowns[0].as), "%s", as);
		nknowns++;
	}
	pthread_mutex_unlock(&failure_lock);
}

/* Under failure_lock: what a failure of @det about @subject is known as, or NULL. */
static const char *known_as(enum cgt_detector det, const char *subject)
{
	for (int i = 0; subject && i < nknowns; i++)
		if (knowns[i].det == det && !strcmp(knowns[i].subject, subject))
			return knowns[i].as;
	return NULL;
}

bool cgt_failure_about(enum cgt_detector det, const char *subject)
{
	bool seen = false;

	pthread_mutex_lock(&failure_lock);
	for (int i = 0; i < nfailures && !seen; i++)
		seen = failures[i].detector == det && !strcmp(failures[i].subject, subject);
	pthread_mutex_unlock(&failure_lock);
	return seen;
}

bool cgt_failure_is_known(enum cgt_detector det, const char *subject)
{
	bool known;

	pthread_mutex_lock(&failure_lock);
	known = known_as(det, subject) != NULL;
	pthread_mutex_unlock(&failure_lock);
	return known;
}

/* The thread's state now, so the report tells its story even after it has gone. */
static struct cgt_thread *thread_snapshot(int id)
{
	struct cgt_thread *copy = NULL;

	if (!id)
		return NULL;
	cgt_threads_lock();
	for (struct cgt_thread *t = cgt_threads_first(); t; t = t->next) {
		if (t->id != id)
			continue;
		copy = malloc(sizeof(*copy));
		if (copy)
			cgt_thread_copy(copy, t);
		break;
	}
	cgt_threads_unlock();
	return copy;
}

static void fail_record(enum cgt_detector det, int thread_id, const char *subject,
			const int *involved, int n, const char *evidence, const char *fmt, va_list ap)
{
	struct cgt_thread *snap = thread_snapshot(thread_id);
	void (*hook)(enum cgt_detector det, bool known);
	const char *as;

	pthread_mutex_lock(&failure_lock);
	as = known_as(det, subject);
	if (nfailures < CGT_MAX_FAILURES) {
		struct cgt_failure *f = &failures[nfailures++];

		f->detector = det;
		f->ns = cgt_clock_ns();
		f->step = READ_ONCE(cgt_step_clock);
		f->thread_id = thread_id;
		vsnprintf(f->summary, sizeof(f->summary), fmt, ap);
		f->ninvolved = n < CGT_FAILURE_INVOLVED ? n : CGT_FAILURE_INVOLVED;
		for (int i = 0; i < f->ninvolved; i++)
			f->involved[i] = involved[i];
		snprintf(f->subject, sizeof(f->subject), "%s", subject ? subject : "");
		snprintf(f->known, sizeof(f->known), "%s", as ? as : "");
		f->evidence = evidence ? strdup(evidence) : NULL;
		f->thread = snap;
		snap = NULL;
	}
	__atomic_fetch_add(&counts[det], 1, __ATOMIC_RELAXED);
	if (as)
		__atomic_fetch_add(&known_counts[det], 1, __ATOMIC_RELAXED);
	hook = fail_hook;
	pthread_mutex_unlock(&failure_lock);
	free(snap);
	if (hook)
		hook(det, as != NULL);
}

void cgt_fail_on(enum cgt_detector det, int thread_id, const char *subject, const char *evidence,
		 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fail_record(det, thread_id, subject, NULL, 0, evidence, fmt, ap);
	va_end(ap);
}

void cgt_fail_involving(enum cgt_detector det, int thread_id, const int *involved, int n,
			const char *evidence, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fail_record(det, thread_id, NULL, involved, n, evidence, fmt, ap);
	va_end(ap);
}

long cgt_failure_count(enum cgt_detector det)
{
	return __atomic_load_n(&counts[det], __ATOMIC_RELAXED);
}

static long sum(const long *per_detector)
{
	long n = 0;

	for (int i = 0; i < CGT_NR_DETECTORS; i++)
		n += __atomic_load_n(&per_detector[i], __ATOMIC_RELAXED);
	return n;
}

long cgt_failures_total(void)
{
	return sum(counts);
}

long cgt_failure_count_known(enum cgt_detector det)
{
	return __atomic_load_n(&known_counts[det], __ATOMIC_RELAXED);
}

long cgt_failures_known(void)
{
	return sum(known_counts);
}

int cgt_failures_get(struct cgt_failure *out, int max)
{
	int n;

	pthread_mutex_lock(&failure_lock);
	n = nfailures < max ? nfailures : max;
	memcpy(out, failures, (size_t)n * sizeof(*out));
	pthread_mutex_unlock(&failure_lock);
	return n;
}

void cgt_failures_reset(void)
{
	pthread_mutex_lock(&failure_lock);
	for (int i = 0; i < nfailures; i++) {
		free(failures[i].evidence);
		free(failures[i].thread);
	}
	nfailures = 0;
	memset(counts, 0, sizeof(counts));
	memset(known_counts, 0, sizeof(known_counts));
	nknowns = 0;
	pthread_mutex_unlock(&failure_lock);
}

void cgt_failure_set_hook(void (*hook)(enum cgt_detector det, bool known))
{
	pthread_mutex_lock(&failure_lock);
	fail_hook = hook;
	pthread_mutex_unlock(&failure_lock);
}
