// SPDX-License-Identifier: GPL-2.0
/*
 * The report of a failed run (src/report/report.c): results/<run-id>/report.json, read back
 * with jansson as a consumer of the schema would, and summary.txt beside it; both written
 * through a temporary file and a rename, so nothing half-written (no ".name.tmp") remains.
 * And the check made before a run starts, that the results folder can be written.
 *
 * The configuration is made as the command line makes it (cgt_run_options_argv over an
 * argv, then cgt_run_render).
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../src/run/options.h"
#include "../../src/core/failure.h"
#include "../../src/core/thread.h"
#include "../../src/base/build.h"
#include "../../src/base/files.h"
#include "../../src/run/points.h"
#include "../../src/run/run.h"
#include "../../src/report/report.h"

/* A seed above 2^53: a JSON number would lose it, the report's decimal string must not. */
#define SEED_STR	"18446744073709551557"
#define EVIDENCE	"first line of evidence\nsecond line\n\nfourth, after a blank one\n"

static char *read_text(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long len;

	cr_assert_not_null(f, "cannot open %s: %s", path, strerror(errno));
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)len + 1);
	cr_assert_not_null(buf);
	cr_assert_eq(fread(buf, 1, (size_t)len, f), (size_t)len);
	buf[len] = '\0';
	fclose(f);
	return buf;
}

static const char *str_at(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	cr_assert(json_is_string(v), "\"%s\" is not a string", key);
	return json_string_value(v);
}

static json_int_t int_at(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	cr_assert(json_is_integer(v), "\"%s\" is not an integer", key);
	return json_integer_value(v);
}

/* rm -r of a flat tree two levels deep (out/<run-id>/files), best effort. */
static void remove_tree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[1024];

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (unlink(path))
			remove_tree(path);	/* a folder: empty it, then rmdir */
	}
	closedir(d);
	rmdir(dir);
}

TestSuite(report, .timeout = 30);

/*
 * A failing run's report: every field a reader relies on. The test thread is a registered
 * harness thread that holds a lock while the report is written, with the event recorder on,
 * so it is in the threads list with its hold and its story; the failure names it.
 */
