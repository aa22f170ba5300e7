// SPDX-License-Identifier: GPL-2.0
/*
 * bench_scale: how far the one-pthread-per-model-thread design goes, in three figures.
 *
 *   1. live model threads held at once, each a real pthread with a 64 KiB stack;
 *   2. malloc'd model memory per live thread, beyond that stack;
 *   3. the fork+exit rate of model threads against bare pthread_create+pthread_join.
 *
 * Each figure is one line starting with "BENCH ", for scripts; the rest is for people.
 * Targets are printed, not asserted: the exit status is 1 only for a crash-like problem
 * (the model would not start, threads hung, something leaked or broke an invariant) and 2
 * for a bad option.
 *
 * A second cgt_model_init after cgt_model_exit is untested (pid.c's hash and last_pid, for
 * one, live on across it), so the three measurements share one model and one set of hooks,
 * told apart by bench_mode.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <malloc.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "../src/run/run.h"
#include "../src/model/model.h"

#define STACK_KIB		64	/* as the stress run's default --stack */
#define THREADS_PER_PROC	100	/* a process: its leader and 99 CLONE_THREAD threads */
#define MEM_TASKS		10000	/* model tasks for the memory figure */
#define MEM_TARGET		2048	/* bytes per live thread */
#define RATE_TARGET_PCT		50	/* model fork+exit against bare create+join */
#define RATE_ROUNDS		5	/* bare, thread and process take turns this often */
#define HOLD_TIMEOUT		120.0	/* s for every held thread to arrive */

#ifdef CGT_TSAN
#define DEFAULT_THREADS		4000	/* a TSan thread costs far more */
#define BUILD_NAME		"tsan"
#elif defined(CGT_ASAN)
#define DEFAULT_THREADS		10000
#define BUILD_NAME		"asan"
#else
#define DEFAULT_THREADS		10000
#define BUILD_NAME		"plain"
#endif

/* What copy_process's hooks give a new model task. */
enum bench_mode {
	MODE_NONE,	/* no pthread: the driver acts for the task (memory figure, parents) */
	MODE_HOLD,	/* a pthread that waits for the release, then exits */
	MODE_CYCLE,	/* a pthread that exits at once */
};

/* The driver's execution context for one model task: a joinable pthread. */
struct bench_ctx {
	pthread_t thread;
	sem_t gate;		/* opened by wake_up_new_task, or to abandon */
	bool abandoned;		/* copy_process failed after spawn: end without running */
	bool hold;
	struct task *task;
};

/* Written by the driver thread only, which is the only one calling copy_process. */
static enum bench_mode bench_mode;
static struct bench_ctx *bench_last;	/* what the last spawn made, for the driver to join */
static int bench_spawn_err;		/* pthread_create's error in the last fork, or 0 */
static pthread_attr_t bench_attr;

/* The hold: every held thread arrives, then waits for the release. */
static pthread_mutex_t hold_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t hold_arrive = PTHREAD_COND_INITIALIZER;
static pthread_cond_t hold_release_cond = PTHREAD_COND_INITIALIZER;
static long hold_arrived;
static bool hold_release;

static int bench_status;		/* 1 once a crash-like problem is seen */

static void __attribute__((format(printf, 1, 2))) bench_fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "bench_scale: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	bench_status = 1;
}

/* The life of one model thread, as the stress run's actor lives it minus the operations. */
static void *model_thread(void *arg)
{
	struct bench_ctx *c = arg;
	struct task *me = c->task;

	sem_wait(&c->gate);
	if (c->abandoned)
		return NULL;
	cgt_rcu_register_thread();
	if (c->hold) {
		pthread_mutex_lock(&hold_lock);
		hold_arrived++;
		pthread_cond_signal(&hold_arrive);
		while (!hold_release)
			pthread_cond_wait(&hold_release_cond, &hold_lock);
		pthread_mutex_unlock(&hold_lock);
	}
	do_exit(me);
	put_task_struct(me);	/* the pthread's own reference, taken in bench_start */
	cgt_rcu_unregister_thread();
	return NULL;
}

