/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.html's timeline (timeline.c): trace.json drawn as inline SVG, a lane for each
 * involved thread and one for all the others, a time axis, the window and a legend.
 */
#ifndef CGT_TIMELINE_H
#define CGT_TIMELINE_H

#include <jansson.h>
#include <stdio.h>

/* The timeline's part of the page's style: its frame and each kind of mark's colour. */
void cgt_timeline_style(FILE *m);
/* The caption, the SVG and the legend of @trace; @involved: report.json's thread ids. */
void cgt_timeline_write(FILE *m, json_t *trace, json_t *involved);

#endif
