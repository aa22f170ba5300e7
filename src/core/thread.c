// SPDX-License-Identifier: GPL-2.0
/*
 * The registry of harness threads, their clock, the graveyard that keeps the last stories,
 * and the coverage of the threads gone.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "thread.h"

#define GRAVEYARD_SIZE	1024	/* a controlled run's story may reach back past a drain */

__thread struct cgt_thread *cgt_self;

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cgt_thread *registry;
static int nregistered;
static int next_id;
static struct cgt_thread graveyard[GRAVEYARD_SIZE];
static unsigned int graveyard_next;
static struct cgt_cover cover_gone;	/* folded in by cgt_thread_unregister */

static const char *const role_names[] = {
	[CGT_ROLE_DRIVER] = "driver", [CGT_ROLE_ACTOR] = "actor",
	[CGT_ROLE_WALKER] = "walker", [CGT_ROLE_WATCHDOG] = "watchdog",
};

static const char *const wait_names[] = {
	[CGT_WAIT_NONE] = "none", [CGT_WAIT_READ] = "read", [CGT_WAIT_WRITE] = "write",
	[CGT_WAIT_GP] = "grace period", [CGT_WAIT_GROUP_EXIT] = "group exit",
};

const char *cgt_role_name(int role)
{
	return role >= 0 && role < (int)ARRAY_SIZE(role_names) ? role_names[role] : "?";
}

const char *cgt_wait_name(int kind)
{
	return kind >= 0 && kind < (int)ARRAY_SIZE(wait_names) ? wait_names[kind] : "?";
}

void cgt_thread_register_new(struct cgt_thread *t, enum cgt_role role, int pid,
			     const void *group)
{
	t->role = role;
	t->pid = pid;
	t->group = group;
	t->starting = 1;
	t->heartbeat_ns = cgt_clock_ns();
	pthread_mutex_lock(&registry_lock);
	t->id = ++next_id;
	t->next = registry;
	t->pprev = &registry;
	if (registry)
		registry->pprev = &t->next;
	registry = t;
	nregistered++;
	pthread_mutex_unlock(&registry_lock);
}

void cgt_thread_attach(struct cgt_thread *t)
{
	WRITE_ONCE(t->os_tid, (int)syscall(SYS_gettid));
	WRITE_ONCE(t->heartbeat_ns, cgt_clock_ns());
	WRITE_ONCE(t->starting, 0);
	cgt_self = t;
	cgt_cover_counts = t->cover.n;
}

void cgt_thread_register(struct cgt_thread *t, enum cgt_role role, int pid)
{
	memset(t, 0, sizeof(*t));
	cgt_thread_register_new(t, role, pid, NULL);
	cgt_thread_attach(t);
}

void cgt_thread_set_group(const void *group)
{
	if (cgt_self)
		WRITE_ONCE(cgt_self->group, group);
}

void cgt_thread_set_releasing(const void *group)
{
	if (cgt_self)
		WRITE_ONCE(cgt_self->releasing, group);
}

void cgt_thread_set_off_cpu(bool off)
{
	if (cgt_self)
		WRITE_ONCE(cgt_self->off_cpu, off);
}

/* The start of /proc/self/task/@os_tid/@file, NUL-terminated in @buf; false if unreadable. */
static bool read_task_file(int os_tid, const char *file, char *buf, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/%s", os_tid, file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = 0;
	return true;
}

bool cgt_thread_runnable(int os_tid)
{
	char buf[256], *p;

	if (!read_task_file(os_tid, "stat", buf, sizeof(buf)))
		return false;
	/* "tid (comm) S ...": the state follows the last ')' (a comm may hold one) */
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] == 'R';
}

long cgt_thread_syscall(int os_tid)
{
	char buf[64];
	long nr;

	if (!read_task_file(os_tid, "syscall", buf, sizeof(buf)))
		return -1;
	/* "running", or the number and arguments of the call it sleeps in */
	return sscanf(buf, "%ld", &nr) == 1 ? nr : -1;
}