/* dup_task_struct: the child's pthread, waiting at its gate. */
static int bench_spawn(struct task *child)
{
	struct bench_ctx *c;
	int err;

	if (bench_mode == MODE_NONE)
		return 0;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->task = child;
	c->hold = bench_mode == MODE_HOLD;
	sem_init(&c->gate, 0, 0);
	err = pthread_create(&c->thread, &bench_attr, model_thread, c);
	if (err) {
		/* copy_process frees the task without calling abandon: the context goes here */
		sem_destroy(&c->gate);
		free(c);
		bench_spawn_err = err;
		return -err;
	}
	child->ctx = c;
	bench_last = c;
	return 0;
}

/* wake_up_new_task */
static void bench_start(struct task *child)
{
	struct bench_ctx *c = child->ctx;

	if (!c)
		return;
	get_task_struct(child);
	sem_post(&c->gate);
}

static void bench_abandon(struct task *child)
{
	struct bench_ctx *c = child->ctx;

	if (!c)
		return;
	c->abandoned = true;
	sem_post(&c->gate);
}

static const struct cgt_model_hooks bench_hooks = {
	.spawn	 = bench_spawn,
	.start	 = bench_start,
	.abandon = bench_abandon,
};

static void ctx_join(struct bench_ctx *c)
{
	pthread_join(c->thread, NULL);
	sem_destroy(&c->gate);
	free(c);
}

/*
 * fork from @parent; *@ctx is the child's pthread (NULL in MODE_NONE). A context that
 * copy_process abandoned is joined here, so the caller sees only a plain error.
 */
static int fork_one(struct task *parent, bool thread, struct task **child,
		    struct bench_ctx **ctx)
{
	int err;

	bench_last = NULL;
	bench_spawn_err = 0;
	err = copy_process(parent, thread ? CLONE_THREAD : 0, child);
	if (err && bench_last) {
		ctx_join(bench_last);
		bench_last = NULL;
	}
	*ctx = bench_last;
	return err;
}

/*
 * A small /proc file into @buf, NUL-terminated, without malloc: it is read when thread
 * creation has just failed, which may be because memory ran out.
 */
static int read_proc(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n, got = 0;

	if (fd < 0)
		return -1;
	while ((size_t)got < len - 1 && (n = read(fd, buf + got, len - 1 - (size_t)got)) > 0)
		got += n;
	close(fd);
	buf[got] = '\0';
	return got > 0 ? 0 : -1;
}

static long read_long_file(const char *path)
{
	char buf[64];

	return read_proc(path, buf, sizeof(buf)) ? -1 : strtol(buf, NULL, 10);
}

/* Threads of this process as the kernel counts them. */
static long os_threads(void)
{
	char buf[4096], *line;

	if (read_proc("/proc/self/status", buf, sizeof(buf)))
		return -1;
	line = strstr(buf, "\nThreads:");
	return line ? strtol(line + strlen("\nThreads:"), NULL, 10) : -1;
}

/* A resource limit, -1 when unlimited or unknown. */
static long rlimit_cur(int resource)
{
	struct rlimit rl;

	if (getrlimit(resource, &rl) || rl.rlim_cur == RLIM_INFINITY)
		return -1;
	return (long)rl.rlim_cur;
}

/* Why a thread could not be made: the limits that usually say no first. */
static void print_limits(void)
{
	long as = rlimit_cur(RLIMIT_AS);

	printf("   limits (-1: unlimited): ulimit -u %ld, ulimit -v %ld KiB, kernel.threads-max\n"
	       "   %ld, kernel.pid_max %ld, vm.max_map_count %ld (a thread stack takes 2 maps),\n"
	       "   and the pids cgroup, if any\n", rlimit_cur(RLIMIT_NPROC),
	       as < 0 ? -1 : as / 1024, read_long_file("/proc/sys/kernel/threads-max"),
	       read_long_file("/proc/sys/kernel/pid_max"),
	       read_long_file("/proc/sys/vm/max_map_count"));
}

