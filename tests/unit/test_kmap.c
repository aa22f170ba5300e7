// SPDX-License-Identifier: GPL-2.0
/*
 * A kernel's record mapped onto the model and a found failure judged against it
 * (klog/kmap.c, klog/kmap_judge.c): which era a record is of, which searches it may
 * have, and when a failure is its mechanism, in part, or another failure. The logs are
 * written here in the kernel's formats; the failures as the model's report.json has them.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/klog/klog.h"
#include "../../src/klog/kmap.h"
#include "../../src/model/bugs.h"

/* The log and its map live together: the map points into the log's records. */
static struct cgt_klog *log_of;

static int map(const char *text, struct cgt_kmap *m)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	char err[256];
	int ret;

	cr_assert(f);
	free(log_of);
	log_of = calloc(1, sizeof(*log_of));
	cr_assert(log_of);
	ret = cgt_klog_read(f, log_of, cgt_kmap_said, err, sizeof(err));
	fclose(f);
	cr_assert_eq(ret, 0, "%s", err);
	return cgt_kmap_record(log_of, 0, m);
}

static bool has_bug(const struct cgt_kmap *m, enum cgt_bug bug)
{
	for (int i = 0; i < m->ncandidates; i++)
		if (m->cand[i].bug == (int)bug)
			return true;
	return false;
}

static bool has_detector(const struct cgt_kmap *m, enum cgt_detector det)
{
	for (int i = 0; i < m->ncandidates; i++)
		if (m->cand[i].detector == det)
			return true;
	return false;
}

/* a report.json holding one failure of @det with @summary and @evidence */
static void failure_json(char *path, size_t len, const char *det, const char *summary,
			 const char *evidence)
{
	char dir[] = "/tmp/cgt-kmap-XXXXXX";
	FILE *f;

	cr_assert(mkdtemp(dir));
	snprintf(path, len, "%s/report.json", dir);
	f = fopen(path, "w");
	cr_assert(f);
	fprintf(f, "{\"failures\": [{\"detector\": \"%s\", \"summary\": \"%s\", "
		"\"evidence\": [\"%s\"]}]}\n", det, summary, evidence);
	fclose(f);
}

static void judge(const struct cgt_kmap *m, int det, const char *summary,
		  const char *evidence, struct cgt_kmap_judgement *j)
{
	char path[128];

	failure_json(path, sizeof(path), cgt_detector_names[det], summary, evidence);
	cr_assert_eq(cgt_kmap_judge(m, path, det, j), 0);
	unlink(path);
	*strrchr(path, '/') = '\0';
	rmdir(path);
}

#define HUNG_PROCS_WRITE						\
	"INFO: task systemd:1 blocked for more than 120 seconds.\n"	\
	" __schedule+0x30c/0x990\n"					\
	" schedule+0x48/0xc0\n"						\
	" percpu_down_write+0x114/0x170\n"				\
	" __cgroup_procs_write+0xb8/0x3c0\n"				\
	" cgroup_file_write+0x74/0x1a0\n"

Test(kmap_era, a_version_between_eras_maps_to_the_nearest_and_says_so)
{
	struct cgt_kmap m;

	cr_assert_eq(map("BUG: soft lockup - CPU#0 stuck for 22s! [java:42]\n"
			 "CPU: 0 PID: 42 Comm: java Tainted: G L 5.15.0-107-generic #117\n"
			 "RIP: 0010:queued_write_lock_slowpath+0x4d/0x80\n"
			 " _raw_write_lock_irq+0x2a/0x30\n"
			 " copy_process+0x1234/0x1a40\n", &m), 0);
	cr_expect_str_eq(m.era, "6.x");
	cr_expect_eq(m.era_from, CGT_ERA_NAMED);
	cr_expect(strstr(m.era_why, "5.15 has no era of its own"), "%s", m.era_why);
	/* tasklist_lock is a fair queued rwlock from 3.16: never the reader-first bug */
	cr_expect(!has_bug(&m, CGT_BUG_READER_PREF_RWLOCK));
}

Test(kmap_era, names_only_some_kernels_have_bound_a_record_without_a_version)
{
	struct cgt_kmap m;

	cr_assert_eq(map(HUNG_PROCS_WRITE, &m), 0);
	cr_expect_eq(m.era_from, CGT_ERA_FROM_NAMES);
	cr_expect_str_eq(m.era, "4.4", "cgroup_threadgroup_rwsem is 4.4's or later");
	cr_expect_str_eq(m.waits_for, "cgroup_threadgroup_rwsem");
	/* 3.15's css_set_rwsem inside RCU: neither its kernel nor its functions */
	cr_expect(!has_bug(&m, CGT_BUG_RWSEM_INSIDE_RCU));
	cr_expect(!has_bug(&m, CGT_BUG_CSS_TASK_ITER_BLOCK));
}