Test(report, json_and_summary_written_and_complete)
{
	static struct cgt_thread self;
	static struct cgt_lock lk;
	char tmpl[] = "/tmp/cgt-report-test-XXXXXX";
	char *out = mkdtemp(tmpl);
	char *argv[] = { "cgtorture", "--seed", SEED_STR, "--threads", "77", "--walkers", "3",
			 "--css-lock", "rwsem", "--tasklist-lock", "rwlock-rpref",
			 "--duration", "5", "--out", out, NULL };
	int argc = (int)(sizeof(argv) / sizeof(argv[0])) - 1;
	struct cgt_run_config cfg;
	struct cgt_run_result res;
	char path[1024], *summary;
	json_t *root, *v, *cfgj, *fail, *ev, *t, *mine = NULL;
	json_error_t err;
	size_t i;
	DIR *d;
	struct dirent *e;
	int files = 0;

	cr_assert_not_null(out, "mkdtemp: %s", strerror(errno));
	cgt_clock_reset();
	cgt_failures_reset();
	cgt_lock_classes_reset();
	cgt_thread_register(&self, CGT_ROLE_DRIVER, 0);
	cgt_events_install(0, false, 1);

	cr_assert_eq(cgt_run_options_argv(argc, argv, &cfg), 0);
	cr_assert_eq(cgt_dir_check_writable(cfg.out), 0);
	cgt_run_render(&cfg);
	cr_assert_not_null(cfg.css_lock);
	cr_assert_not_null(cfg.tasklist_lock);

	cgt_lock_init(&lk, cfg.tasklist_lock, "test_tasklist_lock");
	cgt_write_lock(&lk);
	cgt_fail(CGT_DET_STARVATION, self.id, EVIDENCE, "test failure number %d", 42);

	memset(&res, 0, sizeof(res));
	res.pass = false;
	res.failures = cgt_failures_total();
	res.elapsed = 1.25;
	res.first_failure = 0.5;
	res.finished = true;
	res.quiesced = true;
	res.stats.ops[CGT_OP_FORK] = 11;
	res.stats.walks = 7;
	cr_assert_eq(cgt_report_write(&cfg, &res), 0);
	cgt_write_unlock(&lk);

	cr_assert_neq(res.run_id[0], '\0', "no run id made");
	snprintf(path, sizeof(path), "%s/%s", out, res.run_id);
	cr_assert_str_eq(res.report_dir, path);

	/* report.json */
	snprintf(path, sizeof(path), "%s/report.json", res.report_dir);
	root = json_load_file(path, 0, &err);
	cr_assert_not_null(root, "report.json: %s (line %d)", err.text, err.line);
	cr_assert_str_eq(str_at(root, "schema"), "cgtorture-report");
	cr_assert_eq(int_at(root, "version"), 2);
	cr_assert_str_eq(str_at(root, "run_id"), res.run_id);
	cr_assert_str_eq(str_at(root, "verdict"), "FAIL");
	cr_assert_str_eq(str_at(root, "build"), cgt_build_name());
#ifdef CGT_ASAN
	cr_assert_str_eq(str_at(root, "build"), "asan");
#endif
	cr_assert_str_eq(str_at(root, "command"), cfg.command);
	cr_assert(strstr(str_at(root, "command"), "--seed " SEED_STR), "command: %s",
		  str_at(root, "command"));
	cr_assert_eq(int_at(root, "failures_total"), 1);
	cr_assert(json_is_true(json_object_get(root, "finished")));

	cfgj = json_object_get(root, "config");
	cr_assert(json_is_object(cfgj));
	cr_assert_str_eq(str_at(cfgj, "seed"), SEED_STR, "the seed must stay exact");
	cr_assert_eq(int_at(cfgj, "threads"), 77);
	cr_assert_eq(int_at(cfgj, "walkers"), 3);
	cr_assert_str_eq(str_at(cfgj, "css_lock"), "rwsem");
	cr_assert_str_eq(str_at(cfgj, "tasklist_lock"), "rwlock-rpref");
	cr_assert_str_eq(str_at(cfgj, "iter"), cgt_iter_name(cfg.iter));
	cr_assert(json_is_object(json_object_get(cfgj, "mix")));
	cr_assert_eq(int_at(json_object_get(cfgj, "mix"), "fork"), cfg.mix[CGT_OP_FORK]);

	v = json_object_get(root, "failures");
	cr_assert(json_is_array(v) && json_array_size(v) == 1, "failures: one entry");
	fail = json_array_get(v, 0);
	cr_assert_str_eq(str_at(fail, "detector"), "starvation");
	cr_assert_str_eq(str_at(fail, "summary"), "test failure number 42");
	cr_assert_eq(int_at(fail, "thread"), self.id);
	ev = json_object_get(fail, "evidence");
	cr_assert(json_is_array(ev), "evidence is an array of lines");
	cr_assert_eq(json_array_size(ev), 4, "evidence has %zu lines", json_array_size(ev));
	cr_assert_str_eq(json_string_value(json_array_get(ev, 0)), "first line of evidence");
	cr_assert_str_eq(json_string_value(json_array_get(ev, 1)), "second line");
	cr_assert_str_eq(json_string_value(json_array_get(ev, 2)), "");
	cr_assert_str_eq(json_string_value(json_array_get(ev, 3)), "fourth, after a blank one");

	v = json_object_get(root, "stats");
	cr_assert(json_is_object(v), "stats");
	cr_assert_eq(int_at(json_object_get(v, "ops"), "fork"), 11);
	cr_assert_eq(int_at(v, "walks"), 7);

	v = json_object_get(root, "locks");
	cr_assert(json_is_array(v) && json_array_size(v) >= 1, "locks");
	json_array_foreach(v, i, t)
		if (!strcmp(str_at(t, "name"), "test_tasklist_lock"))
			mine = t;
	cr_assert_not_null(mine, "the lock class is not in \"locks\"");
	cr_assert_eq(int_at(mine, "write_acquisitions"), 1);
	mine = NULL;

	v = json_object_get(root, "threads");
	cr_assert(json_is_array(v) && json_array_size(v) >= 1, "threads");
	json_array_foreach(v, i, t)
		if (int_at(t, "id") == self.id)
			mine = t;
	cr_assert_not_null(mine, "the thread the failure names is not in \"threads\"");
	cr_assert_str_eq(str_at(mine, "role"), "driver");
	/* the state it was in when the failure was seen, kept with the failure */
	cr_assert_str_eq(str_at(mine, "state"), "as the failure was seen");
	ev = json_object_get(mine, "holds");
	cr_assert(json_is_array(ev) && json_array_size(ev) == 1, "holds one lock");
	cr_assert_str_eq(str_at(json_array_get(ev, 0), "lock"), "test_tasklist_lock");
	cr_assert_str_eq(str_at(json_array_get(ev, 0), "side"), "write");
	ev = json_object_get(mine, "events");
	cr_assert(json_is_array(ev) && json_array_size(ev) >= 2, "its story: wait and held");
	cr_assert_str_eq(str_at(json_array_get(ev, json_array_size(ev) - 1), "point"),
			 cgt_point_names[CGT_PT_LOCK_HELD]);
	cr_assert_str_eq(str_at(json_array_get(ev, json_array_size(ev) - 1), "object"),
			 "test_tasklist_lock");
	json_decref(root);

	/* summary.txt */
	snprintf(path, sizeof(path), "%s/summary.txt", res.report_dir);
	summary = read_text(path);
	cr_assert(strstr(summary, "test failure number 42"), "summary.txt:\n%s", summary);
	cr_assert(strstr(summary, "second line"), "summary.txt:\n%s", summary);
	cr_assert(strstr(summary, "FAIL"), "summary.txt:\n%s", summary);
	cr_assert(strstr(summary, "seed " SEED_STR), "summary.txt:\n%s", summary);
	cr_assert(strstr(summary, cfg.command), "summary.txt:\n%s", summary);
	free(summary);

	/* exactly the three files (no capture was taken: no timeline), no temporary left behind */
	d = opendir(res.report_dir);
	cr_assert_not_null(d);
	while ((e = readdir(d)) != NULL) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		cr_assert_neq(e->d_name[0], '.', "temporary file left: %s", e->d_name);
		cr_assert(!strcmp(e->d_name, "report.json") || !strcmp(e->d_name, "summary.txt") ||
			  !strcmp(e->d_name, "report.html"), "unexpected file: %s", e->d_name);
		files++;
	}
	closedir(d);
	cr_assert_eq(files, 3);

	cgt_events_remove();
	cgt_lock_destroy(&lk);
	cgt_thread_unregister(&self);
	cgt_run_render_free(&cfg);
	remove_tree(out);
}

