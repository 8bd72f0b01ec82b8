/* engine_meta.c - metadata calls through an engine, with the POSIX defaults used where an
 * engine leaves a pointer NULL; the epoch that tells engines' per-fd caches to look
 * again. Thread-safe. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "config.h"
#include "engine/engine.h"

#define RET(x) ((x) < 0 ? -errno : 0)

_Atomic unsigned long engine_epoch;

/* After the call, so that a cache filled before it sees the count move (see engine.h). */
static int bump(int rc)
{
	atomic_fetch_add_explicit(&engine_epoch, 1, memory_order_relaxed);
	return rc;
}

int engine_openat(const struct engine *e, void *ctx, int dirfd, const char *path, int flags,
		  mode_t mode)
{
	int fd;

	if (e->openat)
		return e->openat(ctx, dirfd, path, flags, mode);
	fd = openat(dirfd, path, flags | O_CLOEXEC, mode);
	return fd < 0 ? -errno : fd;
}

int engine_close(const struct engine *e, void *ctx, int fd)
{
	if (e->close)
		return bump(e->close(ctx, fd));
	return bump(RET(close(fd)));
}

int engine_fstat(const struct engine *e, void *ctx, int fd, struct stat *st)
{
	if (e->fstat)
		return e->fstat(ctx, fd, st);
	return RET(fstat(fd, st));
}

int engine_fstatat(const struct engine *e, void *ctx, int dirfd, const char *path,
		   struct stat *st, int flags)
{
	if (e->fstatat)
		return e->fstatat(ctx, dirfd, path, st, flags);
	return RET(fstatat(dirfd, path, st, flags));
}

int engine_unlinkat(const struct engine *e, void *ctx, int dirfd, const char *path, int flags)
{
	if (e->unlinkat)
		return e->unlinkat(ctx, dirfd, path, flags);
	return RET(unlinkat(dirfd, path, flags));
}

int engine_mkdirat(const struct engine *e, void *ctx, int dirfd, const char *path, mode_t mode)
{
	if (e->mkdirat)
		return e->mkdirat(ctx, dirfd, path, mode);
	return RET(mkdirat(dirfd, path, mode));
}

int engine_renameat(const struct engine *e, void *ctx, int odirfd, const char *opath,
		    int ndirfd, const char *npath)
{
	if (e->renameat)
		return e->renameat(ctx, odirfd, opath, ndirfd, npath);
	return RET(renameat(odirfd, opath, ndirfd, npath));
}

int engine_linkat(const struct engine *e, void *ctx, int odirfd, const char *opath,
		  int ndirfd, const char *npath)
{
	if (e->linkat)
		return e->linkat(ctx, odirfd, opath, ndirfd, npath);
	return RET(linkat(odirfd, opath, ndirfd, npath, 0));
}

int engine_symlinkat(const struct engine *e, void *ctx, const char *target, int dirfd,
		     const char *path)
{
	if (e->symlinkat)
		return e->symlinkat(ctx, target, dirfd, path);
	return RET(symlinkat(target, dirfd, path));
}

int engine_ftruncate(const struct engine *e, void *ctx, int fd, uint64_t len)
{
	if (e->ftruncate)
		return bump(e->ftruncate(ctx, fd, len));
	if (len > (uint64_t)INT64_MAX)
		return -EFBIG;
	return bump(RET(ftruncate(fd, (off_t)len)));
}

int engine_fallocate(const struct engine *e, void *ctx, int fd, uint64_t off, uint64_t len)
{
	int rc;

	if (e->fallocate)
		return bump(e->fallocate(ctx, fd, off, len));
	if (off > (uint64_t)INT64_MAX || len > (uint64_t)INT64_MAX - off)
		return -EFBIG;
	rc = posix_fallocate(fd, (off_t)off, (off_t)len);	/* returns the error number */
	return bump(rc ? -rc : 0);
}

int64_t engine_lseek(const struct engine *e, void *ctx, int fd, int64_t off, int whence)
{
	off_t r;

	if (e->lseek)
		return e->lseek(ctx, fd, off, whence);
	r = lseek(fd, (off_t)off, whence);
	return r < 0 ? -errno : (int64_t)r;
}

int engine_syncfs(const struct engine *e, void *ctx, int fd)
{
	if (e->syncfs)
		return e->syncfs(ctx, fd);
	if (fd < 0) {
		sync();
		return 0;
	}
#ifdef HAVE_SYNCFS
	return RET(syncfs(fd));
#else
	sync();
	return 0;
#endif
}

int engine_async_honest(const struct engine *e, int fd)
{
	if (!(e->flags & ENGINE_F_ASYNC))
		return 0;
	if (e->flags & ENGINE_F_DIRECT_ASYNC) {
#ifdef HAVE_O_DIRECT
		int fl = fcntl(fd, F_GETFL);

		return fl >= 0 && (fl & O_DIRECT);
#else
		(void)fd;
		return 0;
#endif
	}
	return 1;
}

const char *engine_hint(const struct engine *e, const struct engine_opts *o, int err)
{
	return e->hint ? e->hint(o, err) : NULL;
}
