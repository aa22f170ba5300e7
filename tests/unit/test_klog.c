// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel-log reader (klog/klog.c) and the registry that maps its records onto the
 * model (klog/kmap.c), on small logs written here line by line in each form the kernel,
 * dmesg, syslog, mail, crash and decode_stacktrace.sh print. The corpus of real reports has
 * its own golden test (tests/e2e/reports.sh).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/model/bugs.h"
#include "../../src/klog/kmap.h"

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
	  "CPU: 0 PID: 811 Comm: java Not tainted 3.10.0 #1\n"
	  "Call Trace:\n"
	  " <IRQ>  [<ffffffff810a1234>] rcu_check_callbacks+0x1b4/0x600\n"
	  " <EOI>  [<ffffffff8112a4f0>] select_bad_process+0x94/0x1d0\n"
	  " [<ffffffff8112a900>] out_of_memory+0x70/0x300\n", CGT_BUG_WALK_LEADER_EXEC },
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

/*
 * Real reports in the forms of older kernels and other architectures, trimmed (registers,
 * stack words and most frames cut). Each was refused as "neither a report.json nor a kernel
 * log" or read without its first frame before these forms were read.
 */

/* lkml, Srivatsa Vaddagiri, "kernel BUG at kernel/exit.c:792!", 3 Dec 2003,
 * Message-ID <20031203153858.C14999@in.ibm.com>: 2.6.0-test9's x86 BUG with "EIP is at". */
static const char oops_2_6_0[] =
	"------------[ cut here ]------------\n"
	"kernel BUG at kernel/exit.c:792!\n"
	"invalid operand: 0000 [#1]\n"
	"CPU:    1\n"
	"EIP:    0060:[<c0124026>]    Not tainted\n"
	"EFLAGS: 00010246\n"
	"EIP is at next_thread+0x16/0x50\n"
	"eax: 00000000   ebx: f68726b0   ecx: f68727ac   edx: f6872794\n"
	"Process find (pid: 27213, threadinfo=d6b34000 task=ee26e080)\n"
	"Stack: c0180328 f68726b0 e26a7a80 ed5a0390 00000003 00000000 c0180524 00000003\n"
	"Call Trace:\n"
	" [<c0180328>] get_tid_list+0x58/0x70\n"
	" [<c0180524>] proc_task_readdir+0xc4/0x17c\n"
	" [<c01658dc>] vfs_readdir+0x5c/0x70\n"
	" [<c0165d64>] sys_getdents64+0x64/0xa3\n";

Test(klog, reads_a_2_6_oops_with_eip_is_at_as_its_first_frame)
{
	char err[256];
	int ret;
	struct cgt_klog *log = parse(oops_2_6_0, &ret, err, sizeof(err));
	const struct cgt_klog_record *r = &log->rec[0];

	cr_assert_eq(ret, 0, "%s", err);
	cr_assert_eq(log->nrecords, 1);
	cr_expect_eq(r->kind, CGT_KLOG_BUG);
	cr_expect_str_eq(r->comm, "find", "from \"Process find (pid: 27213, ...\"");
	cr_expect_eq(r->pid, 27213);
	cr_assert_eq(r->nframes, 5);
	cr_expect_str_eq(r->frames[0].fn, "next_thread");
	cr_expect_str_eq(r->frames[1].fn, "get_tid_list");
	cr_expect_str_eq(r->frames[2].fn, "proc_task_readdir");
	cr_expect_eq(r->frames[0].stack, r->frames[4].stack, "EIP and Call Trace: one stack");
	free(log);
}

/* lkml, Roel van der Made, "kernel 2.6.9-rc1-mm4 oops", 12 Sep 2004, Message-ID
 * <20040912184804.GC19067@telegraafnet.nl>: the version in EFLAGS' parentheses. */
