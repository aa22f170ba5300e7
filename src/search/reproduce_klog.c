// SPDX-License-Identifier: GPL-2.0
/*
 * cgtorture reproduce of a kernel's own report: the log read into records (report/klog.c),
 * the record the model knows best mapped onto it (report/kmap.c) and printed as a table,
 * then a search per candidate (a catalogued bug the frames point at, or the era as it
 * shipped), free-running first (many threads, the clock: what a small schedule may not
 * reach), then controlled schedules, until the same detector fires on the same lock, walk or
 * function; the schedule found is replayed exactly and shrunk as for a report.json.
 */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "search.h"
#include "../base/build.h"
#include "../base/files.h"
#include "../report/kmap.h"
#include "../report/page.h"
#include "../run/catalogue.h"
#include "../run/options.h"

/* a candidate without a catalogued bug: the era's code, small and switching often */
/* on the model's locks: a kernel's report is of the kernel's code, not of our variants' */
#define KLOG_SEARCH	"--swarm off --sched random --threads 8 --steps 5000 --locks model"

/* What a found failure must show to be the kernel's: the lock waited for, or the walk. */
struct klog_want {
	char words[8][64];
	int nwords;
	bool any;			/* one of the words is enough */
};

static bool klog_match(const char *path, int detector, void *arg, char *got, size_t len)
{
	const struct klog_want *w = arg;
	size_t n;
	char *text = cgt_read_file("", path, &n);
	int seen = 0;

	(void)detector;
	for (int i = 0; text && i < w->nwords; i++)
		seen += strstr(text, w->words[i]) != NULL;
	free(text);
	snprintf(got, len, "%d of its %d word(s) in the report", seen, w->nwords);
	return w->any ? seen > 0 || !w->nwords : seen == w->nwords;
}

/* The first @n characters of @word, unless the list has them or is full. */
static void want_word(struct klog_want *w, const char *word, size_t n)
{
	if (!n || n >= sizeof(w->words[0]) || w->nwords == 8)
		return;
	for (int i = 0; i < w->nwords; i++)
		if (strlen(w->words[i]) == n && !strncmp(w->words[i], word, n))
			return;
	memcpy(w->words[w->nwords], word, n);
	w->words[w->nwords++][n] = '\0';
}

/* The function a frame maps to ("css_task_iter_next (...)"), or 0 if it names none. */
static size_t model_function(const char *model)
{
	size_t n = strspn(model, "abcdefghijklmnopqrstuvwxyz0123456789_");

	return n && (model[n] == '\0' || model[n] == ' ') && memchr(model, '_', n) ? n : 0;
}

static void want_of(const struct cgt_kmap *m, const struct cgt_kmap_candidate *c,
		    struct klog_want *w)
{
	memset(w, 0, sizeof(*w));
	switch (c->detector) {
	case CGT_DET_HANG:
	case CGT_DET_STARVATION:
		if (m->waits_for && strcmp(m->waits_for, "rcu"))
			want_word(w, m->waits_for, strlen(m->waits_for));
		break;
	case CGT_DET_LIVELOCK:
		if (m->walk)
			want_word(w, m->walk, strlen(m->walk));
		break;
	case CGT_DET_TSAN:	/* a KCSAN report: the race's functions, kept in report.json */
	case CGT_DET_ASAN:
		/* the kernel's function, or the model's it maps to (css_task_iter_advance's) */
		w->any = true;
		for (int i = 0; i < m->nframes; i++)
			if (m->frames[i].model && !m->frames[i].primitive) {
				want_word(w, m->frames[i].kernel, strlen(m->frames[i].kernel));
				want_word(w, m->frames[i].model, model_function(m->frames[i].model));
			}
		break;
	default:
		break;
	}
}

/* The sanitizer build a candidate's detector needs, or NULL: any build shows it. */
static const char *needed_build(const struct cgt_kmap_candidate *c)
{
	return c->detector == CGT_DET_ASAN ? "asan" : c->detector == CGT_DET_TSAN ? "tsan" :
	       NULL;
}