Test(kmap_era, a_record_nothing_dates_is_a_guess_and_says_so)
{
	struct cgt_kmap m;

	cr_assert_eq(map("BUG: soft lockup - CPU#3 stuck for 22s! [oom:123]\n"
			 " find_lock_task_mm+0x26/0x70\n"
			 " oom_badness+0x2a/0x150\n", &m), 0);
	cr_expect_eq(m.era_from, CGT_ERA_GUESSED);
	cr_expect(strstr(m.era_why, "a guess"));
	/* walk-from-exiting is searched in its own era, 3.14, not the guess */
	for (int i = 0; i < m.ncandidates; i++)
		if (m.cand[i].bug == CGT_BUG_WALK_FROM_EXITING)
			cr_expect_str_eq(m.cand[i].era, "3.14");
}

Test(kmap_candidates, a_bug_is_searched_only_when_its_own_functions_are_on_the_stacks)
{
	struct cgt_kmap m;

	/* css_set_lock and RCU are rwsem-inside-rcu's locks, but none of its functions */
	cr_assert_eq(map("INFO: task kworker/1:2:99 blocked for more than 120 seconds.\n"
			 "      Not tainted 3.15.0 #1\n"
			 " rwsem_down_write_failed+0x1d5/0x320\n"
			 " down_write+0x29/0x30\n"
			 " put_css_set+0x30/0x80\n"
			 " lru_add_drain_all+0x100/0x140\n", &m), 0);
	cr_expect(!has_bug(&m, CGT_BUG_RWSEM_INSIDE_RCU));
	cr_expect(has_detector(&m, CGT_DET_HANG), "the era as it shipped, on its lock");
}

Test(kmap_candidates, a_lockdep_cycle_through_a_lock_the_model_lacks_is_not_modelled)
{
	struct cgt_kmap m;

	cr_assert_eq(map("======================================================\n"
			 "WARNING: possible circular locking dependency detected\n"
			 "6.1.0 #1 Not tainted\n"
			 "------------------------------------------------------\n"
			 "bash/100 is trying to acquire lock:\n"
			 "ffffffff8296d5d0 (cpu_hotplug_lock){++++}-{0:0}, at: "
			 "static_key_slow_inc+0xe/0x20\n"
			 "but task is already holding lock:\n"
			 "ffffffff82a1c7b0 (cgroup_threadgroup_rwsem){++++}-{0:0}, at: "
			 "cgroup_procs_write_start+0x40/0x180\n"
			 "Call Trace:\n"
			 " static_key_slow_inc+0xe/0x20\n"
			 " cgroup_procs_write_start+0x40/0x180\n", &m), -2);
	cr_expect(strstr(m.want.lacks, "cpu_hotplug_lock"), "%s", m.want.lacks);
	cr_expect_eq(m.ncandidates, 0);
}

Test(kmap_candidates, a_lockup_waits_only_on_a_lock_that_spins)
{
	struct cgt_kmap m;

	/* a soft lockup of a task asleep on a mutex: no CPU-bound wait the model can show */
	cr_assert_eq(map("BUG: soft lockup - CPU#1 stuck for 23s! [x:5]\n"
			 "CPU: 1 PID: 5 Comm: x Not tainted 6.8.0 #1\n"
			 " __mutex_lock+0x80/0x100\n"
			 " cgroup_kn_lock_live+0x40/0x100\n", &m), -2);
	cr_assert_eq(map("BUG: soft lockup - CPU#1 stuck for 23s! [x:5]\n"
			 "CPU: 1 PID: 5 Comm: x Not tainted 6.8.0 #1\n"
			 "RIP: 0010:queued_write_lock_slowpath+0x4d/0x80\n"
			 " _raw_write_lock_irq+0x2a/0x30\n"
			 " do_exit+0x2f8/0xb20\n", &m), 0);
	cr_expect(has_detector(&m, CGT_DET_STARVATION));
	cr_expect(!has_detector(&m, CGT_DET_LIVELOCK), "it is in no walk");
}

Test(kmap_judge, a_hang_is_the_record_s_only_on_its_lock_and_side)
{
	struct cgt_kmap m;
	struct cgt_kmap_judgement j;

	cr_assert_eq(map(HUNG_PROCS_WRITE, &m), 0);
	judge(&m, CGT_DET_HANG, "no thread can run: thread 4 (walker, tid 0) waits for cgroup_mutex (write)",
	      "  thread 14 waits for cgroup_threadgroup_rwsem (write) for 0.01 s: thread 15", &j);
	cr_expect_eq(j.grade, CGT_KMAP_REPRODUCED, "%s", j.lacks);
	cr_expect_eq(j.lock, 1);

	judge(&m, CGT_DET_HANG, "thread 3 (actor, tid 4) blocked 2.2 s waiting for cgroup_mutex (write)",
	      "  thread 3 waits for cgroup_mutex (write) for 2.2 s: thread 9", &j);
	cr_expect_eq(j.grade, CGT_KMAP_OTHER, "another lock is another hang");

	judge(&m, CGT_DET_HANG, "thread 3 blocked", "  thread 3 waits for cgroup_threadgroup_rwsem (read)", &j);
	cr_expect_eq(j.grade, CGT_KMAP_OTHER, "the other side");
}

