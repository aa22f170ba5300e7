// SPDX-License-Identifier: GPL-2.0
/*
 * Drawing the phases of a swarmed run (swarm.h). Each dimension is drawn on its own from a
 * generator seeded by the run's seed and the phase's index. Swarm testing's "feature
 * omission" leaves features out (no perturbation, an operation or a reader with weight 0);
 * each phase first draws how much: nothing, a quarter or half of its operations, and of its
 * readers nothing, a quarter, half or three quarters. Half for every phase made the
 * conjunctions a bug needs rare (fork, exit, threads and a walk all at once: one phase in
 * sixteen, one 10-s run in two found walk-from-exiting); but readers that keep a writer out
 * need one lock's readers to dominate a phase, which three quarters left out makes common
 * (a reader-first tasklist_lock: 20 of 20 seeds, against 4 of 10 with half at most).
 * Thread caps are drawn log-uniformly, so small groups that meet often come as often as
 * large crowds.
 */
#include <math.h>
#include <string.h>

#include "swarm.h"
#include "run.h"
#include "../base/prng.h"

const char *const cgt_swarm_dim_names[CGT_NR_SWARM_DIMS] = {
#define X(id, name) [CGT_SWARM_##id] = name,
	CGT_SWARM_DIMS(X)
#undef X
};

static const int perturb_levels[] = { 5, 20, 50, 100, 200, 400 };

static struct cgt_phase log_[CGT_PHASE_LOG];
static int nbegun;
static const struct cgt_phase *now;

static bool swarmed(const struct cgt_run_config *cfg, enum cgt_swarm_dim d)
{
	return cfg->swarm & (1u << d);
}

static void phase_rng(const struct cgt_run_config *cfg, int index, uint64_t what,
		      struct prng *r)
{
	prng_seed(r, cfg->seed, 0x5377a4d00000000ULL ^ ((uint64_t)index << 8) ^ what);
}

/* Each of @n weights left out (0) @omit times in four, else 1 to 100; their sum. */
static unsigned int draw_weights(struct prng *r, unsigned int *w, int n, uint32_t omit)
{
	unsigned int total = 0;

	for (int i = 0; i < n; i++) {
		w[i] = prng_below(r, 4) >= omit ? 1 + prng_below(r, 100) : 0;
		total += w[i];
	}
	return total;
}

void cgt_swarm_draw(const struct cgt_run_config *cfg, int index, struct cgt_phase *p)
{
	struct prng r;
	uint32_t omit;

	memset(p, 0, sizeof(*p));
	p->index = index;
	p->start_step = -1;
	phase_rng(cfg, index, 1, &r);
	omit = prng_below(&r, 3);
	p->threads = cfg->threads;
	if (swarmed(cfg, CGT_SWARM_THREADS) && cfg->threads > 8) {
		double u = (double)prng_below(&r, 1000) / 1000.0;

		p->threads = (int)(8.0 * pow((double)cfg->threads / 8.0, u));
	}
	memcpy(p->mix, cfg->mix, sizeof(p->mix));
	if (swarmed(cfg, CGT_SWARM_MIX) && !draw_weights(&r, p->mix, CGT_NR_OPS, omit))
		memcpy(p->mix, cfg->mix, sizeof(p->mix));
	p->clone_thread_pct = cfg->clone_thread_pct;
	if (swarmed(cfg, CGT_SWARM_CLONE))
		p->clone_thread_pct = (int)prng_below(&r, 101);
	p->perturb = cfg->sched ? 0 : cfg->perturb;
	if (swarmed(cfg, CGT_SWARM_PERTURB) && !cfg->sched)
		p->perturb = !prng_below(&r, 3) ? 0 :
			perturb_levels[prng_below(&r, ARRAY_SIZE(perturb_levels))];
	p->walkers = cfg->walkers;
	if (swarmed(cfg, CGT_SWARM_WALKERS))
		p->walkers = (int)prng_below(&r, CGT_SWARM_WALKERS_MAX + 1);
	for (int k = 0; k < CGT_NR_READS; k++)
		p->reads[k] = 1;
	/* the readers' own draw reaches three quarters: a storm on one lock needs few kinds */
	if (swarmed(cfg, CGT_SWARM_READS) &&
	    !draw_weights(&r, p->reads, CGT_NR_READS, prng_below(&r, 4)))
		p->reads[prng_below(&r, CGT_NR_READS)] = 1;
	/* drawn last, so the dimensions before it draw as they did before it was one */
	p->reap_delay = (int)cfg->reap_delay;
	if (swarmed(cfg, CGT_SWARM_REAP))
		p->reap_delay = !prng_below(&r, 3) ? 0 : 1 + (int)prng_below(&r, 32);
	/*
	 * One free-running phase in eight keeps a reader of the threadgroup lock off the CPU
	 * holding it, a tenth to half of --stall (the kernel's reader in reclaim or throttled):
	 * the writer behind it sleeps, and every later fork behind that, so their wake-ups and
	 * the convoy are exercised. Well short of the stall: the correct kernel stays without a
	 * hang (--off-cpu, pinned, is what makes one); and rare: all forks wait meanwhile.
	 */
	if (swarmed(cfg, CGT_SWARM_OFF_CPU) && !cfg->sched && !prng_below(&r, 8))
		p->off_cpu_s = cfg->stall * (0.1 + (double)prng_below(&r, 400) / 1000.0);
}

