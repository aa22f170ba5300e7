// SPDX-License-Identifier: GPL-2.0
/* Helpers for report.html's writers (html.h): page.c and timeline.c. */
#include "html.h"

void cgt_html_esc(FILE *m, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", m); break;
		case '>': fputs("&gt;", m); break;
		case '&': fputs("&amp;", m); break;
		case '"': fputs("&quot;", m); break;
		case '\'': fputs("&#39;", m); break;
		default: fputc(*s, m);
		}
	}
}

const char *cgt_html_str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

double cgt_html_num(json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}
