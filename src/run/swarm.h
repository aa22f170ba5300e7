/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Swarm testing (Groce et al., "Swarm Testing", ISSTA 2012): rather than one configuration
 * for a whole run, the run is cut into phases, each with a configuration drawn from the seed:
 * how many model threads may live, which operations run and how often, how many forks make
 * threads, how much perturbation widens the windows, how many walkers read, how long a dead
 * process waits for its parent's wait() (not at all: the only way a group's last thread
 * reaps its zombie leader, release_task's zap_leader). Many small
 * configurations, some leaving features out, find more than one large one with everything
 * on. A dimension given on the command line is pinned (--swarm names the free ones); the
 * readers' kinds (reads) have no option of their own: only --swarm pins them.
 * Phases are drawn from the seed and their index only, so the same seed makes the same
 * phases: a free-running run switches by the clock, a controlled run by its decisions.
 */
#ifndef CGT_RUN_SWARM_H
#define CGT_RUN_SWARM_H

#include "ops.h"

struct cgt_run_config;

/* The dimensions, named as the options that pin them. */
#define CGT_SWARM_DIMS(X)				\
	X(THREADS,	"threads")			\
	X(MIX,		"mix")				\
	X(CLONE,	"clone-thread")			\
	X(PERTURB,	"perturb")			\
	X(WALKERS,	"walkers")			\
	X(READS,	"reads")			\
	X(REAP,		"reap-delay")			\
	X(PID_MAX,	"pid-max")			\
	X(KERNEL,	"kernel")			\
	X(OFF_CPU,	"off-cpu")

enum cgt_swarm_dim {
#define X(id, name) CGT_SWARM_##id,
	CGT_SWARM_DIMS(X)
#undef X
	CGT_NR_SWARM_DIMS
};

#define CGT_SWARM_ALL		((1u << CGT_NR_SWARM_DIMS) - 1)
#define CGT_SWARM_WALKERS_MAX	16	/* walker pthreads a swarmed run starts */

extern const char *const cgt_swarm_dim_names[CGT_NR_SWARM_DIMS];

struct cgt_phase {
	int index;
	double start_s;			/* free-running: seconds into the run */
	long start_step;		/* controlled: the decision it began at, else -1 */
	int threads;			/* cap on live model threads */
	unsigned int mix[CGT_NR_OPS];
	int clone_thread_pct;
	int perturb;			/* per mille (free-running runs only) */
	int walkers;			/* walkers that read; the others idle */
	unsigned int reads[CGT_NR_READS];	/* weights of the readers' kinds */
	int reap_delay;			/* operations a zombie waits for its parent; 0: none */
	double off_cpu_s;		/* a threadgroup reader off the CPU this long; 0: none */
};

/* Phase @index of a run: its configuration (pinned dimensions from @cfg) and length. */
void cgt_swarm_draw(const struct cgt_run_config *cfg, int index, struct cgt_phase *p);
double cgt_swarm_length_s(const struct cgt_run_config *cfg, int index);
long cgt_swarm_length_steps(const struct cgt_run_config *cfg, int index);
/* Walker pthreads to start: every walker a phase may want. */
int cgt_swarm_walkers(const struct cgt_run_config *cfg);
/* The run's pid_max: the configured one, or one drawn from the seed (a run-long dimension). */
int cgt_swarm_pid_max(const struct cgt_run_config *cfg);
/* The run's kernel era drawn from the seed (a run-long dimension), or NULL: keep @cfg's. */
const struct cgt_kernel_era *cgt_swarm_era(const struct cgt_run_config *cfg);
/* The run's population drawn from the seed (a run-long dimension), or 0: keep @cfg's. */
int cgt_swarm_population(const struct cgt_run_config *cfg);

/* The phase in force, read by every model thread; published by the run's driver. */
const struct cgt_phase *cgt_phase_now(void);
/* Start phase @index at @start_s or @start_step; the log keeps the last CGT_PHASE_LOG. */
const struct cgt_phase *cgt_phase_begin(const struct cgt_run_config *cfg, int index,
					double start_s, long start_step);
void cgt_phase_reset(void);
#define CGT_PHASE_LOG	256
int cgt_phases_begun(void);
/* Phase @k, if the log still holds it, else NULL. */
const struct cgt_phase *cgt_phase_get(int k);

#endif
