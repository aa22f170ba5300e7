// SPDX-License-Identifier: GPL-2.0
/*
 * The run's counters read while it runs, and its live display on the terminal: the periodic
 * stats line (as locktorture's, "!!!" flags failures; the era's known behaviour is counted
 * apart, unflagged) and the progress line.
 */
#include "press.h"
#include "stats.h"

void cgt_stats_snapshot(const struct cgt_stats *live, struct cgt_stats *out)
{
	_Static_assert(sizeof(*out) % sizeof(long) == 0, "cgt_stats must hold longs only");
	const long *src = (const long *)live;
	long *dst = (long *)out;

	for (size_t i = 0; i < sizeof(*out) / sizeof(long); i++)
		dst[i] = __atomic_load_n(&src[i], __ATOMIC_RELAXED);
	/* a fork counts itself live before it raises the peak: the peak is at least that */
	if (out->peak < out->live)
		out->peak = out->live;
}

/* "t=64 mix=fork:35,exec:0,... clone=70 perturb=100 walkers=3 reads=walk:4,..." */
static int phase_describe(char *buf, size_t len, const struct cgt_phase *p)
{
	size_t off = 0;

	off += (size_t)snprintf(buf + off, len - off, "t=%d mix=", p->threads);
	for (int op = 0; op < CGT_NR_OPS && off < len; op++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s:%u", op ? "," : "",
					cgt_op_names[op], p->mix[op]);
	if (off < len)
		off += (size_t)snprintf(buf + off, len - off,
					" clone=%d perturb=%d reap=%d off-cpu=%.2fs walkers=%d reads=",
					p->clone_thread_pct, p->perturb, p->reap_delay, p->off_cpu_s,
					p->walkers);
	for (int k = 0; k < CGT_NR_READS && off < len; k++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s:%u", k ? "," : "",
					cgt_read_names[k], p->reads[k]);
	return (int)off;
}

/*
 * @failures: not the era's known behaviour, whose @known count is told beside them; @phase:
 * a swarmed run's phase in force, told at the end of the line; NULL: none.
 */
void cgt_print_stats(FILE *f, const struct cgt_stats *s, double elapsed, long failures,
		     long known, const struct cgt_phase *phase)
{
	char tail[384] = "", known_s[32] = "";
	const char *pressed = cgt_press_now();
	int n = 0;

	if (phase) {
		n = snprintf(tail, sizeof(tail), " | phase %d ", phase->index);
		n += phase_describe(tail + n, sizeof(tail) - (size_t)n, phase);
	}
	if (pressed && n < (int)sizeof(tail))
		snprintf(tail + n, sizeof(tail) - (size_t)n, " | pressing %s", pressed);
	if (known)
		snprintf(known_s, sizeof(known_s), " known %ld", known);
	fprintf(f, "[%6.1fs] live %ld peak %ld | fork %ld exec %ld exit %ld killed %ld "
		"migrate %ld observe %ld | walks %ld checks %ld failures %ld%s%s%s\n",
		elapsed, s->live, s->peak, s->ops[CGT_OP_FORK], s->ops[CGT_OP_EXEC],
		s->ops[CGT_OP_EXIT], s->killed, s->ops[CGT_OP_MIGRATE], s->ops[CGT_OP_OBSERVE],
		s->walks, s->checks, failures, known_s, tail, failures ? " !!!" : "");
}

void cgt_print_progress(FILE *f, const struct cgt_stats *s, double elapsed, double duration,
			long failures)
{
	long ops = 0;

	for (int op = 0; op < CGT_NR_OPS; op++)
		ops += s->ops[op];
	fprintf(f, "\r\033[K%5.1f/%.0fs  live %ld  ops %ld  failures %ld", elapsed, duration,
		s->live, ops, failures);
	fflush(f);
}
