// SPDX-License-Identifier: GPL-2.0
/*
 * Reader pressure (src/run/press.c): which locks it presses, when it starts and ends, and that
 * each reader kind the table ties to a lock does take that lock for reading.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "model_fixture.h"
#include "../../src/run/park.h"

static struct cgt_run_config run_cfg = { .iter = CGT_ITER_FOR_EACH };
static struct cgt_run run = { .cfg = &run_cfg };
static const struct cgt_press_config ten_s = { .duration = 10, .starve = 1 };

/* The model with @css as its css_set lock and the queued rwlock as tasklist_lock. */
static void boot(const char *css)
{
	struct cgt_model_config cfg = {
		.css_set_lock_ops = cgt_lock_find(css),
		.tasklist_lock_ops = cgt_lock_find("rwlock"),
		.iter = CGT_ITER_FOR_EACH,
		.walk_limit = FIXTURE_WALK_LIMIT,
	};

	cgt_rcu_register_thread();
	cgt_lock_classes_reset();	/* before the model's locks join their classes */
	cr_assert_eq(cgt_model_init(&cfg), 0);
	cgt_failures_reset();
	cgt_press_reset(&ten_s);
}

static void boot_rpref(void)
{
	boot("rwlock-rpref");
}

static void fini(void)
{
	model_shutdown();
	model_fini();
}

/* Readers got in past a waiting writer of @l, as writer_passed counts them. */
static void readers_passed(struct cgt_lock *l)
{
	__atomic_fetch_add(&l->class->passed_over, 5, __ATOMIC_RELAXED);
}

static long reads_of(const char *name)
{
	struct cgt_lock_class c[CGT_MAX_LOCK_CLASSES];
	int n = cgt_lock_classes(c, CGT_MAX_LOCK_CLASSES);

	for (int i = 0; i < n; i++)
		if (!strcmp(c[i].name, name))
			return c[i].acquired[CGT_READ];
	return 0;
}

static bool pressing(const char *name)
{
	const char *now = cgt_press_now();

	return name ? now && !strcmp(now, name) : !now;
}

TestSuite(press, .init = boot_rpref, .fini = fini);

Test(press, each_reader_tied_to_a_lock_reads_it)
{
	struct prng rng;
	struct task *p = fork_process();

	prng_seed(&rng, 1, 2);
	for (int k = 0; k < CGT_NR_READS; k++) {
		long before;

		if (!cgt_read_locks[k])
			continue;
		before = reads_of(cgt_read_locks[k]->name);
		for (int i = 0; i < 16; i++)
			cgt_read(&run, (enum cgt_read)k, &rng, NULL);
		cr_assert_gt(reads_of(cgt_read_locks[k]->name), before, "%s read no %s",
			     cgt_read_names[k], cgt_read_locks[k]->name);
	}
	do_exit(p);
}

Test(press, a_reader_first_lock_whose_readers_pass_a_writer_is_pressed_for_a_while)
{
	struct cgt_press log[CGT_PRESS_LOG];
	struct prng rng;
	long before = reads_of("css_set_lock");

	prng_seed(&rng, 1, 2);
	cgt_press_refresh(0.25);
	cr_assert(pressing(NULL), "no reader passed a writer yet");
	cr_assert_not(cgt_press_read(&run, &rng, NULL), "a walker reads as drawn");
	readers_passed(&css_set_lock);
	cgt_press_refresh(0.5);
	cr_assert(pressing("css_set_lock"));
	cr_assert(cgt_press_read(&run, &rng, NULL));
	cr_assert_gt(reads_of("css_set_lock"), before, "the walker read css_set_lock");
	cgt_press_refresh(0.5 + CGT_PRESS_STARVES - 0.25);
	cr_assert(pressing("css_set_lock"), "still within %.1f x --starve", CGT_PRESS_STARVES);
	cgt_press_refresh(0.5 + CGT_PRESS_STARVES);
	cr_assert(pressing(NULL), "ended after %.1f x --starve", CGT_PRESS_STARVES);
	cr_assert_eq(cgt_presses(log, CGT_PRESS_LOG), 1);
	cr_assert_str_eq(log[0].lock, "css_set_lock");
	cr_assert_float_eq(log[0].start_s, 0.5, 1e-9);
	cr_assert_float_eq(log[0].length_s, CGT_PRESS_STARVES, 1e-9);
	cr_assert_not(log[0].starved);
}

Test(press, a_starvation_report_ends_the_press_and_none_follows)
{
	struct cgt_press log[CGT_PRESS_LOG];

	readers_passed(&css_set_lock);
	cgt_press_refresh(0.25);
	cr_assert(pressing("css_set_lock"));
	cgt_fail_on(CGT_DET_STARVATION, 0, "css_set_lock", NULL, "a writer starved");
	cgt_press_refresh(0.5);
	cr_assert(pressing(NULL), "the starvation is shown");
	readers_passed(&css_set_lock);
	cgt_press_refresh(0.75);
	cr_assert(pressing(NULL), "pressing it again shows nothing new");
	cr_assert_eq(cgt_presses(log, CGT_PRESS_LOG), 1);
	cr_assert(log[0].starved);
}

Test(press, at_most_a_few_times_a_lock_and_a_third_of_the_run)
{
	double t = 0.25;
	int n = 0;

	cgt_press_reset(&(struct cgt_press_config){ .duration = 100, .starve = 1 });
	for (int i = 0; i < 10; i++, t += 2) {
		readers_passed(&css_set_lock);
		cgt_press_refresh(t);
		n += pressing("css_set_lock");
		cgt_press_refresh(t + CGT_PRESS_STARVES);
	}
	cr_assert_eq(n, CGT_PRESS_PER_LOCK);

	cgt_press_reset(&(struct cgt_press_config){ .duration = 3 * CGT_PRESS_STARVES - 0.1,
						    .starve = 1 });
	readers_passed(&css_set_lock);
	cgt_press_refresh(0.25);
	cr_assert(pressing(NULL), "a press would take over a third of the run");
}

Test(press, not_past_the_end_of_the_run)
{
	readers_passed(&css_set_lock);
	cgt_press_refresh(ten_s.duration - CGT_PRESS_STARVES + 0.1);
	cr_assert(pressing(NULL), "too late to keep a writer out for --starve");
}

Test(press, the_eras_known_starvation_only_when_expected)
{
	cgt_failure_know(CGT_DET_STARVATION, "css_set_lock", "reader-pref-rwlock");
	readers_passed(&css_set_lock);
	cgt_press_refresh(0.25);
	cr_assert(pressing(NULL), "known: the run looks for what is new");

	cgt_press_reset(&(struct cgt_press_config){ .duration = 10, .starve = 1,
						    .known_too = true });
	readers_passed(&css_set_lock);
	cgt_press_refresh(0.25);
	cr_assert(pressing("css_set_lock"), "--expect known asks to see it");
	cgt_press_stop(0.5);
}

Test(press, a_lock_that_keeps_its_writers_place_is_never_pressed)
{
	readers_passed(&tasklist_lock);	/* the queued rwlock */
	cgt_press_refresh(0.25);
	cr_assert(pressing(NULL));
}
