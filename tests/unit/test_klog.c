// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel-log reader (report/klog.c) and the registry that maps its records onto the
 * model (report/kmap.c), on small logs written here line by line in each form the kernel,
 * dmesg, syslog, mail, crash and decode_stacktrace.sh print. The corpus of real reports has
 * its own golden test (tests/e2e/reports.sh).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/model/bugs.h"
#include "../../src/report/kmap.h"

static struct cgt_klog *parse(const char *text, int *ret, char *err, size_t len)
{
	struct cgt_klog *log = malloc(sizeof(*log));
	FILE *f = fmemopen((void *)text, strlen(text), "r");

	cr_assert(log && f);
	*ret = cgt_klog_read(f, log, cgt_kmap_said, err, len);
	fclose(f);
	return log;
}

static bool has_frame(const struct cgt_klog_record *r, const char *fn)
{
	for (int i = 0; i < r->nframes; i++)
		if (!strcmp(r->frames[i].fn, fn))
			return true;
	return false;
}

Test(klog, cleans_every_prefix_that_carries_a_line)
{
	static const char *const in[] = {
		"[ 1234.567890] INFO: task a:1 blocked",
		"[17602.773334][   T15] INFO: task a:1 blocked",
		"[  +0.000021] INFO: task a:1 blocked",
		"[Aug 8 14:13] INFO: task a:1 blocked",
		"> > [ 12.5] INFO: task a:1 blocked",
		"> 348439.713178] INFO: task a:1 blocked",
		"Dec  3 10:00:01 host kernel: [ 5.1] INFO: task a:1 blocked",
		"<4>[ 5.1] INFO: task a:1 blocked",
		"INFO: task a:1 blocked\r\n",
	};

	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		char line[128];

		snprintf(line, sizeof(line), "%s", in[i]);
		cr_expect_str_eq(cgt_klog_clean(line), "INFO: task a:1 blocked", "%s", in[i]);
	}
}

Test(klog, cleans_no_text_that_only_looks_like_a_prefix)
{
	char line[] = "[ INFO: suspicious rcu_dereference_check() usage. ]";

	cr_expect_str_eq(cgt_klog_clean(line), "[ INFO: suspicious rcu_dereference_check() usage. ]");
}

Test(klog, reads_a_hung_task_with_its_task_version_locks_and_frames)
{
	char err[256];
	int ret;
	struct cgt_klog *log = parse(
		"[  363.012345] INFO: task kworker/0:1:42 blocked for more than 120 seconds.\n"
		"[  363.012346]       Not tainted 5.10.0-rc1+ #1\n"
		"[  363.012350] Call Trace:\n"
		"[  363.012351]  __schedule+0x2d1/0x830\n"
		"[  363.012352]  ? lock_acquire+0x1a/0x20\n"
		"[  363.012353]  percpu_down_write+0x2a/0x110\n"
		"[  363.012354]  cgroup_procs_write_start.isra.0+0x70/0x190\n"
		"[  363.012355]  __x64_sys_write+0x1a/0x20\n"
		"[  363.012356] Showing all locks held in the system:\n"
		"[  363.012357]  #0: ffff888 (&cgroup_threadgroup_rwsem){++++}-{0:0}, at: "
		"cgroup_procs_write_start+0x70/0x190\n"
		"[  363.012358]  #1: ffff889 (&(&sighand->siglock)->rlock){....}, at: x+0x1/0x2\n",
		&ret, err, sizeof(err));
	const struct cgt_klog_record *r = &log->rec[0];

	cr_assert_eq(ret, 0, "%s", err);
	cr_assert_eq(log->nrecords, 1);
	cr_expect_eq(r->kind, CGT_KLOG_HUNG_TASK);
	cr_expect_str_eq(r->comm, "kworker/0:1");
	cr_expect_eq(r->pid, 42);
	cr_expect_str_eq(r->version, "5.10.0-rc1+");
	cr_expect(has_frame(r, "percpu_down_write"));
	cr_expect(has_frame(r, "cgroup_procs_write_start"), ".isra.0 cut");
	cr_expect(has_frame(r, "sys_write"), "__x64_sys_ cut to sys_");
	cr_expect(!has_frame(r, "lock_acquire"), "a '?' frame is dropped");
	cr_expect_eq(r->nlocks, 2);
	cr_expect_str_eq(r->locks[0], "cgroup_threadgroup_rwsem");
	cr_expect_str_eq(r->locks[1], "sighand->siglock");
	free(log);
}

