/* scratch.c - scratch directories, free space and the mark on files iobattery made. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "config.h"
#include "fs/scratch.h"
#ifdef HAVE_XATTR
#include <sys/xattr.h>
#endif

#define MARK_NAME "user.iobattery"

struct scratch {
	int slot;
	char dir[PATH_MAX];
};

int scratch_create(const char *parent, struct scratch **out)
{
	struct scratch *s;
	struct stat st;
	char abs[PATH_MAX];
	int n;

	if (stat(parent, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (access(parent, W_OK | X_OK) < 0)
		return -errno;
	if (!realpath(parent, abs))
		return -errno;
	(void)scratch_sweep(abs);	/* what killed runs of this machine left */
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	n = snprintf(s->dir, sizeof(s->dir), "%s/iobattery.XXXXXX",
		     strcmp(abs, "/") ? abs : "");
	if (n < 0 || (size_t)n >= sizeof(s->dir)) {
		free(s);
		return -ENAMETOOLONG;
	}
	if (!mkdtemp(s->dir)) {
		n = -errno;
		free(s);
		return n;
	}
	(void)scratch_mark_owner(s->dir);	/* none where xattrs are not kept */
	s->slot = cleanup_register(s->dir, 1);
	if (s->slot < 0) {
		n = s->slot;
		rmdir(s->dir);
		free(s);
		return n;
	}
	*out = s;
	return 0;
}

int scratch_adopt(const char *dir, struct scratch **out)
{
	struct scratch *s;
	struct stat st;

	if (lstat(dir, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (strlen(dir) >= PATH_MAX)
		return -ENAMETOOLONG;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->slot = -1;		/* not ours to remove */
	strcpy(s->dir, dir);
	*out = s;
	return 0;
}

const char *scratch_dir(const struct scratch *s)
{
	return s->dir;
}

int scratch_path(const struct scratch *s, const char *name, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/%s", s->dir, name);

	return (n < 0 || (size_t)n >= len) ? -ENAMETOOLONG : 0;
}

int scratch_destroy(struct scratch *s)
{
	int rc;

	if (!s)
		return 0;
	rc = cleanup_remove(s->slot);
	free(s);
	return rc;
}

void scratch_keep(struct scratch *s)
{
	if (!s)
		return;
	scratch_unmark_owner(s->dir);	/* the user's now: no sweep may take it */
	cleanup_unregister(s->slot);
	free(s);
}

int space_check(const char *dir, uint64_t need, uint64_t *avail)
{
	struct statvfs sv;
	uint64_t free_b, want;

	if (statvfs(dir, &sv) < 0)
		return -errno;
	free_b = (uint64_t)sv.f_bavail * (uint64_t)(sv.f_frsize ? sv.f_frsize : sv.f_bsize);
	if (avail)
		*avail = free_b;
	/* a file system that keeps no block count (ramfs) cannot be checked */
	if (sv.f_blocks == 0)
		return 0;
	want = need + need / 100 + (16u << 20);
	return free_b >= want ? 0 : -ENOSPC;
}

int space_fs_id(const char *dir, uint64_t *dev, uint64_t *size)
{
	struct statvfs sv;
	struct stat st;

	if (stat(dir, &st) < 0 || statvfs(dir, &sv) < 0)
		return -errno;
	*dev = (uint64_t)st.st_dev;
	*size = (uint64_t)sv.f_blocks * (uint64_t)(sv.f_frsize ? sv.f_frsize : sv.f_bsize);
	return 0;
}

int mark_created(int fd)
{
#ifdef HAVE_XATTR
	if (fsetxattr(fd, MARK_NAME, "1", 1, 0) < 0)
		return -errno;
	return 0;
#else
	(void)fd;
	return -ENOTSUP;
#endif
}

const char *mark_hint(void)
{
#ifdef HAVE_XATTR
	return "";
#else
	return " (this build cannot mark the files it makes: no extended attributes)";
#endif
}

int is_marked(const char *path)
{
#ifdef HAVE_XATTR
	char v[4];
	ssize_t n = lgetxattr(path, MARK_NAME, v, sizeof(v));

	if (n >= 0)
		return 1;
	if (errno == ENOENT || errno == ENOTDIR)
		return -errno;
	return 0;
#else
	(void)path;
	return 0;
#endif
}
