// SPDX-License-Identifier: GPL-2.0
/* The summary a run prints on the terminal as it ends. */
#define _GNU_SOURCE	/* sigabbrev_np */
#include <string.h>

#include "report.h"
#include "../locks/lock.h"
#include "story.h"

/* "coverage: N of M paths reached (not: ...); N of M marked points passed (not: ...)" */
static const char *sig_name(int sig)
{
	const char *name = sigabbrev_np(sig);

	return name ? name : "?";
}

static void print_coverage(FILE *f, const struct cgt_cover *c)
{
	int paths = cgt_cover_paths_reached(c), points = cgt_cover_points_passed(c);
	const char *sep = " (not: ";

	fprintf(f, "coverage: %d of %d paths reached", paths, CGT_NR_PATHS);
	for (int i = 0; i < CGT_NR_PATHS; i++) {
		if (!cgt_cover_path(c, i)) {
			fprintf(f, "%s%s", sep, cgt_path_names[i]);
			sep = ", ";
		}
	}
	fprintf(f, "%s; %d of %d marked points passed", paths < CGT_NR_PATHS ? ")" : "", points,
		CGT_NR_POINTS);
	sep = " (not: ";
	for (int i = 0; i < CGT_NR_POINTS; i++) {
		if (!cgt_cover_point(c, i)) {
			fprintf(f, "%s%s", sep, cgt_point_names[i]);
			sep = ", ";
		}
	}
	fprintf(f, "%s\n", points < CGT_NR_POINTS ? ")" : "");
}

/* Every count on one greppable line beside SUMMARY, for the nightly to sum over its cells. */
static void print_coverage_counts(FILE *f, const struct cgt_cover *c)
{
	fputs("COVERAGE", f);
	for (int i = 0; i < CGT_NR_PATHS; i++)
		fprintf(f, " path.%s=%ld", cgt_path_names[i], cgt_cover_path(c, i));
	for (int i = 0; i < CGT_NR_POINTS; i++)
		fprintf(f, " point.%s=%ld", cgt_point_names[i], cgt_cover_point(c, i));
	fputc('\n', f);
}

/*
 * Queues that outlasted --stall and moved on (a hang is a chain that stopped): the convoys,
 * per lock class, with the longest queue the hang watch saw.
 */
static void print_convoys(FILE *f)
{
	struct cgt_lock_class c[CGT_MAX_LOCK_CLASSES];
	int n = cgt_lock_classes(c, CGT_MAX_LOCK_CLASSES);
	const char *sep = "convoys (queues past --stall that kept moving; not hangs): ";

	for (int i = 0; i < n; i++) {
		if (!c[i].convoy_max)
			continue;
		fprintf(f, "%s%s %llu waiting past it at once (longest queue %llu, longest wait %.2f s)",
			sep, c[i].name, (unsigned long long)c[i].convoy_max,
			(unsigned long long)c[i].queue_max,
			(double)(c[i].wait_max_ns[CGT_READ] > c[i].wait_max_ns[CGT_WRITE] ?
				 c[i].wait_max_ns[CGT_READ] : c[i].wait_max_ns[CGT_WRITE]) / 1e9);
		sep = "; ";
	}
	if (sep[0] == ';')
		fputc('\n', f);
}

/* Reader pressure the driver applied to a reader-first lock (run/press.h). */
static void print_presses(FILE *f, const struct cgt_run_result *r)
{
	const char *sep = "reader pressure (every walker on one reader-first lock's readers): ";

	for (int i = 0; i < r->npresses; i++) {
		const struct cgt_press *p = &r->presses[i];

		fprintf(f, "%s%s at %.2f s for %.2f s%s", sep, p->lock, p->start_s, p->length_s,
			p->starved ? " (a writer starved)" : "");
		sep = "; ";
	}
	if (r->npresses)
		fputc('\n', f);
}

/*
 * The era's own catalogued behaviour, seen: named apart from the detectors' counts, which are
 * what is new (the nightly reads them), and not a failure of the run.
 */
static void print_known(FILE *f, const struct cgt_run_config *cfg, const struct cgt_failure *fl,
			int nf, long known)
{
	int i = 0;

	while (i < nf && !fl[i].known[0])
		i++;
	if (!known || i == nf)
		return;
	fprintf(f, "known for kernel %s: %ld report(s) of %s, the catalogue's %s (%s as %s "
		"shipped it); not a failure of this run (cgtorture bugs)\n", cfg->era->name, known,
		cgt_detector_names[fl[i].detector], fl[i].known, fl[i].subject, cfg->era->name);
}

