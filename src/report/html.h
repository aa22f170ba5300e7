/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Writing report.html (html.c): text escaped for HTML, and a JSON member read as the page
 * needs it (absent reads as "" or 0: a page says what it has).
 */
#ifndef CGT_HTML_H
#define CGT_HTML_H

#include <jansson.h>
#include <stdio.h>

void cgt_html_esc(FILE *m, const char *s);
/* @o's string member @key, or "" */
const char *cgt_html_str(json_t *o, const char *key);
/* @o's number member @key, or 0 */
double cgt_html_num(json_t *o, const char *key);

#endif
