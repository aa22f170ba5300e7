// SPDX-License-Identifier: GPL-2.0
/*
 * The strict reader of report.json, version 2 (src/report/report_read.c): a controlled run's
 * report (with the coverage it ignores) and a free-running one read back field by field, then each way a report can be
 * wrong, each refused with a reason naming the field; and the command split back into the
 * argv that cgt_run_options_argv takes, so that it repeats the configuration it came from.
 *
 * The bad reports are the good one with one piece of text replaced (bad()), so that each
 * case shows exactly what it breaks.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../src/run/options.h"
#include "../../src/core/failure.h"
#include "../../src/report/report_read.h"

#define COMMAND	"cgtorture run --duration 10s --seed 18446744073709551557 --threads 64 " \
		"--bug walk-from-exiting --stop-on livelock --expect fail"

/*
 * A controlled run: choices 1,1,1,2,1,3,3,2 (8 decisions, 4 switches, threads up to 3),
 * stopped at decision 6; two failures kept of 5. "verdict" is on line 5 (see not_json).
 */
static const char CONTROLLED[] =
	"{\n"
	" \"schema\": \"cgtorture-report\",\n"
	" \"version\": 2,\n"
	" \"run_id\": \"20240101-120000-4242\",\n"
	" \"verdict\": \"FAIL\",\n"
	" \"build\": \"tsan\",\n"
	" \"expected\": \"fail\",\n"
	" \"command\": \"" COMMAND "\",\n"
	" \"config\": {\"duration_s\": 10.0, \"seed\": \"18446744073709551557\",\n"
	"  \"threads\": 64},\n"
	" \"elapsed_s\": 1.25,\n"
	" \"first_failure_s\": 0.5,\n"
	" \"quiesced\": true, \"finished\": false, \"interrupted\": false,\n"
	" \"failures_total\": 5,\n"
	" \"failures\": [\n"
	"  {\"detector\": \"livelock\", \"time_s\": 0.5, \"thread\": 7,\n"
	"   \"summary\": \"walk from tid 12 ran 4096 steps in a group of 3\",\n"
	"   \"evidence\": [\"line one\", \"line two\"], \"step\": 6},\n"
	"  {\"detector\": \"lock-order\", \"time_s\": 0.75, \"thread\": 3,\n"
	"   \"summary\": \"css_set_lock then tasklist_lock\", \"evidence\": [], \"step\": 8}\n"
	" ],\n"
	" \"schedule\": {\"scheduler\": \"pct\", \"depth\": 3, \"steps\": 8, \"stop_step\": 6,\n"
	"  \"threads\": 3, \"switches\": 4, \"preemptions\": 2, \"choices\": \"1*3 2 1 3*2 2\"},\n"
	" \"stats\": {\"ops\": {\"fork\": 11}},\n"
	" \"coverage\": {\"points\": {\"LOCK_WAIT\": 40, \"GP_WAIT\": 0},\n"
	"  \"paths\": {\"exec-by-thread\": 1, \"fork-killed\": 0}},\n"
	" \"locks\": [],\n"
	" \"threads\": []\n"
	"}\n";

/* A free-running run: no "schedule", every step -1. */
static const char FREE[] =
	"{\"schema\": \"cgtorture-report\", \"version\": 2, \"verdict\": \"FAIL\",\n"
	" \"build\": \"asan\", \"command\": \"cgtorture run --bug no-pid-alive --stop-on asan\",\n"
	" \"failures_total\": 1,\n"
	" \"failures\": [{\"detector\": \"asan\", \"time_s\": 2.0, \"thread\": 0,\n"
	"   \"summary\": \"heap-use-after-free in next_tid\", \"evidence\": [], \"step\": -1}]}\n";

/* An interrupted run that had found nothing: PASS, no failures. */
static const char PASSED[] =
	"{\"schema\": \"cgtorture-report\", \"version\": 2, \"verdict\": \"PASS\",\n"
	" \"build\": \"plain\", \"command\": \"cgtorture run\", \"failures_total\": 0,\n"
	" \"failures\": []}";

static char err[256];

TestSuite(report_read, .timeout = 30);

/* @base with its first @from replaced by @to (which must be there), malloc'd. */
static char *replaced(const char *base, const char *from, const char *to)
{
	const char *at = strstr(base, from);
	char *s;

	cr_assert_not_null(at, "test bug: '%s' is not in the report", from);
	cr_assert_geq(asprintf(&s, "%.*s%s%s", (int)(at - base), base, to, at + strlen(from)), 0);
	return s;
}