static const char *yesno(bool b)
{
	return b ? "yes" : "no";
}

/* ---- 1. live model threads held at once ---- */

static void bench_live(long target)
{
	struct bench_ctx **ctxs = calloc((size_t)target, sizeof(*ctxs));
	struct task *leader = NULL, *child;
	struct cgt_model_counts counts;
	long created = 0, arrived, nos, i;
	double t0, t_created, t_held, t_gone, deadline;
	char why[256] = "";
	int err = 0, inv;

	printf("\n1. Live model threads held at once\n"
	       "   %ld model threads, in processes of %d (a leader forked from init and its\n"
	       "   CLONE_THREAD threads), each a pthread with a %d KiB stack; every one waits until\n"
	       "   the last exists, is counted, and only then all are let go to do_exit.\n",
	       target, THREADS_PER_PROC, STACK_KIB);
	if (!ctxs) {
		bench_fail("out of memory for the thread table");
		return;
	}

	bench_mode = MODE_HOLD;
	t0 = cgt_now();
	for (i = 0; i < target; i++) {
		struct bench_ctx *c;
		bool thread = i % THREADS_PER_PROC != 0;

		err = fork_one(thread ? leader : &init_task, thread, &child, &c);
		if (err)
			break;
		if (!thread)
			leader = child;	/* held, so alive until the release */
		ctxs[created++] = c;
	}
	t_created = cgt_now();
	if (err && bench_spawn_err) {
		printf("   pthread_create failed after %ld threads: %s\n", created,
		       strerror(bench_spawn_err));
		print_limits();
	} else if (err)
		printf("   copy_process failed after %ld threads: %s\n", created, strerror(-err));

	/* wait for every created thread to be running, registered with RCU and parked */
	deadline = t_created + HOLD_TIMEOUT;
	pthread_mutex_lock(&hold_lock);
	while (hold_arrived < created && cgt_now() < deadline) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += 1;
		pthread_cond_timedwait(&hold_arrive, &hold_lock, &ts);
	}
	arrived = hold_arrived;
	pthread_mutex_unlock(&hold_lock);
	t_held = cgt_now();

	/* all held: the model is at rest, so its invariants can be checked and its tasks counted */
	nos = os_threads();
	cgt_model_counts(&counts);
	/* a thread still starting is not at rest: checking then would race with it */
	inv = arrived == created ? cgt_check_invariants(why, sizeof(why)) : 0;
	printf("   forked %ld in %.2f s, all running after %.2f s; the model counts %ld tasks,\n"
	       "   the kernel counts %ld threads in the process (with the driver, urcu's call_rcu\n"
	       "   worker and, under a sanitizer, its background thread)\n",
	       created, t_created - t0, t_held - t0, counts.tasks, nos);
	if (arrived == created)
		printf("   model invariants with every thread held: %s%s\n",
		       inv ? "BROKEN: " : "ok", why);
	if (inv)
		bench_status = 1;
	if (arrived < created)
		bench_fail("%ld of %ld held threads started in time", arrived, created);

	pthread_mutex_lock(&hold_lock);
	hold_release = true;
	pthread_cond_broadcast(&hold_release_cond);
	pthread_mutex_unlock(&hold_lock);
	for (i = 0; i < created; i++)
		ctx_join(ctxs[i]);
	t_gone = cgt_now();
	printf("   released; all exited and joined in %.2f s\n", t_gone - t_held);
	free(ctxs);

	printf("BENCH live_threads held=%ld target=%ld reached=%s stack_kib=%d os_threads=%ld"
	       " build=%s\n", arrived, target, yesno(arrived >= target), STACK_KIB, nos,
	       BUILD_NAME);
}

/* ---- 2. model memory per live thread ---- */