void cgt_print_summary(FILE *f, const struct cgt_run_config *cfg, const struct cgt_run_result *r)
{
	struct cgt_failure fl[CGT_MAX_FAILURES];
	const struct cgt_stats *s = &r->stats;
	double secs = r->elapsed > 0 ? r->elapsed : 1, wall;
	long total = 0;
	int nf = cgt_failures_get(fl, CGT_MAX_FAILURES);

	fprintf(f, "\n%-10s %12s %12s\n", "operation", "done", "per second");
	for (int op = 0; op < CGT_NR_OPS; op++) {
		fprintf(f, "%-10s %12ld %12.0f\n", cgt_op_names[op], s->ops[op], s->ops[op] / secs);
		total += s->ops[op];
	}
	fprintf(f, "%-10s %12ld %12.0f\n", "total", total, total / secs);
	fprintf(f, "\nforks: %ld threads, %ld processes; refused at the cap %ld, failed (EAGAIN) %ld, "
		"interrupted %ld\n", s->fork_thread, s->ops[CGT_OP_FORK] - s->fork_thread,
		s->fork_at_cap, s->fork_eagain, s->fork_eintr);
	fprintf(f, "execs lost to another exec %ld; threads killed by exec %ld; migrations of "
		"vanished pids %ld\n", s->exec_eagain, s->killed, s->migrate_esrch);
	fprintf(f, "walks %ld (%.1f threads each), /proc/pid/task %ld (live threads missed %ld), "
		"pgrp walks %ld, css_task_iter %ld, cgroup_task_count %ld, proc_cgroup_show %ld\n",
		s->walks, s->walks ? (double)s->walk_steps / s->walks : 0.0, s->readdirs,
		s->readdir_missed, s->pgrp_walks, s->iters, s->counts, s->shows);
	fprintf(f, "peak live threads %ld (cap %d); ", s->peak, cfg->threads);
	if (s->ramp_target && s->ramp_ms >= 0)
		fprintf(f, "%ld live %.2f s into the run (the ramp); ", s->ramp_target,
			cgt_stats_ramp_s(s));
	else if (s->ramp_target)
		fprintf(f, "the ramp to %ld live ended at half the run without them; ",
			s->ramp_target);
	fprintf(f, "invariant checks while running %ld", s->checks);
	if (s->checks_skipped)
		fprintf(f, " (%ld skipped: the model did not come to rest within --stall)",
			s->checks_skipped);
	fputc('\n', f);
	if (cfg->sched)
		fprintf(f, "controlled: %ld decisions by %s, %ld preemptions; locks %s\n", r->steps,
			cfg->sched->name, cgt_sched_preemptions(NULL),
			cgt_run_lock_code(cfg) ?
			"run their own code, a decision at each atomic operation (--locks code; "
			"glibc's locks kept by the scheduler)" :
			"kept by the scheduler by each variant's policy (--locks model)");
	print_convoys(f);
	print_presses(f, r);
	print_coverage(f, &r->cover);
	fputc('\n', f);

	for (int d = 0; d < CGT_NR_DETECTORS; d++) {
		long n = cgt_failure_count((enum cgt_detector)d) -
			 cgt_failure_count_known((enum cgt_detector)d);

		if (n)
			fprintf(f, "%-12s %ld report(s): %s\n", cgt_detector_names[d], n,
				cgt_detector_descs[d]);
	}
	print_known(f, cfg, fl, nf, r->known);
	for (int i = 0; i < nf && i < 5; i++)
		fprintf(f, "  [%7.3fs] %s: %s%s%s\n", (double)fl[i].ns / 1e9,
			cgt_detector_names[fl[i].detector], fl[i].summary,
			fl[i].known[0] ? " - known: " : "", fl[i].known);
	if (nf > 5)
		fprintf(f, "  ... and %ld more\n", r->failures - 5);
	if (cgt_story())
		fprintf(f, "\nhow it came about (%s):\n%s",
			cfg->sched ? "decisions of the controlled run; T<n>: its thread n" :
			"ms into the run; thread <n>: the harness thread", cgt_story());
	if (!r->quiesced)
		fprintf(f, "the model did not come to rest for the final check (see hang reports)\n");
	if (!r->finished)
		fprintf(f, "some model threads never exited: the leak check was skipped\n");
	if (r->interrupted && cfg->sched)
		fprintf(f, "interrupted by SIG%s after %ld of %d decisions: a partial run\n",
			sig_name(r->interrupted), r->steps, cfg->steps);
	else if (r->interrupted)
		fprintf(f, "interrupted by SIG%s after %.1f of %g s: a partial run\n",
			sig_name(r->interrupted), r->elapsed, cfg->duration);
	if (nf == r->known && r->finished)
		fprintf(f, "%s; invariants held; nothing leaked%s\n",
			r->known ? "only the era's known behaviour fired" : "no detector fired",
			r->interrupted ? " (so far)" : "");
	if (r->report_dir[0])
		fprintf(f, "report: %s/report.json and %s/summary.txt; the page: %s/report.html\n",
			r->report_dir, r->report_dir, r->report_dir);
	if (r->pictures_note[0])
		fprintf(f, "%s\n", r->pictures_note);

	/* from the clock's reset as the run began: its boot, its time, the last check, the drain */
	wall = (double)cgt_clock_ns() / 1e9;
	if (cfg->sched)
		fprintf(f, "wall time %.1f s for %ld decisions\n", wall, r->steps);
	else
		fprintf(f, "wall time %.1f s for a %g s run (its last check and drain included)\n",
			wall, cfg->duration);
	print_coverage_counts(f, &r->cover);
	/* failures= counts what is not the era's known behaviour; known= counts that */
	fprintf(f, "SUMMARY iter=%s css-lock=%s threads=%d seed=%llu ops=%ld ops_per_s=%.0f "
		"peak=%ld failures=%ld known=%ld first_failure_s=%.3f ramp_s=%.2f wall_s=%.2f "
		"verdict=%s\n", cgt_iter_name(cfg->iter), cfg->css_lock->name, cfg->threads,
		(unsigned long long)cfg->seed, total, total / secs, s->peak, r->failures - r->known,
		r->known, r->first_failure, cgt_stats_ramp_s(s), wall, cgt_verdict(r));
	fprintf(f, "End of test: %s\n", !strcmp(cgt_verdict(r), "FAIL") ? "FAILURE" :
		cgt_verdict(r));
}