static void expect_refused(const char *text, size_t len, const char *reason)
{
	struct cgt_report_in r;

	err[0] = '\0';
	cr_assert_eq(cgt_report_parse(text, len, &r, err, sizeof(err)), -1,
		     "accepted; should be refused with '%s'", reason);
	cr_assert(strstr(err, reason), "reason '%s', expected it to hold '%s'", err, reason);
	cr_assert_null(strchr(err, '\n'), "reason '%s' is not one line", err);
	cr_assert_null(r.command, "a refused report holds nothing");
	cr_assert_null(r.schedule.choice, "a refused report holds nothing");
	cgt_report_in_free(&r);
}

/* @base with @from replaced by @to is refused, with @reason in the message. */
static void bad(const char *base, const char *from, const char *to, const char *reason)
{
	char *s = replaced(base, from, to);

	expect_refused(s, strlen(s), reason);
	free(s);
}

Test(report_read, controlled_run_field_by_field)
{
	static const int choices[] = { 1, 1, 1, 2, 1, 3, 3, 2 };
	struct cgt_report_in r;

	cr_assert_eq(cgt_report_parse(CONTROLLED, strlen(CONTROLLED), &r, err, sizeof(err)), 0,
		     "%s", err);
	cr_assert_str_eq(r.build, "tsan");
	cr_assert_str_eq(r.command, COMMAND);
	cr_assert_eq(r.pass, false);
	cr_assert_eq(r.first_detector, CGT_DET_LIVELOCK);
	cr_assert_eq(r.first_step, 6);
	cr_assert_str_eq(r.first_summary, "walk from tid 12 ran 4096 steps in a group of 3");
	cr_assert_eq(r.failures_total, 5);
	cr_assert_eq(r.controlled, true);
	cr_assert_str_eq(r.scheduler, "pct");
	cr_assert_eq(r.depth, 3);
	cr_assert_eq(r.stop_step, 6);
	cr_assert_eq(r.threads, 3);
	cr_assert_eq(r.preemptions, 2);
	cr_assert_eq(r.schedule.len, 8);
	for (int k = 0; k < 8; k++)
		cr_assert_eq(r.schedule.choice[k], choices[k], "decision %d", k);
	cr_assert_str_eq(r.dir, "", "a buffer has no folder");
	cgt_report_in_free(&r);
	cr_assert_null(r.command);
	cr_assert_null(r.schedule.choice);
}

Test(report_read, free_running_run)
{
	struct cgt_report_in r;

	cr_assert_eq(cgt_report_parse(FREE, strlen(FREE), &r, err, sizeof(err)), 0, "%s", err);
	cr_assert_str_eq(r.build, "asan");
	cr_assert_str_eq(r.command, "cgtorture run --bug no-pid-alive --stop-on asan");
	cr_assert_eq(r.pass, false);
	cr_assert_eq(r.first_detector, CGT_DET_ASAN);
	cr_assert_eq(r.first_step, -1);
	cr_assert_str_eq(r.first_summary, "heap-use-after-free in next_tid");
	cr_assert_eq(r.failures_total, 1);
	cr_assert_eq(r.controlled, false);
	cr_assert_str_eq(r.scheduler, "");
	cr_assert_eq(r.stop_step, -1);
	cr_assert_eq(r.schedule.len, 0);
	cr_assert_null(r.schedule.choice);
	cgt_report_in_free(&r);
}