Test(klog, reads_the_version_2_6_prints_beside_eflags)
{
	char err[256];
	int ret;
	struct cgt_klog *log = parse(
		"kernel BUG at kernel/exit.c:852!\n"
		"invalid operand: 0000 [#1]\n"
		"SMP\n"
		"CPU:    0\n"
		"EIP:    0060:[<c011df03>]    Not tainted VLI\n"
		"EFLAGS: 00010246   (2.6.9-rc1-mm4-fw-xeon.1)\n"
		"EIP is at next_thread+0xc/0x41\n"
		"Process snmpd (pid: 1182, threadinfo=f3892000 task=f3fa1550)\n"
		"Call Trace:\n"
		" [<c0182368>] do_task_stat+0x279/0x752\n"
		" [<c016cecb>] alloc_inode+0x1b/0x146\n"
		"\n"
		" [<c011542b>] do_page_fault+0x19d/0x5c7\n", &ret, err, sizeof(err));
	const struct cgt_klog_record *r = &log->rec[0];

	cr_assert_eq(ret, 0, "%s", err);
	cr_expect_str_eq(r->version, "2.6.9-rc1-mm4-fw-xeon.1");
	cr_expect_eq(cgt_klog_version(r->version), 206);
	cr_expect_str_eq(r->frames[0].fn, "next_thread");
	cr_expect_str_eq(r->frames[1].fn, "do_task_stat");
	free(log);
}

/* lkml, Andrew Morton quoting tmp <skrald@amossen.dk>, "Re: Kernel OOPS", 16 May 2004,
 * Message-Id <20040516162716.34f3d94a.akpm@osdl.org>: a 2.6.6 oops under syslog prefixes,
 * quoted with "> " and a space more, its frames after 2.6's "[sym+dec/dec]". */
Test(klog, reads_a_quoted_2_6_oops_under_syslog_prefixes)
{
	char err[256];
	int ret;
	struct cgt_klog *log = parse(
		"> [oops1.txt  text/plain (2452 bytes)]\n"
		">  May 16 13:29:34 debian kernel: Unable to handle kernel paging request at "
		"virtual address 1841b518\n"
		">  May 16 13:29:34 debian kernel:  printing eip:\n"
		">  May 16 13:29:34 debian kernel: c016c02e\n"
		">  May 16 13:29:34 debian kernel: Oops: 0000 [#1]\n"
		">  May 16 13:29:34 debian kernel: CPU:    0\n"
		">  May 16 13:29:34 debian kernel: EIP:    0060:[proc_get_inode+110/272]    "
		"Not tainted\n"
		">  May 16 13:29:34 debian kernel: EFLAGS: 00010202   (2.6.6) \n"
		">  May 16 13:29:34 debian kernel: EIP is at proc_get_inode+0x6e/0x110\n"
		">  May 16 13:29:35 debian kernel: Process emacs (pid: 743, threadinfo=d5036000 "
		"task=d3ec8030)\n"
		">  May 16 13:29:35 debian kernel: Call Trace:\n"
		">  May 16 13:29:35 debian kernel:  [pg0+541367981/1069707264] "
		"unix_stream_sendmsg+0x24d/0x3a0 [unix]\n"
		">  May 16 13:29:35 debian kernel:  [proc_lookup+179/192] proc_lookup+0xb3/0xc0\n"
		">  May 16 13:29:35 debian kernel:  [proc_root_lookup+49/128] "
		"proc_root_lookup+0x31/0x80\n", &ret, err, sizeof(err));
	const struct cgt_klog_record *r = &log->rec[0];

	cr_assert_eq(ret, 0, "%s", err);
	cr_assert_eq(log->nrecords, 1, "Oops: continues the record it follows");
	cr_expect_eq(r->kind, CGT_KLOG_BUG);
	cr_expect_str_eq(r->title, "Unable to handle kernel paging request at virtual address "
			 "1841b518");
	cr_expect_str_eq(r->version, "2.6.6");
	cr_expect_str_eq(r->comm, "emacs");
	cr_assert_eq(r->nframes, 4);
	cr_expect_str_eq(r->frames[0].fn, "proc_get_inode");
	cr_expect_str_eq(r->frames[1].fn, "unix_stream_sendmsg");
	cr_expect_str_eq(r->frames[3].fn, "proc_root_lookup");
	free(log);
}