static size_t heap_in_use(void)
{
	struct mallinfo2 mi = mallinfo2();

	/* chunks in use from the arenas, and those big enough to be mmapped on their own */
	return mi.uordblks + mi.hblkhd;
}

static void bench_memory(void)
{
	struct task **tasks = calloc(MEM_TASKS, sizeof(*tasks));
	struct task *leader = NULL;
	size_t before, after;
	long i, made = 0;
	double per;

	printf("\n2. Model memory per live thread, beyond its pthread stack\n"
	       "   malloc'd bytes (mallinfo2: uordblks + hblkhd) before and after forking %d\n"
	       "   model tasks with no pthread, in processes of %d: struct task %zu B, struct pid\n"
	       "   %zu B, and a share of struct signal_struct %zu B, with malloc's chunk overhead.\n",
	       MEM_TASKS, THREADS_PER_PROC, sizeof(struct task), sizeof(struct pid),
	       sizeof(struct signal_struct));
	if (!tasks) {
		bench_fail("out of memory for the task table");
		return;
	}

	bench_mode = MODE_NONE;
	before = heap_in_use();
	for (i = 0; i < MEM_TASKS; i++) {
		struct bench_ctx *c;
		bool thread = i % THREADS_PER_PROC != 0;
		int err = fork_one(thread ? leader : &init_task, thread, &tasks[i], &c);

		if (err) {
			bench_fail("copy_process failed: %s", strerror(-err));
			break;
		}
		if (!thread)
			leader = tasks[i];
		made++;
	}
	after = heap_in_use();

	/* the driver exits each task for it; the leaders linger as zombies until their last */
	for (i = 0; i < made; i++)
		do_exit(tasks[i]);
	free(tasks);

	printf("   the driver's context per pthread (struct bench_ctx, the actor's is alike) adds\n"
	       "   %zu B more; glibc keeps the thread descriptor and TLS inside the stack mapping.\n",
	       sizeof(struct bench_ctx));
#if defined(CGT_TSAN) || defined(CGT_ASAN)
	(void)before;
	(void)after;
	(void)per;
	printf("   the sanitizer replaces malloc, so mallinfo2 sees nothing of the model's heap:\n"
	       "   this figure is measured in the plain build only.\n");
	printf("BENCH model_bytes_per_thread=n/a target<=%d met=n/a measured=plain-build-only"
	       " build=%s\n", MEM_TARGET, BUILD_NAME);
#else
	if (after <= before || !made) {
		printf("   mallinfo2 saw no growth: the figure cannot be measured here.\n");
		printf("BENCH model_bytes_per_thread=n/a target<=%d met=n/a build=%s\n",
		       MEM_TARGET, BUILD_NAME);
		return;
	}
	per = (double)(after - before) / (double)made;
	printf("   %zu bytes for %ld tasks\n", after - before, made);
	printf("BENCH model_bytes_per_thread=%.0f target<=%d met=%s tasks=%ld build=%s\n",
	       per, MEM_TARGET, yesno(per <= MEM_TARGET), made, BUILD_NAME);
#endif
}

/* ---- 3. fork+exit rate ---- */

static void *empty_thread(void *arg)
{
	return arg;
}

/* Forks counted over the time they took, summed over the interleaved rounds. */
struct rate {
	long n;
	double secs;
};

static double rate_per_sec(const struct rate *r)
{
	return r->secs > 0 ? (double)r->n / r->secs : 0;
}

/* Bare pthread_create + pthread_join of an empty thread, with the model threads' stack. */
static int rate_bare(double seconds, struct rate *r)
{
	double start = cgt_now(), now = start;

	do {
		pthread_t t;
		int err = pthread_create(&t, &bench_attr, empty_thread, NULL);

		if (err) {
			bench_fail("bare pthread_create: %s", strerror(err));
			return -1;
		}
		pthread_join(t, NULL);
		r->n++;
		now = cgt_now();
	} while (now - start < seconds);
	r->secs += now - start;
	return 0;
}

