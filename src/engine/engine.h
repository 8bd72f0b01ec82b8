/* engine.h - the I/O engine interface.
 *
 * An engine issues I/O and nothing else. What it may do:
 *   - queue the requests it is given (submit) and hand back completed ones (reap);
 *   - keep per-thread state in *ctx (a ring, iocbs, a mapping table), indexed by a
 *     request's slot, which the runner assigns in [0, depth) and never reuses while the
 *     request is in flight;
 *   - implement metadata calls; a NULL pointer means the POSIX default (engine_meta.c).
 * What it may not do: read a clock, touch statistics, allocate per request, print, or
 * keep requests after they were reaped. The runner (runner/ioctx.h) owns every request,
 * times it from issue to completion and counts it; workloads never call an engine.
 *
 * A synchronous engine completes every request inside submit() (res set on return) and
 * has reap == NULL. An asynchronous one (ENGINE_F_ASYNC) completes them later, through
 * reap(). Engines are const tables listed in registry.c; engine_find() picks one by name.
 * An engine's functions are thread-safe across distinct ctx values; one ctx is used by
 * one thread at a time. */
#ifndef IOB_ENGINE_ENGINE_H
#define IOB_ENGINE_ENGINE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

enum engine_op {
	ENGINE_OP_READ,		/* read(fd) at the current position (pipes, devices) */
	ENGINE_OP_WRITE,	/* write(fd) at the current position */
	ENGINE_OP_PREAD,	/* pread(fd, off) */
	ENGINE_OP_PWRITE,	/* pwrite(fd, off) */
	ENGINE_OP_FSYNC,	/* fsync(fd) */
	ENGINE_OP_FDATASYNC,	/* fdatasync(fd) */
	ENGINE_OP_COPY_RANGE,	/* copy_file_range(fd -> fd_out), len bytes, positions advance */
	ENGINE_OP_SENDFILE,	/* sendfile(fd_out <- fd), len bytes at most */
	ENGINE_OP_COUNT
};

/* One request. The runner owns it (it lives in a worker's pool) and the buffer belongs to
 * the workload. res is set on completion: bytes transferred (0 at end of file) or -errno.
 * A short transfer is not an error: the workload decides what follows. */
struct engine_req {
	int op;			/* enum engine_op */
	int fd;
	int fd_out;		/* COPY_RANGE and SENDFILE only */
	unsigned slot;		/* index in the pool, [0, depth): for the engine's own arrays */
	void *buf;
	size_t len;
	uint64_t off;		/* PREAD/PWRITE only */
	int64_t res;
	uint64_t t_issue;	/* runner: clock_ns when submitted (engines do not touch it) */
	uint64_t user;		/* free for the workload (a block number, a file index) */
};

#define ENGINE_F_ASYNC		(1u << 0)	/* completions come from reap() */
#define ENGINE_F_ALIGNED	(1u << 1)	/* buffers must be aligned (O_DIRECT) */
#define ENGINE_F_NOIO		(1u << 2)	/* transfers no data (null): no data checks */

struct engine {
	const char *name;
	const char *summary;
	unsigned flags;
	/* Can it run here? 0, or -errno with the reason (e.g. -ENOSYS). NULL: always. */
	int (*probe)(void);
	/* Per-thread setup for up to depth requests in flight. 0 or -errno. NULL: no state
	 * (ctx stays NULL). exit() frees it; it is called with nothing in flight. */
	int (*init)(void **ctx, unsigned depth);
	void (*exit)(void *ctx);
	/* Queue n requests (n <= depth - in flight). Returns how many were accepted (sync
	 * engines: all, each with res set), or -errno when none could be. */
	int (*submit)(void *ctx, struct engine_req **reqs, unsigned n);
	/* Async only: wait for at least min completions (0: do not wait), store up to max
	 * pointers in done. Returns the count or -errno. NULL for sync engines. */
	int (*reap)(void *ctx, struct engine_req **done, unsigned min, unsigned max);
	/* One-byte-at-a-time path for Bonnie's per-character phases: the same contract as
	 * write(2)/read(2) at the current position, so psync can point them at the system
	 * calls themselves and the call costs nothing over a direct one. NULL: the runner
	 * makes a WRITE/READ request per call. */
	ssize_t (*cwrite)(int fd, const void *buf, size_t len);
	ssize_t (*cread)(int fd, void *buf, size_t len);

