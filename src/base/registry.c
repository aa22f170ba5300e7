// SPDX-License-Identifier: GPL-2.0
/* Lookups by name in the registries (registry.h). */
#include <stdio.h>
#include <string.h>

#include "registry.h"

long cgt_registry_index(size_t n, const char *(*name_at)(size_t i), const char *name)
{
	for (size_t i = 0; i < n; i++) {
		const char *s = name_at(i);

		if (s && !strcmp(s, name))
			return (long)i;
	}
	return -1;
}

const char *cgt_registry_names(char *buf, size_t len, size_t n, const char *(*name_at)(size_t i))
{
	size_t off = 0;

	if (buf[0])
		return buf;
	for (size_t i = 0; i < n; i++) {
		const char *s = name_at(i);

		if (s && off < len)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "", s);
	}
	return buf;
}