/*
 * The results folder is checked before a run starts: a path that cannot be a folder gives a
 * negative errno, a new nested path is made. And a report that cannot be written says so
 * (negative errno, no report_dir) rather than pretending.
 */
Test(report, check_dir_refuses_unwritable_paths)
{
	char tmpl[] = "/tmp/cgt-report-test-XXXXXX";
	char *dir = mkdtemp(tmpl);
	char file[512], under_file[600], nested[600];
	struct cgt_run_config cfg;
	struct cgt_run_result res;
	struct stat st;
	int fd, ret, saved_stderr, devnull;

	cr_assert_not_null(dir);
	snprintf(file, sizeof(file), "%s/plain-file", dir);
	fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	cr_assert_geq(fd, 0);
	close(fd);

	ret = cgt_dir_check_writable("/proc/nope");
	cr_assert_lt(ret, 0, "/proc/nope accepted (%d)", ret);
	snprintf(under_file, sizeof(under_file), "%s/sub", file);
	ret = cgt_dir_check_writable(under_file);
	cr_assert_eq(ret, -ENOTDIR, "a file used as a folder: %d (%s)", ret, strerror(-ret));
	/* an existing plain file is no folder, whatever its mode (root passes access()) */
	ret = cgt_dir_check_writable(file);
	cr_assert_eq(ret, -ENOTDIR, "a plain file as the results folder: %d", ret);
	cr_assert_eq(chmod(file, 0755), 0);
	ret = cgt_dir_check_writable(file);
	cr_assert_eq(ret, -ENOTDIR, "an executable file as the results folder: %d", ret);

	snprintf(nested, sizeof(nested), "%s/a/b/c", dir);
	cr_assert_eq(cgt_dir_check_writable(nested), 0);
	cr_assert_eq(stat(nested, &st), 0);
	cr_assert(S_ISDIR(st.st_mode));

	/* cgt_report_write into the same impossible place */
	cgt_clock_reset();
	cgt_failures_reset();
	cgt_run_options_defaults(&cfg);
	cfg.out = under_file;
	memset(&res, 0, sizeof(res));
	cgt_fail(CGT_DET_INVARIANT, 0, NULL, "never written");
	fflush(stderr);
	saved_stderr = dup(STDERR_FILENO);	/* it says why on stderr: keep the test output clean */
	devnull = open("/dev/null", O_WRONLY);
	dup2(devnull, STDERR_FILENO);
	ret = cgt_report_write(&cfg, &res);
	dup2(saved_stderr, STDERR_FILENO);
	close(saved_stderr);
	close(devnull);
	cr_assert_eq(ret, -ENOTDIR, "cgt_report_write: %d", ret);
	cr_assert_eq(res.report_dir[0], '\0', "report_dir must be cleared on failure");

	rmdir(nested);
	snprintf(nested, sizeof(nested), "%s/a/b", dir);
	rmdir(nested);
	snprintf(nested, sizeof(nested), "%s/a", dir);
	rmdir(nested);
	unlink(file);
	rmdir(dir);
}