static void print_map(const char *path, const struct cgt_klog *log, const struct cgt_kmap *m)
{
	const struct cgt_klog_record *r = m->rec;
	int counted = m->nframes - m->nskipped;

	printf("reproduce: %s: %d record(s) in %ld line(s); the one at line %d is mapped:\n"
	       "  %s: %s\n  kernel %s: --kernel %s (%s)\n", path, log->nrecords, log->lines,
	       r->line, cgt_klog_kind_names[r->kind], r->title,
	       r->version[0] ? r->version : log->version[0] ? log->version : "not named",
	       m->era, m->era_why ? m->era_why : m->era_floor);
	printf("  %-40s %s\n", "kernel", "model");
	for (int i = 0; i < m->nframes; i++) {
		const struct cgt_kmap_item *it = &m->frames[i];

		if (i && r->frames[i].stack != r->frames[i - 1].stack)
			printf("  --\n");
		printf("  %-40s %s%s\n", it->kernel,
		       it->skipped ? "(looked past)" : it->model ? it->model : "not modelled",
		       it->primitive ? " (a lock's slow path)" : "");
	}
	for (int i = 0; i < m->nlocks; i++)
		printf("  lock %-35s %s\n", m->locks[i].kernel,
		       m->locks[i].model ? m->locks[i].model : "not modelled");
	for (int i = 0; i < log->nsaid; i++)
		printf("  %-40s %s (it printed a line of the log)\n", "message", log->said[i]);
	printf("  mapped %d of %d frame(s) (%d looked past)", m->nmapped, counted, m->nskipped);
	if (m->waits_for)
		printf("; waits for %s (%s)", m->waits_for, m->waits_side == 'r' ? "read" :
		       "write");
	if (m->walk)
		printf("; walks in %s", m->walk);
	printf("\n");
}

static void print_candidates(const struct cgt_kmap *m)
{
	printf("  searches, in order:");
	for (int i = 0; i < m->ncandidates; i++)
		printf("%s %s (%s)", i ? "," : "", cgt_kmap_candidate_name(&m->cand[i]),
		       cgt_detector_names[m->cand[i].detector]);
	printf("\n");
}

/*
 * The run's configuration for candidate @c: its era, its bug, its controlled options, or
 * with @free_s free-running for that long (a bug's options that make it show quickly; the
 * era's swarm but for the mix its frames point at). @cfg points into @words, which must
 * live as long.
 */
static int candidate_config(const struct cgt_kmap *m, const struct cgt_kmap_candidate *c,
			    double free_s, const char *out, struct cgt_run_config *cfg,
			    char *words, size_t len)
{
	char *all[64], *w, *save, off[32] = "";
	int n = 0;

	/* a controlled run's holder is off until nothing else can run; a free one's, past it */
	if (c->off_cpu)
		snprintf(off, sizeof(off), " --off-cpu %g", free_s > 0 ? free_s : 600);
	if (c->bug >= 0)
		snprintf(words, len, "reproduce --kernel %s --bug %s %s --out %s", m->era,
			 cgt_bug_catalogue[c->bug].name, free_s > 0 ?
			 cgt_bug_catalogue[c->bug].options : cgt_bug_catalogue[c->bug].explore, out);
	else
		snprintf(words, len, "reproduce --kernel %s%s --mix fork=35,exec=%d,exit=20,"
			 "migrate=%d,observe=%d%s --out %s", m->era,
			 free_s > 0 ? "" : " " KLOG_SEARCH, m->mix[1] ? 10 : 2, m->mix[3] ? 30 : 10,
			 m->mix[4] ? 45 : 33, off, out);
	if (free_s > 0)
		snprintf(words + strlen(words), len - strlen(words), " --duration %g", free_s);
	for (w = strtok_r(words, " ", &save); w && n < 63; w = strtok_r(NULL, " ", &save))
		all[n++] = w;
	all[n] = NULL;
	return cgt_search_config(n, all, cfg);
}

/*
 * The same command in the cgtorture of build @build, when the likeliest search needs it (a
 * KASAN report, ASan): build/<build>/cgtorture beside this binary's folder, or below it.
 */
