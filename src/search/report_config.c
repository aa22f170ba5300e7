// SPDX-License-Identifier: GPL-2.0
/*
 * A report's run configured again from the command line the report keeps, as replay,
 * shrink and reproduce need it: the same binary's build, the same locks the schedule was
 * made with, the same scheduler.
 */
#include <stdlib.h>
#include <string.h>

#include "search.h"
#include "../base/build.h"
#include "../run/options.h"

int cgt_report_config(const char *path, struct cgt_report_in *r, struct cgt_run_config *cfg)
{
	char err[256];
	char **argv;
	int argc, ret;

	if (cgt_report_read(path, r, err, sizeof(err))) {
		fprintf(stderr, "cgtorture: %s\n", err);
		return CGT_EXIT_USAGE;
	}
	if (strcmp(r->build, cgt_build_name())) {
		fprintf(stderr, "cgtorture: %s is from the %s build; this is the %s build "
			"(build/%s/cgtorture)\n", path, r->build, cgt_build_name(), r->build);
		return CGT_EXIT_USAGE;
	}
	if (cgt_command_argv(r->command, &argc, &argv, err, sizeof(err))) {
		fprintf(stderr, "cgtorture: %s: %s\n", path, err);
		return CGT_EXIT_USAGE;
	}
	/*
	 * The locks the schedule was made with, named last so that they win: a report from
	 * before --locks kept the model's, and a command without --locks would now take the
	 * code's on an odd seed, and with it an era drawn from that seed.
	 */
	if (r->controlled) {
		char **v = realloc(argv, (size_t)(argc + 3) * sizeof(*argv));

		if (!v) {
			cgt_argv_free(argc, argv);
			fprintf(stderr, "cgtorture: out of memory\n");
			return CGT_EXIT_FAIL;
		}
		argv = v;
		argv[argc++] = strdup("--locks");
		argv[argc++] = strdup(r->lock_code ? "code" : "model");
		argv[argc] = NULL;
		if (!argv[argc - 2] || !argv[argc - 1]) {
			cgt_argv_free(argc, argv);
			fprintf(stderr, "cgtorture: out of memory\n");
			return CGT_EXIT_FAIL;
		}
	}
	/*
	 * The recorded run's --out is not the search's: each writes in a folder of its own
	 * (replay and shrink in the report's, reproduce there or in its --out) and checks it.
	 */
	ret = cgt_run_options_argv(argc - 1, argv + 1, cfg);
	cgt_argv_free(argc, argv);
	if (ret)
		return ret < 0 ? CGT_EXIT_USAGE : ret;
	cfg->out = r->dir;
	cgt_run_render(cfg);
	if (r->controlled != (cfg->sched != NULL) ||
	    (r->controlled && strcmp(r->scheduler, cfg->sched->name))) {
		fprintf(stderr, "cgtorture: %s: the schedule (%s) does not fit the command (--sched %s)\n",
			path, r->controlled ? r->scheduler : "none",
			cfg->sched ? cfg->sched->name : "none");
		return CGT_EXIT_USAGE;
	}
	cfg->check_determinism = false;
	cfg->quiet = true;
	return 0;
}

int cgt_search_config(int argc, char **argv, struct cgt_run_config *cfg)
{
	int ret = cgt_run_options_argv(argc, argv, cfg);

	if (ret)
		return ret < 0 ? CGT_EXIT_USAGE : ret;
	return cgt_run_options_ready(cfg);
}
