/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The story of a run's failure of interest: the few events that led to it (in decisions in a
 * controlled run, in milliseconds in a free one), told when it is seen (the threads involved
 * may be gone by the end of the run).
 */
#ifndef CGT_STORY_H
#define CGT_STORY_H

#include "../run/run.h"

/* The run hooks that keep the story: begin forgets the last, failure tells a new one. */
void cgt_story_begin(const struct cgt_run_config *cfg);
void cgt_story_failure(const struct cgt_run_config *cfg, enum cgt_detector det, long nth);
void cgt_story_settle(void);		/* a story being told is finished first */
const char *cgt_story(void);		/* one event per line, or NULL */

#endif
