// SPDX-License-Identifier: GPL-2.0
/*
 * The commands of controlled schedules: --check-determinism, explore, replay and shrink.
 * Each run is a child process (drive/child.c), so that every run starts from nothing, as
 * determinism requires, and a sanitizer's abort ends one run, not the search.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "tunables.h"
#include "../detect/detect.h"
#include "../run/catalogue.h"
#include "../search/child.h"
#include "../report/interest.h"
#include "../report/report_read.h"

/* --check-determinism: the same controlled run twice; the two schedules must be the same. */
int cgt_check_determinism(const struct cgt_run_config *cfg0)
{
	struct cgt_run_config cfg = *cfg0;
	struct cgt_child_result r[2];
	char f0[96], f1[96];
	long k, n;
	int ret;

	cfg.check_determinism = false;
	for (int i = 0; i < 2; i++)
		if (cgt_run_child(&cfg, i == 1 || cfg.quiet, &r[i])) {
			fprintf(stderr, "cgtorture: cannot fork a run: %s\n", strerror(errno));
			return CGT_EXIT_FAIL;
		}
	n = r[0].schedule.len < r[1].schedule.len ? r[0].schedule.len : r[1].schedule.len;
	for (k = 0; k < n && r[0].schedule.choice[k] == r[1].schedule.choice[k]; k++)
		;
	cgt_child_failure(&r[0], f0, sizeof(f0));
	cgt_child_failure(&r[1], f1, sizeof(f1));
	if (!r[0].ran || !r[1].ran) {
		printf("determinism: a run gave no result (exit statuses %d and %d)\n",
		       r[0].status, r[1].status);
		ret = CGT_EXIT_FAIL;
	} else if (k < r[0].schedule.len || k < r[1].schedule.len) {
		printf("determinism: FAIL: the runs part at decision %ld (T%d, then T%d) of %ld and %ld\n",
		       k, k < r[0].schedule.len ? r[0].schedule.choice[k] : 0,
		       k < r[1].schedule.len ? r[1].schedule.choice[k] : 0, r[0].schedule.len,
		       r[1].schedule.len);
		ret = CGT_EXIT_FAIL;
	} else if (strcmp(f0, f1)) {
		printf("determinism: FAIL: the same %ld decisions, but %s, then %s\n", n, f0, f1);
		ret = CGT_EXIT_FAIL;
	} else {
		printf("determinism: PASS: both runs made the same %ld decisions (%ld switches); %s\n",
		       n, cgt_schedule_switches(&r[0].schedule), f0);
		ret = r[0].status;
	}
	cgt_child_result_free(&r[0]);
	cgt_child_result_free(&r[1]);
	return ret;
}

/* Take "--NAME VALUE" (or a flag) out of argv; returns its value, "" for a flag, or NULL. */
static const char *take_option(int *argc, char **argv, const char *name, bool flag)
{
	for (int i = 1; i < *argc; i++) {
		const char *v;
		int n = flag ? 1 : 2;

		if (strcmp(argv[i], name))
			continue;
		if (!flag && i + 1 >= *argc) {
			fprintf(stderr, "cgtorture: %s needs a value (see --help)\n", name);
			exit(CGT_EXIT_USAGE);
		}
		v = flag ? "" : argv[i + 1];
		memmove(&argv[i], &argv[i + n], sizeof(*argv) * (size_t)(*argc - i - n + 1));
		*argc -= n;
		return v;
	}
	return NULL;
}

static bool has_option(int argc, char **argv, const char *name)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], name))
			return true;
	return false;
}

static long parse_count(const char *opt, const char *v, long max)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 10);
	if (end == v || *end || errno || n < 1 || n > max) {
		fprintf(stderr, "cgtorture: %s: '%s' is not a number from 1 to %ld\n", opt, v, max);
		exit(CGT_EXIT_USAGE);
	}
	return n;
}

/* The one catalogued bug a run puts back, or -1. */
static int only_bug(const struct cgt_run_config *cfg)
{
	int bug = -1;

	for (int b = 0; b < CGT_NR_BUGS; b++)
		if (cfg->bugs & (1UL << b)) {
			if (bug >= 0)
				return -1;
			bug = b;
		}
	return bug;
}