/* lkml, Rafael J. Wysocki, "Re: 2.6.16-rc6-mm2", 18 Mar 2006 (quoted by Neil Brown) and
 * Stefan's 2.6.16-rc1 oops quoted by Andrew Vasquez: 2.6's x86_64 "<addr>{fn+dec}" frames,
 * a whole trace on one line, and the RIP a mail moved to the next. Trimmed. */
Test(klog, reads_2_6_x86_64_frames_in_braces)
{
	char err[256];
	int ret;
	struct cgt_klog *log = parse(
		"Unable to handle kernel NULL pointer dereference at 0000000000000000 RIP:\n"
		"<ffffffff803cc6c6>{_spin_lock+0}\n"
		"Oops: 0002 [1] SMP\n"
		"Pid: 2568, comm: qla2300_1_dpc Not tainted 2.6.16-rc1 #4\n"
		"RIP: 0010:[<ffffffff803cc6c6>] <ffffffff803cc6c6>{_spin_lock+0}\n"
		"Call Trace:<ffffffff8017d3d8>{do_task_stat+552} <ffffffff80179c55>{proc_info_read+85}\n"
		"       <ffffffff80158a12>{vfs_read+226}\n", &ret, err, sizeof(err));
	const struct cgt_klog_record *r = &log->rec[0];

	cr_assert_eq(ret, 0, "%s", err);
	cr_expect_str_eq(r->comm, "qla2300_1_dpc", "from 2.6's \"Pid: N, comm: x\"");
	cr_expect_eq(r->pid, 2568);
	cr_expect_str_eq(r->version, "2.6.16-rc1");
	cr_assert_eq(r->nframes, 4, "got %d", r->nframes);
	cr_expect_str_eq(r->frames[0].fn, "_spin_lock", "below the title's RIP:, once");
	cr_expect_str_eq(r->frames[1].fn, "do_task_stat");
	cr_expect_str_eq(r->frames[2].fn, "proc_info_read");
	cr_expect_str_eq(r->frames[3].fn, "vfs_read");
	cr_expect_eq(r->frames[0].stack, r->frames[3].stack);
	free(log);
}

/* lkml, Nathan Lynch, "Re: 2.6.9-rc1-mm4", 8 Sep 2004, Message-Id
 * <1094674577.22026.4.camel@pants.austin.ibm.com>: ppc64's xmon, "kernel BUG in" first,
 * the link register line and a "(unreliable)" a mail wrapped onto its own line. */
static const char xmon_2_6_9[] =
	"When running a moderate load and running top, I get:\n"
	"\n"
	"kernel BUG in next_thread at kernel/exit.c:852!\n"
	"cpu 0x2: Vector: 700 (Program Check) at [c00000027bcf3770]\n"
	"    pc: c000000000058454: .next_thread+0x14/0x48\n"
	"    lr: c0000000000f1a84: .do_task_stat+0x238/0x53c\n"
	"    sp: c00000027bcf39f0\n"
	"   msr: 8000000000029032\n"
	"  current = 0xc000000270033380\n"
	"  paca    = 0xc000000000474000\n"
	"    pid   = 6627, comm = top\n"
	"enter ? for help\n"
	"2:mon> t\n"
	"[link register   ] c0000000000f1a84 .do_task_stat+0x238/0x53c\n"
	"[c00000027bcf39f0] c0000000000f1998 .do_task_stat+0x14c/0x53c\n"
	"(unreliable)\n"
	"[c00000027bcf3c50] c0000000000edc30 .proc_info_read+0x94/0x100\n"
	"[c00000027bcf3cf0] c0000000000aa780 .vfs_read+0x10c/0x164\n"
	"[c00000027bcf3d90] c0000000000aaa94 .sys_read+0x58/0xa4\n"
	"[c00000027bcf3e30] c000000000011e00 syscall_exit+0x0/0x18\n"
	"--- Exception: c01 (System Call) at 000000800021c944\n"
	"SP (1ffffffeda0) is in userspace\n";

