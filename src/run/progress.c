// SPDX-License-Identifier: GPL-2.0
/*
 * What a run shows while it goes: a stats line every --stats-interval on stdout, and on a
 * terminal a progress line on stderr, drawn over itself and wiped before anything else is
 * printed. Both kinds of run print them from their driver, between two looks at the model.
 */
#include <string.h>
#include <unistd.h>

#include "run_internal.h"

void cgt_run_progress_begin(const struct cgt_run *run, struct run_progress *p)
{
	p->next_stats = run->start + run->cfg->stats_interval;
	p->next_progress = 0;
	p->tty = !run->cfg->quiet && isatty(STDERR_FILENO);
	p->waiting = NULL;
}

void cgt_run_progress(struct cgt_run *run, struct run_progress *p)
{
	const struct cgt_run_config *cfg = run->cfg;
	double now = cgt_now(), elapsed = now - run->start;
	struct cgt_stats s;

	if (cfg->quiet)
		return;
	if (cfg->stats_interval > 0 && now >= p->next_stats) {
		cgt_stats_snapshot(&run->stats, &s);
		if (p->tty)
			fputs("\r\033[K", stderr);
		cgt_print_stats(stdout, &s, elapsed, cgt_failures_total() - cgt_failures_known(),
				cgt_failures_known(), cfg->swarm ? cgt_phase_now() : NULL);
		fflush(stdout);
		p->next_stats += cfg->stats_interval;
	}
	if (p->tty && now >= p->next_progress) {
		cgt_stats_snapshot(&run->stats, &s);
		cgt_print_progress(stderr, &s, elapsed, cfg->duration,
				   cgt_failures_total() - cgt_failures_known());
		p->next_progress = now + 0.25;
	}
}

void cgt_run_progress_wait(struct run_progress *p, const char *what, long left)
{
	double now = cgt_now();

	/* a new phase shows at once, however short: the line says where the end is */
	if (!p->tty || (now < p->next_progress && p->waiting && !strcmp(what, p->waiting)))
		return;
	p->waiting = what;
	fprintf(stderr, "\r\033[K%s: %ld thread(s) to go", what, left);
	fflush(stderr);
	p->next_progress = now + 0.25;
}

/* The run's end: the progress line wiped, so that the summary starts on a clean line. */
void cgt_run_progress_end(const struct run_progress *p)
{
	if (p->tty)
		fputs("\r\033[K", stderr);
}
