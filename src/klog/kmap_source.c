// SPDX-License-Identifier: GPL-2.0
/*
 * A reproduction's report.json gets the kernel's record it came from, as "source": its kind,
 * title, kernel and era, each frame and lock with what it is in the model, the lock it waits
 * for and the search that found it. The page (page.c) shows it beside the model's story.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmap.h"
#include "../base/files.h"
#include "../model/bugs.h"

static const char *yes_no(int v)
{
	return v > 0 ? "yes" : v == 0 ? "no" : "not asked";
}

static json_t *source_json(const char *log_path, const struct cgt_kmap *m,
			   const struct cgt_kmap_candidate *c, const struct cgt_kmap_judgement *j)
{
	const struct cgt_klog_record *r = m->rec;
	json_t *frames = json_array(), *locks = json_array();

	for (int i = 0; i < m->nframes; i++)
		json_array_append_new(frames, json_pack("{s:s, s:s?, s:b, s:b, s:i}",
				"kernel", m->frames[i].kernel, "model", m->frames[i].model,
				"looked_past", m->frames[i].skipped, "slow_path",
				m->frames[i].primitive, "stack", r->frames[i].stack));
	for (int i = 0; i < m->nlocks; i++)
		json_array_append_new(locks, json_pack("{s:s, s:s?}", "kernel", m->locks[i].kernel,
						       "model", m->locks[i].model));
	return json_pack("{s:s, s:s, s:s, s:s?, s:s, s:s, s:i, s:o, s:o, s:s?, s:s?, s:s?, s:s,"
			 " s:s, s:s, s:{s:s, s:s, s:s, s:s}, s:s?}",
			 "file", log_path, "kind", cgt_klog_kind_names[r->kind], "title", r->title,
			 "kernel", r->version[0] ? r->version : NULL, "era", c->era,
			 "era_why", m->era_why, "line", r->line,
			 "frames", frames, "locks", locks, "waits_for", m->waits_for,
			 "waits_side", m->waits_side ? cgt_kmap_side_name(m->waits_side) : NULL,
			 "walk", m->walk,
			 "reproduced_as", cgt_kmap_candidate_name(c),
			 "detector", cgt_detector_names[c->detector],
			 "verdict", j->grade == CGT_KMAP_REPRODUCED ? "reproduced" :
			 j->grade == CGT_KMAP_IN_PART ? "reproduced in part" : "another failure",
			 "matched", "detector", yes_no(j->detector), "lock", yes_no(j->lock),
			 "functions", yes_no(j->functions), "era", j->era ? "yes" : "guessed",
			 "lacks", j->lacks[0] ? j->lacks : NULL);
}

int cgt_kmap_write_source(const char *report, const char *log_path, const struct cgt_kmap *m,
			  const struct cgt_kmap_candidate *c, const struct cgt_kmap_judgement *j,
			  char *why, size_t len)
{
	json_error_t jerr;
	json_t *r = json_load_file(report, 0, &jerr);
	char *dir, *slash, *text;
	int ret;

	if (!r) {
		snprintf(why, len, "%s cannot be read: %s", report, jerr.text);
		return -1;
	}
	json_object_set_new(r, "source", source_json(log_path, m, c, j));
	text = json_dumps(r, JSON_INDENT(2));
	json_decref(r);
	dir = strdup(report);
	slash = dir ? strrchr(dir, '/') : NULL;
	if (!text || !slash) {
		snprintf(why, len, "no memory");
		free(text);
		free(dir);
		return -1;
	}
	*slash = '\0';
	ret = cgt_write_atomic(dir, slash + 1, text, strlen(text));
	if (ret)
		snprintf(why, len, "cannot write %s: %s", report, strerror(-ret));
	free(text);
	free(dir);
	return ret ? -1 : 0;
}
