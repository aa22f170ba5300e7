// SPDX-License-Identifier: GPL-2.0
/* cgtorture: the command line. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "version.h"
#include "../base/build.h"
#include "compare_cli.h"
#include "../search/child.h"
#include "../search/search.h"
#include "../run/catalogue.h"

static int cmd_run(int argc, char **argv)
{
	static const struct cgt_child_opts opts = { .forward = true, .exit_clean = true };
	struct cgt_run_config cfg = { 0 };
	struct tunable_set run = cgt_run_options(&cfg);
	struct cgt_child_result r;
	int ret;

	ret = cgt_cli_prepare(&run, 1, cgt_run_options_help, argc, argv, &cfg);
	if (ret)
		return ret < 0 ? CGT_EXIT_PASS : ret;
	if (cfg.check_determinism) {
		ret = cgt_check_determinism(&cfg);
		cgt_run_render_free(&cfg);
		return ret;
	}
	/*
	 * A signal from here on ends the run as an interrupt; one before the fork is in the
	 * child's copy of the flag, so its run ends at once, reported. SIGPIPE too: the banner
	 * is more lines than `| head -1` reads.
	 */
	cgt_cli_on_signals();
	if (!cfg.quiet) {
		puts(cfg.banner);
		fflush(stdout);
	}
	ret = cgt_child_run(&cfg, &opts, &r);
	if (ret)
		fprintf(stderr, "cgtorture: cannot fork a run: %s\n", strerror(-ret));
	else
		cgt_child_result_free(&r);
	cgt_run_render_free(&cfg);
	return ret ? CGT_EXIT_TOOL : r.status;
}

static int cmd_help(int argc, char **argv);
struct cgt_command;
static const struct cgt_command *find_command(const char *name);
static int command_help(const struct cgt_command *c);

static int cmd_list(int argc, char **argv)
{
	bool tsv = argc == 2 && !strcmp(argv[0], "bugs") && !strcmp(argv[1], "--tsv");
	bool table = argc == 2 && !strcmp(argv[0], "eras") && !strcmp(argv[1], "--table");

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
		return command_help(find_command(argv[0]));
	if (argc > 1 && !tsv && !table) {
		fprintf(stderr, "cgtorture: unexpected argument '%s' to %s\n", argv[1], argv[0]);
		return CGT_EXIT_USAGE;
	}
	if (!strcmp(argv[0], "bugs"))
		cgt_bugs_print(stdout, tsv);
	else if (!strcmp(argv[0], "locks"))
		cgt_locks_print(stdout);
	else if (!strcmp(argv[0], "eras"))
		cgt_eras_print(stdout, table);
	else
		for (int i = 0; i < cgt_nr_schedulers; i++)
			puts(cgt_schedulers[i]->name);
	return CGT_EXIT_PASS;
}

/* The commands; an unknown one lists the names. */
static const struct cgt_command commands[] = {
	{ "run", "[OPTION...]", "stress the model (the default command)", .main = cmd_run,
	  .run_options = true },
	{ "bugs", "[--tsv]", "the catalogue of known bugs", .main = cmd_list },
	{ "locks", "", "the lock variants", .main = cmd_list },
	{ "schedulers", "", "the schedulers of controlled runs, one a line", .main = cmd_list },
	{ "eras", "[--table]", "the kernel eras of --kernel (--table: what each does, whence)",
	  .main = cmd_list },
	{ "compare", "[OPTION...]", "lock variants side by side (compare --help)",
	  .main = cgt_compare_main, .options = &cgt_compare_options },
	{ "explore", "[OPTION...]", "many controlled schedules, until one fails",
	  .main = cgt_explore_main, .options = &cgt_explore_options, .run_options = true },
	{ "replay", "REPORT", "run a report's failure again (replay --help)",
	  .main = cgt_replay_main, .options = &cgt_replay_options },
	{ "shrink", "REPORT", "cut a controlled failure's schedule down",
	  .main = cgt_shrink_main, .options = &cgt_shrink_options },
	{ "show", "REPORT", "print a report's story and write report.html beside it",
	  .main = cgt_show_main },
	{ "reproduce", "REPORT", "a free-running failure as an exact controlled replay",
	  .main = cgt_reproduce_main, .options = &cgt_reproduce_options },
	{ "help", "[CMD]", "every option, or CMD's (as CMD --help); --version: which cgtorture; "
	  "--man: the manual page; --completion bash: bash's completion", .main = cmd_help },
};

