// SPDX-License-Identifier: GPL-2.0
/*
 * What this machine's kernel does where the model mirrors it: exec by a non-leader thread,
 * a zombie leader, /proc/PID/task listed under thread churn, and cgroup moves. One line per
 * behaviour on stdout: "key<TAB>value<TAB>what was seen". Values are yes, no, a count, or
 * skip (cgroupfs not writable). Each scenario runs in a child process of its own; every
 * cgroup made is removed before the end.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "row.h"

static pid_t gettid_(void)
{
	return (pid_t)syscall(SYS_gettid);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void msleep(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Threads listed in /proc/@pid/task, their tids in @tids (up to @max); -1 if it is gone. */
static int list_tasks(pid_t pid, pid_t *tids, int max)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((d = readdir(dir)))
		if (d->d_name[0] != '.') {
			if (tids && n < max)
				tids[n] = atoi(d->d_name);
			n++;
		}
	closedir(dir);
	return n;
}

/* The state letter of thread @tid of @pid (from its stat), or '?'. */
static char task_state(pid_t pid, pid_t tid)
{
	char path[96], buf[512], *p;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tid);
	f = fopen(path, "r");
	if (!f)
		return '?';
	p = fgets(buf, sizeof(buf), f);
	fclose(f);
	p = p ? strrchr(buf, ')') : NULL;
	return p && p[1] == ' ' ? p[2] : '?';
}

/* -- exec by a non-leader thread (de_thread) ------------------------------------------ */

static char self_exe[PATH_MAX];
static pid_t exec_pid, exec_ppid;

static void *exec_thread(void *arg)
{
	char pid[16], ppid[16], tid[16];
	char *argv[] = { self_exe, "--after-exec", pid, ppid, tid, NULL };

	(void)arg;
	msleep(50);		/* the other threads are up */
	snprintf(pid, sizeof(pid), "%d", exec_pid);
	snprintf(ppid, sizeof(ppid), "%d", exec_ppid);
	snprintf(tid, sizeof(tid), "%d", gettid_());
	execv(self_exe, argv);
	_exit(99);
}

static void *sleeper(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static int after_exec(char **argv)
{
	pid_t pid = atoi(argv[2]), ppid = atoi(argv[3]), tid = atoi(argv[4]);
	int n = list_tasks(getpid(), NULL, 0);

	row("exec-keeps-pid", getpid() == pid ? "yes" : "no", "getpid() %d, before the exec %d",
	    getpid(), pid);
	row("exec-takes-leader-pid", gettid_() == pid && tid != pid ? "yes" : "no",
	    "the exec-ing thread was tid %d, now tid %d", tid, gettid_());
	row("exec-others-gone", n == 1 ? "yes" : "no", "%d thread(s) in /proc/self/task", n);
	row("exec-parent", getppid() == ppid ? "yes" : "no", "parent %d, before %d", getppid(),
	    ppid);
	return 0;
}

static void check_exec(void)
{
	pid_t c = fork();

	if (c == 0) {
		pthread_t t;

		exec_pid = getpid();
		exec_ppid = getppid();
		pthread_create(&t, NULL, sleeper, NULL);
		pthread_create(&t, NULL, exec_thread, NULL);
		for (;;)
			pause();
	}
	waitpid(c, NULL, 0);
}

/* -- a zombie leader (exit_notify, delay_group_leader) -------------------------------- */

static pid_t zpid;
static int zgo[2][2];		/* each thread waits for a byte on its pipe */

static void *zombie_thread(void *arg)
{
	long i = (long)arg;
	char b;

	if (read(zgo[i][0], &b, 1) != 1)
		return NULL;
	if (i == 0) {
		char s = task_state(zpid, zpid);
		int n;

		/* the leader's pthread_exit may still be under way */
		for (int tries = 0; s != 'Z' && tries < 1000; tries++) {
			msleep(1);
			s = task_state(zpid, zpid);
		}
		n = list_tasks(zpid, NULL, 0);

		row("zombie-leader", s == 'Z' ? "yes" : "no", "leader %d state %c after "
		    "pthread_exit, others running", zpid, s);
		row("zombie-listed", n == 3 ? "yes" : "no", "/proc/%d/task lists %d (the zombie "
		    "leader and 2 live threads)", zpid, n);
		if (write(zgo[1][1], "x", 1) != 1)
			return NULL;
	} else {
		int n;

		msleep(100);		/* thread 0 has exited meanwhile */
		n = list_tasks(zpid, NULL, 0);
		row("zombie-listed-after-exit", n == 2 && task_state(zpid, zpid) == 'Z' ? "yes" : "no",
		    "after one thread exits: %d listed, leader still %c", n,
		    task_state(zpid, zpid));
	}
	return NULL;
}

static void check_zombie(void)
{
	pid_t c;
	int status;

	fflush(stdout);
	c = fork();
	if (c == 0) {
		pthread_t t;

		zpid = getpid();
		for (long i = 0; i < 2; i++) {
			if (pipe(zgo[i]))
				_exit(1);
			pthread_create(&t, NULL, zombie_thread, (void *)i);
		}
		if (write(zgo[0][1], "x", 1) != 1)
			_exit(1);
		pthread_exit(NULL);
	}
	if (waitpid(c, &status, 0) == c)
		row("zombie-reaped", WIFEXITED(status) ? "yes" : "no",
		    "waitpid: the process ended with its last thread (status %d)", status);

	/* a process that has exited stays a zombie until its parent waits (SIGCHLD default) */
	c = fork();
	if (c == 0)
		_exit(0);
	{
		char st = '?';

		for (int tries = 0; st != 'Z' && tries < 1000; tries++) {
			msleep(1);
			st = task_state(c, c);
		}
		msleep(20);
		st = task_state(c, c);
		row("exit-zombie-until-wait", st == 'Z' ? "yes" : "no", "an exited child is "
		    "state %c, listed in /proc, until waitpid", st);
		waitpid(c, NULL, 0);
	}
}

/* -- /proc/PID/task under churn (proc_task_readdir, first_tid, next_tid) -------------- */

#define LONG_LIVED	8
#define CHURNERS	2
static volatile int churn_stop;

static void *short_lived(void *arg)
{
	(void)arg;
	return NULL;
}

static void *churner(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&churn_stop, __ATOMIC_RELAXED)) {
		pthread_t t;

		if (!pthread_create(&t, NULL, short_lived, NULL))
			pthread_join(t, NULL);
	}
	return NULL;
}

