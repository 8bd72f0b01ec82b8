/* ioctx.h - the runner's request pool: every I/O a workload makes goes through here.
 *
 * An ioctx is one engine instance (one thread's ring, iocbs or nothing) with a pool of
 * depth requests. The workload describes what to do next (op, fd, buffer, length, offset)
 * in a request it takes from the pool; the ioctx stamps it at issue, keeps up to depth in
 * flight, stamps it again at completion, and counts it in the bound worker (histogram,
 * ops, bytes, first error, progress). Engines are never called by workloads.
 *
 * Two ways to drive it:
 *
 *   One request at a time (dd, cp, Bonnie's block phases): take a request once, fill it,
 *   and issue it again and again; it completes before ioctx_do returns, whatever the
 *   engine (an asynchronous engine is submitted and reaped for it).
 *
 *	struct engine_req *r = ioctx_get(io);
 *	r->op = ENGINE_OP_PWRITE; r->fd = fd; r->buf = buf; r->len = bs;
 *	for (i = 0; i < n; i++, r->off += bs)
 *		if (ioctx_do_chain(io, r) != (int64_t)bs) break;
 *	ioctx_put(io, r);
 *
 *   Queue depth (job, iozone with async engines): get, fill, queue, submit; completions
 *   come back through on_done (return 1 there to keep the request, e.g. to finish a
 *   short transfer) and the request returns to the pool.
 *
 *	while (more) {
 *		struct engine_req *r = ioctx_get(io);     // reaps when all depth are out
 *		if (!r) break;
 *		fill(r); ioctx_queue(io, r);
 *		if (io->nqueued >= batch && ioctx_submit(io) < 0) break;
 *	}
 *	ioctx_drain(io);
 *
 * Metadata calls (open, close, stat, unlink, mkdir, rename, link, symlink, ftruncate,
 * fallocate, lseek, sync) go through the engine too: ioctx_openat() and friends, untimed;
 * time one as a phase's operation with op_begin()/op_end() (runner.h).
 *
 * Not thread-safe: one ioctx is used by one thread at a time (it may move between
 * threads between phases). */
#ifndef IOB_RUNNER_IOCTX_H
#define IOB_RUNNER_IOCTX_H

#include <stdint.h>
#include <sys/types.h>

#include "core/clock.h"
#include "core/progress.h"
#include "engine/engine.h"
#include "stats/hist.h"

#define IOCTX_MAX_DEPTH	4096u

/* One worker's counters: written by one thread only. */
struct worker {
	uint64_t bytes, ops;
	uint64_t t_first;		/* clock_ns when the worker started */
	uint64_t t_last;		/* clock_ns at the end of its latest request */
	int err;			/* first -errno met, 0 if none */
	uint64_t stop_ns;		/* --stonewall deadline (clock_ns), 0 none */
	struct progress *prog;		/* only worker 0 draws; NULL for others */
	struct hist lat;
};

struct ioctx;
struct vhook_io;

/* Called for every completed request of the pool after it was counted. Return 0 to give
 * the request back to the pool, 1 to keep it (the workload queues it again or puts it). */
typedef int (*ioctx_done_fn)(struct ioctx *io, struct engine_req *r);

struct ioctx {
	const struct engine *e;
	void *ectx;
	unsigned depth;			/* requests of the pool */
	unsigned inflight;		/* submitted, not yet completed */
	unsigned nqueued;		/* queued, waiting for ioctx_submit */
	unsigned nfree;
	unsigned reap_min;		/* completions to wait for when the pool is empty (1) */
	unsigned reap_max;		/* completions one reap takes at most (0: depth) */
	int async;			/* engine completes through reap() */
	int issue_after;		/* async: stamp issue when submit returned (fio's
					 * clat, without the submission); default before */
	int err;			/* first failure of submit/reap itself (not a request's) */
	struct worker *w;		/* completions are counted here (ioctx_bind) */
	ioctx_done_fn on_done;		/* NULL: nothing to do */
	void *user;			/* free for the workload */
	struct engine_req *pool;	/* depth + 1 requests; the last is ctl, for ioctx_call */
	struct engine_req **freel;	/* nfree free requests */
	struct engine_req **queued;	/* nqueued prepared requests */
	struct engine_req **done;	/* reap() scratch */
	struct engine_req *ctl;		/* the request ioctx_sync and friends use */
	struct vhook_io *vh;		/* --verify: stamps writes (runner/vhook.h); NULL off */
};

/* Set up an ioctx for engine e with depth requests (1..IOCTX_MAX_DEPTH): the engine's
 * per-thread state and the pool. 0 or -errno (-EINVAL for a bad depth, the engine's init
 * error otherwise). The ioctx owns what it allocates; free with ioctx_exit. */
