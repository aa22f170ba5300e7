// SPDX-License-Identifier: GPL-2.0
/*
 * The controlled scheduler (src/sched): a few real pthreads run scripts one at a time, and
 * whatever the seed, what the kernel's primitives promise must hold: a rw_semaphore keeps
 * new readers behind a waiting writer while a reader-preferring rwlock lets them pass, a
 * queued rwlock serves in arrival order, synchronize_rcu() returns only after the readers
 * that were in before it left, call_rcu() callbacks run after them, a lock-order deadlock is
 * seen as no thread being able to run, and a schedule followed again makes the same choices;
 * with the variants' own code stepped through (--locks code), the correct ones stay exclusive
 * and a ticket taken with a load and a store lets two in.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <pthread.h>
#include <string.h>

#include "../../src/core/failure.h"
#include "../../src/core/rcu.h"
#include "../../src/core/thread.h"
#include "../../src/run/points.h"
#include "../../src/locks/lock.h"
#include "../../src/locks/spin.h"
#include "../../src/sched/sched.h"

#define MAX_SCRIPTS	4
#define MAX_LOG		32

struct script {
	pthread_t thread;
	struct cgt_sched_ent ent;
	struct cgt_thread state;
	void (*body)(int me);
	int me;
};

static struct script scripts[MAX_SCRIPTS];
static int nscripts;
static int flags[8];			/* set() and wait() between scripts */
static int log_[MAX_LOG], nlog;		/* what happened, in order */
static struct cgt_lock L, M;
static int park;
static bool lock_code;			/* boot()'s runs step through the variants' code */
static int preemptions;			/* boot()'s bound for the bounded scheduler */
static bool lenient;			/* boot()'s follower goes on where the schedule ends */

static void note(int what)
{
	if (nlog < MAX_LOG)
		log_[nlog++] = what;
}

static void set(int f)
{
	flags[f] = 1;
	cgt_sched_wake(&flags[f]);
}

static void wait_for(int f)
{
	while (!flags[f])
		cgt_sched_block(&flags[f]);
}

static void *script_main(void *arg)
{
	struct script *s = arg;

	cgt_rcu_register_thread();
	cgt_thread_register(&s->state, CGT_ROLE_ACTOR, s->me);
	cgt_sched_enter(&s->ent);
	s->body(s->me);
	cgt_sched_exit();
	cgt_thread_unregister(&s->state);
	cgt_rcu_unregister_thread();
	return NULL;
}

static void boot(const struct cgt_sched_ops *ops, uint64_t seed, const struct cgt_schedule *follow)
{
	struct cgt_sched_config cfg = {
		.ops = ops, .params = { .seed = seed, .steps = 100,
			    .tunables = { .depth = 2, .preemptions = preemptions } }, .follow = follow,
		.park = &park, .lock_code = lock_code, .lenient = lenient,
	};

	memset(flags, 0, sizeof(flags));
	nlog = 0;
	nscripts = 0;
	cgt_failures_reset();
	cgt_events_install(0, false, seed);
	cr_assert_eq(cgt_sched_init(&cfg), 0);
}

static void spawn(void (*body)(int me))
{
	struct script *s = &scripts[nscripts];

	memset(s, 0, sizeof(*s));
	s->body = body;
	s->me = ++nscripts;
	cgt_sched_add(&s->ent);
	cr_assert_eq(pthread_create(&s->thread, NULL, script_main, s), 0);
}

static enum cgt_sched_idle run_all(void)
{
	enum cgt_sched_idle why;

	cgt_sched_kick();
	while ((why = cgt_sched_wait_idle(1.0)) == CGT_IDLE_BUSY)
		;
	if (why == CGT_IDLE_DONE)
		for (int i = 0; i < nscripts; i++)
			pthread_join(scripts[i].thread, NULL);
	return why;
}

/* Log entries: 10 * script + what (1 read taken, 2 write taken). */
/* Holds the lock for reading until the late reader holds it too, or waits for it. */
static void reader_first(int me)
{
	const struct cgt_sched_ent *late = &scripts[2].ent;

	cgt_read_lock(&L);
	note(10 * me + 1);
	set(0);
	while (!flags[1] && !(late->state == CGT_ENT_BLOCKED && late->blocked_on == &L))
		cgt_point(CGT_PT_LOOP, NULL);
	cgt_read_unlock(&L);
}

