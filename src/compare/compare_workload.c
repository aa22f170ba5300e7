// SPDX-License-Identifier: GPL-2.0
/*
 * The workloads of cgtorture compare and the critical sections they run under the lock.
 *
 * The sections are shaped after the model's (null's is one shared count read): a reader does what cgroup_task_count does
 * (visit css_sets, sum their task counts), a writer what cgroup_task_migrate does (move a
 * task to another css_set: one count down, one up, task->cgroups switched). They read and
 * write the counts with relaxed atomics and free nothing, so they stay correct, and quiet
 * under TSan, even under rcu-spinlock, whose readers run beside a writer; there a reader
 * may see a migration half done, as cgroup_task_count in the kernel may.
 */
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "../base/registry.h"

#define CMP_CSETS	64	/* css_sets in the system */
#define CMP_TASKS	1024	/* tasks spread over them */

const struct cgt_workload cgt_workloads[] = {
	{ .name = "null",
	  .desc = "100% reads of an empty critical section (one shared count read): the "
		  "primitive's own cost",
	  .read_permille = 1000, .read_len = 0, .write_len = 1 },
	{ .name = "read-mostly",
	  .desc = "95% reads (cgroup_task_count over 8 css_sets), 5% writes (a migration)",
	  .read_permille = 950, .read_len = 8, .write_len = 1 },
	{ .name = "balanced",
	  .desc = "50% reads over 8 css_sets, 50% writes of one migration",
	  .read_permille = 500, .read_len = 8, .write_len = 1 },
	{ .name = "write-heavy",
	  .desc = "10% reads over 8 css_sets, 90% writes of one migration",
	  .read_permille = 100, .read_len = 8, .write_len = 1 },
	{ .name = "migrate-storm",
	  .desc = "walkers over all 64 css_sets against forks and migration storms: of the "
		  "draws 70% walk, 27% fork (link one task), 3% start 32 back-to-back "
		  "migrations of a 4-thread group, so most acquisitions write (96d365e0b86e)",
	  .read_permille = 700, .read_len = CMP_CSETS, .write_len = 1,
	  .burst_permille = 100, .burst_len = 32, .burst_tasks = 4 },
};

const size_t cgt_nr_workloads = ARRAY_SIZE(cgt_workloads);

static const char *workload_name(size_t i)
{
	return cgt_workloads[i].name;
}

const struct cgt_workload *cgt_workload_find(const char *name)
{
	long i = cgt_registry_index(cgt_nr_workloads, workload_name, name);

	return i < 0 ? NULL : &cgt_workloads[i];
}

const char *cgt_workload_names(void)
{
	static char buf[256];

	return cgt_registry_names(buf, sizeof(buf), cgt_nr_workloads, workload_name);
}

void cgt_cmp_plan(const struct cgt_workload *w, uint64_t seed, struct cgt_lock_step *plan)
{
	unsigned int burst_left = 0;
	struct prng rng;

	prng_seed(&rng, seed, ~0ull);
	for (int i = 0; i < CGT_LOCK_PLAN; i++) {
		struct cgt_lock_step *s = &plan[i];

		s->side = CGT_WRITE;
		s->len = (unsigned char)w->write_len;
		if (burst_left) {
			burst_left--;
			s->len = (unsigned char)w->burst_tasks;
		} else if (prng_below(&rng, 1000) < w->read_permille) {
			s->side = CGT_READ;
			s->len = (unsigned char)w->read_len;
		} else if (prng_below(&rng, 1000) < w->burst_permille) {
			burst_left = w->burst_len - 1;
			s->len = (unsigned char)w->burst_tasks;
		}
	}
}

/* Each css_set on its own cache line, as separately allocated css_sets are. */
struct cmp_cset {
	long refcount;			/* tasks in it; written under the write lock */
} __attribute__((aligned(64)));

struct cgt_cmp_data {
	struct cmp_cset cset[CMP_CSETS];
	int task_cset[CMP_TASKS];	/* task->cgroups; only writers touch it */
};

struct cgt_cmp_data *cgt_cmp_data_new(void)
{
	struct cgt_cmp_data *d = aligned_alloc(64, sizeof(*d));

	if (!d)
		return NULL;
	memset(d, 0, sizeof(*d));
	for (int t = 0; t < CMP_TASKS; t++) {
		d->task_cset[t] = t % CMP_CSETS;
		d->cset[t % CMP_CSETS].refcount++;
	}
	return d;
}

void cgt_cmp_data_free(struct cgt_cmp_data *d)
{
	free(d);
}

long cgt_cmp_read_section(void *data, struct prng *rng, unsigned int len)
{
	struct cgt_cmp_data *d = data;
	unsigned int first;
	long count = 0;

	if (!len)
		return READ_ONCE(d->cset[0].refcount);
	first = prng_below(rng, CMP_CSETS);
	for (unsigned int i = 0; i < len; i++)
		count += READ_ONCE(d->cset[(first + i) % CMP_CSETS].refcount);
	return count;
}

void cgt_cmp_write_section(void *data, struct prng *rng, unsigned int len)
{
	struct cgt_cmp_data *d = data;
	unsigned int t = prng_below(rng, CMP_TASKS);
	int to = (int)prng_below(rng, CMP_CSETS);

	/* a thread group: @len tasks in a row, all moving to one css_set */
	for (unsigned int i = 0; i < len; i++, t = (t + 1) % CMP_TASKS) {
		int from = d->task_cset[t];

		WRITE_ONCE(d->cset[from].refcount, READ_ONCE(d->cset[from].refcount) - 1);
		WRITE_ONCE(d->cset[to].refcount, READ_ONCE(d->cset[to].refcount) + 1);
		d->task_cset[t] = to;
	}
}

bool cgt_cmp_data_consistent(struct cgt_cmp_data *d)
{
	long count[CMP_CSETS] = { 0 };

	for (int t = 0; t < CMP_TASKS; t++)
		count[d->task_cset[t]]++;
	for (int c = 0; c < CMP_CSETS; c++)
		if (count[c] != d->cset[c].refcount)
			return false;
	return true;
}
