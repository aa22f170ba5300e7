/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a report shows of the moment its failure of interest was seen (capture.c), taken as
 * the detector fires, before the model moves on: a copy of every harness thread (live, and
 * the last to finish) with its event ring, which of them are involved, the window in which
 * the events of every involved thread are complete, and the model's linkage near them.
 * The story, trace.json and the linkage picture are all drawn from it.
 */
#ifndef CGT_CAPTURE_H
#define CGT_CAPTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/failure.h"
#include "../core/thread.h"
#include "../model/snapshot.h"
#include "report_read.h"

#define CGT_CAPTURE_INVOLVED	CGT_REPORT_INVOLVED	/* the report's "timeline" holds them */

struct cgt_capture {
	bool taken;
	bool controlled;		/* times are decisions, not nanoseconds */
	struct cgt_failure failure;	/* the failure of interest (its evidence not kept) */
	char evidence[4096];
	uint64_t at;			/* the failure's time: ns, or its decision */
	struct cgt_thread *threads;	/* copies: the live threads, then the finished */
	int nthreads;
	int nlive;			/* threads[nlive..] had finished */
	int involved[CGT_CAPTURE_INVOLVED];	/* indexes in threads[], the failing one first */
	int ninvolved;
	uint64_t window_from;		/* every involved thread's events are complete since */
	char kind[256];			/* the failure's kind (kind.h), from the threads for a hang */
	struct cgt_linkage linkage;
};

/* Take the capture of failure @f (its index @which among @nf): on the failing thread. */
void cgt_capture_take(const struct cgt_failure *f, bool controlled);
/* The capture of this run, or NULL. */
const struct cgt_capture *cgt_capture(void);
void cgt_capture_reset(void);
bool cgt_capture_is_involved(const struct cgt_capture *c, int index);
/* The captured thread that is T@id of the controlled run, or NULL. */
const struct cgt_thread *cgt_capture_sched_thread(const struct cgt_capture *c, int id);
/*
 * A thread as the story and the columns name it: "T5 (walker)", "T12 (tid 33)" in a
 * controlled run, "thread 5 (walker)" in a free one. snprintf's return.
 */
size_t cgt_capture_who(char *buf, size_t len, const struct cgt_thread *t);

#endif
