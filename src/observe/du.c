/* du.c - bytes allocated under a path, as du(1) counts them (st_blocks). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "observe/du.h"

/* Sum st_blocks under the directory fd (closed here). */
static int tree_size(int dfd, uint64_t *bytes, int depth)
{
	DIR *d = fdopendir(dfd);
	struct dirent *e;
	struct stat st;

	if (!d) {
		close(dfd);
		return -errno;
	}
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW))
			continue;	/* gone meanwhile (the server deletes files) */
		*bytes += (uint64_t)st.st_blocks * 512u;
		if (S_ISDIR(st.st_mode) && depth < 16) {
			int fd = openat(dirfd(d), e->d_name,
					O_RDONLY | O_DIRECTORY | O_NOFOLLOW);

			if (fd >= 0)
				tree_size(fd, bytes, depth + 1);
		}
	}
	closedir(d);
	return 0;
}

int du_bytes(const char *path, uint64_t *bytes)
{
	struct stat st;
	int fd;

	*bytes = 0;
	if (lstat(path, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode)) {
		*bytes = (uint64_t)st.st_blocks * 512u;
		return 0;
	}
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	return tree_size(fd, bytes, 0);
}
