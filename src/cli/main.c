// SPDX-License-Identifier: GPL-2.0
/* cgtorture: the command line. */
#include <string.h>

#include "tunables.h"

static int cmd_run(int argc, char **argv)
{
	struct cgt_run_config cfg;
	struct cgt_run_result res;
	int ret;

	cgt_tunables_defaults(&cfg);
	ret = cgt_tunables_parse(argc, argv, &cfg);
	if (ret)
		return ret < 0 ? CGT_EXIT_PASS : ret;
	if (!cfg.quiet) {
		cgt_tunables_banner(stdout, &cfg);
		fflush(stdout);
	}
	if (cgt_run(&cfg, &res)) {
		fprintf(stderr, "cgtorture: the model could not start\n");
		return CGT_EXIT_FAIL;
	}
	cgt_print_summary(stdout, &cfg, &res);
	return res.pass ? CGT_EXIT_PASS : CGT_EXIT_FAIL;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") ||
			 !strcmp(argv[1], "-h"))) {
		cgt_tunables_help(stdout);
		return CGT_EXIT_PASS;
	}
	if (argc > 1 && !strcmp(argv[1], "run"))
		return cmd_run(argc - 1, argv + 1);
	if (argc > 1 && argv[1][0] != '-') {
		fprintf(stderr, "cgtorture: unknown command '%s' (valid: run, help)\n", argv[1]);
		return CGT_EXIT_USAGE;
	}
	return cmd_run(argc, argv);
}