Test(report_read, pass_without_failures)
{
	struct cgt_report_in r;

	cr_assert_eq(cgt_report_parse(PASSED, strlen(PASSED), &r, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(r.pass, true);
	cr_assert_str_eq(r.build, "plain");
	cr_assert_str_eq(r.command, "cgtorture run");
	cr_assert_eq(r.first_detector, -1);
	cr_assert_eq(r.first_step, -1);
	cr_assert_str_eq(r.first_summary, "");
	cr_assert_eq(r.failures_total, 0);
	cgt_report_in_free(&r);
}

/* A summary longer than the field is cut to it, not overrun. */
Test(report_read, long_summary_cut)
{
	char summary[400], *s;
	struct cgt_report_in r;

	memset(summary, 'x', sizeof(summary) - 1);
	summary[sizeof(summary) - 1] = '\0';
	s = replaced(FREE, "heap-use-after-free in next_tid", summary);
	cr_assert_eq(cgt_report_parse(s, strlen(s), &r, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(strlen(r.first_summary), sizeof(r.first_summary) - 1);
	cr_assert_eq(r.first_summary[0], 'x');
	cgt_report_in_free(&r);
	free(s);
}

Test(report_read, not_json_or_truncated)
{
	static const char dup[] = "\"version\": 2,";

	bad(CONTROLLED, "\"verdict\": \"FAIL\",", "\"verdict\": \"FAIL\",,",
	    "report.json: not JSON: line 5: ");
	bad(CONTROLLED, dup, "\"version\": 2, \"version\": 2,", "report.json: not JSON: line 3: ");
	expect_refused(CONTROLLED, strlen(CONTROLLED) / 2, "report.json: truncated: line ");
	expect_refused(CONTROLLED, 1, "report.json: truncated: line 1");
	expect_refused("", 0, "report.json: empty");
	expect_refused("{} {}", 5, "report.json: not JSON: line 1");
	expect_refused("{\"a\": 1}\0junk", 13, "report.json: not JSON");
}

Test(report_read, not_a_report)
{
	static const char array[] = "[1, 2]", no_schema[] = "{\"version\": 2}";

	expect_refused(array, strlen(array),
		       "report.json: the top level is an array, not an object");
	expect_refused(no_schema, strlen(no_schema), "report.json: no \"schema\" string");
	bad(CONTROLLED, "\"cgtorture-report\"", "\"x\"",
	    "report.json: schema is 'x', not cgtorture-report");
	bad(CONTROLLED, "\"cgtorture-report\"", "\"bad\\nschema\"",
	    "report.json: schema is 'bad?schema', not cgtorture-report");
	bad(CONTROLLED, "\"version\": 2", "\"version\": 1",
	    "report.json: version 1, this cgtorture reads version 2");
	bad(CONTROLLED, "\"version\": 2", "\"version\": 3",
	    "report.json: version 3, this cgtorture reads version 2");
	bad(CONTROLLED, "\"version\": 2", "\"version\": \"2\"",
	    "report.json: \"version\" is a string, not an integer");
	bad(CONTROLLED, "\"version\": 2", "\"version\": 2.0",
	    "report.json: \"version\" is a real number, not an integer");
	bad(CONTROLLED, "\"version\": 2,", "", "report.json: \"version\" is missing");
}

Test(report_read, top_level_fields)
{
	bad(CONTROLLED, "\"build\": \"tsan\"", "\"build\": \"msan\"",
	    "report.json: \"build\" is 'msan', not plain, tsan or asan");
	bad(CONTROLLED, "\"build\": \"tsan\"", "\"build\": null",
	    "report.json: \"build\" is null, not a string");
	bad(CONTROLLED, "\"verdict\": \"FAIL\"", "\"verdict\": \"fail\"",
	    "report.json: \"verdict\" is 'fail', not PASS, FAIL or INTERRUPTED");
	bad(CONTROLLED, "\"verdict\": \"FAIL\"", "\"verdict\": \"PASS\"",
	    "report.json: \"verdict\" is PASS but 5 of \"failures_total\" 5 are not known");
	bad(CONTROLLED, "\"failures_total\": 5", "\"failures_total\": 5, \"failures_known\": 6",
	    "report.json: \"failures_known\" is 6, not in 0..5");
	bad(CONTROLLED, "\"failures_total\": 5", "\"failures_total\": -1",
	    "report.json: \"failures_total\" is -1, not in 0..");
	bad(CONTROLLED, "\"failures_total\": 5", "\"failures_total\": 1",
	    "report.json: \"failures\" holds 2 but \"failures_total\" is 1");
	bad(CONTROLLED, "\"failures_total\": 5", "\"failures_total\": true",
	    "report.json: \"failures_total\" is true, not an integer");
	bad(PASSED, "\"failures\": []", "\"failures\": {}",
	    "report.json: \"failures\" is an object, not an array");
	bad(PASSED, ",\n \"failures\": []", "", "report.json: \"failures\" is missing");
}

Test(report_read, command_field)
{
	bad(CONTROLLED, "\"command\": \"cgtorture run", "\"command\": \"cgtorture bugs",
	    "report.json: command: 'cgtorture bugs --duration 10s --seed 1844674...' does not "
	    "start with \"cgtorture run\"");
	bad(PASSED, "\"cgtorture run\"", "\"cgtorture runner\"",
	    "does not start with \"cgtorture run\"");
	bad(PASSED, "\"cgtorture run\"", "\"cgtorture run --out a  b\"",
	    "report.json: command: an empty word after byte 21");
	bad(PASSED, "\"cgtorture run\"", "\"cgtorture run --out a\\tb\"",
	    "report.json: command: a control character (0x09) at byte 21");
	bad(PASSED, "\"command\": \"cgtorture run\", ", "", "report.json: \"command\" is missing");
}

Test(report_read, failures)
{
	bad(CONTROLLED, "\"detector\": \"lock-order\"", "\"detector\": \"segfault\"",
	    "report.json: \"failures\"[1].\"detector\" is 'segfault', not a known detector");
	bad(CONTROLLED, "\"detector\": \"livelock\", ", "",
	    "report.json: \"failures\"[0].\"detector\" is missing");
	bad(CONTROLLED, ", \"step\": 8}", "}", "report.json: \"failures\"[1].\"step\" is missing");
	bad(CONTROLLED, "\"step\": 8", "\"step\": 99",
	    "report.json: \"failures\"[1]: failure step 99 is beyond the 8 decisions");
	bad(CONTROLLED, "\"step\": 6", "\"step\": -1",
	    "report.json: \"failures\"[0].\"step\" is -1 in a controlled run: it must be 0..8");
	bad(FREE, "\"step\": -1", "\"step\": 3",
	    "report.json: \"failures\"[0].\"step\" is 3 in a free-running run");
	bad(CONTROLLED, "\"summary\": \"css_set_lock then tasklist_lock\"", "\"summary\": 1",
	    "report.json: \"failures\"[1].\"summary\" is an integer, not a string");
	bad(CONTROLLED, "\"failures\": [\n  {", "\"failures\": [\n  7, {",
	    "report.json: \"failures\"[0] is an integer, not an object");
}

/* 33 failures: more than a report ever keeps (CGT_MAX_FAILURES). */
Test(report_read, too_many_failures)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	cr_assert_not_null(m);
	fputs("{\"schema\": \"cgtorture-report\", \"version\": 2, \"verdict\": \"FAIL\", "
	      "\"build\": \"plain\", \"command\": \"cgtorture run\", \"failures_total\": 40, "
	      "\"failures\": [", m);
	for (int i = 0; i <= CGT_MAX_FAILURES; i++)
		fprintf(m, "%s{\"detector\": \"hang\", \"summary\": \"\", \"step\": -1}",
			i ? ", " : "");
	fputs("]}", m);
	fclose(m);
	expect_refused(text, len, "report.json: \"failures\" holds 33, more than the 32 a report "
		       "keeps");
	free(text);
}

Test(report_read, schedule)
{
	static const char s[] = "\"schedule\": {\"scheduler\": \"pct\"";

	bad(CONTROLLED, s, "\"schedule\": [], \"x\": {\"scheduler\": \"pct\"",
	    "report.json: \"schedule\" is an array, not an object");
	bad(CONTROLLED, s, "\"schedule\": null, \"x\": {\"scheduler\": \"pct\"",
	    "report.json: \"schedule\" is null, not an object");
	bad(CONTROLLED, "\"pct\"", "\"fifo\"",
	    "report.json: \"schedule\".\"scheduler\" is 'fifo', not random, pct or bounded");
	bad(CONTROLLED, "\"depth\": 3", "\"depth\": 0",
	    "report.json: \"schedule\".\"depth\" is 0, not in 1..2147483647");
	bad(CONTROLLED, "\"depth\": 3, ", "", "report.json: \"schedule\".\"depth\" is missing");
	bad(CONTROLLED, "\"steps\": 8", "\"steps\": -1",
	    "report.json: \"schedule\".\"steps\" is -1, not in 0..");
	bad(CONTROLLED, "\"steps\": 8", "\"steps\": 10",
	    "report.json: \"schedule\".\"steps\" is 10 but \"choices\" holds 8 decisions");
	bad(CONTROLLED, "\"stop_step\": 6", "\"stop_step\": 9",
	    "report.json: \"schedule\".\"stop_step\" is 9, not in -1..8");
	bad(CONTROLLED, "\"stop_step\": 6", "\"stop_step\": -2",
	    "report.json: \"schedule\".\"stop_step\" is -2, not in -1..8");
	bad(CONTROLLED, "\"threads\": 3", "\"threads\": 2",
	    "report.json: \"schedule\".\"choices\": thread number 3 is above \"threads\" 2 "
	    "(decision 5)");
	bad(CONTROLLED, "\"threads\": 3", "\"threads\": 0",
	    "report.json: \"schedule\".\"threads\" is 0, not in 1..");
	bad(CONTROLLED, "\"preemptions\": 2", "\"preemptions\": 9",
	    "report.json: \"schedule\".\"preemptions\" is 9, not in 0..8");
	bad(CONTROLLED, "\"switches\": 4", "\"switches\": 3",
	    "report.json: \"schedule\".\"switches\" is 3 but \"choices\" switches 4 times");
	bad(CONTROLLED, "\"1*3 2 1 3*2 2\"", "\"1*3 x 1 3*2 2\"",
	    "report.json: \"schedule\".\"choices\": schedule: token 2 is not THREAD or "
	    "THREAD*COUNT");
	bad(CONTROLLED, "\"1*3 2 1 3*2 2\"", "\"0*8\"",
	    "report.json: \"schedule\".\"choices\": schedule: token 1 is not");
	bad(CONTROLLED, "\"1*3 2 1 3*2 2\"", "[1, 1, 1, 2, 1, 3, 3, 2]",
	    "report.json: \"schedule\".\"choices\" is an array, not a string");
}

/* "stop_step" at either end of its range: -1 (the run was not stopped) and "steps". */
Test(report_read, schedule_stop_bounds)
{
	struct cgt_report_in r;
	char *s = replaced(CONTROLLED, "\"stop_step\": 6", "\"stop_step\": -1");

	cr_assert_eq(cgt_report_parse(s, strlen(s), &r, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(r.stop_step, -1);
	cgt_report_in_free(&r);
	free(s);
	s = replaced(CONTROLLED, "\"stop_step\": 6", "\"stop_step\": 8");
	cr_assert_eq(cgt_report_parse(s, strlen(s), &r, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(r.stop_step, 8);
	cgt_report_in_free(&r);
	free(s);
}

static void write_file(const char *path, const char *text, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	cr_assert_geq(fd, 0, "%s: %s", path, strerror(errno));
	cr_assert_eq(write(fd, text, len), (ssize_t)len);
	cr_assert_eq(close(fd), 0);
}

Test(report_read, from_a_file)
{
	char tmpl[] = "/tmp/cgt-report-read-XXXXXX", path[256];
	char *dir = mkdtemp(tmpl);
	struct cgt_report_in r;

	cr_assert_not_null(dir, "mkdtemp: %s", strerror(errno));
	snprintf(path, sizeof(path), "%s/report.json", dir);
	write_file(path, CONTROLLED, strlen(CONTROLLED));
	cr_assert_eq(cgt_report_read(path, &r, err, sizeof(err)), 0, "%s", err);
	cr_assert_str_eq(r.dir, dir);
	cr_assert_str_eq(r.command, COMMAND);
	cr_assert_eq(r.schedule.len, 8);
	cgt_report_in_free(&r);

	/* the reasons name the file as given */
	write_file(path, CONTROLLED, 100);
	cr_assert_eq(cgt_report_read(path, &r, err, sizeof(err)), -1);
	cr_assert(strstr(err, "/report.json: truncated: line "), "%s", err);
	cr_assert(!strncmp(err, dir, strlen(dir)), "'%s' does not name %s", err, path);

	/* a sparse file past the bound is refused unread */
	cr_assert_eq(truncate(path, CGT_REPORT_MAX_BYTES + 1), 0, "%s", strerror(errno));
	cr_assert_eq(cgt_report_read(path, &r, err, sizeof(err)), -1);
	cr_assert(strstr(err, "report.json: 268435457 bytes, more than the 268435456"), "%s", err);
	unlink(path);

	cr_assert_eq(cgt_report_read(path, &r, err, sizeof(err)), -1);
	cr_assert(strstr(err, "report.json: cannot open: No such file or directory"), "%s", err);
	cr_assert_eq(cgt_report_read(dir, &r, err, sizeof(err)), -1);
	cr_assert(strstr(err, ": not a regular file"), "%s", err);
	rmdir(dir);
}

Test(report_read, command_argv)
{
	char **argv;
	int argc;

	cr_assert_eq(cgt_command_argv(COMMAND, &argc, &argv, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(argc, 14);
	cr_assert_str_eq(argv[0], "cgtorture");
	cr_assert_str_eq(argv[1], "run");
	cr_assert_str_eq(argv[2], "--duration");
	cr_assert_str_eq(argv[3], "10s");
	cr_assert_str_eq(argv[5], "18446744073709551557");
	cr_assert_str_eq(argv[8], "--bug");
	cr_assert_str_eq(argv[13], "fail");
	cr_assert_null(argv[14]);
	cgt_argv_free(argc, argv);

	cr_assert_eq(cgt_command_argv("cgtorture run", &argc, &argv, err, sizeof(err)), 0);
	cr_assert_eq(argc, 2);
	cr_assert_str_eq(argv[1], "run");
	cr_assert_null(argv[2]);
	cgt_argv_free(argc, argv);
}

Test(report_read, command_argv_refused)
{
	static const struct { const char *command, *reason; } cases[] = {
		{ "cgtorture bugs",
		  "command: 'cgtorture bugs' does not start with \"cgtorture run\"" },
		{ "cgtorture", "does not start with" },
		{ "cgtorture  run", "does not start with" },
		{ "./cgtorture run", "does not start with" },
		{ "", "command: '' does not start with" },
		{ "cgtorture run ", "command: an empty word after byte 13" },
		{ "cgtorture run --seed  5", "command: an empty word after byte 20" },
		{ "cgtorture run --seed\n5", "command: a control character (0x0a) at byte 20" },
	};
	char **argv = (char **)1, many[4200];
	int argc = 1;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cr_assert_eq(cgt_command_argv(cases[i].command, &argc, &argv, err, sizeof(err)), -1,
			     "'%s' accepted", cases[i].command);
		cr_assert(strstr(err, cases[i].reason), "'%s': reason '%s', expected '%s'",
			  cases[i].command, err, cases[i].reason);
		cr_assert_eq(argc, 0);
		cr_assert_null(argv);
	}
	cr_assert_eq(cgt_command_argv(NULL, &argc, &argv, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "command: missing");

	strcpy(many, "cgtorture run");
	for (int w = 3; w <= 1024; w++)
		strcat(many, " x");
	cr_assert_eq(cgt_command_argv(many, &argc, &argv, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(argc, 1024);
	cgt_argv_free(argc, argv);
	strcat(many, " x");
	cr_assert_eq(cgt_command_argv(many, &argc, &argv, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "command: more than 1024 words");
}

/*
 * The words given back are what cgt_run_options_argv takes (argv[1], "run", in the place of
 * the program name), and they make the configuration the command was written from: the
 * command rendered again is the same.
 */
Test(report_read, command_argv_parses_back)
{
	char *args[] = { "cgtorture", "--seed", "18446744073709551557", "--threads", "77",
			 "--css-lock", "mutex", "--bug", "walk-from-exiting", "--bug",
			 "no-pid-alive", "--quiet", "--expect", "fail", "--duration", "2.5", NULL };
	struct cgt_run_config cfg, again;
	char *command = NULL, *command2 = NULL, **argv;
	size_t len;
	FILE *m;
	int argc;

	cr_assert_eq(cgt_run_options_argv(16, args, &cfg), 0);
	m = open_memstream(&command, &len);
	cgt_run_options_command(m, &cfg);
	fclose(m);
	cr_assert(strstr(command, " --bug walk-from-exiting"), "%s", command);

	cr_assert_eq(cgt_command_argv(command, &argc, &argv, err, sizeof(err)), 0, "%s: %s",
		     command, err);
	cr_assert_eq(cgt_run_options_argv(argc - 1, argv + 1, &again), 0, "%s", command);
	m = open_memstream(&command2, &len);
	cgt_run_options_command(m, &again);
	fclose(m);
	cr_assert_str_eq(command2, command);
	cr_assert_eq(again.seed, 18446744073709551557ULL);
	cr_assert_eq(again.threads, 77);
	cgt_argv_free(argc, argv);
	free(command);
	free(command2);
}
