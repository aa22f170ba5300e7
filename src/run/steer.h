/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rare paths tried on purpose (steer.c): in a free-running run, a thread that stands where a
 * path's window opens (cgt_window) is held there a while, one time in four, for as long as
 * the run has taken that path fewer than CGT_STEER_ENOUGH times. A bug on a path taken six
 * times in ten seconds is otherwise tried six times.
 */
#ifndef CGT_STEER_H
#define CGT_STEER_H

#include <stdint.h>

#define CGT_STEER_ENOUGH	64

void cgt_steer_install(uint64_t seed);
/* The driver, now and then: which windows still want holding (from the run's coverage). */
void cgt_steer_refresh(void);
/* The run's end, or a controlled run: no more holding. */
void cgt_steer_remove(void);

#endif
