// SPDX-License-Identifier: GPL-2.0
/* cgtorture: the command line. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "compare_cli.h"
#include "tunables.h"
#include "../detect/detect.h"
#include "../run/catalogue.h"

static const char usage[] =
	"usage: cgtorture [run] [OPTION...]   stress the model (the default command)\n"
	"       cgtorture bugs [--tsv]         the catalogue of known bugs\n"
	"       cgtorture locks                the lock variants\n"
	"       cgtorture compare [OPTION...]  lock variants side by side (compare --help)\n"
	"       cgtorture explore [OPTION...]  many controlled schedules, until one fails\n"
	"       cgtorture replay REPORT        run a report's failure again (replay --help)\n"
	"       cgtorture shrink REPORT        cut a controlled failure's schedule down\n"
	"       cgtorture help                 every option\n";

static int cmd_run(int argc, char **argv)
{
	struct cgt_run_config cfg = { 0 };
	struct cgt_run_result res;
	int ret;

	ret = cgt_cli_prepare(argc, argv, &cfg);
	if (ret)
		return ret < 0 ? CGT_EXIT_PASS : ret;
	if (cfg.check_determinism) {
		ret = cgt_check_determinism(&cfg);
		cgt_cli_release(&cfg);
		return ret;
	}
	if (!cfg.quiet) {
		puts(cfg.banner);
		fflush(stdout);
	}
	cgt_cli_on_signals();
	if (cgt_run(&cfg, &cgt_report_hooks, &res)) {
		fprintf(stderr, "cgtorture: the model could not start\n");
		return CGT_EXIT_FAIL;
	}
	ret = cgt_run_finish(&cfg, &res);
	/*
	 * Model threads stuck for good must not hold up exit handlers; and the TSan runtime
	 * would replace our status with its own exitcode, though the run counted its reports.
	 */
	if (!res.finished || !strcmp(cgt_build_name(), "tsan")) {
		fflush(NULL);
		_exit(ret);
	}
	cgt_cli_release(&cfg);
	return ret;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "run";

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
		fputs(usage, stdout);
		putchar('\n');
		cgt_tunables_help(stdout);
		return CGT_EXIT_PASS;
	}
	if (!strcmp(cmd, "bugs") || !strcmp(cmd, "locks")) {
		bool tsv = argc == 3 && !strcmp(cmd, "bugs") && !strcmp(argv[2], "--tsv");

		if (argc > 2 && !tsv) {
			fprintf(stderr, "cgtorture: unexpected argument '%s' to %s\n", argv[2], cmd);
			return CGT_EXIT_USAGE;
		}
		if (!strcmp(cmd, "bugs"))
			cgt_bugs_print(stdout, tsv);
		else
			cgt_locks_print(stdout);
		return CGT_EXIT_PASS;
	}
	if (!strcmp(cmd, "run"))
		return cmd_run(argc - 1, argv + 1);
	if (!strcmp(cmd, "compare"))
		return cgt_compare_main(argc - 1, argv + 1);
	if (!strcmp(cmd, "explore"))
		return cgt_explore_main(argc - 1, argv + 1);
	if (!strcmp(cmd, "replay"))
		return cgt_replay_main(argc - 1, argv + 1);
	if (!strcmp(cmd, "shrink"))
		return cgt_shrink_main(argc - 1, argv + 1);
	if (cmd[0] != '-') {
		fprintf(stderr, "cgtorture: unknown command '%s' "
			"(valid: run, explore, replay, shrink, bugs, locks, compare, help)\n", cmd);
		return CGT_EXIT_USAGE;
	}
	return cmd_run(argc, argv);
}