	/* Metadata and namespace calls; NULL means the POSIX default. Each returns 0 (an fd
	 * for openat, an offset for lseek) or -errno. dirfd may be AT_FDCWD. */
	int (*openat)(void *ctx, int dirfd, const char *path, int flags, mode_t mode);
	int (*close)(void *ctx, int fd);
	int (*fstat)(void *ctx, int fd, struct stat *st);
	int (*fstatat)(void *ctx, int dirfd, const char *path, struct stat *st, int flags);
	int (*unlinkat)(void *ctx, int dirfd, const char *path, int flags);
	int (*mkdirat)(void *ctx, int dirfd, const char *path, mode_t mode);
	int (*renameat)(void *ctx, int odirfd, const char *opath, int ndirfd, const char *npath);
	int (*linkat)(void *ctx, int odirfd, const char *opath, int ndirfd, const char *npath);
	int (*symlinkat)(void *ctx, const char *target, int dirfd, const char *path);
	int (*ftruncate)(void *ctx, int fd, uint64_t len);
	/* Allocate [off, off+len) (posix_fallocate semantics: blocks really reserved). */
	int (*fallocate)(void *ctx, int fd, uint64_t off, uint64_t len);
	int64_t (*lseek)(void *ctx, int fd, int64_t off, int whence);
	/* Flush the file system holding fd (syncfs), or every file system when fd < 0
	 * (sync(2), as Bonnie++ calls it). */
	int (*syncfs)(void *ctx, int fd);
};

/* The engine called name, or NULL. */
const struct engine *engine_find(const char *name);
/* The table of engines, terminated by NULL; for --help and listings. */
const struct engine *const *engine_list(void);
/* "psync, null" - the names of the engines, comma-separated, into buf. Returns buf. */
char *engine_names(char *buf, size_t len);

/* Metadata calls through the engine, falling back to the POSIX default when the engine
 * leaves the pointer NULL (engine_meta.c). Thread-safe as the engine is. The runner's
 * ioctx_* wrappers are what workloads use. */
int engine_openat(const struct engine *e, void *ctx, int dirfd, const char *path, int flags,
		  mode_t mode);
int engine_close(const struct engine *e, void *ctx, int fd);
int engine_fstat(const struct engine *e, void *ctx, int fd, struct stat *st);
int engine_fstatat(const struct engine *e, void *ctx, int dirfd, const char *path,
		   struct stat *st, int flags);
int engine_unlinkat(const struct engine *e, void *ctx, int dirfd, const char *path, int flags);
int engine_mkdirat(const struct engine *e, void *ctx, int dirfd, const char *path, mode_t mode);
int engine_renameat(const struct engine *e, void *ctx, int odirfd, const char *opath,
		    int ndirfd, const char *npath);
int engine_linkat(const struct engine *e, void *ctx, int odirfd, const char *opath,
		  int ndirfd, const char *npath);
int engine_symlinkat(const struct engine *e, void *ctx, const char *target, int dirfd,
		     const char *path);
int engine_ftruncate(const struct engine *e, void *ctx, int fd, uint64_t len);
int engine_fallocate(const struct engine *e, void *ctx, int fd, uint64_t off, uint64_t len);
int64_t engine_lseek(const struct engine *e, void *ctx, int fd, int64_t off, int whence);
int engine_syncfs(const struct engine *e, void *ctx, int fd);

extern const struct engine engine_psync;
extern const struct engine engine_null;

#endif
