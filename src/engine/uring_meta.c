/* uring_meta.c - the io_uring engine's metadata calls: one SQE, submitted and waited for
 * at once (I/O completions met while waiting are kept for the next reap). Where the kernel
 * lacks the op (ftruncate before Linux 6.9) or the ring is polled (hipri takes only reads
 * and writes) the call is the POSIX default. lseek and syncfs have no io_uring form and
 * stay the POSIX defaults (NULL in the engine table). */
#define _GNU_SOURCE
#include "config.h"
#ifdef HAVE_LIBURING
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "engine/uring.h"

#define URING_OP_FTRUNCATE	55	/* not in liburing 2.3's headers */

/* May the ring do op now? */
static int usable(const struct uring *u, unsigned op)
{
	return !u->broken && !u->iopoll && uring_has(u, op);
}

static struct io_uring_sqe *meta_sqe(struct uring *u)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);

	if (sqe)
		return sqe;
	if (uring_flush(u) < 0)
		return NULL;
	if (u->ring.flags & IORING_SETUP_SQPOLL)
		(void)io_uring_sqring_wait(&u->ring);
	return io_uring_get_sqe(&u->ring);
}

/* Submit the prepared metadata SQE (user_data 0) and wait for its completion. Returns
 * its res. Completions of requests met on the way go to ready for the next reap. */
static int meta_wait(struct uring *u, struct io_uring_sqe *sqe)
{
	int rc;

	io_uring_sqe_set_data(sqe, NULL);
	if ((rc = uring_flush(u)) < 0)
		return rc;
	for (;;) {
		struct io_uring_cqe *cqe;
		struct engine_req *r;
		int res;

		rc = io_uring_wait_cqe(&u->ring, &cqe);
		if (rc == -EINTR)
			continue;
		if (rc < 0) {
			u->broken = rc;	/* the SQE may still complete: never reuse the ring */
			return rc;
		}
		r = io_uring_cqe_get_data(cqe);
		res = cqe->res;
		io_uring_cqe_seen(&u->ring, cqe);
		if (!r)
			return res;
		r->res = res;
		u->ready[u->nready++] = r;
	}
}

int uring_openat(void *ctx, int dirfd, const char *path, int flags, mode_t mode)
{
	struct uring *u = ctx;
	struct io_uring_sqe *sqe;

	if (!usable(u, IORING_OP_OPENAT) || !(sqe = meta_sqe(u)))
		return engine_openat(&engine_psync, NULL, dirfd, path, flags, mode);
	io_uring_prep_openat(sqe, dirfd, path, flags | O_CLOEXEC, mode);
	return meta_wait(u, sqe);
}

int uring_close(void *ctx, int fd)
{
	struct uring *u = ctx;
	struct io_uring_sqe *sqe;

	uring_file_forget(u, fd);
	if (!usable(u, IORING_OP_CLOSE) || !(sqe = meta_sqe(u)))
		return engine_close(&engine_psync, NULL, fd);
	io_uring_prep_close(sqe, fd);
	return meta_wait(u, sqe);
}

static void statx_to_stat(const struct statx *x, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_dev = makedev(x->stx_dev_major, x->stx_dev_minor);
	st->st_ino = (ino_t)x->stx_ino;
	st->st_mode = x->stx_mode;
	st->st_nlink = x->stx_nlink;
	st->st_uid = x->stx_uid;
	st->st_gid = x->stx_gid;
	st->st_rdev = makedev(x->stx_rdev_major, x->stx_rdev_minor);
	st->st_size = (off_t)x->stx_size;
	st->st_blksize = (blksize_t)x->stx_blksize;
	st->st_blocks = (blkcnt_t)x->stx_blocks;
	st->st_atim.tv_sec = x->stx_atime.tv_sec;
	st->st_atim.tv_nsec = x->stx_atime.tv_nsec;
	st->st_mtim.tv_sec = x->stx_mtime.tv_sec;
	st->st_mtim.tv_nsec = x->stx_mtime.tv_nsec;
	st->st_ctim.tv_sec = x->stx_ctime.tv_sec;
	st->st_ctim.tv_nsec = x->stx_ctime.tv_nsec;
}

/* statx(dirfd, path, flags) on the ring into st. */
static int ring_statx(struct uring *u, int dirfd, const char *path, int flags,
		      struct stat *st)
{
	struct io_uring_sqe *sqe = meta_sqe(u);
	struct statx x;
	int rc;

	if (!sqe)
		return u->broken ? u->broken : -EAGAIN;
	io_uring_prep_statx(sqe, dirfd, path, flags, STATX_BASIC_STATS, &x);
	rc = meta_wait(u, sqe);
	if (rc == 0)
		statx_to_stat(&x, st);
	return rc;
}

