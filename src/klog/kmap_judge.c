// SPDX-License-Identifier: GPL-2.0
/*
 * A failure the model showed, held against a kernel's record (kmap.h): "reproduced" only
 * when it is the record's mechanism in the record's kernel. Each column is asked only of the
 * kinds of failure it belongs to: the lock and side a blocked or spinning task waits for, a
 * lockdep cycle's locks, the function family (the model function the record's frames map
 * to, or the walk), and whether the era was the record's or a guess. A BUG is the same
 * check only as an invariant; any other detector there shows part of it.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmap.h"

/* The model function a mapping names: "oom_badness (the OOM killer)" -> "oom_badness". */
static size_t family(const char *model)
{
	return model ? strcspn(model, " ") : 0;
}

static bool has_word(const char *text, const char *w, size_t n)
{
	for (const char *p = text; n && (p = strstr(p, w)); p++) {
		bool start = p == text || !strchr("abcdefghijklmnopqrstuvwxyz0123456789_", p[-1]);
		bool end = !strchr("abcdefghijklmnopqrstuvwxyz0123456789_", p[n]) || !p[n];

		if (start && end && !strncmp(p, w, n))
			return true;
	}
	return false;
}

/* @text names kernel function @fn, or the model function it maps to. */
static bool names_fn(const char *text, const char *fn)
{
	const char *model = cgt_kmap_model_of(fn);
	char fam[64];
	size_t n = family(model);

	if (has_word(text, fn, strlen(fn)))
		return true;
	if (!n || n >= sizeof(fam))
		return false;
	memcpy(fam, model, n);
	fam[n] = '\0';
	return has_word(text, fam, n);
}

/* The lock and side column: the record's waiter in the failure's words. */
static int lock_column(const struct cgt_kmap *m, int det, const char *text)
{
	const struct cgt_kmap_mechanism *w = &m->want;
	char want[128];
	int named = 0;

	if (det == CGT_DET_LOCK_ORDER) {
		for (int i = 0; i < w->ncycle; i++)
			named += has_word(text, w->cycle[i], strlen(w->cycle[i]));
		return w->ncycle ? named == w->ncycle : -1;
	}
	if (!w->lock)
		return -1;
	if (!strcmp(w->lock, "rcu"))
		return strstr(text, "RCU grace period") != NULL;
	if (det == CGT_DET_STARVATION)
		return w->side == 'w' && has_word(text, w->lock, strlen(w->lock));
	snprintf(want, sizeof(want), "waits for %s (%s)", w->lock, cgt_kmap_side_name(w->side));
	/* a walk or a memory error holds no wait: the record's waiter is not in it */
	return strstr(text, want) != NULL;
}

/* The function column: the record's function family in the failure's words. */
static int functions_column(const struct cgt_kmap *m, int det, const char *text)
{
	const struct cgt_klog_record *r = m->rec;
	int seen = 0, need = det == CGT_DET_TSAN ? 2 : 1, asked = 0;

	if (det == CGT_DET_HANG || det == CGT_DET_STARVATION || det == CGT_DET_LOCK_ORDER)
		return -1;	/* a wait's function is not in the model's words: the lock is */
	if (det == CGT_DET_LIVELOCK) {
		const char *walk = m->want.walk, *in = strstr(text, " walk in "), *a, *b;
		char got[64];
		size_t n;

		if (!walk)
			return -1;
		if (!in)
			return 0;
		in += 9;
		n = strcspn(in, " \n");
		snprintf(got, sizeof(got), "%.*s", (int)n, in);
		/* the walk itself, or another of its family (the OOM killer's) */
		a = cgt_kmap_model_of(walk);
		b = cgt_kmap_model_of(got);
		return !strcmp(got, walk) || (a && b && family(a) == family(b) &&
					      !strncmp(a, b, family(a)));
	}
	for (int i = 0; i < m->nframes; i++) {
		if (!m->frames[i].model || m->frames[i].primitive || m->frames[i].skipped ||
		    !cgt_kmap_model_of(r->frames[i].fn))
			continue;
		asked++;
		seen += names_fn(text, r->frames[i].fn);
		if (seen >= need)
			return 1;
	}
	return asked ? 0 : -1;
}

