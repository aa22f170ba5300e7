/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lookups by name in the registries (lock variants, kernel eras, schedulers, workloads, bugs):
 * each is a table of @n entries, and @name_at(i) names entry i (NULL: leave it out of a list).
 */
#ifndef CGT_BASE_REGISTRY_H
#define CGT_BASE_REGISTRY_H

#include <stddef.h>

/* The index of the entry named @name, or -1. */
long cgt_registry_index(size_t n, const char *(*name_at)(size_t i), const char *name);
/* "a, b, c": the entries' names into @buf (once: a filled @buf is returned as it is). */
const char *cgt_registry_names(char *buf, size_t len, size_t n, const char *(*name_at)(size_t i));

#endif