static void explore_help(void)
{
	puts("usage: cgtorture explore [--runs N] [--keep-going] [run options]\n\n"
	     "Runs N controlled schedules (--sched pct unless told otherwise), each with its own\n"
	     "seed (--seed, --seed + 1, ...), and stops at the first that fails, or goes on with\n"
	     "--keep-going. With one --bug, the failure looked for is its catalogued detector's.\n\n"
	     "  --runs N                   schedules to try [100]\n"
	     "  --keep-going               count every failing schedule\n\n"
	     "The run options (cgtorture help) set the model and the scheduler: --sched, --depth,\n"
	     "--steps, --threads, --bug, --seed, --out, ...");
}

int cgt_explore_main(int argc, char **argv)
{
	struct cgt_run_config cfg = { 0 };
	const char *runs_opt, *target_name;
	bool keep_going, tty = isatty(STDERR_FILENO);
	long runs, found = 0, first = 0;
	int ret, bug, target;
	uint64_t seed0;

	if (has_option(argc, argv, "--help") || has_option(argc, argv, "-h")) {
		explore_help();
		return CGT_EXIT_PASS;
	}
	runs_opt = take_option(&argc, argv, "--runs", false);
	runs = runs_opt ? parse_count("--runs", runs_opt, 100000000) : 100;
	keep_going = take_option(&argc, argv, "--keep-going", true) != NULL;
	ret = cgt_cli_prepare(argc, argv, &cfg);
	if (ret)
		return ret < 0 ? CGT_EXIT_PASS : ret;
	if (!has_option(argc, argv, "--sched"))
		cfg.sched = cgt_sched_find("pct");
	if (!cfg.sched) {
		fprintf(stderr, "cgtorture: explore: --sched none is not a schedule to explore "
			"(valid: %s)\n", cgt_sched_names());
		cgt_cli_release(&cfg);
		return CGT_EXIT_USAGE;
	}
	bug = only_bug(&cfg);
	target = cfg.stop_on;
	if (target == CGT_STOP_ON_NONE)
		target = bug >= 0 ? (int)cgt_bug_catalogue[bug].detector : CGT_STOP_ON_ANY;
	cfg.stop_on = target;
	target_name = target == CGT_STOP_ON_ANY ? "any failure" : cgt_detector_names[target];
	if (bug >= 0 && strcmp(cgt_bug_catalogue[bug].build, cgt_build_name()))
		fprintf(stderr, "cgtorture: note: %s is caught in the %s build, this is the %s build\n",
			cgt_bug_names[bug], cgt_bug_catalogue[bug].build, cgt_build_name());
	printf("explore: up to %ld schedules of %s, %d decisions each, looking for %s\n", runs,
	       cfg.sched->name, cfg.steps, target_name);
	if (cfg.sched->bound)
		printf("explore: PCT's bound for a bug of depth %d: at least 1/(n k^(d-1)) per "
		       "schedule = %.3g, with n = %d threads, k = %d decisions\n", cfg.depth,
		       cfg.sched->bound(cfg.threads + cfg.walkers + 1, cfg.steps, cfg.depth),
		       cfg.threads + cfg.walkers + 1, cfg.steps);
	seed0 = cfg.seed;
	cgt_cli_on_signals();
	for (long i = 0; i < runs; i++) {
		struct cgt_child_result r;
		char what[96];
		bool hit;

		cfg.seed = seed0 + (uint64_t)i;
		cgt_cli_render(&cfg);
		if (cgt_run_child(&cfg, true, &r)) {
			fprintf(stderr, "cgtorture: cannot fork a run: %s\n", strerror(errno));
			cgt_cli_release(&cfg);
			return CGT_EXIT_FAIL;
		}
		hit = r.detector >= 0 && (target == CGT_STOP_ON_ANY || r.detector == target);
		if (!hit && r.status > 3 && r.status != CGT_EXIT_USAGE)
			hit = true;		/* it died: worth a look whatever it was */
		if (tty)
			fprintf(stderr, "\r\033[Kexplore: %ld/%ld schedules, %ld failed", i + 1, runs,
				found + hit);
		if (hit) {
			if (!found++)
				first = i + 1;
			if (tty)
				fputs("\r\033[K", stderr);
			printf("explore: schedule %ld (seed %llu) failed: %s: %s\n", i + 1,
			       (unsigned long long)cfg.seed, cgt_child_failure(&r, what, sizeof(what)),
			       r.summary);
			if (r.report_dir[0])
				printf("  report: %s/report.json\n  replay: cgtorture replay %s/report.json\n",
				       r.report_dir, r.report_dir);
		}
		cgt_child_result_free(&r);
		if (hit && !keep_going)
			break;
		if (cgt_run_interrupted()) {
			runs = i + 1;
			break;
		}
	}
	if (tty)
		fputs("\r\033[K", stderr);
	cgt_cli_release(&cfg);
	if (found)
		printf("explore: %s found after %ld schedule(s); %ld of the schedules run failed\n",
		       target_name, first, found);
	else
		printf("explore: no schedule of %ld failed\n", runs);
	if (cfg.expect == CGT_EXPECT_FAIL)
		return found ? CGT_EXIT_PASS : CGT_EXIT_MISSED;
	return found ? CGT_EXIT_FAIL : CGT_EXIT_PASS;
}

