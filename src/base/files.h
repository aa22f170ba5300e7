/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Files of the results folders (files.c): folders made as mkdir -p does, files written
 * whole or not at all, and the time stamp that names a run's or a comparison's folder.
 */
#ifndef CGT_FILES_H
#define CGT_FILES_H

#include <stddef.h>

/* @dir and every folder above it, as mkdir -p; 0, or -errno. */
int cgt_mkdir_p(const char *dir);
/* 0 if @dir can be made and written, else -errno (checked before a run starts). */
int cgt_dir_check_writable(const char *dir);
/* @dir/@name written through a temporary file and a rename: never seen half-written. */
int cgt_write_atomic(const char *dir, const char *name, const char *buf, size_t len);
/* "@dir/@name" (just @name if @dir is empty), malloc'd; NULL if no memory. */
char *cgt_path_join(const char *dir, const char *name);
/* "@dir/@name" read whole, NUL-terminated, malloc'd, its size in @len; NULL if unreadable. */
char *cgt_read_file(const char *dir, const char *name, size_t *len);
/* The local date and time now as "20260102-150405", the stamp of a results folder's name. */
void cgt_time_stamp(char *buf, size_t len);

#endif
