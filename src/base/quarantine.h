/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Freeing model objects as the kernel's slab debugging does (SLUB's POISON_FREE): in the
 * plain build an object freed is filled with 0x6b and kept back from malloc for a while, so a
 * late access reads poison (a pointer that faults, a count no live object has) instead of
 * whatever took its place. The sanitizer builds free at once: ASan keeps its own quarantine
 * and reports the access, TSan sees the free.
 */
#ifndef CGT_QUARANTINE_H
#define CGT_QUARANTINE_H

#include <stddef.h>

#define CGT_POISON_FREE		0x6b
#define CGT_POISON_INT		0x6b6b6b6b	/* an int field of a poisoned object */

/* free(@p) of an object of @size bytes, poisoned and held back first in the plain build. */
void cgt_free_poisoned(void *p, size_t size);

#endif
