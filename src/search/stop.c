// SPDX-License-Identifier: GPL-2.0
/*
 * A search that stops short (the exit-status contract, base/exit_status.h): cut short by a
 * signal, it says how far it got, never "not found" nor a pass, and exits 128 + the signal;
 * unable to write its runs' reports, it says where and exits as a tool error.
 */
#define _GNU_SOURCE	/* sigabbrev_np */
#include <stdio.h>
#include <string.h>

#include "search.h"
#include "child.h"
#include "../base/files.h"

int cgt_search_interrupted(const char *cmd, long done, long total, const char *what)
{
	int sig = cgt_run_interrupted();
	const char *name = sigabbrev_np(sig);

	printf("%s: interrupted by SIG%s after %ld of %ld %s: partial\n", cmd,
	       name ? name : "?", done, total, what);
	return CGT_EXIT_SIGNAL + sig;
}

bool cgt_search_unwritten(const char *cmd, const struct cgt_run_config *cfg,
			  const struct cgt_child_result *r)
{
	if (r->status != CGT_EXIT_TOOL)
		return false;
	fprintf(stderr, "cgtorture: %s: cannot write its runs' reports in %s: stopped\n", cmd,
		cfg->out);
	return true;
}

int cgt_search_folder(const char *cmd, const char *dir, const char *instead)
{
	int ret = cgt_dir_check_writable(dir);

	if (!ret)
		return 0;
	fprintf(stderr, "cgtorture: %s: cannot write in '%s': %s%s\n", cmd, dir, strerror(-ret),
		instead);
	return CGT_EXIT_TOOL;
}