Test(klog, reads_a_ppc64_xmon_trace)
{
	char err[256];
	int ret;
	struct cgt_klog *log = parse(xmon_2_6_9, &ret, err, sizeof(err));
	const struct cgt_klog_record *r = &log->rec[0];

	cr_assert_eq(ret, 0, "%s", err);
	cr_assert_eq(log->nrecords, 1, "the BUG line and xmon's Vector line: one record");
	cr_expect_eq(r->kind, CGT_KLOG_BUG);
	cr_expect_str_eq(r->title, "kernel BUG in next_thread at kernel/exit.c:852!");
	cr_expect_str_eq(r->comm, "top");
	cr_expect_eq(r->pid, 6627);
	cr_assert_eq(r->nframes, 6, "got %d", r->nframes);
	cr_expect_str_eq(r->frames[0].fn, "next_thread", "pc: first, its '.' cut");
	cr_expect_str_eq(r->frames[1].fn, "do_task_stat", "the link register's");
	cr_expect_str_eq(r->frames[2].fn, "proc_info_read", "the (unreliable) one dropped");
	cr_expect_str_eq(r->frames[5].fn, "syscall_exit");
	cr_expect_eq(r->frames[0].stack, r->frames[5].stack);
	free(log);
}

/* lkml, Darren Williams quoting Mark Wong, "Re: ext3 journalling BUG on full filesystem",
 * 24 Mar 2005, Message-ID <20050323221753.GA6334@cse.unsw.EDU.AU>: xmon's Vector line
 * first, its "kernel BUG in" after the registers; and linuxppc-dev, Aneesh Kumar K.V's
 * debug_vm_pgtable series, Sep 2020: "kernel BUG at" both before and after the Vector
 * line, a "Linux version" inside, and "(unreliable)" on the frame's own line. */
Test(klog, reads_xmon_whichever_line_comes_first)
{
	char err[256];
	int ret;
	struct cgt_klog *log = parse(
		"> cpu 0x6: Vector: 700 (Program Check) at [c0000002e4f3f6d0]\n"
		">     pc: c0000000000a5fbc: .submit_bh+0x64/0x1fc\n"
		">     lr: c0000000000a62b4: .ll_rw_block+0x160/0x164\n"
		">     pid   = 1376, comm = kjournald\n"
		"> kernel BUG in submit_bh at fs/buffer.c:2706!\n"
		"> enter ? for help\n"
		"> 6:mon> t\n"
		"> [c0000002e4f3f9f0] c0000000000a62b4 .ll_rw_block+0x160/0x164\n"
		"> [c0000002e4f3fab0] c000000000151ac4 .journal_commit_transaction+0xd88/0x16d4\n"
		"\n"
		"[   21.083519] kernel BUG at arch/powerpc/mm/pgtable.c:304!\n"
		"cpu 0x0: Vector: 700 (Program Check) at [c000000c6d1e76c0]\n"
		"    pc: c00000000009a5ec: assert_pte_locked+0x14c/0x380\n"
		"    lr: c0000000005eeeec: pte_update+0x11c/0x190\n"
		"    pid   = 1, comm = swapper/0\n"
		"kernel BUG at arch/powerpc/mm/pgtable.c:304!\n"
		"Linux version 5.9.0-rc3-00323-gd1d5a6ee8e79\n"
		"[link register   ] c0000000005eeeec pte_update+0x11c/0x190\n"
		"[c000000c6d1e7950] 0000000000000001 (unreliable)\n"
		"[c000000c6d1e79b0] c0000000005eee14 pte_update+0x44/0x190 (unreliable)\n"
		"[c000000c6d1e7a10] c000000001a2ca9c pte_advanced_tests+0x160/0x3d8\n",
		&ret, err, sizeof(err));

	cr_assert_eq(ret, 0, "%s", err);
	cr_assert_eq(log->nrecords, 2);
	cr_expect_str_eq(log->rec[0].title, "kernel BUG in submit_bh at fs/buffer.c:2706!",
			 "the BUG line names it better than the Vector line");
	cr_expect_str_eq(log->rec[0].comm, "kjournald");
	cr_assert_eq(log->rec[0].nframes, 3);
	cr_expect_str_eq(log->rec[0].frames[0].fn, "submit_bh");
	cr_expect_str_eq(log->rec[0].frames[1].fn, "ll_rw_block");
	cr_expect_str_eq(log->rec[1].version, "5.9.0-rc3-00323-gd1d5a6ee8e79");
	cr_assert_eq(log->rec[1].nframes, 3);
	cr_expect_str_eq(log->rec[1].frames[0].fn, "assert_pte_locked");
	cr_expect_str_eq(log->rec[1].frames[1].fn, "pte_update");
	cr_expect_str_eq(log->rec[1].frames[2].fn, "pte_advanced_tests");
	free(log);
}