static void writer(int me)
{
	wait_for(0);
	cgt_write_lock(&L);
	note(10 * me + 2);
	cgt_write_unlock(&L);
}

/* A reader that comes once the writer queues behind the first reader. */
static void late_reader(int me)
{
	const struct cgt_sched_ent *w = &scripts[1].ent;

	wait_for(0);
	while (!(w->state == CGT_ENT_BLOCKED && w->blocked_on == &L))
		cgt_point(CGT_PT_LOOP, NULL);
	cgt_read_lock(&L);
	note(10 * me + 1);
	set(1);
	cgt_read_unlock(&L);
}

static void three_way(const char *variant, uint64_t seed, const int want[3])
{
	boot(cgt_sched_find("random"), seed, NULL);
	cgt_lock_init(&L, cgt_lock_find(variant), "test_lock");
	spawn(reader_first);
	spawn(writer);
	spawn(late_reader);
	cr_assert_eq(run_all(), CGT_IDLE_DONE, "%s, seed %llu: the scripts did not finish", variant,
		     (unsigned long long)seed);
	cr_assert_eq(nlog, 3);
	for (int i = 0; i < 3; i++)
		cr_assert_eq(log_[i], want[i], "%s, seed %llu: step %d of the order is %d, not %d",
			     variant, (unsigned long long)seed, i, log_[i], want[i]);
	cgt_sched_finish();
}

ParameterizedTestParameters(sched, seeds)
{
	static uint64_t seeds[] = { 1, 2, 3, 42, 1000, 77777 };

	return cr_make_param_array(uint64_t, seeds, sizeof(seeds) / sizeof(seeds[0]));
}

/* down_read behind a waiting down_write: rw_semaphore's writer preference. */
ParameterizedTest(uint64_t *seed, sched, seeds)
{
	static const int rwsem[3] = { 11, 22, 31 }, rpref[3] = { 11, 31, 22 }, qrw[3] = { 11, 22, 31 };

	three_way("rwsem", *seed, rwsem);
	three_way("rwlock-rpref", *seed, rpref);
	three_way("rwlock", *seed, qrw);
}

static void gp_reader(int me)
{
	rcu_read_lock();
	note(10 * me + 1);
	set(0);
	for (int i = 0; i < 20; i++)
		cgt_point(CGT_PT_LOOP, NULL);
	note(10 * me + 2);
	rcu_read_unlock();
}

static struct rcu_head head;

static void gp_callback(struct rcu_head *h)
{
	(void)h;
	note(99);
}

static void gp_updater(int me)
{
	wait_for(0);
	call_rcu(&head, gp_callback);
	note(10 * me + 1);
	synchronize_rcu();
	note(10 * me + 2);
}

/* A grace period waits for the reader that was in before it, whoever runs when. */
Test(sched, grace_period_waits_for_the_reader)
{
	for (uint64_t seed = 1; seed <= 20; seed++) {
		boot(cgt_sched_find("random"), seed, NULL);
		spawn(gp_reader);
		spawn(gp_updater);
		cr_assert_eq(run_all(), CGT_IDLE_DONE);
		cr_assert_eq(nlog, 5, "seed %llu: %d events", (unsigned long long)seed, nlog);
		cr_assert_eq(log_[0], 11);
		cr_assert_eq(log_[1], 21, "seed %llu: call_rcu must not wait", (unsigned long long)seed);
		cr_assert_eq(log_[2], 12, "seed %llu: the reader must leave first", (unsigned long long)seed);
		cr_assert_eq(log_[3], 99, "seed %llu: the callback runs after the reader left",
			     (unsigned long long)seed);
		cr_assert_eq(log_[4], 22, "seed %llu: synchronize_rcu returned too early",
			     (unsigned long long)seed);
		cgt_sched_finish();
	}
}

static void ab(int me)
{
	(void)me;
	cgt_write_lock(&L);
	set(0);
	wait_for(1);
	cgt_write_lock(&M);
}

static void ba(int me)
{
	(void)me;
	cgt_write_lock(&M);
	set(1);
	wait_for(0);
	cgt_write_lock(&L);
}

/* ABBA: no thread can run, and the scheduler says so instead of hanging. */
Test(sched, abba_deadlock_is_seen)
{
	struct cgt_sched_ent *blocked[4];

	boot(cgt_sched_find("pct"), 5, NULL);
	cgt_lock_init(&L, cgt_lock_find("spinlock"), "lock_a");
	cgt_lock_init(&M, cgt_lock_find("spinlock"), "lock_b");
	spawn(ab);
	spawn(ba);
	cr_assert_eq(run_all(), CGT_IDLE_DEADLOCK);
	cr_assert_eq(cgt_sched_blocked(blocked, 4), 2);
	cr_assert(blocked[0]->blocked_on == &L || blocked[0]->blocked_on == &M);
}