int ioctx_init(struct ioctx *io, const struct engine *e, unsigned depth);
/* The same with engine options o (NULL: none; see engine_opt_set). */
int ioctx_init_opts(struct ioctx *io, const struct engine *e, unsigned depth,
		    const struct engine_opts *o);
/* Tell the engine which buffers the workload does I/O from (io_uring's fixedbufs uses
 * them as registered buffers; other engines ignore it). Call with nothing in flight; the
 * buffers must stay allocated until the next call or ioctx_exit. 0 or -errno. */
static inline int ioctx_register_buffers(struct ioctx *io, const struct iovec *iov,
					 unsigned n)
{
	return io->e->regbufs ? io->e->regbufs(io->ectx, iov, n) : 0;
}
/* 1 when requests on fd run asynchronously with this engine, 0 when they complete inside
 * submit (a synchronous engine, or libaio on a file opened without O_DIRECT). */
static inline int ioctx_async_honest(struct ioctx *io, int fd)
{
	return engine_async_honest(io->e, fd);
}
/* Drain what is in flight (uncounted if no worker is bound) and free everything. */
void ioctx_exit(struct ioctx *io);
/* Count this ioctx's completions in w from now on (a phase's worker). */
static inline void ioctx_bind(struct ioctx *io, struct worker *w)
{
	io->w = w;
}

/* A free request with op, fd, buf, len, off cleared, or NULL when the pool is empty and
 * reaping failed (io->err). When all depth are out, queued requests are submitted and at
 * least reap_min completions are reaped first (blocking). slot is set. */
struct engine_req *ioctx_get(struct ioctx *io);
/* Give back a request taken with ioctx_get that will not be submitted (any more). */
void ioctx_put(struct ioctx *io, struct engine_req *r);
/* Queue r (from ioctx_get, or kept in on_done) for the next ioctx_submit. */
static inline void ioctx_queue(struct ioctx *io, struct engine_req *r)
{
	io->queued[io->nqueued++] = r;
}
/* Submit every queued request, stamping each at issue (one clock read before the
 * engine's submit call, or after it when issue_after is set). A synchronous engine completes
 * them here, one at a time, each timed on its own and passed to on_done. Returns 0 or
 * -errno (an engine failure: the requests not accepted complete with that error). */
int ioctx_submit(struct ioctx *io);
/* Reap at least min completions (0: only those already done); each is timed, counted,
 * passed to on_done and returned to the pool. Returns the number reaped or -errno. */
int ioctx_reap(struct ioctx *io, unsigned min);
/* Submit what is queued and wait for everything in flight. 0 or the first -errno of the
 * submit/reap calls themselves (requests' own errors are in the worker). */
int ioctx_drain(struct ioctx *io);

/* Slow path of ioctx_do: submitted is what the engine's submit returned for r alone
 * (1, 0 or -errno); waits for r on an async engine, sets r->res on a failed submit.
 * Internal. */
void ioctx_wait_one(struct ioctx *io, struct engine_req *r, int submitted);
/* ioctx_do (chain 0) or ioctx_do_chain (1) for an ioctx with a verification hook
 * (runner/vhook.h): the same timing, with the hook before and after. Internal. */
int64_t ioctx_do_hooked(struct ioctx *io, struct engine_req *r, int chain);
/* The hook's part of ioctx_close. Internal. */
void ioctx_hook_close(struct ioctx *io, int fd);

/* Count one finished request or operation in w: latency lat_ns, ended at t_end. The
 * phase's sampler reads ops, bytes and the histogram meanwhile (runner/phase_sample.h):
 * relaxed atomic stores, the same instructions as plain ones. */
static inline void worker_record(struct worker *w, uint64_t lat_ns, int64_t res,
				 uint64_t t_end)
{
	hist_add_shared(&w->lat, lat_ns);
	__atomic_store_n(&w->ops, w->ops + 1, __ATOMIC_RELAXED);
	w->t_last = t_end;
	if (res > 0)
		__atomic_store_n(&w->bytes, w->bytes + (uint64_t)res, __ATOMIC_RELAXED);
	else if (res < 0 && !w->err)
		w->err = (int)res;
	if (w->prog)
		progress_tick(w->prog, w->bytes, t_end);
}

/* Issue r (taken with ioctx_get, nothing else of this ioctx in flight) and wait for it.
 * Timed from just before the engine call to its completion and counted in the bound
 * worker; on_done is not called. r stays the caller's, ready to be filled and issued
 * again. Returns r->res. */
static inline __attribute__((always_inline)) int64_t ioctx_do(struct ioctx *io,
							     struct engine_req *r)
{
	struct engine_req *rp = r;
	uint64_t t1;

	int n;

	if (__builtin_expect(io->vh != NULL, 0))
		return ioctx_do_hooked(io, r, 0);
	r->t_issue = clock_ns();
	n = io->e->submit(io->ectx, &rp, 1);
	if (n != 1 || io->async)
		ioctx_wait_one(io, r, n);
	t1 = clock_ns();
	worker_record(io->w, t1 - r->t_issue, r->res, t1);
	return r->res;
}