/* Each form a kernel version is written in, and the number cgt_klog_version() makes of it. */
static const struct {
	const char *log;
	const char *version;
	int number;
	bool on_record;
} versions[] = {
	{ "Linux version 4.18.0-305.el8.x86_64 (mockbuild@x86-vm-07) (gcc 8.4.1) #1 SMP\n"
	  "INFO: task a:1 blocked for more than 120 seconds.\n", "4.18.0-305.el8.x86_64", 418,
	  false },
	{ "INFO: task a:1 blocked for more than 120 seconds.\n"
	  "      Not tainted 5.15.0-107-generic #117-Ubuntu\n", "5.15.0-107-generic", 515, true },
	/* a mail client wrapped the CPU line: the version alone on the next */
	{ "watchdog: BUG: soft lockup - CPU#0 stuck for 26s! [foo:123]\n"
	  "CPU: 0 PID: 123 Comm: foo Tainted: G             L\n"
	  "5.15.0-107-generic #117-Ubuntu\n", "5.15.0-107-generic", 515, true },
	{ "[  5.1] BUG: soft lockup - CPU#0 stuck for 26s! [foo:123]\n"
	  "[  5.1] CPU: 0 PID: 123 Comm: foo Not tainted\n"
	  "[  5.1] 6.1.0-18-amd64 #1 Debian 6.1.76-1\n", "6.1.0-18-amd64", 601, true },
	{ "kernel BUG at mm/slab.c:1234!\n"
	  "Pid: 1, comm: swapper Not tainted 2.6.32-754.el6.x86_64 #1\n",
	  "2.6.32-754.el6.x86_64", 206, true },
	{ "$ uname -a\n"
	  "Linux host 5.10.0-21-amd64 #1 SMP Debian 5.10.162-1 (2023-01-21) x86_64 GNU/Linux\n"
	  "[<0>] percpu_down_write+0x2a/0x110\n", "5.10.0-21-amd64", 510, false },
	{ "INFO: task syz-executor:5811 blocked for more than 143 seconds.\n"
	  "      Not tainted 6.16.0-syzkaller-g1a2b3c4d5e6f #0\n", "6.16.0-syzkaller-g1a2b3c4d5e6f",
	  616, true },
	{ "HEAD commit:    0a78f7e2a4b1 Linux 5.15.148\n"
	  "INFO: task a:1 blocked for more than 143 seconds.\n", "5.15.148", 515, false },
	/* syzbot's stable trees say their branch; a merge names the release it heads for */
	{ "HEAD commit:    3f8a2f6e1c2d Merge branch 'x'\n"
	  "git tree:       linux-6.1.y\n"
	  "INFO: task a:1 blocked for more than 143 seconds.\n", "6.1.y", 601, false },
	{ "HEAD commit:    7c16f0a4ed1c Merge tag 'i2c-for-6.10-rc5' of git://git.ker..\n"
	  "git tree:       upstream\n"
	  "INFO: task a:1 blocked for more than 143 seconds.\n", "6.10-rc5", 610, false },
	{ "      KERNEL: /usr/lib/debug/boot/vmlinux-4.12.14-122.186-default.debug\n"
	  "     RELEASE: 4.12.14-122.186-default\n"
	  "crash> bt\n"
	  " #0 [ffff88007a1b7d28] __schedule at ffffffff81118101\n"
	  " #1 [ffff88007a1b7d90] schedule at ffffffff81118202\n",
	  "4.12.14-122.186-default", 412, false },
};

