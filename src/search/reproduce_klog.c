// SPDX-License-Identifier: GPL-2.0
/*
 * cgtorture reproduce of a kernel's own report: the log read into records (klog/klog.c),
 * the record the model knows best mapped onto it (klog/kmap.c) and printed as a table,
 * then a search per candidate (a catalogued bug the frames point at, or the era as it
 * shipped), free-running first (many threads, the clock: what a small schedule may not
 * reach), then controlled schedules. Each failure found is judged against the record's
 * mechanism (klog/kmap_judge.c): "reproduced" is the record's mechanism in its kernel;
 * "reproduced in part" says what matched and what the model lacks; another failure is
 * printed as such and never counted. The schedule kept is replayed exactly and shrunk as
 * for a report.json.
 */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "search.h"
#include "../base/build.h"
#include "../klog/kmap.h"
#include "../report/page.h"
#include "../run/catalogue.h"
#include "../run/options.h"

/* a candidate without a catalogued bug: the era's code, small and switching often */
/* on the model's locks: a kernel's report is of the kernel's code, not of our variants' */
#define KLOG_SEARCH	"--swarm off --sched random --threads 8 --steps 5000 --locks model"

/*
 * A search's judge: the record, the first failure seen that is not the record's, and the
 * first of one search that shows it in part where another run might show it whole.
 */
struct klog_judge {
	const struct cgt_kmap *map;
	struct cgt_kmap_judgement last;		/* of the failure just judged */
	struct cgt_kmap_judgement other;	/* the first failure that was not the record's */
	char other_path[600];
	struct cgt_kmap_judgement part;		/* this search's first in part, not settled */
	char part_path[600];
	bool controlled;			/* the search is in its controlled schedules */
	bool part_exact;			/* and the part came from one of them */
};

/*
 * A failure is taken when it shows the record's mechanism whole, or in part for good
 * (kmap.h: settled). One in part that another run may show whole (the walk the record's,
 * but not under its lock) is kept, and the search goes on for the whole; the first from a
 * controlled schedule is kept over a free-running one, which cannot be replayed.
 */
static bool klog_match(const char *path, int detector, void *arg, char *got, size_t len)
{
	struct klog_judge *j = arg;
	char cols[128];

	if (cgt_kmap_judge(j->map, path, detector, &j->last))
		return false;	/* none: @got says so already */
	cgt_kmap_judgement_columns(&j->last, cols, sizeof(cols));
	snprintf(got, len, "%s%s (%s)", j->last.grade == CGT_KMAP_IN_PART && !j->last.settled ?
		 "in part, looking on for the whole: " : "", j->last.got, cols);
	if (j->last.grade == CGT_KMAP_OTHER && !j->other_path[0]) {
		j->other = j->last;
		snprintf(j->other_path, sizeof(j->other_path), "%s", path);
	}
	if (j->last.grade == CGT_KMAP_IN_PART && !j->last.settled) {
		if (!j->part_path[0] || (j->controlled && !j->part_exact)) {
			j->part = j->last;
			j->part_exact = j->controlled;
			snprintf(j->part_path, sizeof(j->part_path), "%s", path);
		}
		return false;
	}
	return j->last.grade != CGT_KMAP_OTHER;
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
	       m->era, m->era_why);
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
		printf("; waits for %s (%s)", m->waits_for, cgt_kmap_side_name(m->waits_side));
	if (m->want.walk)
		printf("; walks in %s", m->want.walk);
	printf("\n");
	if (m->want.ncycle) {
		printf("  lockdep cycle in the model:");
		for (int i = 0; i < m->want.ncycle; i++)
			printf("%s %s", i ? "," : "", m->want.cycle[i]);
		printf("\n");
	}
	if (m->want.lacks[0])
		printf("  not modelled: %s\n", m->want.lacks);
}

static void print_candidates(const struct cgt_kmap *m)
{
	printf("  searches, in order:");
	for (int i = 0; i < m->ncandidates; i++)
		printf("%s %s (%s%s%s)", i ? "," : "", cgt_kmap_candidate_name(&m->cand[i]),
		       cgt_detector_names[m->cand[i].detector],
		       strcmp(m->cand[i].era, m->era) ? ", in " : "",
		       strcmp(m->cand[i].era, m->era) ? m->cand[i].era : "");
	printf("\n");
}