/* The failure a report's run was after. */
static int interest(const struct cgt_report_in *r, int stop_on)
{
	int detector[CGT_MAX_FAILURES];

	for (int i = 0; i < r->nfailures; i++)
		detector[i] = r->failure[i].detector;
	return cgt_failure_of_interest(stop_on, detector, r->nfailures);
}

/* A report's configuration, as its command line gives it, for a run in this binary. */
static int report_config(const char *path, struct cgt_report_in *r, struct cgt_run_config *cfg)
{
	char err[256];
	char **argv;
	int argc, ret;

	if (cgt_report_read(path, r, err, sizeof(err))) {
		fprintf(stderr, "cgtorture: %s\n", err);
		return CGT_EXIT_USAGE;
	}
	if (strcmp(r->build, cgt_build_name())) {
		fprintf(stderr, "cgtorture: %s is from the %s build; this is the %s build "
			"(build/%s/cgtorture)\n", path, r->build, cgt_build_name(), r->build);
		return CGT_EXIT_USAGE;
	}
	if (cgt_command_argv(r->command, &argc, &argv, err, sizeof(err))) {
		fprintf(stderr, "cgtorture: %s: %s\n", path, err);
		return CGT_EXIT_USAGE;
	}
	ret = cgt_cli_prepare(argc - 1, argv + 1, cfg);
	cgt_argv_free(argc, argv);
	if (ret)
		return ret < 0 ? CGT_EXIT_USAGE : ret;
	if (r->controlled != (cfg->sched != NULL) ||
	    (r->controlled && strcmp(r->scheduler, cfg->sched->name))) {
		fprintf(stderr, "cgtorture: %s: the schedule (%s) does not fit the command (--sched %s)\n",
			path, r->controlled ? r->scheduler : "none",
			cfg->sched ? cfg->sched->name : "none");
		return CGT_EXIT_USAGE;
	}
	cfg->check_determinism = false;
	cfg->quiet = true;
	return 0;
}

static void replay_help(void)
{
	puts("usage: cgtorture replay REPORT [--tries N]\n\n"
	     "Runs a report's configuration again. A controlled run follows the recorded schedule\n"
	     "and must reach the same failure at the same decision; a free-running one is run up\n"
	     "to N times with the same seed and prints how often the failure came back.\n"
	     "Reports of the replays go to REPORT's folder/replay.\n\n"
	     "  --tries N                  free-running runs [10]");
}

/* The folder beside @dir where the runs of a command put their reports. */
static char *beside(const char *dir, const char *name)
{
	char *path = malloc(strlen(dir) + strlen(name) + 2);

	if (path)
		sprintf(path, "%s%s%s", dir, dir[0] ? "/" : "", name);
	return path;
}

static int replay_controlled(const char *path, const struct cgt_report_in *r,
			     struct cgt_run_config *cfg)
{
	struct cgt_child_result res;
	int ret, i = interest(r, cfg->stop_on);
	char got[96], want[96];

