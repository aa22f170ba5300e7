// SPDX-License-Identifier: GPL-2.0
/* What a run prints: the banner, the periodic stats line, the progress line, the summary. */
#include <string.h>

#include "run.h"

void cgt_stats_snapshot(const struct cgt_stats *live, struct cgt_stats *out)
{
	_Static_assert(sizeof(*out) % sizeof(long) == 0, "cgt_stats must hold longs only");
	const long *src = (const long *)live;
	long *dst = (long *)out;

	for (size_t i = 0; i < sizeof(*out) / sizeof(long); i++)
		dst[i] = __atomic_load_n(&src[i], __ATOMIC_RELAXED);
}

void cgt_print_stats(FILE *f, const struct cgt_stats *s, double elapsed)
{
	fprintf(f, "[%6.1fs] live %ld peak %ld | fork %ld exec %ld exit %ld killed %ld "
		"migrate %ld observe %ld | walks %ld livelocks %ld%s\n",
		elapsed, s->live, s->peak, s->ops[CGT_OP_FORK], s->ops[CGT_OP_EXEC],
		s->ops[CGT_OP_EXIT], s->killed, s->ops[CGT_OP_MIGRATE], s->ops[CGT_OP_OBSERVE],
		s->walks, s->livelocks, s->livelocks ? " !!!" : "");
}

void cgt_print_progress(FILE *f, const struct cgt_stats *s, double elapsed, double duration)
{
	long ops = 0;

	for (int op = 0; op < CGT_NR_OPS; op++)
		ops += s->ops[op];
	fprintf(f, "\r\033[K%5.1f/%.0fs  live %ld  ops %ld  livelocks %ld", elapsed, duration,
		s->live, ops, s->livelocks);
	fflush(f);
}

void cgt_print_summary(FILE *f, const struct cgt_run_config *cfg, const struct cgt_run_result *r)
{
	const struct cgt_stats *s = &r->stats;
	double secs = r->elapsed > 0 ? r->elapsed : 1;
	long total = 0;

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
	fprintf(f, "walks %ld (%.1f threads each), css_task_iter %ld, cgroup_task_count %ld, "
		"proc_cgroup_show %ld\n", s->walks, s->walks ? (double)s->walk_steps / s->walks : 0.0,
		s->iters, s->counts, s->shows);
	fprintf(f, "peak live threads %ld (cap %d)\n\n", s->peak, cfg->threads);

	if (s->livelocks)
		fprintf(f, "livelock: %ld walk(s) cut short; first: %s\n", s->livelocks,
			r->livelock_first);
	if (r->violations.count)
		fprintf(f, "invariant violated during the run %ld time(s); first: %s\n",
			r->violations.count, r->violations.first);
	fprintf(f, "invariants at the end: %s%s%s\n",
		r->quiesced && r->invariants_ok ? "ok" : "BROKEN",
		r->why[0] ? ": " : "", r->why);
	fprintf(f, "leaks after exit and grace periods: %s%s\n",
		!r->finished ? "not checked (threads did not exit)" : r->leaks_ok ? "none" : "LEAKED: ",
		r->leak_why);

	fprintf(f, "SUMMARY iter=%s css-lock=%s threads=%d seed=%llu ops=%ld ops_per_s=%.0f "
		"peak=%ld livelocks=%ld violations=%ld invariants=%s verdict=%s\n",
		cgt_iter_name(cfg->iter), cfg->css_lock->name, cfg->threads,
		(unsigned long long)cfg->seed, total, total / secs, s->peak, s->livelocks,
		r->violations.count, r->invariants_ok ? "ok" : "broken", r->pass ? "PASS" : "FAIL");
	fprintf(f, "End of test: %s\n", r->pass ? "PASS" : "FAIL");
}
