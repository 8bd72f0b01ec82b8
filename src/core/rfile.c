/* rfile.c - reading whole regular files without blocking on a FIFO (rfile.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/rfile.h"
#include "core/cleanup.h"

int rfile_open(const char *path, unsigned flags)
{
	struct stat st;
	int fd, fl, rc;

	/* O_NONBLOCK: opening a FIFO without a writer must not wait */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		rc = -errno;
		close(fd);
		return rc;
	}
	if (!S_ISREG(st.st_mode) && !((flags & RFILE_PIPES) && S_ISFIFO(st.st_mode)) &&
	    !((flags & RFILE_BLOCKDEV) && S_ISBLK(st.st_mode))) {
		close(fd);
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	}
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
		rc = -errno;
		close(fd);
		return rc;
	}
	return fd;
}

int rfile_read(const char *path, unsigned flags, size_t max, char **buf, size_t *len)
{
	size_t cap = 4096, off = 0;
	char *b, *nb;
	ssize_t n;
	int fd, rc = 0;

	*buf = NULL;
	*len = 0;
	fd = rfile_open(path, flags);
	if (fd < 0)
		return fd;
	b = malloc(cap + 1);
	if (!b) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		if (off == cap) {
			if (cap > max) {
				rc = -EFBIG;
				break;
			}
			nb = realloc(b, cap * 2 + 1);
			if (!nb) {
				rc = -ENOMEM;
				break;
			}
			b = nb;
			cap *= 2;
		}
		n = read(fd, b + off, cap - off);
		if (n < 0 && errno == EINTR && !sig_stop_requested())
			continue;
		if (n < 0) {
			rc = -errno;
			break;
		}
		if (n == 0)
			break;
		off += (size_t)n;
	}
	if (close(fd) < 0 && rc == 0)
		rc = -errno;
	if (rc == 0 && off > max)
		rc = -EFBIG;
	if (rc < 0) {
		free(b);
		return rc;
	}
	b[off] = '\0';
	*buf = b;
	*len = off;
	return 0;
}

const char *rfile_strerror(int rc)
{
	if (rc == -EINVAL)
		return "not a regular file";
	if (rc == -EFBIG)
		return "larger than the limit";
	return strerror(-rc);
}