/*
 * The run's configuration for candidate @c: its era, its bug, its controlled options, or
 * with @free_s free-running for that long (a bug's options that make it show quickly; the
 * era's swarm but for the mix its frames point at). @cfg points into @words, which must
 * live as long.
 */
static int candidate_config(const struct cgt_kmap *m, const struct cgt_kmap_candidate *c,
			    double free_s, const char *sched, const char *out,
			    struct cgt_run_config *cfg, char *words, size_t len)
{
	char *all[64], *w, *save, off[32] = "";
	int n = 0;

	/* a controlled run's holder is off until nothing else can run; a free one's, past it */
	if (c->off_cpu)
		snprintf(off, sizeof(off), " --off-cpu %g", free_s > 0 ? free_s : 600);
	if (c->bug >= 0)
		snprintf(words, len, "reproduce --kernel %s --bug %s %s --out %s", c->era,
			 cgt_bug_catalogue[c->bug].name, free_s > 0 ?
			 cgt_bug_catalogue[c->bug].options : cgt_bug_catalogue[c->bug].explore, out);
	else
		snprintf(words, len, "reproduce --kernel %s%s --mix fork=35,exec=%d,exit=20,"
			 "migrate=%d,observe=%d%s --out %s", c->era,
			 free_s > 0 ? "" : " " KLOG_SEARCH, m->mix[1] ? 10 : 2, m->mix[3] ? 30 : 10,
			 m->mix[4] ? 45 : 33, off, out);
	if (free_s > 0)
		snprintf(words + strlen(words), len - strlen(words), " --duration %g", free_s);
	else if (sched[0])
		snprintf(words + strlen(words), len - strlen(words), " --sched %s", sched);
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
		if (o->sched[0])
			execl(try, try, "reproduce", o->report, "--runs", nruns, "--shrink", nshrink,
			      "--free", nfree, "--out", o->out, "--sched", o->sched, (char *)NULL);
		else
			execl(try, try, "reproduce", o->report, "--runs", nruns, "--shrink", nshrink,
			      "--free", nfree, "--out", o->out, (char *)NULL);
	}
}

/* The next item of comma-separated @list at *@p into @buf: 1, 0 at the end, -1 if empty. */
static int list_item(const char **p, char *buf, size_t len)
{
	size_t n;

	if (!**p)
		return 0;
	n = strcspn(*p, ",");
	snprintf(buf, len, "%.*s", (int)n, *p);
	*p += n + ((*p)[n] == ',');
	buf[strcspn(buf, "+ (")] = '\0';
	return buf[0] ? 1 : -1;
}

/*
 * A record handed in by hand for a write-up that holds none: --functions as its one stack,
 * innermost first, of --kind, on --version, naming --locks. 0, or -1 with a reason.
 */
static int hand_record(const struct cgt_reproduce_opts *o, struct cgt_klog *log, char *err,
		       size_t len)
{
	struct cgt_klog_record *r = &log->rec[0];
	const char *p;
	char item[CGT_KLOG_NAME];
	int k, got;

	memset(log, 0, sizeof(*log));
	for (k = 0; k < CGT_NR_KLOG_KINDS && strcmp(cgt_klog_kind_names[k], o->kind); k++)
		;
	if (k == CGT_NR_KLOG_KINDS) {
		snprintf(err, len, "--kind: '%s' is no kind of record (hung-task, soft-lockup, "
			 "hard-lockup, rcu-stall, kasan, kcsan, lockdep, sleep-in-atomic, bug-oops, "
			 "warning, suspicious-rcu, backtrace)", o->kind);
		return -1;
	}
	if (o->version[0] && cgt_klog_version(o->version) < 0) {
		snprintf(err, len, "--version: '%s' names no kernel (5.15, 4.4.1, ...)", o->version);
		return -1;
	}
	r->kind = k;
	snprintf(r->version, sizeof(r->version), "%s", o->version);
	for (p = o->functions; (got = list_item(&p, item, sizeof(item))) != 0;) {
		if (got < 0 || r->nframes == CGT_KLOG_FRAMES) {
			snprintf(err, len, "--functions: %s", got < 0 ? "an empty item" : "too many");
			return -1;
		}
		snprintf(r->frames[r->nframes++].fn, CGT_KLOG_NAME, "%s", item);
	}
	for (p = o->locks; (got = list_item(&p, item, sizeof(item))) != 0;) {
		if (got < 0 || r->nlocks == CGT_KLOG_LOCKS) {
			snprintf(err, len, "--locks: %s", got < 0 ? "an empty item" : "too many");
			return -1;
		}
		snprintf(r->locks[r->nlocks++], CGT_KLOG_NAME, "%s", item);
	}
	r->nstacks = 1;
	snprintf(r->title, sizeof(r->title), "handed in: %s in %s", o->kind, r->frames[0].fn);
	log->nrecords = 1;
	return 0;
}