static pid_t long_tids[LONG_LIVED];

static void *long_lived(void *arg)
{
	__atomic_store_n(&long_tids[(long)arg], gettid_(), __ATOMIC_RELEASE);
	while (!__atomic_load_n(&churn_stop, __ATOMIC_RELAXED))
		msleep(5);
	return NULL;
}

/* One listing with small getdents64 calls, so it resumes many times; 1 if it ended. */
static int list_small(int fd, pid_t *seen, int max, int *n)
{
	char buf[128];
	long got;

	*n = 0;
	lseek(fd, 0, SEEK_SET);
	while ((got = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < got; ) {
			struct { unsigned long long ino; long long off; unsigned short reclen;
				 unsigned char type; char name[]; } *d = (void *)(buf + off);

			if (d->name[0] != '.' && *n < max)
				seen[(*n)++] = atoi(d->name);
			off += d->reclen;
		}
	}
	return got == 0;
}

static void check_readdir(double secs)
{
	pthread_t lt[LONG_LIVED], ct[CHURNERS];
	long listings = 0, ended = 0, missed = 0;
	pid_t seen[4096];
	double end;
	int fd, n;

	for (long i = 0; i < LONG_LIVED; i++)
		pthread_create(&lt[i], NULL, long_lived, (void *)i);
	for (int i = 0; i < CHURNERS; i++)
		pthread_create(&ct[i], NULL, churner, NULL);
	msleep(20);
	fd = open("/proc/self/task", O_RDONLY | O_DIRECTORY);
	end = now() + secs;
	while (fd >= 0 && now() < end) {
		listings++;
		ended += list_small(fd, seen, 4096, &n);
		for (int i = 0; i < LONG_LIVED; i++) {
			bool found = false;

			for (int j = 0; j < n && !found; j++)
				found = seen[j] == long_tids[i];
			missed += !found;
		}
	}
	if (fd >= 0)
		close(fd);
	__atomic_store_n(&churn_stop, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < CHURNERS; i++)
		pthread_join(ct[i], NULL);
	for (int i = 0; i < LONG_LIVED; i++)
		pthread_join(lt[i], NULL);
	row("readdir-ends", listings && ended == listings ? "yes" : "no",
	    "%ld of %ld listings of /proc/self/task ended (128-byte getdents64 calls, %d "
	    "threads churning)", ended, listings, CHURNERS);
	row("readdir-missed", "count", "%ld misses of a thread alive through the whole listing, "
	    "%d such threads per listing", missed, LONG_LIVED);
}