	cfg->follow = &r->schedule;
	cfg->follow_stop_step = r->stop_step;
	if (cgt_run_child(cfg, true, &res))
		return CGT_EXIT_FAIL;
	cgt_child_failure(&res, got, sizeof(got));
	if (i < 0)
		snprintf(want, sizeof(want), "no failure");
	else
		snprintf(want, sizeof(want), "%s at decision %ld",
			 cgt_detector_names[r->failure[i].detector], r->failure[i].step);
	if (!res.ran) {
		printf("replay: the run gave no result (exit status %d)\n", res.status);
		ret = CGT_EXIT_FAIL;
	} else if (res.diverged >= 0) {
		printf("replay: diverged at step %ld: %s\n", res.diverged, res.why);
		ret = CGT_EXIT_USAGE;
	} else if (res.schedule.len != r->schedule.len) {
		printf("replay: diverged at step %ld: the run ended there, the recorded one made %ld "
		       "decisions\n", res.schedule.len, r->schedule.len);
		ret = CGT_EXIT_USAGE;
	} else if (strcmp(got, want)) {
		printf("replay: NOT reproduced: %s recorded %s, the replay found %s\n", path, want,
		       got);
		ret = CGT_EXIT_FAIL;
	} else {
		printf("replay: reproduced: %s, as recorded (%ld decisions followed exactly)\n", got,
		       res.schedule.len);
		if (res.report_dir[0])
			printf("replay: report %s/report.json\n", res.report_dir);
		ret = CGT_EXIT_PASS;
	}
	cgt_child_result_free(&res);
	return ret;
}

static int replay_free(const struct cgt_report_in *r, struct cgt_run_config *cfg, long tries)
{
	int i = interest(r, cfg->stop_on), det = i >= 0 ? r->failure[i].detector : -1;
	const char *want = det >= 0 ? cgt_detector_names[det] : NULL;
	long hits = 0, first = 0;

	printf("replay: a free-running run: the same seed and configuration, %ld times\n", tries);
	for (long i = 0; i < tries && !cgt_run_interrupted(); i++) {
		struct cgt_child_result res;
		bool hit;

		if (cgt_run_child(cfg, true, &res))
			return CGT_EXIT_FAIL;
		hit = want ? res.detector == det : res.pass;
		if (hit && !hits++)
			first = i + 1;
		printf("replay: try %ld: %s%s\n", i + 1,
		       res.detector >= 0 ? cgt_detector_names[res.detector] : "no failure",
		       hit ? " (as recorded)" : "");
		cgt_child_result_free(&res);
	}
	printf("replay: reproduced %ld of %ld (%.0f%%): %s", hits, tries,
	       100.0 * (double)hits / (double)tries, want ? want : "a pass");
	if (hits)
		printf(", first at try %ld", first);
	putchar('\n');
	return hits ? CGT_EXIT_PASS : CGT_EXIT_FAIL;
}

int cgt_replay_main(int argc, char **argv)
{
	struct cgt_run_config cfg = { 0 };
	struct cgt_report_in r = { 0 };
	const char *tries_opt;
	long tries;
	char *out;
	int ret;

	if (has_option(argc, argv, "--help") || has_option(argc, argv, "-h")) {
		replay_help();
		return CGT_EXIT_PASS;
	}
	tries_opt = take_option(&argc, argv, "--tries", false);
	tries = tries_opt ? parse_count("--tries", tries_opt, 100000) : 10;
	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "cgtorture: replay needs one report.json (see replay --help)\n");
		return CGT_EXIT_USAGE;
	}
	ret = report_config(argv[1], &r, &cfg);
	if (!ret) {
		out = beside(r.dir, "replay");
		cfg.out = out;
		cgt_cli_render(&cfg);
		cgt_cli_on_signals();
		ret = r.controlled ? replay_controlled(argv[1], &r, &cfg) :
				     replay_free(&r, &cfg, tries);
		free(out);
	}
	cgt_cli_release(&cfg);
	cgt_report_in_free(&r);
	return ret;
}

static void shrink_help(void)
{
	puts("usage: cgtorture shrink REPORT [--runs N]\n\n"
	     "Cuts a controlled run's failing schedule down while the same failure (the same\n"
	     "detector) still happens: fewer threads and walkers, no decisions past the failure,\n"
	     "fewer switches (a thread that was switched away from goes on instead). Each trial\n"
	     "follows the schedule as far as it fits. The result is replayed exactly once more and\n"
	     "written beside REPORT as report.shrunk.json and summary.shrunk.txt.\n\n"
	     "  --runs N                   trial runs at most [300]");
}

struct shrink {
	struct cgt_run_config cfg;	/* the smallest configuration so far */
	struct cgt_schedule best;	/* the choices that made the failure under it */
	long best_stop, best_step;
	int target;
	long runs, budget;
};

/*
 * One trial: @cfg following @follow as far as it fits. Kept if the failure came back, and,
 * for a trial of a shorter schedule (@fewer), if the run it made has no more decisions and
 * no more switches than the best so far, and fewer of one of them.
 */