Test(klog, reads_every_form_a_kernel_version_takes)
{
	for (size_t i = 0; i < sizeof(versions) / sizeof(versions[0]); i++) {
		char err[256];
		int ret;
		struct cgt_klog *log = parse(versions[i].log, &ret, err, sizeof(err));
		const char *got = versions[i].on_record ? log->rec[0].version : log->version;

		cr_assert_eq(ret, 0, "form %zu: %s", i, err);
		cr_expect_str_eq(got, versions[i].version, "form %zu", i);
		cr_expect_eq(cgt_klog_version(got), versions[i].number, "form %zu", i);
		free(log);
	}
}

Test(klog, takes_no_version_from_a_line_that_only_follows_a_taint)
{
	char err[256];
	int ret;
	struct cgt_klog *log = parse(
		"BUG: soft lockup - CPU#0 stuck for 26s! [foo:123]\n"
		"CPU: 0 PID: 123 Comm: foo Tainted: G             L\n"
		"Hardware name: QEMU Standard PC (i440FX + PIIX, 1996), BIOS 1.16.2 04/01/2014\n"
		"RIP: 0010:queued_write_lock_slowpath+0x4d/0x80\n"
		"EIP:    0060:[<c0124026>]    Not tainted\n"
		"EFLAGS: 00010246\n", &ret, err, sizeof(err));

	cr_assert_eq(ret, 0, "%s", err);
	cr_expect_str_eq(log->rec[0].version, "");
	free(log);
	/* a merge window's tag names the release to come, not the tree's */
	log = parse("HEAD commit:    e8c2f9fdadee Merge tag 'for-7.1/hpfs-fixes' of git://git.k..\n"
		    "INFO: task a:1 blocked for more than 143 seconds.\n", &ret, err, sizeof(err));
	cr_assert_eq(ret, 0, "%s", err);
	cr_expect_str_eq(log->version, "");
	free(log);
}

/*
 * linux-mm, Heiko Carstens, "oom killer question", 29 Oct 2010, Message-ID
 * <20101029121456.GA6896@osiris.boeblingen.de.ibm.com> (tests/reports/33, a trap): an OOM
 * kill that completed, its dump_stack() header outside every record. Its version dates no
 * record: the mapper takes the log's for every record, and 2.6.36 there made a report with no
 * failure "reproduce" walk-from-exiting.
 */
Test(klog, a_dump_header_outside_every_record_dates_none)
{
	char err[256];
	int ret;
	struct cgt_klog *log = parse(
		"[18132.475583] blast invoked oom-killer: gfp_mask=0x201da, order=0, oom_adj=0\n"
		"[18132.475616] CPU: 7 Not tainted 2.6.36-45.x.20101028-s390xdefault #1\n"
		"[18132.475619] Process blast (pid: 8067, task: 000000007a244640, ksp: 3dc8f678)\n"
		"[18132.475653] Call Trace:\n"
		"[18132.475662]  [<00000000001d73d0>] dump_header+0x98/0x298\n"
		"[18132.475669]  [<00000000001d7a26>] oom_kill_process+0xb6/0x224\n",
		&ret, err, sizeof(err));

	cr_assert_eq(ret, 0, "%s", err);
	cr_expect_str_eq(log->version, "");
	cr_expect_str_eq(log->rec[0].version, "");
	cr_expect_eq(log->rec[0].nframes, 2);
	free(log);
}