/* -- cgroup moves -------------------------------------------------------------------- */

static char mnt[PATH_MAX], base[PATH_MAX + 64];
static bool v2;

/* A cgroup mount we may write: cgroup2, or a v1 hierarchy (with a "tasks" file). */
static bool find_cgroupfs(void)
{
	char line[1024], dev[256], dir[PATH_MAX], type[64], opts[512];
	char v1[PATH_MAX] = "";
	FILE *f = fopen("/proc/self/mounts", "r");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%255s %4095s %63s %511s", dev, dir, type, opts) != 4)
			continue;
		if (!strcmp(type, "cgroup2") && !v2) {
			snprintf(mnt, sizeof(mnt), "%s", dir);
			v2 = true;
		} else if (!strcmp(type, "cgroup") && !v1[0] &&
			   (strstr(opts, "pids") || strstr(opts, "freezer"))) {
			snprintf(v1, sizeof(v1), "%s", dir);
		}
	}
	fclose(f);
	if (!v2 && v1[0])
		snprintf(mnt, sizeof(mnt), "%s", v1);
	return mnt[0];
}

static int write_file(const char *dir, const char *file, const char *what)
{
	char path[PATH_MAX + 160];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	if (write(fd, what, strlen(what)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static int write_pid(const char *dir, const char *file, pid_t pid)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%d", pid);
	return write_file(dir, file, buf);
}

/* The cgroup path of thread @tid in our hierarchy, relative to the mount, in @out. */
static bool task_cgroup(pid_t pid, pid_t tid, char *out, size_t len)
{
	char path[96], line[1024];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/cgroup", pid, tid);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;

		if (!c2)
			continue;
		line[strcspn(line, "\n")] = 0;
		if (v2 ? !strncmp(line, "0::", 3) :
		    (strstr(c1, "pids") || strstr(c1, "freezer")) && c2 > c1 + 1) {
			snprintf(out, len, "%s", c2 + 1);
			found = true;
		}
	}
	fclose(f);
	return found;
}

/* Threads of @pid not in @cg (a path relative to the mount); -1 if it cannot be read. */
static int not_in(pid_t pid, const char *cg, pid_t except, const char *except_cg)
{
	pid_t tids[1024];
	char have[PATH_MAX];
	int n = list_tasks(pid, tids, 1024), bad = 0;

	if (n < 0)
		return -1;
	for (int i = 0; i < n && i < 1024; i++) {
		if (!task_cgroup(pid, tids[i], have, sizeof(have)))
			continue;	/* exited meanwhile */
		if (strcmp(have, tids[i] == except ? except_cg : cg))
			bad++;
	}
	return bad;
}

/*
 * A helper process: @n sleeping threads, or with @spawn, a thread making a sleeping thread
 * every millisecond or so. They never exit: a move leaves an exiting (PF_EXITING) thread
 * where it is, in the kernel as in the model, which is not what this checks.
 */
static void *spawner(void *arg)
{
	pthread_attr_t attr;

	(void)arg;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (int made = 0; made < 2000; made++) {
		pthread_t t;

		if (pthread_create(&t, &attr, sleeper, NULL))
			break;
		usleep(500);
	}
	for (;;)
		pause();
	return NULL;
}

static pid_t helper(int n, bool spawn, pid_t *tid_out)
{
	int p[2];
	pid_t c;

	if (pipe(p))
		return -1;
	fflush(stdout);
	c = fork();
	if (c == 0) {
		pthread_t t;
		pid_t first = 0;

		for (int i = 0; i < n; i++)
			pthread_create(&t, NULL, sleeper, NULL);
		if (spawn)
			pthread_create(&t, NULL, spawner, NULL);
		msleep(30);
		{
			pid_t tids[64];
			int k = list_tasks(getpid(), tids, 64);

			for (int i = 0; i < k && !first; i++)
				if (tids[i] != getpid())
					first = tids[i];
		}
		if (write(p[1], &first, sizeof(first)) != sizeof(first))
			_exit(1);
		for (;;)
			pause();
	}
	close(p[1]);
	if (read(p[0], tid_out, sizeof(*tid_out)) != sizeof(*tid_out))
		*tid_out = 0;
	close(p[0]);
	return c;
}

static void reap(pid_t c)
{
	if (c > 0) {
		kill(c, SIGKILL);
		waitpid(c, NULL, 0);
	}
}

static void rmdir_retry(const char *path)
{
	for (int i = 0; i < 100 && rmdir(path) && errno == EBUSY; i++)
		msleep(10);
}

static void cg_skip(const char *why)
{
	const char *keys[] = { "procs-moves-all", "procs-tid-moves-all", "procs-fork-during-move",
			       "single-thread-move", "zombie-cgroup", "threads-read-while-moving" };

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		row(keys[i], "skip", "%s", why);
}

/*
 * cgroup.threads read while processes move in and out: v2's cgroup_procs_start/next keep a
 * css_task_iter between read() calls, and css_task_iter_next takes css_set_lock per step
 * (kernel/cgroup/cgroup.c @ v6.18.2); css_set_move_task skips the iterators of a task that
 * leaves. A thread that stays must be listed once in every listing, and no read may fail.
 * STAYERS tids fill more than seq_file's page, so each listing spans read() calls.
 */
#define STAYERS	1000
static pid_t stayer_tids[STAYERS + 1];
static int nstayers;

static int cmp_pid(const void *a, const void *b)
{
	return (*(const pid_t *)a > *(const pid_t *)b) - (*(const pid_t *)a < *(const pid_t *)b);
}

/* A process of @n sleeping threads with small stacks, once they all exist; its pid. */
static pid_t stayers(int n)
{
	pid_t c;

	fflush(stdout);
	c = fork();
	if (c == 0) {
		pthread_attr_t attr;
		pthread_t t;

		pthread_attr_init(&attr);
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		pthread_attr_setstacksize(&attr, 64 * 1024);
		for (int i = 0; i < n; i++)
			if (pthread_create(&t, &attr, sleeper, NULL))
				break;
		for (;;)
			pause();
	}
	for (int tries = 0; c > 0 && tries < 500 && list_tasks(c, NULL, 0) < n + 1; tries++)
		msleep(10);
	return c;
}

/* One listing of @dir's cgroup.threads in 256-byte reads: stayers named, each once, or -1. */
static int read_threads(const char *dir)
{
	static unsigned char times[STAYERS + 1];
	char path[PATH_MAX + 160], buf[256];
	int fd, hits = 0;
	long cur = -1;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/cgroup.threads", dir);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	memset(times, 0, sizeof(times));
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] >= '0' && buf[i] <= '9') {
				cur = (cur < 0 ? 0 : cur * 10) + (buf[i] - '0');
				continue;
			}
			if (cur >= 0) {
				pid_t key = (pid_t)cur, *at = bsearch(&key, stayer_tids, nstayers,
								       sizeof(key), cmp_pid);

				if (at)
					times[at - stayer_tids]++;
			}
			cur = -1;
		}
	}
	close(fd);
	if (n < 0)
		return -1;
	for (int i = 0; i < nstayers; i++)
		hits += times[i] == 1;
	return hits;
}