/*
 * Mostly a quarter of a second to one: long enough for a configuration to build its
 * population up (thousands of forks a second), short enough for a 10 s run to try a dozen;
 * one phase in five lasts one to three seconds, for what needs pressure held past --starve.
 */
double cgt_swarm_length_s(const struct cgt_run_config *cfg, int index)
{
	struct prng r;

	phase_rng(cfg, index, 2, &r);
	if (!prng_below(&r, 5))
		return 1.0 + (double)prng_below(&r, 2000) / 1000.0;
	return 0.25 + (double)prng_below(&r, 750) / 1000.0;
}

long cgt_swarm_length_steps(const struct cgt_run_config *cfg, int index)
{
	struct prng r;

	phase_rng(cfg, index, 3, &r);
	return 500 + (long)prng_below(&r, 3500);
}

int cgt_swarm_walkers(const struct cgt_run_config *cfg)
{
	return swarmed(cfg, CGT_SWARM_WALKERS) ? CGT_SWARM_WALKERS_MAX : cfg->walkers;
}

/*
 * Numbers handed out again (pid reuse: a stale pid finds another task, a freed number is
 * taken at once) are what every kernel does past pid_max, and only --pid-max showed them. One
 * free run in two draws a pid space from its seed, log-uniform from twice the thread cap
 * (with RESERVED_PIDS below it, so forks seldom run out of numbers) to four times that, at
 * most the kernel's PID_MAX_DEFAULT (32768): small enough that the numbers wrap within a
 * run's seconds (at 512 threads, 1,325 to 5,300). Drawn once: the pid map is sized for the
 * run. Controlled runs keep theirs, so that their schedules stay as they were.
 */
int cgt_swarm_pid_max(const struct cgt_run_config *cfg)
{
	double lo = 2.0 * cfg->threads + RESERVED_PIDS + 1, hi = 4 * lo, u;
	struct prng r;

	if (!swarmed(cfg, CGT_SWARM_PID_MAX) || cfg->sched || cfg->pid_max)
		return cfg->pid_max;
	phase_rng(cfg, -1, 4, &r);
	if (prng_below(&r, 2))
		return 0;
	if (hi > 32768)
		hi = lo < 32768 ? 32768 : lo;
	if (hi > PID_MAX_LIMIT)
		hi = lo = PID_MAX_LIMIT;
	u = (double)prng_below(&r, 1000) / 1000.0;
	return (int)(lo * pow(hi / lo, u));
}