static void run_in_build(const char *build, const struct cgt_reproduce_opts *o)
{
	char exe[4096], try[4200], nruns[24], nshrink[24], nfree[32];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	const char *fmt[] = { "%s/../%s/cgtorture", "%s/build/%s/cgtorture" };

	if (n <= 0)
		return;
	exe[n] = '\0';
	dirname(exe);
	snprintf(nruns, sizeof(nruns), "%ld", o->runs);
	snprintf(nshrink, sizeof(nshrink), "%ld", o->shrink);
	snprintf(nfree, sizeof(nfree), "%g", o->free_s);
	for (size_t i = 0; i < 2; i++) {
		snprintf(try, sizeof(try), fmt[i], exe, build);
		if (access(try, X_OK))
			continue;
		printf("reproduce: the likeliest search needs the %s build: %s\n", build, try);
		fflush(stdout);
		execl(try, try, "reproduce", o->report, "--runs", nruns, "--shrink", nshrink,
		      "--free", nfree, "--out", o->out, (char *)NULL);
	}
}

/* The kernel's record goes into the found report.json, and its page shows it. */
static void keep_source(const char *found, const char *path, const struct cgt_kmap *m,
			const struct cgt_kmap_candidate *c)
{
	char why[300], *dir = strdup(found), *slash = dir ? strrchr(dir, '/') : NULL;

	if (!slash || cgt_kmap_write_source(found, path, m, c, why, sizeof(why)) ||
	    (*slash = '\0', cgt_page_write(dir, slash + 1, why, sizeof(why))))
		printf("reproduce: the report keeps no source: %s\n", slash ? why : "no memory");
	free(dir);
}

/* The record whose frames and locks the model knows most of. */
static int best_record(const struct cgt_klog *log, struct cgt_kmap *best)
{
	struct cgt_kmap *m = malloc(sizeof(*m));
	int found = -1, top = -1;

	for (int i = 0; m && i < log->nrecords; i++) {
		int score;

		if (cgt_kmap_record(log, i, m))
			continue;
		score = m->nmapped + m->nlocks;
		if (score > top) {
			top = score;
			found = i;
			*best = *m;
		}
	}
	free(m);
	return found;
}

/* "not modelled": the first functions of the first record with a backtrace */
static void not_modelled(const char *path, const struct cgt_klog *log)
{
	const struct cgt_klog_record *r = &log->rec[0];
	char names[200] = "";
	size_t o = 0;

	for (int i = log->nrecords - 1; i >= 0; i--)
		if (log->rec[i].nframes)
			r = &log->rec[i];

	for (int i = 0, k = 0; i < r->nframes && k < 4 && o < sizeof(names); i++, k++)
		o += (size_t)snprintf(names + o, sizeof(names) - o, "%s%s", k ? ", " : "",
				      r->frames[i].fn);
	fprintf(stderr, "cgtorture: %s: not modelled: its %d record(s) name no function the "
		"model runs and no lock it has (the first, %s \"%.60s\": %s)\n", path, log->nrecords,
		cgt_klog_kind_names[r->kind], r->title, r->nframes ? names : "no backtrace");
}

/*
 * Candidate @c searched: free-running for @o->free_s, then controlled for @runs schedules
 * (all @left once free-running found it: it is this candidate's). 0 and @found if a
 * controlled schedule fired so, 1 and @free_found if only a free-running run did, else -1.
 */
static int search(const struct cgt_reproduce_opts *o, const struct cgt_kmap *map,
		  const struct cgt_kmap_candidate *c, const char *out, long left, long *runs,
		  char *found, char *free_found, size_t len)
{
	struct cgt_run_config cfg = { 0 };
	struct klog_want want;
	char words[1024], what[300];
	int r = CGT_EXIT_FAIL;

	want_of(map, c, &want);
	snprintf(what, sizeof(what), "%s %s%s, %s%s%s", c->bug >= 0 ? "catalogued bug" :
		 "kernel", c->bug >= 0 ? cgt_bug_catalogue[c->bug].name : map->era,
		 c->off_cpu ? " with a holder off the CPU" : "",
		 want.nwords ? (want.any ? "naming one of: " : "naming: ") : "any kind",
		 want.nwords ? want.words[0] : "", want.nwords > 1 ? ", ..." : "");
	free_found[0] = '\0';
	if (o->free_s > 0 && !candidate_config(map, c, o->free_s, out, &cfg, words, sizeof(words)))
		r = cgt_reproduce_free(&cfg, c->detector, what, klog_match, &want, free_found,
				       len);
	cgt_run_render_free(&cfg);
	memset(&cfg, 0, sizeof(cfg));
	if (r == CGT_EXIT_PASS)
		*runs = left;
	if (candidate_config(map, c, 0, out, &cfg, words, sizeof(words))) {
		cgt_run_render_free(&cfg);
		return free_found[0] ? 1 : -1;
	}
	r = cgt_reproduce(&cfg, c->detector, what, klog_match, &want, *runs, found, len);
	cgt_run_render_free(&cfg);
	return !r ? 0 : free_found[0] ? 1 : -1;
}

