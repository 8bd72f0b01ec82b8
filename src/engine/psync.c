/* psync.c - the synchronous POSIX engine: one system call per request, completed inside
 * submit(). Metadata calls are the POSIX defaults. Stateless, so thread-safe. */
#define _GNU_SOURCE
#include <errno.h>
#include <unistd.h>

#include "config.h"
#include "engine/engine.h"
#include "engine/engine_int.h"
#ifdef HAVE_SENDFILE
#include <sys/sendfile.h>
#endif

int64_t engine_sync_one(struct engine_req *r)
{
	ssize_t n;

	switch (r->op) {
	case ENGINE_OP_READ:
		n = read(r->fd, r->buf, r->len);
		break;
	case ENGINE_OP_WRITE:
		n = write(r->fd, r->buf, r->len);
		break;
	case ENGINE_OP_PREAD:
		n = pread(r->fd, r->buf, r->len, (off_t)r->off);
		break;
	case ENGINE_OP_PWRITE:
		n = pwrite(r->fd, r->buf, r->len, (off_t)r->off);
		break;
	case ENGINE_OP_FSYNC:
		n = fsync(r->fd);
		break;
	case ENGINE_OP_FDATASYNC:
#ifdef HAVE_FDATASYNC
		n = fdatasync(r->fd);
#else
		n = fsync(r->fd);
#endif
		break;
	case ENGINE_OP_COPY_RANGE:
#ifdef HAVE_COPY_FILE_RANGE
		n = copy_file_range(r->fd, NULL, r->fd_out, NULL, r->len, 0);
		break;
#else
		return -ENOSYS;
#endif
	case ENGINE_OP_SENDFILE:
#ifdef HAVE_SENDFILE
		n = sendfile(r->fd_out, r->fd, NULL, r->len);
		break;
#else
		return -ENOSYS;
#endif
	case ENGINE_OP_DISCARD:
		return engine_discard(r->fd, r->off, r->len);
	default:
		return -EINVAL;
	}
	return n < 0 ? -errno : (int64_t)n;
}

static int psync_submit(void *ctx, struct engine_req **reqs, unsigned n)
{
	unsigned i;

	(void)ctx;
	for (i = 0; i < n; i++)
		reqs[i]->res = engine_sync_one(reqs[i]);
	return (int)n;
}

/* fio's sync (read/write after lseek) is measured as pread/pwrite: the same system
 * call per request, without the lseek */
static const char *const psync_aliases[] = { "sync", NULL };

const struct engine engine_psync = {
	.name = "psync",
	.summary = "synchronous read/write/pread/pwrite, one system call per request",
	.flags = 0,
	.aliases = psync_aliases,
	.submit = psync_submit,
	/* the per-character path is the system calls themselves */
	.cwrite = write,
	.cread = read,
};
