/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CGT_COMPARE_CLI_H
#define CGT_COMPARE_CLI_H

/* cgtorture compare [OPTION...]: the exit status */
int cgt_compare_main(int argc, char **argv);

#endif
