// SPDX-License-Identifier: GPL-2.0
/*
 * What every command that runs the model does before it runs: the options, the run's own
 * fix-ups, a writable results folder, the banner and the command line a report shows, and
 * the signals that end a run early.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tunables.h"
#include "../base/files.h"

static void on_signal(int sig)
{
	cgt_run_interrupt(sig);
}

static char *render(void (*fn)(FILE *, const struct cgt_run_config *),
		    const struct cgt_run_config *cfg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return NULL;
	fn(m, cfg);
	fclose(m);
	if (buf && len && buf[len - 1] == '\n')
		buf[len - 1] = '\0';
	return buf;
}

/*
 * Every command that runs the model: the options, the run's own fix-ups, a writable results
 * folder, and the banner and command line a report shows. @sets are the command's own tables
 * and the run's (cgt_tunables_run_set(@cfg)), each configuration zeroed; @help is --help's.
 * 0, -1 after --help, or a status.
 */
int cgt_cli_prepare(struct tunable_set *sets, size_t nsets, void (*help)(FILE *f), int argc,
		    char **argv, struct cgt_run_config *cfg)
{
	int ret;

	for (size_t s = 0; s < nsets; s++)
		cgt_tunables_table_defaults(sets[s].table, sets[s].n, sets[s].cfg);
	ret = cgt_tunables_run_parse(sets, nsets, help, argc, argv, cfg);
	if (ret)
		return ret;
	/* a bug that is a lock, not a code path, replaces tasklist_lock's variant */
	for (int b = 0; b < CGT_NR_BUGS; b++)
		if ((cfg->bugs & (1UL << b)) && cgt_bug_catalogue[b].tasklist_lock)
			cfg->tasklist_lock = cgt_lock_find(cgt_bug_catalogue[b].tasklist_lock);
	ret = cgt_dir_check_writable(cfg->out);
	if (ret) {
		fprintf(stderr, "cgtorture: --out: cannot write in '%s': %s\n", cfg->out,
			strerror(-ret));
		return CGT_EXIT_USAGE;
	}
	cgt_cli_render(cfg);
	return 0;
}

void cgt_cli_render(struct cgt_run_config *cfg)
{
	free((char *)cfg->banner);
	free((char *)cfg->command);
	cfg->banner = render(cgt_tunables_banner, cfg);
	cfg->command = render(cgt_tunables_command, cfg);
}

void cgt_cli_release(struct cgt_run_config *cfg)
{
	free((char *)cfg->banner);
	free((char *)cfg->command);
	cfg->banner = cfg->command = NULL;
}

void cgt_cli_on_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}