/* The failure's words: its summary and evidence, one string. */
static char *failure_text(json_t *f)
{
	json_t *line;
	char *text = NULL;
	size_t len = 0, i;
	FILE *out = open_memstream(&text, &len);

	if (!out)
		return NULL;
	fprintf(out, "%s\n", json_string_value(json_object_get(f, "summary")) ?: "");
	json_array_foreach(json_object_get(f, "evidence"), i, line)
		fprintf(out, "%s\n", json_string_value(line) ?: "");
	fclose(out);
	return text;
}

static void add_lack(char *buf, size_t len, const char *what)
{
	size_t o = strlen(buf);

	snprintf(buf + o, len - o, "%s%s", o ? "; " : "", what);
}

/* One failure @f of detector @det, judged. 0, or -1 if out of memory. */
static int judge_one(const struct cgt_kmap *m, json_t *f, int det, struct cgt_kmap_judgement *j)
{
	const char *name = cgt_detector_names[det];
	char *text = failure_text(f), what[240];

	memset(j, 0, sizeof(*j));
	if (!text)
		return -1;
	snprintf(j->got, sizeof(j->got), "%s", json_string_value(json_object_get(f, "summary")) ?:
		 "");
	j->detector = 1;
	j->lock = lock_column(m, det, text);
	j->functions = functions_column(m, det, text);
	j->era = m->era_from != CGT_ERA_GUESSED;
	free(text);

	if (j->lock == 0) {
		if (det == CGT_DET_LOCK_ORDER)
			snprintf(what, sizeof(what), "the record's cycle of locks");
		else if (det == CGT_DET_LIVELOCK)
			snprintf(what, sizeof(what), "a walker holding %s that keeps the record's "
				 "waiter (%s) out", m->want.lock, cgt_kmap_side_name(m->want.side));
		else
			snprintf(what, sizeof(what), "the wait for %s (%s) the record shows",
				 m->want.lock, cgt_kmap_side_name(m->want.side));
		add_lack(j->lacks, sizeof(j->lacks), what);
	}
	if (j->functions == 0) {
		snprintf(what, sizeof(what), "the record's function%s%s",
			 m->want.walk ? ": the walk in " : "", m->want.walk ? m->want.walk : "");
		add_lack(j->lacks, sizeof(j->lacks), what);
	}
	if (!j->era)
		add_lack(j->lacks, sizeof(j->lacks), "the record's kernel (the era was a guess)");
	j->settled = !j->era || (m->want.same_check && det != CGT_DET_INVARIANT);
	if (m->want.same_check && det != CGT_DET_INVARIANT) {
		snprintf(what, sizeof(what), "the kernel's own check (\"%.60s\"): the model's is %s",
			 m->rec->title, name);
		add_lack(j->lacks, sizeof(j->lacks), what);
	}
	if (j->lacks[0] && m->want.lacks[0]) {
		snprintf(what, sizeof(what), "not modelled: %.200s", m->want.lacks);
		add_lack(j->lacks, sizeof(j->lacks), what);
	}
	if (!j->lacks[0])
		j->grade = CGT_KMAP_REPRODUCED;
	else if (j->lock == 1 || j->functions == 1)
		j->grade = CGT_KMAP_IN_PART;
	else
		j->grade = CGT_KMAP_OTHER;
	return 0;
}

int cgt_kmap_judge(const struct cgt_kmap *m, const char *report, int det,
		   struct cgt_kmap_judgement *j)
{
	json_t *r = json_load_file(report, 0, NULL), *f;
	struct cgt_kmap_judgement one;
	int found = -1;
	size_t i;

	memset(j, 0, sizeof(*j));
	json_array_foreach(r ? json_object_get(r, "failures") : NULL, i, f) {
		if (strcmp(json_string_value(json_object_get(f, "detector")) ?: "",
			   cgt_detector_names[det]) || judge_one(m, f, det, &one))
			continue;
		/* the best of them; of two as good, the first */
		if (found < 0 || one.grade > j->grade)
			*j = one;
		found = 0;
		if (j->grade == CGT_KMAP_REPRODUCED)
			break;
	}
	json_decref(r);
	return found;
}

static const char *yes_no(int v)
{
	return v > 0 ? "yes" : v == 0 ? "no" : "-";
}

void cgt_kmap_judgement_columns(const struct cgt_kmap_judgement *j, char *buf, size_t len)
{
	snprintf(buf, len, "detector %s, lock %s, functions %s, era %s", yes_no(j->detector),
		 yes_no(j->lock), yes_no(j->functions), j->era ? "yes" : "guessed");
}