int uring_fstat(void *ctx, int fd, struct stat *st)
{
	struct uring *u = ctx;

	if (!usable(u, IORING_OP_STATX))
		return engine_fstat(&engine_psync, NULL, fd, st);
	return ring_statx(u, fd, "", AT_EMPTY_PATH, st);
}

int uring_fstatat(void *ctx, int dirfd, const char *path, struct stat *st, int flags)
{
	struct uring *u = ctx;

	if (!usable(u, IORING_OP_STATX))
		return engine_fstatat(&engine_psync, NULL, dirfd, path, st, flags);
	return ring_statx(u, dirfd, path, flags, st);
}

int uring_unlinkat(void *ctx, int dirfd, const char *path, int flags)
{
	struct uring *u = ctx;
	struct io_uring_sqe *sqe;

	if (!usable(u, IORING_OP_UNLINKAT) || !(sqe = meta_sqe(u)))
		return engine_unlinkat(&engine_psync, NULL, dirfd, path, flags);
	io_uring_prep_unlinkat(sqe, dirfd, path, flags);
	return meta_wait(u, sqe);
}

int uring_mkdirat(void *ctx, int dirfd, const char *path, mode_t mode)
{
	struct uring *u = ctx;
	struct io_uring_sqe *sqe;

	if (!usable(u, IORING_OP_MKDIRAT) || !(sqe = meta_sqe(u)))
		return engine_mkdirat(&engine_psync, NULL, dirfd, path, mode);
	io_uring_prep_mkdirat(sqe, dirfd, path, mode);
	return meta_wait(u, sqe);
}

int uring_renameat(void *ctx, int odirfd, const char *opath, int ndirfd, const char *npath)
{
	struct uring *u = ctx;
	struct io_uring_sqe *sqe;

	if (!usable(u, IORING_OP_RENAMEAT) || !(sqe = meta_sqe(u)))
		return engine_renameat(&engine_psync, NULL, odirfd, opath, ndirfd, npath);
	io_uring_prep_renameat(sqe, odirfd, opath, ndirfd, npath, 0);
	return meta_wait(u, sqe);
}

int uring_linkat(void *ctx, int odirfd, const char *opath, int ndirfd, const char *npath)
{
	struct uring *u = ctx;
	struct io_uring_sqe *sqe;

	if (!usable(u, IORING_OP_LINKAT) || !(sqe = meta_sqe(u)))
		return engine_linkat(&engine_psync, NULL, odirfd, opath, ndirfd, npath);
	io_uring_prep_linkat(sqe, odirfd, opath, ndirfd, npath, 0);
	return meta_wait(u, sqe);
}

int uring_symlinkat(void *ctx, const char *target, int dirfd, const char *path)
{
	struct uring *u = ctx;
	struct io_uring_sqe *sqe;

	if (!usable(u, IORING_OP_SYMLINKAT) || !(sqe = meta_sqe(u)))
		return engine_symlinkat(&engine_psync, NULL, target, dirfd, path);
	io_uring_prep_symlinkat(sqe, target, dirfd, path);
	return meta_wait(u, sqe);
}

int uring_ftruncate(void *ctx, int fd, uint64_t len)
{
	struct uring *u = ctx;
	struct io_uring_sqe *sqe;

	if (len > (uint64_t)INT64_MAX)
		return -EFBIG;
	if (!usable(u, URING_OP_FTRUNCATE) || !(sqe = meta_sqe(u)))
		return engine_ftruncate(&engine_psync, NULL, fd, len);
	/* the kernel reads the length from the offset field */
	io_uring_prep_rw(URING_OP_FTRUNCATE, sqe, fd, NULL, 0, len);
	return meta_wait(u, sqe);
}

int uring_fallocate(void *ctx, int fd, uint64_t off, uint64_t len)
{
	struct uring *u = ctx;
	struct io_uring_sqe *sqe;
	int rc;

	if (off > (uint64_t)INT64_MAX || len > (uint64_t)INT64_MAX - off)
		return -EFBIG;
	if (!usable(u, IORING_OP_FALLOCATE) || !(sqe = meta_sqe(u)))
		return engine_fallocate(&engine_psync, NULL, fd, off, len);
	io_uring_prep_fallocate(sqe, fd, 0, (off_t)off, (off_t)len);
	rc = meta_wait(u, sqe);
	if (rc == -EOPNOTSUPP)	/* posix_fallocate writes the blocks where fallocate can't */
		return engine_fallocate(&engine_psync, NULL, fd, off, len);
	return rc;
}

#endif /* HAVE_LIBURING */
