/* postmark_io.c - PostMark's file operations on a real file system.
 *
 * Each location is a scratch directory of ours (mkdtemp inside the user's directory) held
 * open; files are opened relative to it by name ("123" or "s4/123"), as PostMark opens
 * them relative to its working directory. Reads and writes go through the runner's engine
 * (a synchronous one).
 *
 * Buffering as PostMark: with "set buffering true" PostMark uses stdio (fopen/fwrite/fread),
 * whose buffer gathers its 512-byte blocks into one system call per buffer; we issue the
 * same calls directly: chunks of the buffer size (the directory's st_blksize, as the C
 * library takes it) instead of the block size. With buffering false, one call per block
 * and one for the remainder, as PostMark's write()/read() path.
 * fsync: fsync(2) before closing each created or appended file. direct: O_DIRECT; a
 * transfer the file system refuses for alignment (a tail, an append at an odd offset) is
 * retried without O_DIRECT on that descriptor and counted. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "engine/engine.h"
#include "runner/vhook.h"
#include "workload/postmark/postmark.h"
#include "workload/postmark/postmark_io.h"

#ifndef O_DIRECT
#define O_DIRECT 0
#endif

#define PM_ALIGN 4096u

/* The operations are timed whole by the algorithm (op_begin/op_end), so the requests
 * inside them go through the engine untimed (ioctx_call). */
static int rw_all(struct pm_io_ctx *x, int fd, int op, char *buf, uint32_t len)
{
	struct engine_req *rq = x->rq;
	uint32_t done = 0;

	while (done < len) {
		rq->op = op;
		rq->fd = fd;
		rq->buf = buf + done;
		rq->len = len - done;
		ioctx_call(&x->io, rq);
		if (rq->res == -EINVAL && x->direct) {
			int fl = fcntl(fd, F_GETFL);

			if (fl < 0 || !(fl & O_DIRECT))
				return -EINVAL;
			if (fcntl(fd, F_SETFL, fl & ~O_DIRECT) < 0)
				return -errno;
			x->direct_fallbacks++;
			continue;
		}
		if (rq->res < 0)
			return (int)rq->res;
		if (rq->res == 0)
			return op == ENGINE_OP_READ ? 0 : -EIO;
		done += (uint32_t)rq->res;
	}
	return 0;
}

/* Write len bytes from src in chunks (block or buffer sized). */
static int write_data(struct pm_io_ctx *x, int fd, const char *src, uint32_t len)
{
	uint32_t off = 0, n;
	int r;

	while (off < len) {
		n = len - off < x->wchunk ? len - off : x->wchunk;
		r = rw_all(x, fd, ENGINE_OP_WRITE, (char *)src + off, n);
		if (r < 0)
			return r;
		off += n;
	}
	if (x->fsync)
		return ioctx_sync(&x->io, fd, 0);
	return 0;
}