static const struct cgt_command *find_command(const char *name)
{
	for (size_t k = 0; k < ARRAY_SIZE(commands); k++)
		if (!strcmp(name, commands[k].name))
			return &commands[k];
	return NULL;
}

/* help CMD is CMD --help; a list command's help is its usage line. */
static int command_help(const struct cgt_command *c)
{
	char *argv[] = { (char *)c->name, (char *)"--help", NULL };

	if (c->main != cmd_list)
		return c->main(2, argv);
	printf("usage: cgtorture %s%s%s\n\n%s.\n", c->name, c->args[0] ? " " : "", c->args,
	       c->help);
	return CGT_EXIT_PASS;
}

static int cmd_help(int argc, char **argv)
{
	const struct cgt_command *c = argc == 2 ? find_command(argv[1]) : NULL;

	/* help --help is help */
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
		argc = 1;

	/* the manual page and the completion script, from the same tables as --help */
	if (argc == 2 && !strcmp(argv[1], "--man")) {
		cgt_cli_manual(stdout, commands, ARRAY_SIZE(commands), CGT_VERSION);
		return CGT_EXIT_PASS;
	}
	if (argc >= 2 && !strcmp(argv[1], "--completion")) {
		if (argc != 3 || strcmp(argv[2], "bash")) {
			fprintf(stderr, "cgtorture: help --completion: '%s' is no shell this writes "
				"for (valid: bash)\n", argc > 2 ? argv[2] : "");
			return CGT_EXIT_USAGE;
		}
		cgt_cli_completion_bash(stdout, commands, ARRAY_SIZE(commands));
		return CGT_EXIT_PASS;
	}
	if (argc > 2 || (argc == 2 && (!c || c->main == cmd_help))) {
		fprintf(stderr, "cgtorture: help: '%s' is no command (cgtorture help lists them)\n",
			argv[argc - 1]);
		return CGT_EXIT_USAGE;
	}
	if (c)
		return command_help(c);
	for (size_t k = 0; k < ARRAY_SIZE(commands); k++) {
		const struct cgt_command *c = &commands[k];
		char lhs[40];

		/* the first is the default command: its name may be left out */
		snprintf(lhs, sizeof(lhs), k ? "%s%s%s" : "[%s]%s%s", c->name,
			 c->args[0] ? " " : "", c->args);
		printf("%s cgtorture %-20s %s\n", k ? "      " : "usage:", lhs, c->help);
	}
	putchar('\n');
	cgt_run_options_help(stdout);
	return CGT_EXIT_PASS;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "run";
	char valid[128] = "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h"))
		cmd = "help";
	if (!strcmp(cmd, "--version")) {
		printf("cgtorture %s (%s build)\n", CGT_VERSION, cgt_build_name());
		return CGT_EXIT_PASS;
	}
	for (size_t k = 0; k < ARRAY_SIZE(commands); k++)
		if (!strcmp(cmd, commands[k].name))
			return commands[k].main(argc > 1 ? argc - 1 : 1, argc > 1 ? argv + 1 : argv);
	if (cmd[0] == '-')
		return cmd_run(argc, argv);
	for (size_t k = 0; k < ARRAY_SIZE(commands); k++)
		snprintf(valid + strlen(valid), sizeof(valid) - strlen(valid), "%s%s",
			 k ? ", " : "", commands[k].name);
	fprintf(stderr, "cgtorture: unknown command '%s' (valid: %s)\n", cmd, valid);
	return CGT_EXIT_USAGE;
}