/*
 * Code only some eras run (4.4's and 6.x's global percpu cgroup_threadgroup_rwsem taken by
 * every fork, 3.14's attach collecting a group under RCU alone, the queued tasklist_lock, a
 * css_set spinlock) was reached by no run without --kernel, so no bug there could be found at
 * default settings. One free run in two draws another era than the default from its seed,
 * and so does a controlled run that steps through the locks' code (--locks code, or both on
 * an odd seed), so that explore steps through every era's variants: the reader-first rwlock_t,
 * the ticket spinlock, percpu-rwsem. Not with --bug, whose catalogued bugs are told in the
 * default era's paths, nor with a lock that is a catalogued bug asked for (--tasklist-lock
 * rwlock-rpref), which an era that shipped with it would count as known, nor in a controlled
 * run on the model's locks, whose recorded schedules stay as they were.
 */
/* @code_too: a controlled run that steps through the locks' code draws it too */
static bool run_long_draw(const struct cgt_run_config *cfg, enum cgt_swarm_dim d, bool code_too)
{
	return swarmed(cfg, d) && (!cfg->sched || (code_too && cgt_run_lock_code(cfg))) &&
	       !cfg->bugs &&
	       !(cfg->css_lock && cfg->css_lock->bug) &&
	       !(cfg->tasklist_lock && cfg->tasklist_lock->bug);
}

const struct cgt_kernel_era *cgt_swarm_era(const struct cgt_run_config *cfg)
{
	const struct cgt_kernel_era *def = cgt_era_find(CGT_DEFAULT_ERA), *e;
	struct prng r;

	if (!run_long_draw(cfg, CGT_SWARM_KERNEL, true))
		return NULL;
	phase_rng(cfg, -1, 5, &r);
	if (prng_below(&r, 2))
		return NULL;
	do
		e = &cgt_kernel_eras[prng_below(&r, (uint32_t)cgt_nr_kernel_eras)];
	while (e == def);
	return e;
}

/*
 * A scan past khungtaskd's rcu_lock_break (every 1,024 threads of one scan) and the queues
 * of thousands of threads were reached by no run without --threads above 1,024: the phases'
 * caps are drawn below --threads' 512. One free run in four draws a population for the whole
 * run instead, log-uniform from 1,200 to 3,000, its phases all at that cap (the ramp takes it
 * there in a fraction of a second). Excluded as the era is, and in every controlled run.
 */
int cgt_swarm_population(const struct cgt_run_config *cfg)
{
	struct prng r;

	if (!run_long_draw(cfg, CGT_SWARM_THREADS, false))
		return 0;
	phase_rng(cfg, -1, 6, &r);
	if (prng_below(&r, 4))
		return 0;
	return (int)(1200.0 * pow(3000.0 / 1200.0, (double)prng_below(&r, 1000) / 1000.0));
}

const struct cgt_phase *cgt_phase_now(void)
{
	return __atomic_load_n(&now, __ATOMIC_ACQUIRE);
}

/*
 * Entries are written once and then only read; a reader holds one for an operation, far
 * less than the CGT_PHASE_LOG phases it would take for its slot to be drawn again.
 */
const struct cgt_phase *cgt_phase_begin(const struct cgt_run_config *cfg, int index,
					double start_s, long start_step)
{
	struct cgt_phase *p = &log_[nbegun % CGT_PHASE_LOG];

	cgt_swarm_draw(cfg, index, p);
	p->start_s = start_s;
	p->start_step = start_step;
	nbegun++;
	__atomic_store_n(&now, p, __ATOMIC_RELEASE);
	return p;
}

void cgt_phase_reset(void)
{
	nbegun = 0;
	__atomic_store_n(&now, NULL, __ATOMIC_RELEASE);
}

int cgt_phases_begun(void)
{
	return nbegun;
}

const struct cgt_phase *cgt_phase_get(int k)
{
	return k >= 0 && k < nbegun && k >= nbegun - CGT_PHASE_LOG ? &log_[k % CGT_PHASE_LOG] :
	       NULL;
}