Test(klog, reads_the_frame_forms_of_old_kernels_crash_and_decode_stacktrace)
{
	char err[256];
	int ret;
	struct cgt_klog *log = parse(
		"BUG: soft lockup - CPU#3 stuck for 22s! [oom:123]\n"
		"RIP: 0010:[<ffffffff8107e7b6>]  [<ffffffff8107e7b6>] find_lock_task_mm+0x26/0x70\n"
		"Call Trace:\n"
		" [<ffffffff81117b1b>] ? dump_header+0x8b/0x1f0\n"
		" [<ffffffff81117f5a>] oom_badness+0x2a/0x150\n"
		" #3 [ffff88007a1b7d28] select_bad_process at ffffffff81118101\n"
		" out_of_memory (mm/oom_kill.c:1090)\n"
		"[<0>] do_syscall_64+0x5b/0x1a0\n",
		&ret, err, sizeof(err));
	const struct cgt_klog_record *r = &log->rec[0];

	cr_assert_eq(ret, 0, "%s", err);
	cr_expect_eq(r->kind, CGT_KLOG_SOFT_LOCKUP);
	cr_expect_str_eq(r->comm, "oom");
	cr_expect_eq(r->pid, 123);
	cr_assert_eq(r->nframes, 5);
	cr_expect_str_eq(r->frames[0].fn, "find_lock_task_mm");
	cr_expect_str_eq(r->frames[1].fn, "oom_badness");
	cr_expect_str_eq(r->frames[2].fn, "select_bad_process");
	cr_expect_str_eq(r->frames[3].fn, "out_of_memory");
	cr_expect_str_eq(r->frames[4].fn, "do_syscall_64");
	cr_expect_eq(r->frames[0].stack, r->frames[1].stack, "RIP and Call Trace: one stack");
	free(log);
}

Test(klog, a_bare_backtrace_is_a_record_of_its_own)
{
	char err[256];
	int ret;
	struct cgt_klog *log = parse("[<0>] percpu_down_write+0x2a/0x110\n"
				     "[<0>] cgroup_procs_write+0x70/0x190\n", &ret, err, sizeof(err));

	cr_assert_eq(ret, 0, "%s", err);
	cr_expect_eq(log->rec[0].kind, CGT_KLOG_BACKTRACE);
	cr_expect_eq(log->rec[0].nframes, 2);
	free(log);
}

Test(klog, refuses_what_is_no_kernel_report_with_one_line)
{
	static const char binary[] = "\x01\x02\x03\x04\x05\x06\x07\x08 BUG: \x0e\x0f";
	const char *const in[] = { "", "hello\nworld\n", binary };
	const char *const why[] = { "is empty", "neither a report.json nor a kernel log",
				    "binary" };

	for (size_t i = 0; i < 3; i++) {
		char err[256] = "";
		int ret;
		struct cgt_klog *log = parse(in[i], &ret, err, sizeof(err));

		cr_expect_eq(ret, -1, "input %zu", i);
		cr_expect(strstr(err, why[i]) && !strchr(err, '\n'), "input %zu: %s", i, err);
		free(log);
	}
}

Test(klog, keeps_memory_bounded_on_long_lines_and_many_records)
{
	size_t len = 64 * 1024 + 100 * 200;
	char *text = malloc(len), err[256];
	size_t o = 0;
	int ret;
	struct cgt_klog *log;

	cr_assert(text);
	memset(text, 'x', 64 * 1024);		/* one 64 KiB line */
	o = 64 * 1024;
	text[o++] = '\n';
	for (int i = 0; i < 40; i++)
		o += (size_t)snprintf(text + o, len - o, "INFO: task t:%d blocked for more than "
				      "120 seconds.\n do_exit+0x1/0x2\n", i);
	log = parse(text, &ret, err, sizeof(err));
	cr_assert_eq(ret, 0, "%s", err);
	cr_expect_eq(log->nrecords, CGT_KLOG_RECORDS);
	cr_expect_eq(log->records_dropped, 40 - CGT_KLOG_RECORDS);
	free(log);
	free(text);
}

static void map_of(const char *text, struct cgt_kmap *m, int *ret)
{
	char err[256];
	int r;
	struct cgt_klog *log = parse(text, &r, err, sizeof(err));

	cr_assert_eq(r, 0, "%s", err);
	*ret = cgt_kmap_record(log, 0, m);
	m->rec = NULL;				/* the log is freed here */
	free(log);
}