static void chatter(int me)
{
	for (int i = 0; i < 30; i++) {
		cgt_write_lock(&L);
		note(me);
		cgt_write_unlock(&L);
	}
}

static struct cgt_schedule run_chatter(const struct cgt_schedule *follow, int *order, int *n)
{
	struct cgt_schedule copy = { 0 };
	const struct cgt_schedule *rec;

	boot(cgt_sched_find("random"), 9, follow);
	cgt_lock_init(&L, cgt_lock_find("mutex"), "chatter");
	spawn(chatter);
	spawn(chatter);
	spawn(chatter);
	cr_assert_eq(run_all(), CGT_IDLE_DONE);
	rec = cgt_sched_recorded();
	for (long k = 0; k < rec->len; k++)
		cgt_schedule_push(&copy, rec->choice[k]);
	memcpy(order, log_, sizeof(int) * (size_t)nlog);
	*n = nlog;
	return copy;
}

/* Following a recorded schedule makes the same choices, and a wrong one is caught. */
Test(sched, follow_replays_and_divergence_is_caught)
{
	int first[MAX_LOG], again[MAX_LOG], n1, n2;
	struct cgt_schedule s1 = run_chatter(NULL, first, &n1), s2;
	char why[160];
	long k;

	cr_assert_gt(cgt_schedule_switches(&s1), 5, "a random schedule switches");
	s2 = run_chatter(&s1, again, &n2);
	cr_assert_eq(cgt_sched_diverged(why, sizeof(why)), -1, "%s", why);
	cr_assert_eq(s2.len, s1.len);
	cr_assert_eq(memcmp(s1.choice, s2.choice, sizeof(int) * (size_t)s1.len), 0);
	cr_assert_eq(n1, n2);
	cr_assert_eq(memcmp(first, again, sizeof(int) * (size_t)n1), 0);
	cgt_sched_finish();

	/* T9 never exists: the replay must say where the schedule stopped fitting */
	k = s1.len / 2;
	s1.choice[k] = 9;
	cgt_schedule_free(&s2);
	s2 = run_chatter(&s1, again, &n2);
	cr_assert_eq(cgt_sched_diverged(why, sizeof(why)), k);
	cr_assert(strstr(why, "T9 does not exist"), "%s", why);
	cgt_sched_finish();
	cgt_schedule_free(&s1);
	cgt_schedule_free(&s2);
}

/* Operations of five decisions each, the last one at the end of the operation (a yield). */
static void operations(int me)
{
	(void)me;
	for (int op = 0; op < 6; op++) {
		for (int i = 0; i < 4; i++)
			cgt_sched_point(CGT_PT_WALK_STEP);
		cgt_sched_point(CGT_PT_LOOP);
	}
}

/*
 * A switch away from a thread that could go on, not at the end of its operation: each
 * listed preemption is one in the recorded schedule, and their count is the list's length.
 */
static long check_preemptions(void)
{
	const struct cgt_schedule *s = cgt_sched_recorded();
	const struct cgt_preemption *p;
	long n = cgt_sched_preemptions(&p);

	for (long i = 0; i < n; i++) {
		cr_assert_gt(p[i].step, 0);
		cr_assert_lt(p[i].step, s->len);
		cr_assert_neq(p[i].from, p[i].to);
		cr_assert_eq(s->choice[p[i].step - 1], p[i].from, "preemption %ld", i);
		cr_assert_eq(s->choice[p[i].step], p[i].to, "preemption %ld", i);
		cr_assert(!i || p[i].step > p[i - 1].step);
	}
	return n;
}

static long run_operations(const char *sched, int bound, uint64_t seed, long *switches)
{
	long n;

	preemptions = bound;
	boot(cgt_sched_find(sched), seed, NULL);
	for (int i = 0; i < 3; i++)
		spawn(operations);
	cr_assert_eq(run_all(), CGT_IDLE_DONE);
	n = check_preemptions();
	*switches = cgt_schedule_switches(cgt_sched_recorded());
	cgt_sched_finish();
	preemptions = 0;
	return n;
}

