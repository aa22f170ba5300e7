// SPDX-License-Identifier: GPL-2.0
/*
 * What every command that runs the model does before it runs: the options (the run's table
 * and rules are run/options.c's), a writable results folder, the banner and the command line
 * a report shows, and the signals that end a run early.
 */
#include <signal.h>

#include "cli.h"
#include "../run/options.h"

static void on_signal(int sig)
{
	cgt_run_interrupt(sig);
}

/*
 * Every command that runs the model: the options, the run's own fix-ups, a writable results
 * folder, and the banner and command line a report shows. @sets are the command's own tables
 * and the run's (cgt_run_options(@cfg)), each configuration zeroed; @help is --help's.
 * 0, -1 after --help, or a status.
 */
int cgt_cli_prepare(struct tunable_set *sets, size_t nsets, void (*help)(FILE *f), int argc,
		    char **argv, struct cgt_run_config *cfg)
{
	int ret = cgt_run_options_parse(sets, nsets, help, argc, argv, cfg);

	return ret ? ret : cgt_run_options_ready(cfg);
}

void cgt_cli_on_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* stdout's reader gone (| head): the work ends as interrupted, its reports kept */
	sigaction(SIGPIPE, &sa, NULL);
}
