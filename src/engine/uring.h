/* uring.h - the io_uring engine's private state, shared by uring.c (the ring, submit,
 * reap, registered files and buffers) and uring_meta.c (metadata calls on the ring).
 * Nothing outside those two files includes this. One struct uring per ioctx, used by one
 * thread at a time. */
#ifndef IOB_ENGINE_URING_H
#define IOB_ENGINE_URING_H

#include <liburing.h>
#include <stdint.h>
#include <sys/types.h>

#include "engine/engine.h"

/* What the ring remembers of an fd in the registered-file table (index = fd number). */
struct uring_file {
	unsigned char reg;	/* registered at index fd */
	unsigned long epoch;	/* engine_epoch when last checked */
	dev_t dev;
	ino_t ino;
};

struct uring {
	struct io_uring ring;
	unsigned depth;			/* requests (slots) the ioctx may have out */
	unsigned flags;			/* uring.c's URING_F_* options in effect */
	int iopoll;			/* IORING_SETUP_IOPOLL: only reads and writes */
	int broken;			/* a fatal ring error (-errno): refuse everything */
	uint64_t ops;			/* bit per IORING_OP_* the kernel has (< 64) */
	struct io_uring_cqe **cqes;	/* depth: peek scratch */
	struct engine_req **ready;	/* depth: completed off the ring, not reaped yet */
	unsigned nready;
	struct uring_file *files;	/* nfiles, with registerfiles */
	unsigned nfiles;
	struct iovec *bufs;		/* registered buffers (regbufs) */
	unsigned nbufs;
	unsigned *slot_buf;		/* depth: the buffer a slot used last */
};

/* Does the kernel have op (an IORING_OP_*)? */
static inline int uring_has(const struct uring *u, unsigned op)
{
	return op < 64 && (u->ops >> op & 1);
}

/* Submit what is in the SQ, retrying EINTR/EAGAIN/EBUSY (completions met on the way go to
 * ready). 0 or a fatal -errno (then u->broken is set). uring.c. */
int uring_flush(struct uring *u);
/* Move the CQEs already posted to ready; meta CQEs (user_data 0) are dropped. uring.c. */
void uring_harvest(struct uring *u);
/* Unregister fd from the file table if this ring registered it. uring.c. */
void uring_file_forget(struct uring *u, int fd);

/* The metadata calls (uring_meta.c); each falls back to the POSIX default where the
 * kernel lacks the op or the ring is polled. */
int uring_openat(void *ctx, int dirfd, const char *path, int flags, mode_t mode);
int uring_close(void *ctx, int fd);
int uring_fstat(void *ctx, int fd, struct stat *st);
int uring_fstatat(void *ctx, int dirfd, const char *path, struct stat *st, int flags);
int uring_unlinkat(void *ctx, int dirfd, const char *path, int flags);
int uring_mkdirat(void *ctx, int dirfd, const char *path, mode_t mode);
int uring_renameat(void *ctx, int odirfd, const char *opath, int ndirfd, const char *npath);
int uring_linkat(void *ctx, int odirfd, const char *opath, int ndirfd, const char *npath);
int uring_symlinkat(void *ctx, const char *target, int dirfd, const char *path);
int uring_ftruncate(void *ctx, int fd, uint64_t len);
int uring_fallocate(void *ctx, int fd, uint64_t off, uint64_t len);

#endif