static void check_threads_read(const char *r, const char *b, double secs)
{
	pid_t st, movers[4], tid, mover;
	long listings = 0, bad = 0;

	st = stayers(STAYERS);
	nstayers = st > 0 ? list_tasks(st, stayer_tids, STAYERS + 1) : -1;
	for (int i = 0; i < 4; i++)
		movers[i] = helper(4, false, &tid);
	if (nstayers != STAYERS + 1 || write_pid(r, "cgroup.procs", st)) {
		row("threads-read-while-moving", "skip", "could not make or move %d threads",
		    STAYERS);
		goto out;
	}
	qsort(stayer_tids, nstayers, sizeof(pid_t), cmp_pid);
	fflush(stdout);
	mover = fork();
	if (mover == 0) {
		for (long k = 0; ; k++)
			for (int i = 0; i < 4; i++)
				write_pid(k % 2 ? b : r, "cgroup.procs", movers[i]);
	}
	for (double end = now() + secs; now() < end; listings++)
		bad += read_threads(r) != nstayers;
	reap(mover);
	row("threads-read-while-moving", listings && !bad ? "yes" : "no", "%ld of %ld listings "
	    "of cgroup.threads (256-byte reads) missed, repeated or failed on one of %d threads "
	    "that stayed, while 4 processes of 5 threads moved in and out", bad, listings,
	    nstayers);
out:
	for (int i = 0; i < 4; i++)
		reap(movers[i]);
	reap(st);
}