static bool shrink_try(struct shrink *sh, const struct cgt_run_config *cfg,
		       const struct cgt_schedule *follow, bool fewer)
{
	struct cgt_run_config c = *cfg;
	struct cgt_child_result res;
	bool same;

	if (sh->runs >= sh->budget)
		return false;
	sh->runs++;
	c.follow = follow;
	c.lenient = true;
	c.no_report = true;
	if (cgt_run_child(&c, true, &res))
		return false;
	same = res.ran && res.detector == sh->target;
	if (same && fewer) {
		long sw = cgt_schedule_switches(&res.schedule), best_sw = cgt_schedule_switches(&sh->best);

		same = sw <= best_sw && res.schedule.len <= sh->best.len &&
		       (sw < best_sw || res.schedule.len < sh->best.len);
	}
	if (same) {
		cgt_schedule_free(&sh->best);
		sh->best = res.schedule;
		res.schedule = (struct cgt_schedule){ 0 };
		sh->best_stop = res.stop_step;
		sh->best_step = res.step;
		sh->cfg = c;
	}
	cgt_child_result_free(&res);
	return same;
}

/* The first @n choices of @s (the decisions up to the failure). */
static bool schedule_prefix(const struct cgt_schedule *s, long n, struct cgt_schedule *out)
{
	memset(out, 0, sizeof(*out));
	for (long k = 0; k < n && k < s->len; k++)
		if (cgt_schedule_push(out, s->choice[k]))
			return false;
	return true;
}

/*
 * The shortest prefix of the schedule that still leads to the failure, the rest left to the
 * lenient follower (the running thread goes on while it can): most switches of a random
 * schedule have nothing to do with the failure. A binary search, as the failure need not
 * come back for every longer prefix.
 */
static void shrink_prefix(struct shrink *sh)
{
	long lo = 0, hi = sh->best_step + 1;

	while (lo + 1 < hi && sh->runs < sh->budget && !cgt_run_interrupted()) {
		long mid = lo + (hi - lo) / 2;
		struct cgt_schedule cand;

		if (!schedule_prefix(&sh->best, mid, &cand))
			return;
		if (shrink_try(sh, &sh->cfg, &cand, true))
			hi = sh->best_step + 1 < mid ? sh->best_step + 1 : mid;
		else
			lo = mid;
		cgt_schedule_free(&cand);
	}
}

/*
 * Fewer switches, as delta debugging over the runs of one thread: a chunk of runs is given
 * to the thread that ran just before it, coarse chunks first, finer while nothing goes.
 */
static void shrink_switches(struct shrink *sh)
{
	for (long chunks = 2; sh->runs < sh->budget; ) {
		long nseg = cgt_schedule_switches(&sh->best) + 1, size;
		bool cut = false;

		if (nseg < 2)
			return;
		if (chunks > nseg)
			chunks = nseg;
		size = (nseg + chunks - 1) / chunks;
		for (long c = 0; c < chunks && !cut && sh->runs < sh->budget; c++) {
			struct cgt_schedule cand;
			long seg = 0, lo = c * size, hi = lo + size;
			int before = 0;

			if (!schedule_prefix(&sh->best, sh->best.len, &cand))
				return;
			for (long k = 0; k < cand.len; k++) {
				if (k && sh->best.choice[k] != sh->best.choice[k - 1])
					seg++;
				if (seg < lo)
					before = cand.choice[k];
				else if (seg < hi && before)
					cand.choice[k] = before;
			}
			cut = shrink_try(sh, &sh->cfg, &cand, true);
			cgt_schedule_free(&cand);
		}
		if (cut)
			chunks = chunks > 2 ? chunks - 1 : 2;
		else if (chunks >= nseg)
			return;
		else
			chunks *= 2;
	}
}