Test(kmap_judge, a_walk_of_the_same_family_without_the_record_s_lock_is_in_part)
{
	struct cgt_kmap m;
	struct cgt_kmap_judgement j;

	cr_assert_eq(map("INFO: rcu_sched detected stalls on CPUs/tasks: { 12}\n"
			 "CPU: 1 PID: 7 Comm: x Not tainted 3.10.0 #1\n"
			 "Memory cgroup out of memory: Kill process 1 (x) score 9 or sacrifice child\n"
			 " __write_lock_failed+0x8/0x20\n"
			 " _raw_write_lock_irq+0x28/0x30\n"
			 " do_exit+0x100/0x900\n", &m), 0);
	cr_expect_str_eq(m.want.walk, "oom_kill_process");
	cr_expect(has_bug(&m, CGT_BUG_WALK_FROM_EXITING));
	judge(&m, CGT_DET_LIVELOCK, "while_each walk in find_lock_task_mm from tid 23 went 13 steps "
	      "without ending; the start thread exited", "walk: while_each", &j);
	cr_expect_eq(j.functions, 1, "find_lock_task_mm is the OOM killer's too");
	cr_expect_eq(j.lock, 0, "its walk holds no tasklist_lock");
	cr_expect_eq(j.grade, CGT_KMAP_IN_PART);
	cr_expect(strstr(j.lacks, "tasklist_lock"), "%s", j.lacks);

	judge(&m, CGT_DET_LIVELOCK, "while_each walk in fill_stats_for_tgid from tid 3 went 9 steps",
	      "", &j);
	cr_expect_eq(j.grade, CGT_KMAP_OTHER, "another walk");
}

Test(kmap_judge, a_lockdep_cycle_needs_every_lock_of_it)
{
	struct cgt_kmap m;
	struct cgt_kmap_judgement j;

	cr_assert_eq(map("WARNING: possible circular locking dependency detected\n"
			 "CPU: 0 PID: 1 Comm: x Not tainted 5.17.0 #1\n"
			 "x/1 is trying to acquire lock:\n"
			 "ffff0000 (&sighand->siglock){-...}-{2:2}, at: __lock_task_sighand+0x60/0x100\n"
			 "but task is already holding lock:\n"
			 "ffff8000 (css_set_lock){-...}-{2:2}, at: cgroup_attach_task+0x40/0x100\n"
			 "Call Trace:\n"
			 " cgroup_attach_task+0x40/0x100\n", &m), 0);
	cr_expect(has_detector(&m, CGT_DET_LOCK_ORDER));
	judge(&m, CGT_DET_LOCK_ORDER, "possible circular locking: css_set_lock -> siglock and "
	      "siglock -> css_set_lock", "", &j);
	cr_expect_eq(j.grade, CGT_KMAP_REPRODUCED, "%s", j.lacks);
	judge(&m, CGT_DET_LOCK_ORDER, "possible circular locking: css_set_lock -> cgroup_mutex and "
	      "cgroup_mutex -> css_set_lock", "", &j);
	cr_expect_neq(j.grade, CGT_KMAP_REPRODUCED, "another cycle");
}

Test(kmap_judge, a_bug_check_shown_as_a_memory_error_and_a_guessed_era_are_in_part)
{
	struct cgt_kmap m;
	struct cgt_kmap_judgement j;

	cr_assert_eq(map("kernel BUG at kernel/exit.c:792!\n"
			 "invalid operand: 0000 [#1]\n"
			 "Call Trace:\n"
			 " [<c0180524>] proc_task_readdir+0xc4/0x17c\n", &m), 0);
	cr_expect(m.want.same_check);
	judge(&m, CGT_DET_ASAN, "heap-use-after-free in next_tid",
	      "    #0 next_tid src/model/proc_base.c:40 #1 proc_task_readdir", &j);
	cr_expect_eq(j.functions, 1);
	cr_expect_eq(j.era, 0);
	cr_expect_eq(j.grade, CGT_KMAP_IN_PART);
	cr_expect(strstr(j.lacks, "own check"), "%s", j.lacks);
}

Test(kmap_candidates, a_check_that_fired_in_code_the_model_lacks_is_not_modelled)
{
	struct cgt_kmap m;

	/* its callers are the model's fork, but the fault is in CLONE_INTO_CGROUP's check */
	cr_assert_eq(map("general protection fault, probably for non-canonical address "
			 "0xdffffc0000000012: 0000 [#1] PREEMPT SMP KASAN\n"
			 "CPU: 0 PID: 3 Comm: x Not tainted 6.0.0-syzkaller #0\n"
			 "RIP: 0010:kernfs_get_inode+0x20/0x100\n"
			 "Call Trace:\n"
			 " cgroup_may_write+0x40/0x100\n"
			 " cgroup_can_fork+0x100/0x200\n"
			 " copy_process+0x1000/0x2000\n", &m), -2);
	cr_expect(strstr(m.want.lacks, "kernfs_get_inode, where the record's check fired"), "%s",
		  m.want.lacks);
}