/*
 * A file with no kernel record in it: if it names kernel functions the model knows (a
 * changelog, a mail's analysis), say which and how to hand them in; else @err as it is.
 */
static void refuse_writeup(const char *path, const char *err)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : NULL;
	char word[CGT_KLOG_NAME], names[256] = "", list[256] = "";
	size_t n = 0, found = 0;
	int c;

	while (f && found < 6 && (c = getc(f)) != EOF) {
		if (n < sizeof(word) - 1 && (c == '_' || (c >= 'a' && c <= 'z') ||
					     (n && c >= '0' && c <= '9'))) {
			word[n++] = (char)c;
			continue;
		}
		word[n] = '\0';
		if (n && cgt_kmap_model_of(word) && !strstr(list, word)) {
			size_t o = strlen(names);

			snprintf(names + o, sizeof(names) - o, "%s%s", found ? ", " : "", word);
			o = strlen(list);
			snprintf(list + o, sizeof(list) - o, "%s%s", found ? "," : "", word);
			found++;
		}
		n = 0;
	}
	if (f)
		fclose(f);
	if (!found)
		fprintf(stderr, "cgtorture: %s: %s\n", path, err);
	else
		fprintf(stderr, "cgtorture: %s: a write-up, not a log: it names %s but holds no "
			"kernel record; hand them in as one, innermost first: cgtorture reproduce %s "
			"--functions %s --kind hung-task (or soft-lockup, rcu-stall, kasan, lockdep, "
			"...) [--version X.Y]\n", path, names, path, list);
}

/* The kernel's record goes into the found report.json, and its page shows it. */
static void keep_source(const char *found, const char *path, const struct cgt_kmap *m,
			const struct cgt_kmap_candidate *c, const struct cgt_kmap_judgement *j)
{
	char why[300], *dir = strdup(found), *slash = dir ? strrchr(dir, '/') : NULL;

	if (!slash || cgt_kmap_write_source(found, path, m, c, j, why, sizeof(why)) ||
	    (*slash = '\0', cgt_page_write(dir, slash + 1, why, sizeof(why))))
		printf("reproduce: the report keeps no source: %s\n", slash ? why : "no memory");
	free(dir);
}

/*
 * The record whose frames and locks the model knows most of, among those it can search for
 * (then among those whose mechanism it lacks: -2): its index, or -1 if nothing is modelled.
 * An oops (a BUG, a bad access, KASAN) in code the model has not, before the others, is
 * their cause: the log is that oops's (-2), whatever lockups follow it.
 */
