// SPDX-License-Identifier: GPL-2.0
/*
 * The swarm's phases in force as a run goes (swarm.h draws them): the next one published,
 * its perturbation, reap delay and off-CPU reader put in place, and its end timed, by the
 * wall clock in the free loop and by decisions in a controlled run, which both call here.
 */
#include "run_internal.h"
#include "points.h"

/* The next swarm phase: its configuration published, its perturbation in force. */
void cgt_run_next_phase(struct cgt_run *run, double now_s, long step)
{
	const struct cgt_phase *p = cgt_phase_begin(run->cfg, ++run->phase, now_s, step);

	cgt_events_set_perturb(p->perturb);
	cgt_set_reap_delay(p->reap_delay);
	if (p->off_cpu_s > 0)
		cgt_model_off_cpu_arm(p->off_cpu_s, 1);
	if (step >= 0)
		run->next_phase_step = step + cgt_swarm_length_steps(run->cfg, run->phase);
	else
		run->next_phase_s = now_s + cgt_swarm_length_s(run->cfg, run->phase);
}