Test(kmap, a_writer_in_a_slow_path_waits_for_the_lock_its_caller_takes)
{
	struct cgt_kmap m;
	int ret;

	map_of("NMI watchdog: Watchdog detected hard LOCKUP on cpu 32\n"
	       "CPU: 32 PID: 1 Comm: fork12 Not tainted 5.10.0+ #1\n"
	       "RIP: 0010:queued_write_lock_slowpath+0x4d/0x80\n"
	       "Call Trace:\n"
	       " _raw_write_lock_irq+0x2a/0x30\n"
	       " do_exit+0x2f8/0xb20\n"
	       " do_group_exit+0x3a/0xa0\n", &m, &ret);
	cr_assert_eq(ret, 0);
	cr_expect_str_eq(m.era, "6.x");
	cr_expect_str_eq(m.waits_for, "tasklist_lock");
	cr_expect_eq(m.waits_side, 'w');
	cr_expect_eq(m.cand[0].detector, CGT_DET_STARVATION, "a lock wait, not a livelock first");
}

Test(kmap, an_oom_walk_of_3_12_points_at_walk_from_exiting_and_of_6_x_does_not)
{
	static const char *const fmt =
		"BUG: soft lockup - CPU#3 stuck for 22s! [oom:123]\n"
		"CPU: 3 PID: 123 Comm: oom Not tainted %s #1\n"
		" find_lock_task_mm+0x26/0x70\n"
		" oom_badness+0x2a/0x150\n"
		" select_bad_process+0x101/0x150\n";
	char text[512];
	struct cgt_kmap m;
	int ret;

	snprintf(text, sizeof(text), fmt, "3.12.0");
	map_of(text, &m, &ret);
	cr_assert_eq(ret, 0);
	cr_expect_str_eq(m.era, "3.14");
	cr_expect_str_eq(m.walk, "find_lock_task_mm");
	cr_expect_eq(m.cand[0].bug, CGT_BUG_WALK_FROM_EXITING);
	cr_expect_eq(m.cand[0].detector, CGT_DET_LIVELOCK);

	snprintf(text, sizeof(text), fmt, "6.1.0");
	map_of(text, &m, &ret);
	cr_assert_eq(ret, 0);
	for (int i = 0; i < m.ncandidates; i++)
		cr_expect_neq(m.cand[i].bug, CGT_BUG_WALK_FROM_EXITING, "fixed in 3.14");
}

Test(kmap, a_record_of_nothing_modelled_is_refused)
{
	struct cgt_kmap m;
	int ret;

	map_of("INFO: task jbd2/sda1-8:312 blocked for more than 120 seconds.\n"
	       " __schedule+0x2d1/0x830\n"
	       " jbd2_journal_commit_transaction+0x23f/0x1a30\n"
	       " kjournald2+0xbd/0x270\n", &m, &ret);
	cr_expect_eq(ret, -1);
}

/*
 * Each catalogued bug, told the way the kernel tells it (written here in the kernel's
 * formats, not copied from a report): the first search is that bug. A hang's tasks come one
 * record each, so the bug is scored on all of them.
 */