/*
 * The bounded scheduler switches where a thread ends an operation and nowhere else with a
 * bound of 0, and preempts at most K times with K; the random walk preempts at will, and
 * each of its preemptions is counted.
 */
Test(sched, preemptions_are_bounded_and_counted)
{
	long sw, most = 0, n;

	for (uint64_t seed = 1; seed <= 20; seed++) {
		cr_assert_eq(run_operations("bounded", 0, seed, &sw), 0, "seed %llu",
			     (unsigned long long)seed);
		cr_assert_gt(sw, 0, "seed %llu: free switches at the ends of operations",
			     (unsigned long long)seed);
		n = run_operations("bounded", 2, seed, &sw);
		cr_assert_leq(n, 2, "seed %llu", (unsigned long long)seed);
		most = n > most ? n : most;
	}
	cr_assert_eq(most, 2, "a bound of 2 is reached by some seed");
	n = run_operations("random", 0, 3, &sw);
	cr_assert_gt(n, 2);
	cr_assert_leq(n, sw);
}

/*
 * Past the end of a followed schedule, a lenient follower preempts no one: the running
 * thread goes on to the end of its operation, then the one that has waited longest runs,
 * so the threads take turns an operation each.
 */
Test(sched, lenient_follower_takes_turns_without_preempting)
{
	struct cgt_schedule one = { 0 };
	const struct cgt_schedule *rec;
	int turn = 0, expect = 1;

	cgt_schedule_push(&one, 1);
	lenient = true;
	boot(cgt_sched_find("random"), 1, &one);
	for (int i = 0; i < 3; i++)
		spawn(operations);
	cr_assert_eq(run_all(), CGT_IDLE_DONE);
	lenient = false;
	cr_assert_eq(check_preemptions(), 0);
	rec = cgt_sched_recorded();
	for (long k = 0; k < rec->len; k++) {
		if (k && rec->choice[k] == rec->choice[k - 1])
			continue;
		/* a new turn: the next thread round, while all three live */
		if (turn++ < 15) {
			cr_assert_eq(rec->choice[k], expect, "turn %d at decision %ld", turn, k);
			expect = expect % 3 + 1;
		}
	}
	cr_assert_geq(turn, 15);
	cgt_sched_finish();
	cgt_schedule_free(&one);
}

