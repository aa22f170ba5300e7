// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel eras (src/model/era.c): what --kernel E sets, checked against what each
 * kernel's own source has, and the catalogue's bugs kept to the eras that had their code.
 * The configuration is made as the command line makes it (cgt_run_options_argv).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "../../src/run/options.h"
#include "../../src/base/exit_status.h"
#include "../../src/model/model.h"

static int parse(struct cgt_run_config *cfg, const char *era, const char *bug)
{
	char *argv[] = { "cgtorture", "--kernel", (char *)era, "--bug", (char *)bug, NULL };
	int argc = bug ? 5 : 3;

	return cgt_run_options_argv(argc, argv, cfg);
}

/*
 * The css_set lock each kernel has: kernel/cgroup.c @ v3.14.1 DEFINE_RWLOCK(css_set_lock),
 * v3.15.5 DECLARE_RWSEM(css_set_rwsem) (96d365e0b86e), v4.4.1 DEFINE_SPINLOCK(css_set_lock)
 * (f0d9a5f17575, 4.2), kernel/cgroup/cgroup.c @ v6.18.2 DEFINE_SPINLOCK(css_set_lock).
 */
Test(era, css_set_lock_is_each_kernels)
{
	static const char *const want[][2] = {
		{ "3.14", "rwlock-rpref" }, { "3.15", "rwsem" }, { "4.4", "spinlock" },
		{ "6.x", "spinlock" },
	};
	struct cgt_run_config cfg;

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		cr_assert_eq(parse(&cfg, want[i][0], NULL), 0);
		cr_assert_str_eq(cfg.css_lock->name, want[i][1], "era %s", want[i][0]);
	}
}

/*
 * css_set_rwsem's own mistakes (a reader inside RCU, a callback sleeping in a whole-cgroup
 * iteration) are 3.15's: v4.4.1's css_set_lock is a spinlock taken per iterator step.
 */
Test(era, css_set_rwsem_bugs_only_in_3_15)
{
	struct cgt_run_config cfg;

	cr_assert_eq(parse(&cfg, "3.15", "rwsem-inside-rcu"), 0);
	cr_assert_eq(parse(&cfg, "3.15", "css-task-iter-block"), 0);
	for (size_t i = 0; i < cgt_nr_kernel_eras; i++) {
		const char *e = cgt_kernel_eras[i].name;
		int want = strcmp(e, "3.15") ? CGT_EXIT_USAGE : 0;

		cr_assert_eq(parse(&cfg, e, "rwsem-inside-rcu"), want, "era %s", e);
		cr_assert_eq(parse(&cfg, e, "css-task-iter-block"), want, "era %s", e);
	}
}

/*
 * The per-step css_task_iter's own mistake (css_set_move_task leaving an iterator on the task
 * that leaves) needs the per-step iterator: kernel/cgroup.c @ v4.4.1 and
 * kernel/cgroup/cgroup.c @ v6.18.2 have it, v3.14.1 and v3.15.5 hold the lock across the
 * walk. Without --kernel the bug runs in its first era; a whole walk's unlocked walk
 * (cset-walk-unlocked) is 3.14/3.15's.
 */
Test(era, css_iter_stale_pos_only_with_the_per_step_iterator)
{
	char *argv[] = { "cgtorture", "--bug", "css-iter-stale-pos", NULL };
	struct cgt_run_config cfg;

	for (size_t i = 0; i < cgt_nr_kernel_eras; i++) {
		const struct cgt_kernel_era *e = &cgt_kernel_eras[i];
		bool per_step = e->css_task_iter != CGT_CSS_ITER_WHOLE;

		cr_assert_eq(per_step, !strcmp(e->name, "4.4") || !strcmp(e->name, "6.x"),
			     "era %s", e->name);
		cr_assert_eq(parse(&cfg, e->name, "css-iter-stale-pos"),
			     per_step ? 0 : CGT_EXIT_USAGE, "era %s", e->name);
		cr_assert_eq(parse(&cfg, e->name, "cset-walk-unlocked"),
			     per_step ? CGT_EXIT_USAGE : 0, "era %s", e->name);
	}
	cr_assert_eq(cgt_run_options_argv(3, argv, &cfg), 0);
	cr_assert_str_eq(cfg.era->name, "4.4");
	cr_assert_str_eq(cfg.css_lock->name, "spinlock", "the era's lock, as --kernel 4.4");
}

/*
 * An era is a table of behaviours (cgtorture eras --table, docs/model.md): every row says
 * what the model does and names the kernel file it follows or departs from.
 */
Test(era, every_behaviour_names_its_kernel_source)
{
	char buf[128];

	for (size_t i = 0; i < cgt_nr_kernel_eras; i++) {
		const struct cgt_kernel_era *e = &cgt_kernel_eras[i];

		cr_assert_not_null(e->kernels, "era %s names no releases", e->name);
		for (int b = 0; b < CGT_NR_ERA_BEHAVIOURS; b++) {
			const char *v = cgt_era_value(e, (enum cgt_era_behaviour)b, buf, sizeof(buf));

			cr_assert(v[0], "era %s: no value for %s", e->name, cgt_era_behaviour_names[b]);
			cr_assert_not_null(e->kernel[b], "era %s: no source for %s", e->name,
					   cgt_era_behaviour_names[b]);
			cr_assert(strstr(e->kernel[b], ".c") || strstr(e->kernel[b], ".h"),
				  "era %s, %s: no kernel file named: %s", e->name,
				  cgt_era_behaviour_names[b], e->kernel[b]);
		}
	}
}