/*
 * Model threads that exit at once: copy_process from @parent (CLONE_THREAD) or from init (a
 * new process), the pthread runs do_exit, the driver joins it. The RCU callbacks that free
 * the tasks and pids are deferred work of the same forks, so the time to drain them
 * (rcu_barrier) counts too.
 */
static int rate_model(double seconds, struct task *parent, bool thread, struct rate *r)
{
	double start = cgt_now(), now = start;
	int err = 0;

	bench_mode = MODE_CYCLE;
	do {
		struct bench_ctx *c;
		struct task *child;

		err = fork_one(thread ? parent : &init_task, thread, &child, &c);
		if (err) {
			bench_fail("copy_process: %s", strerror(-err));
			break;
		}
		ctx_join(c);
		r->n++;
		now = cgt_now();
	} while (now - start < seconds);
	rcu_barrier();
	r->secs += cgt_now() - start;
	bench_mode = MODE_NONE;
	return err ? -1 : 0;
}

static void bench_rate(double seconds)
{
	struct rate bare = { 0 }, mthread = { 0 }, mproc = { 0 };
	double slice = seconds / RATE_ROUNDS, pct_thread, pct_proc;
	struct task *parent;
	struct bench_ctx *c;
	int err, i;

	printf("\n3. fork+exit rate of model threads against bare pthreads, %.1f s each\n"
	       "   bare: pthread_create + pthread_join of an empty thread (%d KiB stack);\n"
	       "   model: copy_process (CLONE_THREAD into a live process, or a new process from\n"
	       "   init) of a model thread whose pthread registers with RCU, runs do_exit and\n"
	       "   ends, joined by the driver; the deferred RCU frees are drained within the time.\n"
	       "   The three take turns in %d rounds, so that drift in the machine hits all alike.\n",
	       seconds, STACK_KIB, RATE_ROUNDS);

	bench_mode = MODE_NONE;
	err = fork_one(&init_task, false, &parent, &c);
	if (err) {
		bench_fail("copy_process of the parent: %s", strerror(-err));
		return;
	}
	for (i = 0; i < RATE_ROUNDS && !err; i++)
		err = rate_bare(slice, &bare) ||
		      rate_model(slice, parent, true, &mthread) ||
		      rate_model(slice, parent, false, &mproc);
	do_exit(parent);

	pct_thread = rate_per_sec(&bare) > 0 ?
		     100.0 * rate_per_sec(&mthread) / rate_per_sec(&bare) : 0;
	pct_proc = rate_per_sec(&bare) > 0 ?
		   100.0 * rate_per_sec(&mproc) / rate_per_sec(&bare) : 0;
	printf("   bare %.0f/s; model CLONE_THREAD %.0f/s (%.0f%%), new process %.0f/s (%.0f%%);\n"
	       "   the target is met when both reach %d%%\n",
	       rate_per_sec(&bare), rate_per_sec(&mthread), pct_thread, rate_per_sec(&mproc),
	       pct_proc, RATE_TARGET_PCT);
	printf("BENCH fork_exit_rate bare=%.0f/s model_thread=%.0f/s ratio_thread=%.0f%%"
	       " model_process=%.0f/s ratio_process=%.0f%% target>=%d%% met=%s build=%s\n",
	       rate_per_sec(&bare), rate_per_sec(&mthread), pct_thread, rate_per_sec(&mproc),
	       pct_proc, RATE_TARGET_PCT,
	       yesno(pct_thread >= RATE_TARGET_PCT && pct_proc >= RATE_TARGET_PCT), BUILD_NAME);
}

/* ---- options ---- */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: bench_scale [--threads N] [--seconds S]\n"
		"  --threads N   live model threads to hold at once, and the target (default %d)\n"
		"  --seconds S   duration of each fork+exit rate measurement (default 1)\n"
		"  --help        this text\n"
		"Prints three BENCH lines: live threads held, model bytes per thread, fork+exit rate.\n"
		"Exit status: 0 figures printed (targets are not asserted), 1 the model misbehaved\n"
		"(hang, leak, broken invariant), 2 bad option.\n", DEFAULT_THREADS);
}