Test(sched, schedule_text_round_trips)
{
	struct cgt_schedule s = { 0 }, back;
	static const int c[] = { 3, 3, 3, 5, 1, 1, 2 };
	char err[128], *text;

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		cgt_schedule_push(&s, c[i]);
	text = cgt_schedule_encode(&s);
	cr_assert_str_eq(text, "3*3 5 1*2 2");
	cr_assert_eq(cgt_schedule_decode(text, 100, &back, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(back.len, s.len);
	cr_assert_eq(memcmp(back.choice, s.choice, sizeof(c)), 0);
	cr_assert_eq(cgt_schedule_switches(&back), 3);
	cgt_schedule_free(&back);
	cr_assert_eq(cgt_schedule_decode("3*0", 100, &back, err, sizeof(err)), -1);
	cr_assert_eq(cgt_schedule_decode("x", 100, &back, err, sizeof(err)), -1);
	cr_assert_eq(cgt_schedule_decode("1*2*3", 100, &back, err, sizeof(err)), -1);
	cr_assert(strstr(err, "token 1"), "%s", err);
	cr_assert_eq(cgt_schedule_decode("1*67108864", 100, &back, err, sizeof(err)), -1);
	cr_assert(strstr(err, "longer than 100"), "%s", err);
	free(text);
	cgt_schedule_free(&s);
	cgt_schedule_free(&back);
}

/* Writers count who is inside: more than one at once is a lock that failed. */
static int inside, most_inside;

static void holder(int me)
{
	for (int i = 0; i < 2; i++) {
		cgt_write_lock(&L);
		if (++inside > most_inside)
			most_inside = inside;
		note(10 * me + 2);
		cgt_point(CGT_PT_LOOP, NULL);
		inside--;
		cgt_write_unlock(&L);
		cgt_read_lock(&L);
		note(10 * me + 1);
		cgt_read_unlock(&L);
	}
}

/* Three holders on @ops, seed @seed: the decisions it took. */
static long run_holders(const struct cgt_lock_ops *ops, uint64_t seed, bool code)
{
	long steps;

	lock_code = code;
	inside = most_inside = 0;
	boot(cgt_sched_find("random"), seed, NULL);
	lock_code = false;
	cgt_lock_init(&L, ops, "stepped");
	for (int i = 0; i < 3; i++)
		spawn(holder);
	cr_assert_eq(run_all(), CGT_IDLE_DONE, "%s, seed %llu: the holders did not finish",
		     ops->name, (unsigned long long)seed);
	cr_assert_eq(nlog, 12);
	steps = cgt_sched_steps();
	cgt_sched_finish();
	cgt_lock_destroy(&L);
	return steps;
}

/* Each variant that can be stepped through: exclusive, done, and stepped (more decisions). */
Test(sched, stepped_variants_stay_exclusive, .timeout = 60)
{
	int stepped = 0;

	for (size_t v = 0; v < cgt_nr_lock_variants; v++) {
		const struct cgt_lock_ops *ops = cgt_lock_variants[v];

		if (!ops->steps)
			continue;
		stepped++;
		for (uint64_t seed = 1; seed <= 20; seed++) {
			long model = run_holders(ops, seed, false), code = run_holders(ops, seed, true);

			cr_assert_eq(most_inside, 1, "%s, seed %llu: %d writers in at once", ops->name,
				     (unsigned long long)seed, most_inside);
			cr_assert_gt(code, model, "%s, seed %llu: %ld decisions stepped, %ld not",
				     ops->name, (unsigned long long)seed, code, model);
		}
	}
	cr_assert_geq(stepped, 4, "the spinning variants and percpu-rwsem can be stepped through");
}

/* A ticket lock whose take is a load and a store: two can draw one ticket (tests/mutants/13). */
struct split_ticket {
	uint32_t next, owner;
};

static void split_init(struct cgt_lock *lock)
{
	*cgt_lock_priv(lock, struct split_ticket) = (struct split_ticket){ 0, 0 };
}

static void split_lock(struct cgt_lock *lock)
{
	struct split_ticket *t = cgt_lock_priv(lock, struct split_ticket);
	uint32_t me = lk_load(&t->next, __ATOMIC_SEQ_CST);
	unsigned int spins = 0;

	lk_store(&t->next, me + 1, __ATOMIC_SEQ_CST);
	while (lk_load(&t->owner, __ATOMIC_ACQUIRE) != me)
		spin_wait(&spins);
}

static void split_unlock(struct cgt_lock *lock)
{
	struct split_ticket *t = cgt_lock_priv(lock, struct split_ticket);

	lk_store(&t->owner, lk_load(&t->owner, __ATOMIC_RELAXED) + 1, __ATOMIC_RELEASE);
}

static const struct cgt_lock_ops split_ticket_ops = {
	.name = "split-ticket", .steps = true, .policy = CGT_POLICY_FIFO,
	.init = split_init, .read_lock = split_lock, .read_unlock = split_unlock,
	.write_lock = split_lock, .write_unlock = split_unlock,
};

/* Each of two takes it once: a ticket skipped past strands nobody. */
static void one_take(int me)
{
	cgt_write_lock(&L);
	if (++inside > most_inside)
		most_inside = inside;
	note(me);
	cgt_point(CGT_PT_LOOP, NULL);
	inside--;
	cgt_write_unlock(&L);
}

/*
 * The first of 40 seeds whose run let two in at once or stranded a taker behind a ticket
 * skipped past (no thread can run), or 0. The stranded thread stays blocked: the search
 * stops there, so that no later run reuses its place.
 */
static uint64_t split_first_broken(bool code)
{
	for (uint64_t seed = 1; seed <= 40; seed++) {
		enum cgt_sched_idle why;

		lock_code = code;
		inside = most_inside = 0;
		boot(cgt_sched_find("random"), seed, NULL);
		lock_code = false;
		cgt_lock_init(&L, &split_ticket_ops, "split");
		spawn(one_take);
		spawn(one_take);
		why = run_all();
		if (why != CGT_IDLE_DONE || most_inside > 1)
			return seed;
		cgt_sched_finish();
	}
	return 0;
}

/* Stepping through the code finds the window; the scheduler's model lock cannot have it. */
Test(sched, stepping_finds_a_ticket_drawn_twice, .timeout = 60)
{
	uint64_t seed = split_first_broken(false);

	cr_assert_eq(seed, 0, "the model lock let two in, seed %llu", (unsigned long long)seed);
	cr_assert_gt(split_first_broken(true), 0, "no seed of 40 found the split take");
}