static const struct {
	const char *log;
	enum cgt_bug bug;
} routes[] = {
	{ "BUG: soft lockup - CPU#1 stuck for 22s! [java:4242]\n"
	  "CPU: 1 PID: 4242 Comm: java Not tainted 3.12.0-1-amd64 #1\n"
	  "RIP: 0010:[<ffffffff8112a0b6>]  [<ffffffff8112a0b6>] find_lock_task_mm+0x26/0x70\n"
	  "Call Trace:\n"
	  " [<ffffffff8112a1d4>] oom_badness+0x24/0x140\n"
	  " [<ffffffff8112a4f0>] select_bad_process+0x110/0x1a0\n", CGT_BUG_WALK_FROM_EXITING },
	{ "INFO: rcu_sched self-detected stall on CPU { 0}  (t=60000 jiffies)\n"
	  "CPU: 0 PID: 37 Comm: khungtaskd Not tainted 3.14.4 #1\n"
	  "Call Trace:\n"
	  " <IRQ>  [<ffffffff810a1234>] rcu_check_callbacks+0x1b4/0x600\n"
	  " <EOI>  [<ffffffff810e1234>] check_hung_uninterruptible_tasks+0x94/0x1d0\n"
	  " [<ffffffff810e1400>] watchdog+0x70/0x80\n", CGT_BUG_WALK_LEADER_EXEC },
	{ "BUG: unable to handle kernel paging request at ffff88003c5d8a58\n"
	  "CPU: 2 PID: 881 Comm: ps Not tainted 3.14.0 #1\n"
	  "RIP: 0010:[<ffffffff811f2d64>]  [<ffffffff811f2d64>] next_tid+0x24/0x60\n"
	  " [<ffffffff811f3b0e>] proc_task_readdir+0x9e/0x1c0\n", CGT_BUG_NO_PID_ALIVE },
	{ "INFO: task cat:3001 blocked for more than 120 seconds.\n"
	  "      Not tainted 3.15.0 #1\n"
	  " [<ffffffff81603456>] rwsem_down_read_failed+0xd5/0x120\n"
	  " [<ffffffff81600789>] down_read+0x19/0x20\n"
	  " [<ffffffff810d1234>] task_cgroup_path+0x44/0x120\n"
	  " [<ffffffff810d2345>] proc_cgroup_show+0x155/0x2a0\n"
	  "INFO: task bash:3002 blocked for more than 120 seconds.\n"
	  "      Not tainted 3.15.0 #1\n"
	  " [<ffffffff810b2345>] synchronize_sched+0x45/0x60\n"
	  " [<ffffffff810d3456>] cgroup_attach_task+0x2a5/0x4a0\n", CGT_BUG_RWSEM_INSIDE_RCU },
	{ "BUG: soft lockup - CPU#3 stuck for 23s! [bash:5555]\n"
	  "CPU: 3 PID: 5555 Comm: bash Not tainted 3.10.0 #1\n"
	  "RIP: 0010:[<ffffffff812f5678>]  [<ffffffff812f5678>] __write_lock_failed+0x8/0x20\n"
	  " [<ffffffff81605678>] _raw_write_lock_irq+0x28/0x30\n"
	  " [<ffffffff81061234>] copy_process+0x1234/0x1a40\n", CGT_BUG_READER_PREF_RWLOCK },
	{ "BUG: KCSAN: data-race in css_task_iter_next / cgroup_migrate_execute\n"
	  " css_task_iter_next+0x40/0x120\n", CGT_BUG_CSET_WALK_UNLOCKED },
	{ "INFO: task systemd:1 blocked for more than 120 seconds.\n"
	  "      Not tainted 3.16.0 #1\n"
	  " [<ffffffff81603456>] rwsem_down_write_failed+0x1d5/0x320\n"
	  " [<ffffffff81600789>] down_write+0x29/0x30\n"
	  " [<ffffffff810d2345>] cgroup_attach_task+0x155/0x2a0\n"
	  "INFO: task agent:2002 blocked for more than 120 seconds.\n"
	  "      Not tainted 3.16.0 #1\n"
	  " [<ffffffff81602678>] mutex_lock+0x18/0x30\n"
	  " [<ffffffff810b1234>] pidlist_array_load+0x148/0x250\n"
	  " [<ffffffff810b2345>] css_task_iter_next+0x45/0x60\n", CGT_BUG_CSS_TASK_ITER_BLOCK },
};

Test(kmap, each_catalogued_bug_told_as_the_kernel_tells_it_is_searched_first)
{
	for (size_t i = 0; i < sizeof(routes) / sizeof(routes[0]); i++) {
		struct cgt_kmap m;
		int ret;

		map_of(routes[i].log, &m, &ret);
		cr_assert_eq(ret, 0, "route %zu", i);
		cr_expect_eq(m.cand[0].bug, (int)routes[i].bug, "route %zu: %s first, not %d", i,
			     cgt_bug_catalogue[routes[i].bug].name, m.cand[0].bug);
		cr_expect_eq(m.cand[0].detector, cgt_bug_catalogue[routes[i].bug].detector,
			     "route %zu", i);
	}
}

Test(kmap, oom_kill_process_points_at_walk_from_exiting_only_in_a_kernel_that_walked_there)
{
	static const char *const fmt =
		"BUG: soft lockup - CPU#0 stuck for 23s! [oom:77]\n"
		"%s"
		" oom_kill_process+0x1b4/0x3a0\n"
		" out_of_memory+0x2c8/0x480\n";
	char text[256];
	struct cgt_kmap m;
	int ret;

	snprintf(text, sizeof(text), fmt, "CPU: 0 PID: 77 Comm: oom Not tainted 3.12.0 #1\n");
	map_of(text, &m, &ret);
	cr_assert_eq(ret, 0);
	cr_expect_eq(m.cand[0].bug, CGT_BUG_WALK_FROM_EXITING, "3.12 walked in oom_kill_process");
	snprintf(text, sizeof(text), fmt, "");
	map_of(text, &m, &ret);
	cr_assert_eq(ret, 0);
	for (int i = 0; i < m.ncandidates; i++)
		cr_expect_neq(m.cand[i].bug, CGT_BUG_WALK_FROM_EXITING, "no kernel named: no walk");
}