static int best_record(const struct cgt_klog *log, struct cgt_kmap *best)
{
	struct cgt_kmap *m = malloc(sizeof(*m));
	int found = -1, top = -1, ret;

	for (int i = 0; m && i < log->nrecords; i++) {
		bool oops = log->rec[i].kind == CGT_KLOG_BUG || log->rec[i].kind == CGT_KLOG_KASAN;
		int score;

		ret = cgt_kmap_record(log, i, m);
		if (ret == -1)
			continue;
		if (ret == -2 && oops && found < 0 && top < 0) {
			*best = *m;
			found = -2;
			break;
		}
		/* a record with searches before one without, then the one known best */
		score = (ret ? 0 : 10000) + m->nmapped + m->nlocks;
		if (score > top) {
			top = score;
			found = ret ? -2 : i;
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

/* What a search found: the failure it keeps, how it was judged, and if it replays. */
struct klog_found {
	enum cgt_kmap_grade grade;
	bool exact;			/* a controlled schedule: it replays decision by decision */
	const struct cgt_kmap_candidate *c;
	struct cgt_kmap_judgement j;
	char path[600];
};

/* "waits for cgroup_threadgroup_rwsem (write)": the mechanism a search looks for, for people */
static void mechanism_words(const struct cgt_kmap *m, enum cgt_detector det, char *buf,
			    size_t len)
{
	const struct cgt_kmap_mechanism *w = &m->want;

	if ((det == CGT_DET_HANG || det == CGT_DET_STARVATION) && w->lock)
		snprintf(buf, len, "a wait for %s (%s)", w->lock, cgt_kmap_side_name(w->side));
	else if (det == CGT_DET_LIVELOCK && w->walk)
		snprintf(buf, len, "a walk in %s that does not end", w->walk);
	else if (det == CGT_DET_LOCK_ORDER && w->ncycle >= 2)
		snprintf(buf, len, "the cycle %s, %s%s", w->cycle[0], w->cycle[1],
			 w->ncycle > 2 ? ", ..." : "");
	else if (w->nfns)
		snprintf(buf, len, "%s in %s%s", cgt_detector_names[det], w->fns[0],
			 w->nfns > 1 ? " (or its callers)" : "");
	else
		snprintf(buf, len, "%s", cgt_detector_names[det]);
}

/*
 * Candidate @c searched: free-running for @o->free_s, then controlled for @runs schedules
 * (all @left once free-running found it: it is this candidate's). The failure kept (a
 * controlled one before a free-running one) goes to @f; @judge keeps the first that was
 * another failure. 0, or CGT_EXIT_TOOL if its runs' reports could not be written.
 */
static int search(const struct cgt_reproduce_opts *o, const struct cgt_kmap *map,
		  const struct cgt_kmap_candidate *c, const char *out, long left, long *runs,
		  struct klog_judge *judge, struct klog_found *f)
{
	struct cgt_run_config cfg = { 0 };
	char words[1024], what[300], mech[160], path[600];
	int r = CGT_EXIT_FAIL;

	mechanism_words(map, c->detector, mech, sizeof(mech));
	snprintf(what, sizeof(what), "%s %s%s in %s, the record's: %s", c->bug >= 0 ?
		 "catalogued bug" : "kernel", c->bug >= 0 ? cgt_bug_catalogue[c->bug].name :
		 "as it shipped", c->off_cpu ? " with a holder off the CPU" : "", c->era, mech);
	memset(f, 0, sizeof(*f));
	f->grade = CGT_KMAP_OTHER;
	f->c = c;
	judge->part_path[0] = '\0';
	judge->controlled = judge->part_exact = false;
	if (o->free_s > 0 && !candidate_config(map, c, o->free_s, o->sched, out, &cfg, words,
						    sizeof(words)))
		r = cgt_reproduce_free(&cfg, c->detector, what, klog_match, judge, path,
				       sizeof(path));
	cgt_run_render_free(&cfg);
	memset(&cfg, 0, sizeof(cfg));
	if (r == CGT_EXIT_TOOL)
		return r;
	if (r == CGT_EXIT_PASS) {
		*runs = left;
		f->grade = judge->last.grade;
		f->j = judge->last;
		snprintf(f->path, sizeof(f->path), "%s", path);
	}
	if (cgt_run_interrupted() || candidate_config(map, c, 0, o->sched, out, &cfg, words,
								 sizeof(words))) {
		cgt_run_render_free(&cfg);
		return 0;
	}
	judge->controlled = true;
	r = cgt_reproduce(&cfg, c->detector, what, klog_match, judge, *runs, path, sizeof(path));
	cgt_run_render_free(&cfg);
	if (r == CGT_EXIT_TOOL)
		return r;
	/* no whole one: the part kept stands, one that replays over one that does not */
	if (r && f->grade == CGT_KMAP_OTHER && judge->part_path[0]) {
		printf("reproduce: none showed the record's mechanism whole; the first in part "
		       "stands\n");
		f->grade = CGT_KMAP_IN_PART;
		f->j = judge->part;
		f->exact = judge->part_exact;
		snprintf(f->path, sizeof(f->path), "%s", judge->part_path);
		return 0;
	}
	/* an exact schedule of the same grade replaces a free-running failure */
	if (!r && judge->last.grade >= f->grade) {
		f->grade = judge->last.grade;
		f->j = judge->last;
		f->exact = true;
		snprintf(f->path, sizeof(f->path), "%s", path);
	}
	return 0;
}

/* The folder of a report.json's path, for its page. */
static int dir_len(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? (int)(slash - path) : 0;
}

/*
 * The verdict on what was found: reproduced or in part (its columns, what the model lacks,
 * the exact replay), else another failure (its page, never counted as the record's).
 */
static int verdict(const struct cgt_reproduce_opts *o, const char *path,
		   const struct cgt_kmap *m, const struct klog_found *f,
		   const struct klog_judge *judge, long tried)
{
	char cols[128];
	int ret;

	if (f->grade == CGT_KMAP_OTHER) {
		if (!judge->other_path[0])
			return -1;
		cgt_kmap_judgement_columns(&judge->other, cols, sizeof(cols));
		printf("reproduce: another failure found, not the record's: %s (%s; it lacks %s)\n"
		       "reproduce: its page: %.*s/report.html\n", judge->other.got, cols,
		       judge->other.lacks, dir_len(judge->other_path), judge->other_path);
		return CGT_EXIT_FAIL;
	}
	cgt_kmap_judgement_columns(&f->j, cols, sizeof(cols));
	printf("reproduce: %s%s: %s %s as %s\n", f->grade == CGT_KMAP_REPRODUCED ? "reproduced" :
	       "reproduced in part", f->exact ? "" : " free-running only",
	       cgt_klog_kind_names[m->rec->kind], m->rec->title, cgt_kmap_candidate_name(f->c));
	printf("reproduce: matched: %s\n", cols);
	if (f->grade == CGT_KMAP_IN_PART)
		printf("reproduce: the model lacks: %s\n", f->j.lacks);
	keep_source(f->path, path, m, f->c, &f->j);
	if (f->exact) {
		ret = cgt_reproduce_exact(f->path, o->shrink);
	} else {
		printf("reproduce: no controlled schedule of %ld replays it exactly (more: "
		       "cgtorture reproduce %s --runs N)\nreproduce: the page: %.*s/report.html\n",
		       tried, path, dir_len(f->path), f->path);
		ret = CGT_EXIT_PASS;
	}
	return ret ? ret : f->grade == CGT_KMAP_REPRODUCED ? CGT_EXIT_PASS : CGT_EXIT_FAIL;
}

/* One reproduction of a kernel's log, carried through the steps below. */
struct klog_repro {
	const struct cgt_reproduce_opts *o;
	const char *path;
	struct cgt_klog *log;
	struct cgt_kmap *map;
	struct klog_judge judge;
	struct klog_found best;
	char *out;			/* the search folder */
	long runs, tried;		/* --runs (0: --map), schedules run */
	int searched;
};

/* 1. The log read into records, or the functions handed in; a write-up refused. */
static int repro_read(struct klog_repro *r)
{
	FILE *in = strcmp(r->path, "-") ? fopen(r->path, "r") : stdin;
	char err[300];
	int ret = 0;

	if (!in) {
		fprintf(stderr, "cgtorture: %s: cannot open it\n", r->path);
		return CGT_EXIT_USAGE;
	}
	if (r->o->functions[0] ? hand_record(r->o, r->log, err, sizeof(err)) :
	    cgt_klog_read(in, r->log, cgt_kmap_said, err, sizeof(err))) {
		if (r->o->functions[0] || r->log->nrecords || !r->log->lines)
			fprintf(stderr, "cgtorture: %s: %s\n", r->path, err);
		else
			refuse_writeup(r->path, err);
		ret = CGT_EXIT_USAGE;
	}
	if (in != stdin)
		fclose(in);
	return ret;
}

/*
 * 2. The record the model knows best mapped and printed, with its candidates; a mechanism
 * the model lacks said. Runs a search needing another build there instead.
 */
static int repro_map(struct klog_repro *r)
{
	const char *build;
	int mapped = best_record(r->log, r->map);

	if (mapped == -1) {
		not_modelled(r->path, r->log);
		return CGT_EXIT_USAGE;
	}
	r->judge.map = r->map;
	print_map(r->path, r->log, r->map);
	if (mapped == -2) {
		printf("reproduce: not modelled: the record's mechanism needs %s\n",
		       r->map->want.lacks);
		return CGT_EXIT_USAGE;
	}
	build = needed_build(&r->map->cand[0]);
	if (r->runs && build && strcmp(build, cgt_build_name()) && strcmp(r->path, "-"))
		run_in_build(build, r->o);
	print_candidates(r->map);
	return 0;
}

/* 3. The search folder, reproduce-<the log's name> under --out, checked writable. */
static int repro_folder(struct klog_repro *r)
{
	char *copy = strdup(r->path), *base;
	int ret = CGT_EXIT_USAGE;

	if (!copy)
		return ret;
	base = basename(copy);
	base[strcspn(base, ".")] = '\0';
	r->out = malloc(strlen(r->o->out) + strlen(base) + 16);
	if (r->out) {
		sprintf(r->out, "%s/reproduce-%s", r->o->out[0] ? r->o->out : ".", base);
		ret = cgt_search_folder("reproduce", r->out, "");
	}
	free(copy);
	return ret;
}

/*
 * 4. A search per candidate in order, the likeliest given half of what --runs has left and
 * the last all of it, until one reproduces the record's mechanism whole; the best kept.
 */
static int repro_search(struct klog_repro *r)
{
	struct klog_found f;
	long per;

	for (int i = 0; i < r->map->ncandidates && r->tried < r->runs && !cgt_run_interrupted();
	     i++) {
		const struct cgt_kmap_candidate *c = &r->map->cand[i];
		const char *build = needed_build(c);

		if (build && strcmp(build, cgt_build_name())) {
			printf("reproduce: candidate %s (%s) needs the %s build: build/%s/cgtorture "
			       "reproduce %s\n", cgt_kmap_candidate_name(c),
			       cgt_detector_names[c->detector], build, build, r->path);
			continue;
		}
		per = i + 1 < r->map->ncandidates ? (r->runs - r->tried) / 2 : r->runs - r->tried;
		if (per < 10)
			per = r->runs - r->tried < 10 ? r->runs - r->tried : 10;
		r->searched++;
		if (search(r->o, r->map, c, r->out, r->runs - r->tried, &per, &r->judge, &f) ==
		    CGT_EXIT_TOOL)
			return CGT_EXIT_TOOL;
		r->tried += per;
		if (f.grade > r->best.grade ||
		    (f.grade == r->best.grade && f.exact && !r->best.exact))
			r->best = f;
		if (r->best.grade == CGT_KMAP_REPRODUCED)
			break;
	}
	return 0;
}

/* 5. The verdict: what was found, or how far an interrupted or fruitless search went. */
static int repro_conclude(struct klog_repro *r)
{
	int ret;

	if (cgt_run_interrupted()) {
		/* the search it cut short said how far it got; this says how many were done */
		ret = cgt_search_interrupted("reproduce", r->searched - 1, r->map->ncandidates,
					     "searches");
		if (verdict(r->o, r->path, r->map, &r->best, &r->judge, r->tried) < 0)
			printf("reproduce: nothing found before the interruption\n");
		return ret;
	}
	ret = verdict(r->o, r->path, r->map, &r->best, &r->judge, r->tried);
	if (ret >= 0)
		return ret;
	if (!r->searched)
		fprintf(stderr, "cgtorture: %s: no search can run in the %s build (see above)\n",
			r->path, cgt_build_name());
	else
		printf("reproduce: not found within the budget: %d search(es), %ld schedule(s) "
		       "(--runs %ld)%s\n", r->searched, r->tried, r->runs,
		       r->o->free_s > 0 ? " and a free-running run each" : "");
	return r->searched ? CGT_EXIT_MISSED : CGT_EXIT_USAGE;
}

/*
 * cgtorture reproduce LOG, as syzkaller's repro() tells its pipeline: read, map, then (not
 * with --map) the folder, the searches and the verdict.
 */
int cgt_reproduce_klog(const struct cgt_reproduce_opts *o)
{
	struct klog_repro r = {
		.o = o, .path = o->report, .best = { .grade = CGT_KMAP_OTHER },
		.runs = o->map ? 0 : o->runs,
		.log = malloc(sizeof(*r.log)), .map = malloc(sizeof(*r.map)),
	};
	int ret;

	if (!r.log || !r.map) {
		fprintf(stderr, "cgtorture: %s: out of memory\n", r.path);
		ret = CGT_EXIT_USAGE;
		goto out;
	}
	ret = repro_read(&r);
	if (!ret)
		ret = repro_map(&r);
	if (!ret && r.runs) {
		ret = repro_folder(&r);
		if (!ret)
			ret = repro_search(&r);
		if (!ret)
			ret = repro_conclude(&r);
	}
out:
	free(r.log);
	free(r.map);
	free(r.out);
	return ret;
}
