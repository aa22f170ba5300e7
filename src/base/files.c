// SPDX-License-Identifier: GPL-2.0
/*
 * Files of the results folders: a report or a comparison is written into a folder made as
 * mkdir -p does, each file through a temporary and a rename, so a reader never sees half
 * of one; folders are named by the local time they were made.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "files.h"

int cgt_mkdir_p(const char *dir)
{
	char path[PATH_MAX];
	size_t len = strlen(dir);

	if (len >= sizeof(path))
		return -ENAMETOOLONG;
	memcpy(path, dir, len + 1);
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0777) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(path, 0777) && errno != EEXIST)
		return -errno;
	return 0;
}

int cgt_dir_check_writable(const char *dir)
{
	struct stat st;
	int ret = cgt_mkdir_p(dir);

	if (ret)
		return ret;
	/* cgt_mkdir_p takes EEXIST for success: an existing plain file is no folder */
	if (stat(dir, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	return access(dir, W_OK | X_OK) ? -errno : 0;
}

int cgt_write_atomic(const char *dir, const char *name, const char *buf, size_t len)
{
	char tmp[PATH_MAX], final[PATH_MAX];
	ssize_t n;
	int fd;

	snprintf(tmp, sizeof(tmp), "%s/.%s.tmp", dir, name);
	snprintf(final, sizeof(final), "%s/%s", dir, name);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (fd < 0)
		return -errno;
	for (size_t off = 0; off < len; off += (size_t)n) {
		n = write(fd, buf + off, len - off);
		if (n < 0) {
			close(fd);
			unlink(tmp);
			return -errno;
		}
	}
	if (fsync(fd) || close(fd) || rename(tmp, final)) {
		unlink(tmp);
		return -errno;
	}
	return 0;
}

void cgt_time_stamp(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(buf, len, "%Y%m%d-%H%M%S", &tm);
}

char *cgt_path_join(const char *dir, const char *name)
{
	char *path = malloc(strlen(dir) + strlen(name) + 2);

	if (path)
		sprintf(path, "%s%s%s", dir, dir[0] ? "/" : "", name);
	return path;
}

char *cgt_read_file(const char *dir, const char *name, size_t *len)
{
	char *path = cgt_path_join(dir, name), *buf = NULL;
	FILE *f = path ? fopen(path, "r") : NULL;
	size_t cap = 0, n;

	*len = 0;
	free(path);
	if (!f)
		return NULL;
	do {
		char *b;

		if (*len + 65536 > cap) {
			b = realloc(buf, cap = cap * 2 + 65536);
			if (!b)
				break;
			buf = b;
		}
		n = fread(buf + *len, 1, cap - *len - 1, f);
		*len += n;
	} while (n);
	fclose(f);
	if (buf)
		buf[*len] = '\0';
	return buf;
}