/* Move the final run's report beside the original. */
static int shrink_publish(const char *dir, const struct cgt_child_result *res)
{
	static const char *const names[][2] = {
		{ "report.json", "report.shrunk.json" }, { "summary.txt", "summary.shrunk.txt" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		char *from = beside(res->report_dir, names[i][0]), *to = beside(dir, names[i][1]);
		int ret = from && to ? rename(from, to) : -1;

		if (ret)
			fprintf(stderr, "cgtorture: shrink: cannot move %s to %s: %s\n", from, to,
				strerror(errno));
		free(from);
		free(to);
		if (ret)
			return -1;
	}
	rmdir(res->report_dir);
	return 0;
}

int cgt_shrink_main(int argc, char **argv)
{
	struct shrink sh = { .budget = 300 };
	struct cgt_report_in r = { 0 };
	struct cgt_child_result fin;
	struct cgt_schedule first;
	const char *runs_opt;
	char *out = NULL, got[96];
	int ret, threads0, walkers0, fi;

	if (has_option(argc, argv, "--help") || has_option(argc, argv, "-h")) {
		shrink_help();
		return CGT_EXIT_PASS;
	}
	runs_opt = take_option(&argc, argv, "--runs", false);
	if (runs_opt)
		sh.budget = parse_count("--runs", runs_opt, 1000000);
	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "cgtorture: shrink needs one report.json (see shrink --help)\n");
		return CGT_EXIT_USAGE;
	}
	ret = report_config(argv[1], &r, &sh.cfg);
	if (ret)
		goto out;
	ret = CGT_EXIT_USAGE;
	fi = interest(&r, sh.cfg.stop_on);
	if (!r.controlled || fi < 0 || r.failure[fi].step < 0) {
		fprintf(stderr, "cgtorture: shrink: %s is not a controlled run's failure\n", argv[1]);
		goto out;
	}
	out = beside(r.dir, "shrink");
	sh.cfg.out = out;
	sh.target = r.failure[fi].detector;
	sh.cfg.stop_on = sh.target;
	threads0 = sh.cfg.threads;
	walkers0 = sh.cfg.walkers;
	cgt_cli_on_signals();

	/* the decisions up to the failure, and whatever it takes to end the run */
	ret = CGT_EXIT_FAIL;
	if (!schedule_prefix(&r.schedule, r.failure[fi].step + 1, &first) ||
	    !shrink_try(&sh, &sh.cfg, &first, false)) {
		printf("shrink: the failure does not come back following %s's schedule\n", argv[1]);
		cgt_schedule_free(&first);
		goto out;
	}
	cgt_schedule_free(&first);
	shrink_prefix(&sh);
	for (struct cgt_run_config c = sh.cfg; c.threads > 1 && !cgt_run_interrupted(); ) {
		c.threads /= 2;
		if (!shrink_try(&sh, &c, &sh.best, false))
			break;
	}
	for (struct cgt_run_config c = sh.cfg; c.walkers > 0 && !cgt_run_interrupted(); ) {
		c.walkers /= 2;
		if (!shrink_try(&sh, &c, &sh.best, false))
			break;
	}
	if (!cgt_run_interrupted())
		shrink_switches(&sh);

	/* the result, replayed exactly, with its report */
	sh.cfg.follow = &sh.best;
	sh.cfg.follow_stop_step = sh.best_stop;
	sh.cfg.lenient = false;
	sh.cfg.no_report = false;
	cgt_cli_render(&sh.cfg);
	if (cgt_run_child(&sh.cfg, true, &fin))
		goto out;
	cgt_child_failure(&fin, got, sizeof(got));
	if (fin.detector != sh.target || fin.step != sh.best_step || fin.diverged >= 0 ||
	    !fin.report_dir[0]) {
		printf("shrink: the shrunk schedule did not replay exactly (%s%s%s)\n", got,
		       fin.diverged >= 0 ? "; " : "", fin.diverged >= 0 ? fin.why : "");
	} else if (!shrink_publish(r.dir, &fin)) {
		printf("shrink: %s at decision %ld -> %ld; decisions %ld -> %ld; switches %ld -> %ld; "
		       "threads %d -> %d; walkers %d -> %d; %ld trial runs\n",
		       cgt_detector_names[sh.target], r.failure[fi].step, fin.step, r.schedule.len,
		       fin.schedule.len, cgt_schedule_switches(&r.schedule),
		       cgt_schedule_switches(&fin.schedule), threads0, sh.cfg.threads, walkers0,
		       sh.cfg.walkers, sh.runs);
		printf("shrink: wrote %s/report.shrunk.json; cgtorture replay %s/report.shrunk.json\n",
		       r.dir, r.dir);
		ret = CGT_EXIT_PASS;
	}
	cgt_child_result_free(&fin);
	rmdir(out);
out:
	cgt_cli_release(&sh.cfg);
	cgt_schedule_free(&sh.best);
	cgt_report_in_free(&r);
	free(out);
	return ret;
}
