// SPDX-License-Identifier: GPL-2.0
/*
 * RCU wrappers over liburcu's memb flavour.
 *
 * liburcu 0.13 is not instrumented, so TSan cannot see that a grace period orders every
 * read-side section that was running before it against the callback or synchronize_rcu()
 * that ends it. We tell it: each reader releases a token just before rcu_read_unlock(), so
 * does each call_rcu() (the updater's own accesses precede the callback), and every callback
 * and every return from synchronize_rcu() acquires it. The token is
 * over-approximate (it orders later readers too) but never hides a race inside a reader.
 */
#include "rcu.h"
#include "point.h"
#include "thread.h"
#include "sync.h"
#include "../base/quarantine.h"

#ifdef CGT_TSAN
#include <sanitizer/tsan_interface.h>
static char rcu_gp_token;
#define gp_release()	__tsan_release(&rcu_gp_token)
#define gp_acquire()	__tsan_acquire(&rcu_gp_token)
#else
#define gp_release()	do { } while (0)
#define gp_acquire()	do { } while (0)
#endif

static __thread int rcu_depth;
static __thread uint64_t section_epoch, section_seq;
static uint64_t rcu_epoch;		/* retirements so far; read at each section's start */

int cgt_rcu_read_depth(void)
{
	return rcu_depth;
}

/* The nesting is mirrored in the thread's state: the hang watchdog's picture of RCU readers. */
void rcu_read_lock(void)
{
	const struct cgt_sync_ops *s = cgt_sync();

	urcu_memb_read_lock();
	if (s)
		s->rcu_read_lock();
	if (!rcu_depth++) {
		section_epoch = __atomic_load_n(&rcu_epoch, __ATOMIC_SEQ_CST);
		section_seq++;
		if (cgt_self)
			WRITE_ONCE(cgt_self->rcu_since_ns, cgt_clock_coarse_ns());
	}
	if (cgt_self)
		WRITE_ONCE(cgt_self->rcu_depth, rcu_depth);
}

/*
 * The retiring side unlinks, then counts; a reader reads the count, then looks. A count
 * read at or past an object's means the unlink came first: the reader never saw it linked.
 */
uint64_t cgt_rcu_retire(void)
{
	return __atomic_add_fetch(&rcu_epoch, 1, __ATOMIC_SEQ_CST);
}

/* Freed memory, poisoned (base/quarantine.h), reads as retired long ago. */
bool cgt_rcu_stale(uint64_t retired)
{
	if (!retired)
		return false;
	if (retired == 0x0101010101010101ULL * CGT_POISON_FREE)
		return true;
	return !rcu_depth || retired <= section_epoch;
}

uint64_t cgt_rcu_section(void)
{
	return rcu_depth ? section_seq : 0;
}

void rcu_read_unlock(void)
{
	const struct cgt_sync_ops *s = cgt_sync();

	rcu_depth--;
	if (cgt_self)
		WRITE_ONCE(cgt_self->rcu_depth, rcu_depth);
	gp_release();
	if (s)
		s->rcu_read_unlock();
	urcu_memb_read_unlock();
	/*
	 * Past the outermost unlock, what was found under RCU may be freed at any moment: the
	 * window a reference taken too late falls into, for perturbation and the scheduler.
	 */
	if (!rcu_depth)
		cgt_point(CGT_PT_RCU_EXIT, NULL);
}

void call_rcu(struct rcu_head *head, void (*func)(struct rcu_head *head))
{
	const struct cgt_sync_ops *s = cgt_sync();

	gp_release();
	/* a controlled run ends grace periods itself, at decisions: the same step every time */
	if (s)
		s->call_rcu(head, func);
	else
		urcu_memb_call_rcu(head, func);
}

static uint64_t gp_ended_ns;

uint64_t cgt_rcu_gp_ended_ns(void)
{
	return __atomic_load_n(&gp_ended_ns, __ATOMIC_RELAXED);
}

static void gp_ended(void)
{
	__atomic_store_n(&gp_ended_ns, cgt_clock_coarse_ns(), __ATOMIC_RELAXED);
}

void rcu_callback_enter(void)
{
	gp_acquire();
	gp_ended();
}

static const char rcu_gp_waitable = 0;	/* what a synchronize_rcu() caller waits for */

void synchronize_rcu(void)
{
	const struct cgt_sync_ops *s = cgt_sync();

	cgt_point(CGT_PT_GP_WAIT, &rcu_gp_waitable);
	cgt_wait_begin(&rcu_gp_waitable, "rcu grace period", CGT_WAIT_GP);
	if (s)
		s->synchronize_rcu();
	else
		urcu_memb_synchronize_rcu();
	cgt_wait_end();
	gp_acquire();
	gp_ended();
}

void rcu_barrier(void)
{
	const struct cgt_sync_ops *s = cgt_sync();

	if (s)
		s->rcu_barrier();
	urcu_memb_barrier();
	gp_acquire();
}

void cgt_rcu_register_thread(void)
{
	urcu_memb_register_thread();
}

void cgt_rcu_unregister_thread(void)
{
	urcu_memb_unregister_thread();
}
