/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.html (page.c): a report folder as one self-contained page that needs no network:
 * the verdict and each detector's evidence, the story, the timeline drawn as inline SVG (a
 * lane per involved thread, the others in one, an axis and a legend), the linkage picture,
 * and the commands to run it again.
 */
#ifndef CGT_PAGE_H
#define CGT_PAGE_H

#include <stddef.h>
#include <stdio.h>

/* @dir/report.html from @dir/@report, trace.json and linkage.svg: 0, or -1 and @why. */
int cgt_page_write(const char *dir, const char *report, char *why, size_t len);
/*
 * cgtorture show: @path read strictly (a bad one: one line on stderr, 2), its failure and
 * story printed on @out, and report.html written beside it; the exit status.
 */
int cgt_report_show(const char *path, FILE *out);

#endif