/* For tight streaming loops: as ioctx_do with one clock read per request. A request's
 * latency runs from the end of the previous one (or worker_start) to its own end, so it
 * includes the loop's few nanoseconds of bookkeeping; that halves the timing cost (see
 * docs/methodology.md, "timing overhead"). Returns r->res. */
static inline __attribute__((always_inline)) int64_t
ioctx_do_chain(struct ioctx *io, struct engine_req *r)
{
	struct engine_req *rp = r;
	struct worker *w = io->w;
	uint64_t t0 = w->t_last, t1;
	int n;

	if (__builtin_expect(io->vh != NULL, 0))
		return ioctx_do_hooked(io, r, 1);
	n = io->e->submit(io->ectx, &rp, 1);
	if (__builtin_expect(n != 1 || io->async, 0))
		ioctx_wait_one(io, r, n);
	t1 = clock_ns();
	worker_record(w, t1 - t0, r->res, t1);
	return r->res;
}

/* Issue r and wait for it without timing or counting it (set-up, a phase's tail that is
 * timed as a whole). Returns r->res. */
int64_t ioctx_call(struct ioctx *io, struct engine_req *r);
/* fsync (datasync 0) or fdatasync (1) of fd through the engine, untimed. 0 or -errno. */
int ioctx_sync(struct ioctx *io, int fd, int datasync);

/* n one-byte writes of src[0..n-1] at fd's position, or n one-byte reads into dst:
 * Bonnie's per-character calls. Through the engine's cwrite/cread where it has them
 * (psync: write(2)/read(2) themselves, so a call costs what a direct one does), else one
 * request each. Untimed one by one: time the group with op_begin/op_end. Returns the
 * number of calls that transferred their byte; when fewer than n, *err is -errno, or 0
 * at end of file (reads) / -EIO for a write that wrote nothing. */
unsigned ioctx_cwrite_n(struct ioctx *io, int fd, const unsigned char *src, unsigned n,
			int *err);
unsigned ioctx_cread_n(struct ioctx *io, int fd, unsigned char *dst, unsigned n, int *err);

/* Metadata calls through the engine (POSIX defaults where it has none); untimed. Each
 * returns 0 (an fd, an offset) or -errno. */
static inline int ioctx_openat(struct ioctx *io, int dirfd, const char *path, int flags,
			       mode_t mode)
{
	return engine_openat(io->e, io->ectx, dirfd, path, flags, mode);
}
int ioctx_open(struct ioctx *io, const char *path, int flags, mode_t mode);
static inline int ioctx_close(struct ioctx *io, int fd)
{
	if (io->vh)
		ioctx_hook_close(io, fd);
	return engine_close(io->e, io->ectx, fd);
}
static inline int ioctx_fstat(struct ioctx *io, int fd, struct stat *st)
{
	return engine_fstat(io->e, io->ectx, fd, st);
}
static inline int ioctx_fstatat(struct ioctx *io, int dirfd, const char *path,
				struct stat *st, int flags)
{
	return engine_fstatat(io->e, io->ectx, dirfd, path, st, flags);
}
int ioctx_stat(struct ioctx *io, const char *path, struct stat *st);
static inline int ioctx_unlinkat(struct ioctx *io, int dirfd, const char *path, int flags)
{
	return engine_unlinkat(io->e, io->ectx, dirfd, path, flags);
}
int ioctx_unlink(struct ioctx *io, const char *path);
int ioctx_rmdir(struct ioctx *io, const char *path);
static inline int ioctx_mkdirat(struct ioctx *io, int dirfd, const char *path, mode_t mode)
{
	return engine_mkdirat(io->e, io->ectx, dirfd, path, mode);
}
int ioctx_mkdir(struct ioctx *io, const char *path, mode_t mode);
int ioctx_rename(struct ioctx *io, const char *from, const char *to);
int ioctx_link(struct ioctx *io, const char *target, const char *path);
int ioctx_symlink(struct ioctx *io, const char *target, const char *path);
static inline int ioctx_ftruncate(struct ioctx *io, int fd, uint64_t len)
{
	return engine_ftruncate(io->e, io->ectx, fd, len);
}
static inline int ioctx_fallocate(struct ioctx *io, int fd, uint64_t off, uint64_t len)
{
	return engine_fallocate(io->e, io->ectx, fd, off, len);
}
static inline int64_t ioctx_lseek(struct ioctx *io, int fd, int64_t off, int whence)
{
	return engine_lseek(io->e, io->ectx, fd, off, whence);
}
/* syncfs(fd), or sync(2) of everything when fd < 0. */
static inline int ioctx_syncfs(struct ioctx *io, int fd)
{
	return engine_syncfs(io->e, io->ectx, fd);
}

#endif