static void check_cgroups(void)
{
	char a[PATH_MAX + 80], b[PATH_MAX + 80], d[PATH_MAX + 80], t1[PATH_MAX + 96];
	char rel_a[PATH_MAX], rel_b[PATH_MAX], rel_d[PATH_MAX], rel_t1[PATH_MAX];
	const char *rel;
	pid_t h, h2 = -1, tid, tid2;
	int bad, left = 0, writes = 0, seen = 0;

	if (!find_cgroupfs()) {
		cg_skip("no cgroup filesystem mounted");
		return;
	}
	snprintf(base, sizeof(base), "%s/cgt-kcheck-%d", mnt, getpid());
	if (mkdir(base, 0755)) {
		cg_skip("cgroupfs not writable here");
		return;
	}
	rel = base + strlen(mnt);
	snprintf(a, sizeof(a), "%s/a", base);
	snprintf(b, sizeof(b), "%s/b", base);
	snprintf(d, sizeof(d), "%s/d", base);
	snprintf(t1, sizeof(t1), "%s/d/t1", base);
	snprintf(rel_a, sizeof(rel_a), "%s/a", rel);
	snprintf(rel_b, sizeof(rel_b), "%s/b", rel);
	snprintf(rel_d, sizeof(rel_d), "%s/d", rel);
	snprintf(rel_t1, sizeof(rel_t1), "%s/d/t1", rel);
	mkdir(a, 0755);
	mkdir(b, 0755);

	h = helper(4, false, &tid);
	if (write_pid(a, "cgroup.procs", h)) {
		cg_skip("writing cgroup.procs failed");
		goto out;
	}
	bad = not_in(h, rel_a, 0, NULL);
	row("procs-moves-all", bad == 0 ? "yes" : "no", "pid %d to %s/cgroup.procs (%s): %d of 5 "
	    "threads elsewhere", h, rel_a, v2 ? "v2" : "v1", bad);
	write_pid(b, "cgroup.procs", tid);
	bad = not_in(h, rel_b, 0, NULL);
	row("procs-tid-moves-all", bad == 0 ? "yes" : "no", "tid %d (not the leader) to "
	    "cgroup.procs: %d of 5 threads elsewhere", tid, bad);

	/*
	 * A zombie's /proc/PID/cgroup: from 4.4 cgroup_exit keeps the css_set until cgroup_free,
	 * and on v2 proc_cgroup_show prints the cgroup the zombie died in; on v1, "/" for a
	 * PF_EXITING task (kernel/cgroup/cgroup.c @ v6.18.2); 3.15's cgroup_exit pointed the
	 * task at init_css_set.
	 */
	h2 = fork();
	if (h2 == 0) {
		pause();
		_exit(0);
	}
	if (h2 > 0 && !write_pid(a, "cgroup.procs", h2)) {
		char zcg[PATH_MAX] = "", st = '?';

		kill(h2, SIGKILL);
		for (int tries = 0; st != 'Z' && tries < 1000; tries++) {
			msleep(1);
			st = task_state(h2, h2);
		}
		task_cgroup(h2, h2, zcg, sizeof(zcg));
		row("zombie-cgroup", st != 'Z' ? "no" : !strcmp(zcg, rel_a) ? "kept" :
		    !strcmp(zcg, "/") ? "root" : "other", "zombie %d (state %c), moved to %s "
		    "before it died: /proc/%d/cgroup says %s (%s)", h2, st, rel_a, h2,
		    zcg[0] ? zcg : "nothing", v2 ? "v2" : "v1");
	} else {
		row("zombie-cgroup", "skip", "could not fork or move a child");
	}
	reap(h2);

	h2 = helper(0, true, &tid2);
	for (double end = now() + 1.0; now() < end; writes++) {
		const char *to = writes % 2 ? b : a;

		if (write_pid(to, "cgroup.procs", h2))
			break;
		bad = not_in(h2, writes % 2 ? rel_b : rel_a, 0, NULL);
		left += bad > 0 ? bad : 0;
	}
	seen = list_tasks(h2, NULL, 0);
	row("procs-fork-during-move", left == 0 && writes > 0 ? "yes" : "no", "%d moves of a "
	    "process making threads all along (%d threads at the end): %d left "
	    "behind", writes, seen, left);
	reap(h2);
	h2 = -1;

	/* one thread alone: v2 a threaded cgroup's cgroup.threads, v1 the "tasks" file */
	if (v2) {
		mkdir(d, 0755);
		mkdir(t1, 0755);
		int err = write_file(t1, "cgroup.type", "threaded");

		if (!err)
			err = write_pid(d, "cgroup.procs", h);
		if (!err)
			err = write_pid(t1, "cgroup.threads", tid);
		if (err) {
			row("single-thread-move", "skip", "threaded cgroups refused here (%s)",
			    strerror(-err));
		} else {
			bad = not_in(h, rel_d, tid, rel_t1);
			row("single-thread-move", bad == 0 ? "yes" : "no", "tid %d to a threaded "
			    "cgroup's cgroup.threads: %d thread(s) not where expected", tid, bad);
		}
	} else {
		write_pid(a, "tasks", tid);
		bad = not_in(h, rel_b, tid, rel_a);
		row("single-thread-move", bad == 0 ? "yes" : "no", "tid %d to v1 tasks: %d "
		    "thread(s) not where expected", tid, bad);
	}
	if (v2)
		check_threads_read(a, b, 1.0);
	else
		row("threads-read-while-moving", "skip", "v1: cgroup.procs and tasks are read "
		    "from a pidlist loaded at once");
out:
	reap(h);
	reap(h2);
	rmdir_retry(t1);
	rmdir_retry(d);
	rmdir_retry(a);
	rmdir_retry(b);
	rmdir_retry(base);
}