/*
 * lkml, Jens Axboe quoting Chris Rankin, "Re: [OOPS] 2.6.11 - NMI lockup with CFQ scheduler",
 * 29 Mar 2005, Message-ID <20050329113225.GN16636@suse.de> (tests/reports/25): 2.6's NMI
 * watchdog, read as a bare backtrace from its "EIP is at" on, its registers between the
 * faulting function and its trace. (Its title is no record kind yet: as a hard lockup it
 * made the mapper search reader-pref-rwlock first, and find it, for a CFQ bug.)
 */
Test(klog, reads_a_2_6_nmi_lockup_from_its_faulting_function_on)
{
	char err[256];
	int ret;
	struct cgt_klog *log = parse(
		"> NMI Watchdog detected LOCKUP on CPU1, eip c0275cc7, registers:\n"
		"> CPU:    1\n"
		"> EIP:    0060:[<c0275cc7>]    Not tainted VLI\n"
		"> EFLAGS: 00200086   (2.6.11) \n"
		"> EIP is at _spin_lock+0x7/0xf\n"
		"> Process nautilus (pid: 5757, threadinfo=f5b32000 task=f7518020)\n"
		"> Stack: c01f7f79 00200282 f76bda24 f6c323e4 f7518020 00000000 00000000 c01f1d0c\n"
		"> Call Trace:\n"
		">  [<c01f7f79>] cfq_exit_io_context+0x54/0xb3\n"
		">  [<c01f1d0c>] exit_io_context+0x45/0x51\n", &ret, err, sizeof(err));
	const struct cgt_klog_record *r = &log->rec[0];

	cr_assert_eq(ret, 0, "%s", err);
	cr_expect_str_eq(r->comm, "nautilus");
	cr_assert_eq(r->nframes, 3);
	cr_expect_str_eq(r->frames[0].fn, "_spin_lock");
	cr_expect_eq(r->frames[0].stack, r->frames[2].stack);
	free(log);
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
		"[  245.528573] kernel: INFO: task a:1 blocked",	/* and --no-hostname */
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

Test(klog, only_ppc64_names_lose_their_dot)
{
	char err[256];
	int ret;
	struct cgt_klog *log = parse(
		"Call Trace:\n"
		" __raw_callee_save___pv_queued_spin_unlock_slowpath+0x15/0x30\n"
		" .slowpath+0x9/0x18\n"
		"[c0000002e4f3fab0] c000000000151ac4 .journal_commit_transaction+0xd88/0x16d4\n"
		"NIP [d0000000000a7cd4] .kjournald+0x114/0x308 [jbd]\n",
		&ret, err, sizeof(err));

	cr_assert_eq(ret, 0, "%s", err);
	cr_assert_eq(log->rec[0].nframes, 4);
	cr_expect_str_eq(log->rec[0].frames[1].fn, ".slowpath", "x86's label keeps its dot");
	cr_expect_str_eq(log->rec[0].frames[2].fn, "journal_commit_transaction");
	cr_expect_str_eq(log->rec[0].frames[3].fn, "kjournald", "a module's d000... address");
	free(log);
}

/* linux-xfs, Frank Hofmann, "Self-deadlock (?) in xfs_inodegc_worker / xfs_inactive ?", 4 Apr
 * 2022, Message-ID <CABEBQikRSCuJumOYmgzNLN6dOZ+YUvOQMFby7WJGSwGoFM3YMg@mail.gmail.com>
 * (tests/reports/40): dmesg -T, the title and the taint line both wrapped by the mail. */
Test(klog, reads_a_hung_task_whose_title_a_mail_wrapped)
{
	char err[256];
	int ret;
	struct cgt_klog *log = parse(
		"[Sat Apr  2 09:54:32 2022] INFO: task node_exporter:244222 blocked for\n"
		"more than 10 seconds.\n"
		"[Sat Apr  2 09:54:32 2022]       Tainted: G           O\n"
		"5.15.26-cloudflare-2022.3.4 #1\n"
		"[Sat Apr  2 09:54:32 2022] Call Trace:\n"
		"[Sat Apr  2 09:54:32 2022]  <TASK>\n"
		"[Sat Apr  2 09:54:32 2022]  __schedule+0x2cd/0x950\n"
		"[Sat Apr  2 09:54:32 2022]  flush_work+0x5c/0x80\n", &ret, err, sizeof(err));
	const struct cgt_klog_record *r = &log->rec[0];

	cr_assert_eq(ret, 0, "%s", err);
	cr_expect_eq(r->kind, CGT_KLOG_HUNG_TASK);
	cr_expect_str_eq(r->comm, "node_exporter");
	cr_expect_eq(r->pid, 244222);
	cr_expect_str_eq(r->version, "5.15.26-cloudflare-2022.3.4");
	cr_expect_eq(r->nframes, 2);
	free(log);
}

Test(klog, an_oops_line_is_the_kernels_not_a_mails)
{
	char err[256];
	int ret;
	struct cgt_klog *log = parse("Oops: I forgot the config, here it is.\n"
				     "Oops: 0002 [1] SMP\n"
				     "Oops: Kernel access of bad area, sig: 11 [#1]\n",
				     &ret, err, sizeof(err));

	cr_assert_eq(ret, 0, "%s", err);
	cr_expect_eq(log->nrecords, 1, "2.6 x86_64's, then ppc's going on with it");
	cr_expect_eq(log->rec[0].line, 2);
	free(log);
}

Test(klog, cleans_no_sentence_that_names_the_kernel)
{
	char a[] = "The kernel: it hung", b[] = "we run kern  :err   : here";

	cr_expect_str_eq(cgt_klog_clean(a), "The kernel: it hung");
	cr_expect_str_eq(cgt_klog_clean(b), "we run kern  :err   : here");
}

Test(klog, reads_a_crash_bt_with_its_exception_rip_and_command)
{
	char err[256];
	int ret;
	struct cgt_klog *log = parse(
		"crash> bt 1234\n"
		"PID: 1234   TASK: ffff88003a4c8000  CPU: 1   COMMAND: \"ps\"\n"
		" #0 [ffff88003bc43e60] crash_nmi_callback at ffffffff8102fef6\n"
		" #1 [ffff88003bc43e70] notifier_call_chain at ffffffff815111f5\n"
		"--- <NMI exception stack> ---\n"
		" #2 [ffff880037b63d88] next_thread at ffffffff81069a2b\n"
		"    [exception RIP: next_thread+22]\n"
		"    RIP: ffffffff81069a2b  RSP: ffff880037b63d88  RFLAGS: 00000246\n"
		" #3 [ffff880037b63d90] do_task_stat at ffffffff811f2e5a\n"
		" #4 [ffffb36648bc7ae8] reclaim_throttle+0xd0 at ffffffffb6a69ab0\n",
		&ret, err, sizeof(err));
	const struct cgt_klog_record *r = &log->rec[0];

	cr_assert_eq(ret, 0, "%s", err);
	cr_expect_eq(r->kind, CGT_KLOG_BACKTRACE);
	cr_expect_str_eq(r->comm, "ps");
	cr_expect_eq(r->pid, 1234);
	cr_expect(has_frame(r, "next_thread"));
	cr_expect(has_frame(r, "do_task_stat"));
	cr_expect(has_frame(r, "reclaim_throttle"), "bt -s's offset (tests/reports/35)");
	free(log);
}