/* The file's name in its location: PostMark's, with the rank's prefix when shared. */
static int file_name(const struct pm_io_ctx *x, const struct pm_file *f, char *buf, size_t len)
{
	char base[32], *slash;
	int n;

	if (pm_file_name(f, x->subdirs > 1, base, sizeof(base)) < 0)
		return -ENAMETOOLONG;
	if (!x->prefix[0]) {
		n = snprintf(buf, len, "%s", base);
	} else if ((slash = strrchr(base, '/'))) {
		*slash = 0;
		n = snprintf(buf, len, "%s/%s%s", base, x->prefix, slash + 1);
	} else {
		n = snprintf(buf, len, "%s%s", x->prefix, base);
	}
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static int open_file(struct pm_io_ctx *x, const struct pm_file *f, int flags)
{
	char name[48], path[4096];
	int fd, rc;

	if (file_name(x, f, name, sizeof(name)) < 0)
		return -ENAMETOOLONG;
	fd = ioctx_openat(&x->io, x->dirfd[f->loc], name, flags | O_CLOEXEC | O_NOFOLLOW |
			  (x->direct ? O_DIRECT : 0), 0644);
	/* --verify: a file opened for writing is stamped (one pass: appends continue it) */
	if (fd >= 0 && x->verify && (flags & (O_WRONLY | O_RDWR))) {
		snprintf(path, sizeof(path), "%s/%s", x->dirs[f->loc], name);
		if ((rc = vhook_file(&x->io, fd, path, f->id, 1)) < 0) {
			ioctx_close(&x->io, fd);
			return rc;
		}
	}
	return fd;
}

static int close_file(struct pm_io_ctx *x, int fd, int r)
{
	int rc = ioctx_close(&x->io, fd);

	return r == 0 ? rc : r;
}

static int io_create(void *ctx, const struct pm_file *f, const char *src)
{
	struct pm_io_ctx *x = ctx;
	/* stdio's "w" truncates; PostMark's raw path opens O_RDWR|O_CREAT */
	int fd = open_file(x, f, x->buffered ? O_WRONLY | O_CREAT | O_TRUNC : O_RDWR | O_CREAT);

	if (fd < 0)
		return fd;
	return close_file(x, fd, write_data(x, fd, src, f->size));
}

static int io_append(void *ctx, const struct pm_file *f, const char *src, uint32_t len)
{
	struct pm_io_ctx *x = ctx;
	int fd = open_file(x, f, x->buffered ? O_WRONLY | O_APPEND : O_RDWR | O_APPEND);

	if (fd < 0)
		return fd;
	return close_file(x, fd, write_data(x, fd, src, len));
}

static int io_read(void *ctx, const struct pm_file *f)
{
	struct pm_io_ctx *x = ctx;
	struct engine_req *rq = x->rq;
	uint32_t left = f->size, n;
	int fd = open_file(x, f, O_RDONLY), r = 0;

	if (fd < 0)
		return fd;
	while (left) {
		n = left < x->rchunk ? left : x->rchunk;
		if (x->direct)
			n = x->rchunk;	/* whole aligned blocks; the last one comes back short */
		rq->op = ENGINE_OP_READ;
		rq->fd = fd;
		rq->buf = x->rbuf;
		rq->len = n;
		ioctx_call(&x->io, rq);
		if (rq->res == -EINVAL && x->direct) {
			r = fcntl(fd, F_GETFL);
			if (r >= 0 && (r & O_DIRECT) && fcntl(fd, F_SETFL, r & ~O_DIRECT) == 0) {
				x->direct_fallbacks++;
				r = 0;
				continue;
			}
			r = -EINVAL;
			break;
		}
		if (rq->res < 0) {
			r = (int)rq->res;
			break;
		}
		if (rq->res == 0)
			break;		/* shorter than the table says: nothing more to read */
		left -= (uint32_t)rq->res > left ? left : (uint32_t)rq->res;
	}
	return close_file(x, fd, r);
}

static int io_remove(void *ctx, const struct pm_file *f)
{
	struct pm_io_ctx *x = ctx;
	char name[48];

	if (file_name(x, f, name, sizeof(name)) < 0)
		return -ENAMETOOLONG;
	return ioctx_unlinkat(&x->io, x->dirfd[f->loc], name, 0);
}

const struct pm_io pm_io_files = { io_create, io_read, io_append, io_remove };

static uint32_t round_up(uint32_t v, uint32_t a)
{
	return (v + a - 1) / a * a;
}

int pm_io_open(struct pm_io_ctx *x, const struct pm_config *c, const struct engine *eng,
	       char *const *dirs, int rank, char *err, size_t errlen)
{
	unsigned l, nloc = c->nlocs ? c->nlocs : 1;
	uint32_t s;
	struct stat sb;
	char name[32];
	int r;

	memset(x, 0, sizeof(*x));
	for (l = 0; l < PM_MAX_LOCS; l++)
		x->dirfd[l] = -1;
	r = ioctx_init(&x->io, eng, 1);
	if (r < 0) {
		snprintf(err, errlen, "cannot start the %s engine: %s", eng->name, strerror(-r));
		return r;
	}
	x->rq = ioctx_get(&x->io);
	if (rank >= 0)
		snprintf(x->prefix, sizeof(x->prefix), "r%d.", rank);
	x->dirs = dirs;
	x->subdirs = c->subdirs;
	x->buffered = c->buffered;
	x->fsync = c->fsync;
	x->direct = c->direct;
	x->nloc = nloc;
	if (c->direct && !O_DIRECT) {
		snprintf(err, errlen, "direct I/O is not available on this system");
		return -ENOTSUP;
	}
	for (l = 0; l < nloc; l++) {
		x->dirfd[l] = ioctx_open(&x->io, dirs[l], O_RDONLY | O_DIRECTORY | O_NOFOLLOW, 0);
		if (x->dirfd[l] < 0) {
			r = x->dirfd[l];
			snprintf(err, errlen, "cannot open directory: '%s': %s", dirs[l],
				 strerror(-r));
			goto fail;
		}
		for (s = 0; c->subdirs > 1 && s < c->subdirs; s++) {
			snprintf(name, sizeof(name), "s%u", s);
			r = ioctx_mkdirat(&x->io, x->dirfd[l], name, 0700);
			if (r == -EEXIST && rank >= 0)
				r = 0;		/* another rank made it */
			if (r < 0) {
				snprintf(err, errlen, "cannot create subdirectory: '%s/%s': %s",
					 dirs[l], name, strerror(-r));
				goto fail;
			}
		}
	}
	x->bufsz = 4096;
	if (ioctx_fstat(&x->io, x->dirfd[0], &sb) == 0 && sb.st_blksize > 0 &&
	    sb.st_blksize <= (1 << 20))
		x->bufsz = (uint32_t)sb.st_blksize;
	x->wchunk = c->buffered ? x->bufsz : c->write_block;
	x->rchunk = c->buffered ? x->bufsz : c->read_block;
	if (c->direct)
		x->rchunk = round_up(x->rchunk, PM_ALIGN);
	if (posix_memalign((void **)&x->rbuf, PM_ALIGN, x->rchunk)) {
		r = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	return 0;
fail:
	pm_io_close(x);
	return r;
}

void pm_io_close(struct pm_io_ctx *x)
{
	char name[32];
	unsigned l;
	uint32_t s;

	for (l = 0; l < PM_MAX_LOCS; l++) {
		if (x->dirfd[l] < 0)
			continue;
		for (s = 0; x->subdirs > 1 && s < x->subdirs; s++) {
			snprintf(name, sizeof(name), "s%u", s);
			/* when not empty, the scratch removal that follows takes it */
			(void)ioctx_unlinkat(&x->io, x->dirfd[l], name, AT_REMOVEDIR);
		}
		(void)ioctx_close(&x->io, x->dirfd[l]);
		x->dirfd[l] = -1;
	}
	if (x->io.e) {
		ioctx_put(&x->io, x->rq);
		ioctx_exit(&x->io);
	}
	free(x->rbuf);
	x->rbuf = NULL;
}
