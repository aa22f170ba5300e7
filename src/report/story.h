/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The story of a controlled run's first failure: the few events, counted in decisions, that
 * led to it, told when it is seen (the threads involved may be gone by the end of the run).
 */
#ifndef CGT_STORY_H
#define CGT_STORY_H

void cgt_story_capture(int which);	/* the failure hook: the story of failure @which */
const char *cgt_story(void);		/* one event per line, or NULL */
void cgt_story_reset(void);

#endif
