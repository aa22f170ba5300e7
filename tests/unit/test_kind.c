// SPDX-License-Identifier: GPL-2.0
/*
 * The kind of a failure (detect/kind.c, each detector's ops.kind): golden inputs in the words
 * the detectors write them (the hang's picture from a real --bug rwsem-inside-rcu report),
 * and the kind each must give, as syzkaller's pkg/report keeps its testdata. A detector that
 * changes its wording changes its kind: these say so.
 */
#include <criterion/criterion.h>

#include "../../src/detect/detect.h"

static const struct {
	int det;
	const char *summary, *evidence, *kind;
} golden[] = {
	{ CGT_DET_LIVELOCK, "while_each_thread walk in oom_badness from tid 4123 went 100001 steps without ending; the start thread 4123 was unhashed (exited at 1.25 s)",
	  NULL,
	  "livelock: the start thread N was unhashed (exited at N s)" },
	{ CGT_DET_HANG, "thread 12 (actor, tid 300) blocked 2.1 s waiting for css_set_lock (write); deadlock cycle found",
	  "INFO: thread 12 (actor, tid 300) blocked for more than 2 seconds,\n"
		"waiting for css_set_lock (write), and nothing along its wait-for chain moved\n"
		"\n"
		"wait-for picture:\n"
		"  thread 12 (actor, tid 300) holds cgroup_mutex (write) waits for css_set_lock (write) for 2.10 s\n"
		"\n"
		"deadlock cycle: thread 12 -> thread 14 -> thread 12\n"
		"  thread 12 waits for css_set_lock (write), held by thread 14\n"
		"  thread 14 waits for an RCU grace period, held up by thread 12 inside rcu_read_lock\n",
	  "hang: cycle: css_set_lock, rcu" },
	{ CGT_DET_HANG, "thread 262 (actor, tid 247) blocked 2.1 s waiting for rcu grace period (grace period)",
	  "INFO: thread 262 (actor, tid 247) blocked for more than 2 seconds,\n"
		"waiting for rcu grace period (grace period), and nothing along its wait-for chain moved\n"
		"\n"
		"wait-for picture:\n"
		"  thread 272 (actor, tid 256) waits for css_set_lock (read) for 1.91 s\n"
		"  thread 269 (actor, tid 253) waits for cgroup_mutex (write) for 1.82 s\n"
		"  thread 262 (actor, tid 247) holds css_set_lock (write) for 2.09 s; waits for rcu grace period (grace period) for 2.09 s\n"
		"  thread 247 (actor, tid 231) in rcu_read_lock for 2.09 s; holds cgroup_mutex (write) for 2.09 s; waits for css_set_lock (read) for 2.09 s\n",
	  "hang: cycle: css_set_lock, rcu" },
	{ CGT_DET_HANG, "no thread can run: thread 7 (actor, tid 99) waits for cgroup_mutex (write)",
	  "INFO: nothing\n",
	  "hang: waits for cgroup_mutex (write)" },
	{ CGT_DET_STARVATION, "thread 3327 (tid 3370) has waited 1.10 s to write css_set_lock while 12016 reads got in and no writer did",
	  NULL,
	  "starvation: a writer of css_set_lock starved" },
	{ CGT_DET_STARVATION, "writer waited 1.52 s for tasklist_lock while 4410 reads got in and no writer did",
	  NULL,
	  "starvation: a writer of tasklist_lock starved" },
	{ CGT_DET_ASAN, "heap-use-after-free on address 0x602000001234 at pc 0x55d4 bp 0x7ffc sp 0x7ffc",
	  NULL,
	  "asan: heap-use-after-free" },
	{ CGT_DET_TSAN, "ThreadSanitizer reported 3 data race(s) so far",
	  NULL,
	  "tsan: ThreadSanitizer" },
	{ CGT_DET_INVARIANT, "css_set 0x55aa12 of cpu:/g2 counts 3 tasks but lists 2 (thread 17, tid 455)",
	  NULL,
	  "invariant: css_set N of CGROUP counts N tasks but lists N (thread N, tid N)" },
};

Test(kind, each_detector_reads_its_own_words)
{
	char buf[256];

	for (size_t i = 0; i < sizeof(golden) / sizeof(golden[0]); i++) {
		cgt_failure_kind(golden[i].det, golden[i].summary, golden[i].evidence, buf,
				 sizeof(buf));
		cr_expect_str_eq(buf, golden[i].kind, "case %zu: %s", i, golden[i].summary);
	}
}

Test(kind, a_hang_cycle_is_found_where_the_detector_writes_it)
{
	cr_assert_null(cgt_hang_cycle(NULL));
	cr_assert_null(cgt_hang_cycle("wait-for picture:\n"));
	cr_assert_str_eq(cgt_hang_cycle("x\n" CGT_HANG_CYCLE " thread 1 -> thread 1\n"),
			 CGT_HANG_CYCLE " thread 1 -> thread 1\n");
}

Test(kind, an_unknown_detector_is_named_as_such)
{
	char buf[64];

	cgt_failure_kind(-1, "thread 3 did 7 things", NULL, buf, sizeof(buf));
	cr_assert_str_eq(buf, "?: thread N did N things");
}