static int parse_args(int argc, char **argv, long *threads, double *seconds)
{
	static const struct option opts[] = {
		{ "threads", required_argument, NULL, 't' },
		{ "seconds", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	char *end;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			errno = 0;
			*threads = strtol(optarg, &end, 10);
			if (end == optarg || *end || errno || *threads < 1 || *threads > 1000000) {
				fprintf(stderr, "bench_scale: --threads: '%s' is not a number from 1"
					" to 1000000\n", optarg);
				return 2;
			}
			break;
		case 's':
			errno = 0;
			*seconds = strtod(optarg, &end);
			if (end == optarg || *end || errno || !(*seconds >= 0.01 && *seconds <= 600)) {
				fprintf(stderr, "bench_scale: --seconds: '%s' is not a number from 0.01"
					" to 600\n", optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return -1;
		case ':':
			fprintf(stderr, "bench_scale: %s needs a value (see --help)\n",
				argv[optind - 1]);
			return 2;
		default:
			fprintf(stderr, "bench_scale: unknown option '%s' (see --help)\n",
				argv[optind - 1]);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "bench_scale: unexpected argument '%s' (see --help)\n", argv[optind]);
		return 2;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct cgt_model_config mcfg = {
		.css_set_lock_ops	= cgt_lock_find("rwsem"),
		.tasklist_lock_ops	= cgt_lock_find("rwlock"),
		.hooks			= &bench_hooks,
		.iter			= CGT_ITER_FOR_EACH,
		.walk_limit		= 1000000,
	};
	long threads = DEFAULT_THREADS;
	double seconds = 1.0, t0 = cgt_now();
	char why[256] = "";
	int ret, leaks;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ret = parse_args(argc, argv, &threads, &seconds);
	if (ret)
		return ret < 0 ? 0 : ret;

	if (pthread_attr_init(&bench_attr) ||
	    pthread_attr_setstacksize(&bench_attr, STACK_KIB * 1024)) {
		fprintf(stderr, "bench_scale: cannot set a %d KiB pthread stack\n", STACK_KIB);
		return 1;
	}
	cgt_rcu_register_thread();
	/*
	 * liburcu starts its call_rcu worker at the first call_rcu and aborts if it cannot:
	 * start it now, while a thread can still be had, not once the hold has used them all.
	 */
	urcu_memb_get_default_call_rcu_data();
	cgt_failures_reset();
	if (!mcfg.css_set_lock_ops || !mcfg.tasklist_lock_ops || cgt_model_init(&mcfg)) {
		fprintf(stderr, "bench_scale: the model could not start\n");
		return 1;
	}
	printf("bench_scale: %s build, %ld CPUs, one model shared by three measurements\n",
	       BUILD_NAME, sysconf(_SC_NPROCESSORS_ONLN));

	/*
	 * In the order of the figures. The memory figure after the hold is still exact: the
	 * freed tasks and pids are reused from malloc's bins, which mallinfo2 counts as free,
	 * apart from a few in tcache.
	 */
	bench_live(threads);
	bench_memory();
	bench_rate(seconds);

	/* every model thread has exited: init lets go, and nothing else may be left */
	leaks = cgt_model_exit(why, sizeof(why));
	printf("\nmodel exit: %s%s; invariant violations seen: %ld; %.1f s in all\n",
	       leaks ? "LEAKED: " : "nothing leaked", why, cgt_failure_count(CGT_DET_INVARIANT),
	       cgt_now() - t0);
	if (leaks || cgt_failure_count(CGT_DET_INVARIANT))
		bench_status = 1;
	cgt_rcu_unregister_thread();
	pthread_attr_destroy(&bench_attr);
	return bench_status;
}