/* -- pid numbers: alloc_pid wraps at pid_max, and a freed number is free at once -------- */

static int read_int(const char *path, long *v)
{
	FILE *f = fopen(path, "r");
	int ok = f && fscanf(f, "%ld", v) == 1;

	if (f)
		fclose(f);
	return ok ? 0 : -1;
}

static int write_last_pid(long nr)
{
	FILE *f = fopen("/proc/sys/kernel/ns_last_pid", "w");
	int ok = f && fprintf(f, "%ld", nr) > 0;

	if (f && fclose(f))
		ok = 0;
	return ok ? 0 : -1;
}

/* a child that exits at once, reaped; its pid, or -1 */
static pid_t fork_reaped(void)
{
	pid_t c = fork();

	if (c == 0)
		_exit(0);
	if (c > 0)
		waitpid(c, NULL, 0);
	return c;
}

/*
 * The init of a new pid namespace of its own, where nothing else forks: ns_last_pid set to
 * pid_max - 1, the next fork's number; then, that child reaped, ns_last_pid set just below
 * its number, the next fork's number again. Rows go to stdout; exit 3 if ns_last_pid is not
 * writable here.
 */
static int pid_ns_init(void)
{
	long pid_max;
	pid_t a, b;

	/* read in the namespace: from 6.14 each pid namespace has a pid_max of its own */
	if (read_int("/proc/sys/kernel/pid_max", &pid_max) || write_last_pid(pid_max - 1))
		return 3;
	a = fork_reaped();
	row("pid-wrap", a >= 300 && a < pid_max - 1 ? "yes" : "no", "ns_last_pid %ld (pid_max "
	    "- 1), the next fork got %d: wrapped to RESERVED_PIDS (300)", pid_max - 1, a);
	if (write_last_pid(a - 1))
		return 3;
	b = fork_reaped();
	row("pid-reused-at-once", b == a ? "yes" : "no", "pid %d reaped, ns_last_pid %d, the "
	    "next fork got %d", a, a - 1, b);
	return 0;
}

static void check_pids(void)
{
	pid_t c;
	int status;

	fflush(stdout);
	if (unshare(CLONE_NEWPID)) {
		row("pid-wrap", "skip", "unshare(CLONE_NEWPID): %s", strerror(errno));
		row("pid-reused-at-once", "skip", "unshare(CLONE_NEWPID): %s", strerror(errno));
		return;
	}
	c = fork();		/* pid 1 of the new namespace */
	if (c == 0)
		_exit(pid_ns_init());
	if (c < 0 || waitpid(c, &status, 0) != c || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		row("pid-wrap", "skip", "pid_max or ns_last_pid not usable in a new pid "
		    "namespace here");
		row("pid-reused-at-once", "skip", "pid_max or ns_last_pid not usable here");
	}
}

int main(int argc, char **argv)
{
	ssize_t n;

	if (argc == 5 && !strcmp(argv[1], "--after-exec"))
		return after_exec(argv);
	n = readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1);
	if (n <= 0)
		return 1;
	self_exe[n] = 0;
	setvbuf(stdout, NULL, _IOLBF, 0);
	check_exec();
	check_zombie();
	check_readdir(argc > 1 ? atof(argv[1]) : 1.5);
	check_cgroups();
	check_pids();		/* last: unshare(CLONE_NEWPID) changes where our children go */
	return 0;
}
