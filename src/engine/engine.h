/* engine.h - the I/O engine interface.
 *
 * An engine issues I/O and nothing else: it never touches statistics or clocks (the runner
 * times every request, see workload/runner.h). A synchronous engine completes every request
 * inside submit(); an asynchronous one queues them and hands them back from reap().
 * Engines are const tables listed in registry.c; pick one by name with engine_find().
 *
 * Per-thread state: init() allocates whatever the engine needs for one worker thread into
 * *ctx (NULL is fine for stateless engines); exit() frees it. Everything else takes ctx.
 * An engine's functions are thread-safe across distinct ctx values. */
#ifndef IOB_ENGINE_ENGINE_H
#define IOB_ENGINE_ENGINE_H

#include <stddef.h>
#include <stdint.h>
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
};

/* One request. The caller owns it and the buffer; res is set on completion:
 * bytes transferred (0 at end of file) or -errno. A short transfer is not an error:
 * the caller loops. */
struct engine_req {
	int op;			/* enum engine_op */
	int fd;
	int fd_out;		/* COPY_RANGE and SENDFILE only */
	void *buf;
	size_t len;
	uint64_t off;		/* PREAD/PWRITE only */
	int64_t res;
	void *user;		/* free for the caller */
};

#define ENGINE_F_ASYNC		(1u << 0)	/* completions come from reap() */
#define ENGINE_F_ALIGNED	(1u << 1)	/* buffers must be aligned (O_DIRECT) */
#define ENGINE_F_NOIO		(1u << 2)	/* does no I/O at all (null) */

struct engine {
	const char *name;
	const char *summary;
	unsigned flags;
	/* Can it run here? 0, or -errno with the reason (e.g. -ENOSYS). NULL: always. */
	int (*probe)(void);
	/* Per-thread setup for a queue of depth requests. 0 or -errno. NULL: no state. */
	int (*init)(void **ctx, unsigned depth);
	void (*exit)(void *ctx);
	/* Open and close; NULL means the POSIX default (open(2)/close(2)). Return fd or -errno,
	 * 0 or -errno. */
	int (*open)(void *ctx, const char *path, int flags, mode_t mode);
	int (*close)(void *ctx, int fd);
	/* Queue n requests. Returns how many were accepted (sync engines: all, each with res
	 * set) or -errno when none could be. */
	int (*submit)(void *ctx, struct engine_req *reqs, unsigned n);
	/* Async only: wait for at least min completions, store up to max pointers in done.
	 * Returns the count or -errno. NULL for sync engines. */
	int (*reap)(void *ctx, struct engine_req **done, unsigned min, unsigned max);
};

/* The engine called name, or NULL. */
const struct engine *engine_find(const char *name);
/* The table of engines, terminated by NULL; for --help and listings. */
const struct engine *const *engine_list(void);

/* Default open/close used when an engine leaves them NULL. */
int engine_open(const struct engine *e, void *ctx, const char *path, int flags, mode_t mode);
int engine_close(const struct engine *e, void *ctx, int fd);

extern const struct engine engine_psync;
extern const struct engine engine_null;

#endif