Test(klog, a_backtrace_of_question_marks_alone_keeps_them)
{
	char err[256];
	int ret;
	struct cgt_klog *log = parse(
		"INFO: rcu_preempt detected stalls on CPUs/tasks: { 12}\n"
		"CPU: 0 PID: 21642 Comm: php5-fpm Not tainted 3.10 #1\n"
		"RIP: 0010:[<ffffffff8122786a>]  [<ffffffff8122786a>]\n"
		"__write_lock_failed+0x1a/0x40\n"
		"Call Trace:\n"
		"[<ffffffff8151a547>] ? _raw_write_lock_irq+0x27/0x30\n"
		"[<ffffffff81042a9f>] ? do_exit+0x30f/0xab0\n"
		"INFO: task a:1 blocked for more than 120 seconds.\n"
		" ? stale_frame+0x1/0x2\n"
		" schedule+0x29/0x70\n", &ret, err, sizeof(err));

	cr_assert_eq(ret, 0, "%s", err);
	cr_assert_eq(log->rec[0].nframes, 3, "the mail-wrapped RIP and both '?' frames");
	cr_expect_str_eq(log->rec[0].frames[0].fn, "__write_lock_failed");
	cr_expect_str_eq(log->rec[0].frames[2].fn, "do_exit");
	cr_expect_eq(log->rec[0].frames[2].stack, log->rec[0].frames[0].stack);
	cr_expect_eq(log->rec[1].nframes, 1, "a '?' frame beside a reliable one is dropped");
	free(log);
}

Test(kmap, the_oom_killers_own_lines_are_evidence_beside_a_stalled_writer)
{
	struct cgt_kmap m;
	int ret;

	map_of("Memory cgroup out of memory: Kill process 1458 (php5-fpm) score 705 or\n"
	       "sacrifice child\n"
	       "INFO: rcu_preempt detected stalls on CPUs/tasks: { 12}\n"
	       "CPU: 0 PID: 21642 Comm: php5-fpm Not tainted 3.10 #1\n"
	       "RIP: 0010:[<ffffffff8122786a>]  [<ffffffff8122786a>] __write_lock_failed+0x1a/0x40\n"
	       "[<ffffffff8151a547>] ? _raw_write_lock_irq+0x27/0x30\n"
	       "[<ffffffff81042a9f>] ? do_exit+0x30f/0xab0\n", &m, &ret);
	cr_assert_eq(ret, 0);
	cr_expect_str_eq(m.waits_for, "tasklist_lock");
	cr_expect_eq(m.cand[0].bug, CGT_BUG_WALK_FROM_EXITING);
}

Test(klog, cleans_the_prefixes_of_dmesg_journalctl_and_syslog_forms)
{
	static const char *const in[] = {
		"[Mon Dec  7 13:04:04 2026] INFO: task a:1 blocked",		/* dmesg -T */
		"[Dec 7 13:04] INFO: task a:1 blocked",				/* dmesg -e */
		"[  +0.000012] INFO: task a:1 blocked",				/* --reltime */
		"kern  :err   : [  5.1] INFO: task a:1 blocked",		/* dmesg -x */
		"kern  :warn  : INFO: task a:1 blocked",
		"Dec 07 13:04:04.123456 host kernel: INFO: task a:1 blocked",	/* short-precise */
		"[ 1234.567890] host kernel: INFO: task a:1 blocked",		/* short-monotonic */
		"2026-12-07T13:04:04+0000 host kernel: INFO: task a:1 blocked",	/* short-iso */
		"Mon 2026-12-07 13:04:04 UTC host kernel: INFO: task a:1 blocked", /* short-full */
		"1733576644.123456 host kernel: INFO: task a:1 blocked",	/* short-unix */
		"Jun 26 21:23:34 ng5 INFO: task a:1 blocked",	/* a syslog without "kernel:" */
	};

	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		char line[128];

		snprintf(line, sizeof(line), "%s", in[i]);
		cr_expect_str_eq(cgt_klog_clean(line), "INFO: task a:1 blocked", "%s", in[i]);
	}
}

Test(klog, cleans_no_sentence_that_names_the_kernel)
{
	char a[] = "The kernel: it hung", b[] = "we run kern  :err   : here";

	cr_expect_str_eq(cgt_klog_clean(a), "The kernel: it hung");
	cr_expect_str_eq(cgt_klog_clean(b), "we run kern  :err   : here");
}