int cgt_reproduce_klog(const struct cgt_reproduce_opts *o)
{
	struct cgt_klog *log = malloc(sizeof(*log));
	struct cgt_kmap *map = malloc(sizeof(*map));
	const char *path = o->report;
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	char err[300], found[600], free_found[600], *base, *copy = strdup(path), *out = NULL;
	const char *build;
	long per, tried = 0, runs = o->map ? 0 : o->runs;
	int ret = CGT_EXIT_USAGE, searched = 0;

	if (!f) {
		fprintf(stderr, "cgtorture: %s: cannot open it\n", path);
		goto out;
	}
	if (!log || !map || !copy || cgt_klog_read(f, log, cgt_kmap_said, err, sizeof(err))) {
		fprintf(stderr, "cgtorture: %s: %s\n", path, log && map && copy ? err :
			"out of memory");
		goto out;
	}
	if (best_record(log, map) < 0) {
		not_modelled(path, log);
		goto out;
	}
	build = needed_build(&map->cand[0]);
	if (runs && build && strcmp(build, cgt_build_name()) && strcmp(path, "-"))
		run_in_build(build, o);
	print_map(path, log, map);
	print_candidates(map);
	if (!runs) {
		ret = CGT_EXIT_PASS;
		goto out;
	}
	base = basename(copy);
	base[strcspn(base, ".")] = '\0';
	out = malloc(strlen(o->out) + strlen(base) + 16);
	if (!out)
		goto out;
	sprintf(out, "%s/reproduce-%s", o->out[0] ? o->out : ".", base);
	if (cgt_mkdir_p(out)) {
		fprintf(stderr, "cgtorture: --out: cannot make '%s'\n", out);
		goto out;
	}
	for (int i = 0; i < map->ncandidates && tried < runs && !cgt_run_interrupted(); i++) {
		const struct cgt_kmap_candidate *c = &map->cand[i];
		int r;

		build = needed_build(c);
		if (build && strcmp(build, cgt_build_name())) {
			printf("reproduce: candidate %s (%s) needs the %s build: build/%s/cgtorture "
			       "reproduce %s\n", cgt_kmap_candidate_name(c),
			       cgt_detector_names[c->detector], build, build, path);
			continue;
		}
		/* half of what is left to the likeliest, all of it to the last */
		per = i + 1 < map->ncandidates ? (runs - tried) / 2 : runs - tried;
		if (per < 10)
			per = runs - tried < 10 ? runs - tried : 10;
		searched++;
		r = search(o, map, c, out, runs - tried, &per, found, free_found, sizeof(found));
		tried += per;
		if (r < 0)
			continue;
		printf("reproduce: reproduced%s: %s %s as %s\n", r ? " free-running only" : "",
		       cgt_klog_kind_names[map->rec->kind], map->rec->title,
		       cgt_kmap_candidate_name(c));
		keep_source(r ? free_found : found, path, map, c);
		if (!r) {
			ret = cgt_reproduce_exact(found, o->shrink);
		} else {
			printf("reproduce: no controlled schedule of %ld replays it exactly (more: "
			       "cgtorture reproduce %s --runs N)\nreproduce: the page: "
			       "%.*s/report.html\n", per, free_found,
			       (int)(strrchr(free_found, '/') - free_found), free_found);
			ret = CGT_EXIT_PASS;
		}
		goto out;
	}
	if (!searched)
		fprintf(stderr, "cgtorture: %s: no search can run in the %s build (see above)\n",
			path, cgt_build_name());
	else
		printf("reproduce: not found within the budget: %d search(es), %ld schedule(s) "
		       "(--runs %ld)%s\n", searched, tried, runs,
		       o->free_s > 0 ? " and a free-running run each" : "");
	ret = searched ? CGT_EXIT_MISSED : CGT_EXIT_USAGE;
out:
	if (f && f != stdin)
		fclose(f);
	free(log);
	free(map);
	free(copy);
	free(out);
	return ret;
}