long long cgt_thread_cpu_ns(int os_tid)
{
	char buf[96];
	long long ns;

	if (!read_task_file(os_tid, "schedstat", buf, sizeof(buf)))
		return -1;
	/* "run_ns wait_ns slices" */
	return sscanf(buf, "%lld", &ns) == 1 ? ns : -1;
}

/*
 * A running thread goes on recording while it is copied: each event it records overwrites
 * the oldest slot of the ring. The copy keeps the ring as it stood when the copy began, and
 * the slots overwritten meanwhile are marked lost (CGT_PT_LOST, at the time of the oldest
 * slot kept) rather than read as an old event with a later time, which broke the order
 * every reader of a ring relies on.
 */
void cgt_thread_copy(struct cgt_thread *dst, const struct cgt_thread *src)
{
	const long *s = (const long *)src;
	long *d = (long *)dst;
	uint32_t head = __atomic_load_n(&src->ring_head, __ATOMIC_ACQUIRE);
	uint32_t have = head < CGT_RING_SIZE ? head : CGT_RING_SIZE, from = head - have;
	int64_t moved, lost;

	_Static_assert(sizeof(*src) % sizeof(long) == 0, "cgt_thread must be long-aligned");
	for (size_t i = 0; i < sizeof(*src) / sizeof(long); i++)
		d[i] = __atomic_load_n(&s[i], __ATOMIC_RELAXED);
	moved = (uint32_t)(__atomic_load_n(&src->ring_head, __ATOMIC_ACQUIRE) - head);
	dst->ring_head = head;
	/*
	 * The event recorded as number head + k took the slot of number head + k - SIZE, and
	 * another thread's event being written as the head was read again may be half there.
	 */
	lost = (int64_t)head + moved + (src != cgt_self) - CGT_RING_SIZE - from;
	if (lost <= 0)
		return;
	if (lost > have)
		lost = have;
	for (uint32_t i = from; i != from + (uint32_t)lost; i++)
		dst->ring[i & (CGT_RING_SIZE - 1)] = (struct cgt_event){
			.ns = lost < have ? dst->ring[(from + (uint32_t)lost) & (CGT_RING_SIZE - 1)].ns : 0,
			.point = CGT_PT_LOST, .side = -1 };
}

/*
 * What the detectors read of a thread: its state, not its event ring and coverage (most of
 * its size), so the watchdog's ten looks a second hold the registry lock briefly.
 */
static void thread_copy_state(struct cgt_thread *dst, const struct cgt_thread *src)
{
	const long *s = (const long *)src;
	long *d = (long *)dst;

	_Static_assert(offsetof(struct cgt_thread, ring) % sizeof(long) == 0,
		       "the ring must start on a long");
	for (size_t i = 0; i < offsetof(struct cgt_thread, ring) / sizeof(long); i++)
		d[i] = __atomic_load_n(&s[i], __ATOMIC_RELAXED);
	dst->ring_head = 0;
	dst->next = NULL;
	dst->pprev = NULL;
}

int cgt_threads_snapshot(struct cgt_thread **buf, int *cap)
{
	int n = 0;

	pthread_mutex_lock(&registry_lock);
	while (nregistered > *cap) {
		/* room for the threads forked while it grows, so a busy run rarely loops */
		int want = nregistered + nregistered / 4 + 64;
		struct cgt_thread *v;

		pthread_mutex_unlock(&registry_lock);
		v = realloc(*buf, (size_t)want * sizeof(*v));
		if (!v)
			return -1;
		*buf = v;
		*cap = want;
		pthread_mutex_lock(&registry_lock);
	}
	for (struct cgt_thread *t = registry; t; t = t->next)
		thread_copy_state(&(*buf)[n++], t);
	pthread_mutex_unlock(&registry_lock);
	return n;
}

struct copy_id {
	int id;
	int idx;
};

static int copy_id_cmp(const void *a, const void *b)
{
	const struct copy_id *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

int cgt_threads_moved(const struct cgt_thread *v, int n, char *moved)
{
	struct copy_id *ids = malloc(sizeof(*ids) * (size_t)(n ? n : 1));

	if (!ids)
		return -1;
	for (int i = 0; i < n; i++) {
		ids[i] = (struct copy_id){ v[i].id, i };
		moved[i] = 1;		/* until found in the same state */
	}
	qsort(ids, (size_t)n, sizeof(*ids), copy_id_cmp);
	pthread_mutex_lock(&registry_lock);
	for (struct cgt_thread *t = registry; t; t = t->next) {
		struct copy_id key = { t->id, 0 }, *c;
		const struct cgt_thread *was;

		c = bsearch(&key, ids, (size_t)n, sizeof(*ids), copy_id_cmp);
		if (!c)
			continue;
		was = &v[c->idx];
		moved[c->idx] = READ_ONCE(t->heartbeat_ns) != was->heartbeat_ns ||
				READ_ONCE(t->wait_obj) != was->wait_obj ||
				READ_ONCE(t->wait_since_ns) != was->wait_since_ns;
	}
	pthread_mutex_unlock(&registry_lock);
	free(ids);
	return 0;
}

static struct cgt_thread *thread_find(int id)
{
	for (struct cgt_thread *t = registry; t; t = t->next)
		if (t->id == id)
			return t;
	return NULL;
}

void cgt_thread_mark_wait(int id, uint64_t since, int reported)
{
	struct cgt_thread *t;

	pthread_mutex_lock(&registry_lock);
	t = thread_find(id);
	if (t && READ_ONCE(t->wait_obj) && READ_ONCE(t->wait_since_ns) == since)
		WRITE_ONCE(t->wait_reported, READ_ONCE(t->wait_reported) | reported);
	pthread_mutex_unlock(&registry_lock);
}

void cgt_thread_abort_walk(int id, uint64_t since)
{
	struct cgt_thread *t;

	pthread_mutex_lock(&registry_lock);
	t = thread_find(id);
	if (t && READ_ONCE(t->walk_active) && READ_ONCE(t->walk_since_ns) == since)
		WRITE_ONCE(t->walk_abort, 1);
	pthread_mutex_unlock(&registry_lock);
}

void cgt_thread_unregister(struct cgt_thread *t)
{
	pthread_mutex_lock(&registry_lock);
	if (t->pprev) {
		*t->pprev = t->next;
		if (t->next)
			t->next->pprev = t->pprev;
		t->pprev = NULL;
		nregistered--;
	}
	cgt_thread_copy(&graveyard[graveyard_next++ % GRAVEYARD_SIZE], t);
	cgt_cover_add(&cover_gone, &t->cover);
	pthread_mutex_unlock(&registry_lock);
	if (cgt_self == t) {
		cgt_self = NULL;
		cgt_cover_counts = NULL;
	}
}

void cgt_threads_cover(struct cgt_cover *out)
{
	pthread_mutex_lock(&registry_lock);
	*out = cover_gone;
	for (struct cgt_thread *t = registry; t; t = t->next)
		cgt_cover_add(out, &t->cover);
	pthread_mutex_unlock(&registry_lock);
}

void cgt_threads_cover_reset(void)
{
	pthread_mutex_lock(&registry_lock);
	memset(&cover_gone, 0, sizeof(cover_gone));
	pthread_mutex_unlock(&registry_lock);
}

void cgt_threads_lock(void)
{
	pthread_mutex_lock(&registry_lock);
}

void cgt_threads_unlock(void)
{
	pthread_mutex_unlock(&registry_lock);
}

struct cgt_thread *cgt_threads_first(void)
{
	return registry;
}

/* The most recently finished threads, newest first; caller holds the registry lock. */
int cgt_threads_graveyard(struct cgt_thread **out, int max)
{
	unsigned int n = graveyard_next < GRAVEYARD_SIZE ? graveyard_next : GRAVEYARD_SIZE;
	int i;

	for (i = 0; i < (int)n && i < max; i++)
		out[i] = &graveyard[(graveyard_next - 1 - (unsigned int)i) % GRAVEYARD_SIZE];
	return i;
}

void cgt_wait_begin(const void *obj, const char *name, enum cgt_wait_kind kind)
{
	if (cgt_self)
		cgt_wait_begin_at(obj, name, kind, cgt_clock_ns());
}
