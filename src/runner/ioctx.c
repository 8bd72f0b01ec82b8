/* ioctx.c - the request pool: issue, completion, timing and counting of every request. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "runner/ioctx.h"
#include "runner/vhook.h"

int ioctx_init(struct ioctx *io, const struct engine *e, unsigned depth)
{
	return ioctx_init_opts(io, e, depth, NULL);
}

int ioctx_init_opts(struct ioctx *io, const struct engine *e, unsigned depth,
		    const struct engine_opts *o)
{
	static const struct engine_opts none;
	unsigned i;
	int rc;

	memset(io, 0, sizeof(*io));
	if (depth < 1 || depth > IOCTX_MAX_DEPTH)
		return -EINVAL;
	io->e = e;
	io->depth = depth;
	io->reap_min = 1;
	io->async = (e->flags & ENGINE_F_ASYNC) != 0;
	/* One more than depth: the control request (ioctx_call, ioctx_sync) has its own slot. */
	io->pool = calloc(depth + 1, sizeof(*io->pool));
	io->freel = calloc(depth, sizeof(*io->freel));
	io->queued = calloc(depth + 1, sizeof(*io->queued));
	io->done = calloc(depth + 1, sizeof(*io->done));
	if (!io->pool || !io->freel || !io->queued || !io->done) {
		rc = -ENOMEM;
		goto fail;
	}
	if (o && engine_opts_check(e, o) < 0) {
		rc = -EINVAL;	/* an option the engine does not take: engine_opt_set says */
		goto fail;
	}
	if (e->init && (rc = e->init(&io->ectx, depth + 1, o ? o : &none)) < 0)
		goto fail;
	for (i = 0; i <= depth; i++) {
		io->pool[i].slot = i;
		io->pool[i].fd = io->pool[i].fd_out = -1;
	}
	/* Pushed in reverse so that the first ioctx_get returns pool[0]. */
	for (i = 0; i < depth; i++)
		io->freel[i] = &io->pool[depth - 1 - i];
	io->nfree = depth;
	io->ctl = &io->pool[depth];
	return 0;
fail:
	free(io->pool);
	free(io->freel);
	free(io->queued);
	free(io->done);
	memset(io, 0, sizeof(*io));
	return rc;
}

void ioctx_exit(struct ioctx *io)
{
	if (!io->e)
		return;
	(void)ioctx_drain(io);
	if (io->vh)
		vhook_detach(io);
	if (io->e->exit)
		io->e->exit(io->ectx);
	free(io->pool);
	free(io->freel);
	free(io->queued);
	free(io->done);
	memset(io, 0, sizeof(*io));
}

/* A request is done at t1: count it, offer it to the workload, return it to the pool. */
static void complete(struct ioctx *io, struct engine_req *r, uint64_t t1)
{
	if (io->vh)
		vhook_after(io, r);
	if (io->w)
		worker_record(io->w, t1 - r->t_issue, r->res, t1);
	if (!io->on_done || !io->on_done(io, r))
		io->freel[io->nfree++] = r;
}

static void clear_req(struct engine_req *r)
{
	r->op = 0;
	r->fd = r->fd_out = -1;
	r->buf = NULL;
	r->len = 0;
	r->off = 0;
	r->res = 0;
	r->user = 0;
	r->ioprio = 0;
}

struct engine_req *ioctx_get(struct ioctx *io)
{
	struct engine_req *r;

	while (!io->nfree) {
		int n;

		if (io->nqueued && ioctx_submit(io) < 0 && !io->nfree)
			return NULL;
		if (io->nfree)
			break;
		if (!io->inflight) {
			/* every request is held by the workload: nothing will come back */
			if (!io->err)
				io->err = -ENOBUFS;
			return NULL;
		}
		n = ioctx_reap(io, io->reap_min ? io->reap_min : 1);
		if (n < 0)
			return NULL;
	}
	r = io->freel[--io->nfree];
	clear_req(r);
	return r;
}

void ioctx_put(struct ioctx *io, struct engine_req *r)
{
	io->freel[io->nfree++] = r;
}

/* Synchronous engine: one request at a time, each timed on its own. The queue is moved
 * to the done array first so that on_done may queue again. */
static int submit_sync(struct ioctx *io)
{
	unsigned i, k = io->nqueued;
	int rc = 0;

	memcpy(io->done, io->queued, k * sizeof(*io->done));
	io->nqueued = 0;
	for (i = 0; i < k; i++) {
		struct engine_req *r = io->done[i];
		int n;

		r->t_issue = clock_ns();
		n = io->vh ? vhook_before(io, r) : 0;
		if (n == 0)
			n = io->e->submit(io->ectx, &r, 1);
		if (n != 1) {
			r->res = n < 0 ? n : -EAGAIN;
			if (!rc)
				rc = (int)r->res;
		}
		complete(io, r, clock_ns());
	}
	if (rc && !io->err)
		io->err = rc;
	return rc;
}

/* The hook's stamping of every queued request; one it refuses completes at once with its
 * error and leaves the queue. Returns 0, or the first such -errno. */
static int hook_queued(struct ioctx *io)
{
	unsigned i, k = 0;
	int rc = 0, n;

	for (i = 0; i < io->nqueued; i++) {
		struct engine_req *r = io->queued[i];

		if ((n = vhook_before(io, r)) < 0) {
			r->res = n;
			complete(io, r, clock_ns());
			if (!rc)
				rc = n;
		} else {
			io->queued[k++] = r;
		}
	}
	io->nqueued = k;
	if (rc && !io->err)
		io->err = rc;
	return k ? 0 : rc;
}

int ioctx_submit(struct ioctx *io)
{
	unsigned i, k = io->nqueued;
	uint64_t t0;
	int n;

	if (!k)
		return 0;
	if (!io->async)
		return submit_sync(io);
	if (io->vh && (n = hook_queued(io)) < 0)
		return n;
	if (!(k = io->nqueued))
		return 0;
	if (!io->issue_after) {
		t0 = clock_ns();	/* submitted together: one clock read for the batch */
		for (i = 0; i < k; i++)
			io->queued[i]->t_issue = t0;
	}
	n = io->e->submit(io->ectx, io->queued, k);
	if (io->issue_after) {
		t0 = clock_ns();	/* after the system call: completion latency only */
		for (i = 0; i < k; i++)
			io->queued[i]->t_issue = t0;
	}
	if (n > 0) {
		io->inflight += (unsigned)n;
		io->nqueued -= (unsigned)n;
		memmove(io->queued, io->queued + n, io->nqueued * sizeof(*io->queued));
		return 0;
	}
	if (n == 0 && io->inflight)
		return 0;	/* the engine is full: retried after the next reap */
	if (n == 0)
		n = -EAGAIN;
	/* nothing was accepted and nothing will complete: fail the queued requests */
	io->nqueued = 0;
	for (i = 0; i < k; i++) {
		io->done[i] = io->queued[i];
		io->done[i]->res = n;
	}
	for (i = 0; i < k; i++)
		complete(io, io->done[i], clock_ns());
	if (!io->err)
		io->err = n;
	return n;
}

int ioctx_reap(struct ioctx *io, unsigned min)
{
	uint64_t t1;
	unsigned max;
	int i, n;

	if (!io->async || !io->inflight)
		return 0;
	if (min > io->inflight)
		min = io->inflight;
	max = io->reap_max ? io->reap_max : io->depth + 1;
	if (max < min)
		max = min;
	n = io->e->reap(io->ectx, io->done, min, max);
	if (n < 0) {
		if (!io->err)
			io->err = n;
		return n;
	}
	t1 = clock_ns();	/* reaped together: one clock read for the batch */
	for (i = 0; i < n; i++) {
		io->inflight--;
		complete(io, io->done[i], t1);
	}
	return n;
}

int ioctx_drain(struct ioctx *io)
{
	int rc = 0, n;

	if (io->nqueued)
		rc = ioctx_submit(io);
	while (io->inflight || io->nqueued) {
		if (io->nqueued && (n = ioctx_submit(io)) < 0 && !rc)
			rc = n;
		n = ioctx_reap(io, io->inflight);
		if (n < 0) {
			if (!rc)
				rc = n;
			break;
		}
	}
	return rc;
}

void ioctx_wait_one(struct ioctx *io, struct engine_req *r, int submitted)
{
	if (submitted != 1) {
		r->res = submitted < 0 ? submitted : -EAGAIN;
		return;
	}
	if (!io->async)
		return;
	io->inflight++;
	for (;;) {
		uint64_t t1;
		int i, n = io->e->reap(io->ectx, io->done, 1, io->depth + 1), found = 0;

		if (n < 0) {
			/* the engine lost track of it: report the failure as the request's */
			io->inflight--;
			r->res = n;
			if (!io->err)
				io->err = n;
			return;
		}
		t1 = clock_ns();
		for (i = 0; i < n; i++) {
			io->inflight--;
			if (io->done[i] == r)
				found = 1;
			else
				complete(io, io->done[i], t1);
		}
		if (found)
			return;
	}
}

int64_t ioctx_call(struct ioctx *io, struct engine_req *r)
{
	struct engine_req *rp = r;
	int n;

	/* untimed: no clock read (r is never counted, so its t_issue is never read) */
	if (io->vh && (n = vhook_before(io, r)) < 0) {
		r->res = n;
		return n;
	}
	n = io->e->submit(io->ectx, &rp, 1);
	if (n != 1 || io->async)
		ioctx_wait_one(io, r, n);
	if (io->vh)
		vhook_after(io, r);
	return r->res;
}

int64_t ioctx_do_hooked(struct ioctx *io, struct engine_req *r, int chain)
{
	struct engine_req *rp = r;
	struct worker *w = io->w;
	uint64_t t0 = chain ? w->t_last : clock_ns(), t1;
	int n;

	r->t_issue = t0;
	if ((n = vhook_before(io, r)) < 0) {
		r->res = n;
	} else {
		n = io->e->submit(io->ectx, &rp, 1);
		if (n != 1 || io->async)
			ioctx_wait_one(io, r, n);
	}
	t1 = clock_ns();
	/* the journal's own sync (after a sync request) is not the request's time */
	vhook_after(io, r);
	worker_record(w, t1 - t0, r->res, t1);
	if (chain)
		w->t_last = clock_ns();
	return r->res;
}

void ioctx_hook_close(struct ioctx *io, int fd)
{
	vhook_forget_fd(io, fd);
}

int ioctx_sync(struct ioctx *io, int fd, int datasync)
{
	struct engine_req *r = io->ctl;

	clear_req(r);
	r->op = datasync ? ENGINE_OP_FDATASYNC : ENGINE_OP_FSYNC;
	r->fd = fd;
	return (int)ioctx_call(io, r);
}

unsigned ioctx_cwrite_n(struct ioctx *io, int fd, const unsigned char *src, unsigned n,
			int *err)
{
	ssize_t (*fn)(int, const void *, size_t) = io->e->cwrite;
	struct engine_req *r = io->ctl;
	unsigned g;

	*err = 0;
	if (fn) {
		for (g = 0; g < n; g++) {
			ssize_t k = fn(fd, src + g, 1);

			if (k != 1) {
				*err = k < 0 ? -errno : -EIO;
				return g;
			}
		}
		return n;
	}
	clear_req(r);
	r->op = ENGINE_OP_WRITE;
	r->fd = fd;
	r->len = 1;
	for (g = 0; g < n; g++) {
		int64_t k;

		r->buf = (void *)(src + g);
		k = ioctx_call(io, r);
		if (k != 1) {
			*err = k < 0 ? (int)k : -EIO;
			return g;
		}
	}
	return n;
}

unsigned ioctx_cread_n(struct ioctx *io, int fd, unsigned char *dst, unsigned n, int *err)
{
	ssize_t (*fn)(int, void *, size_t) = io->e->cread;
	struct engine_req *r = io->ctl;
	unsigned g;

	*err = 0;
	if (fn) {
		for (g = 0; g < n; g++) {
			ssize_t k = fn(fd, dst + g, 1);

			if (k != 1) {
				*err = k < 0 ? -errno : 0;
				return g;
			}
		}
		return n;
	}
	clear_req(r);
	r->op = ENGINE_OP_READ;
	r->fd = fd;
	r->len = 1;
	for (g = 0; g < n; g++) {
		int64_t k;

		r->buf = dst + g;
		k = ioctx_call(io, r);
		if (k != 1) {
			*err = k < 0 ? (int)k : 0;
			return g;
		}
	}
	return n;
}

int ioctx_open(struct ioctx *io, const char *path, int flags, mode_t mode)
{
	return engine_openat(io->e, io->ectx, AT_FDCWD, path, flags, mode);
}

int ioctx_stat(struct ioctx *io, const char *path, struct stat *st)
{
	return engine_fstatat(io->e, io->ectx, AT_FDCWD, path, st, 0);
}

int ioctx_unlink(struct ioctx *io, const char *path)
{
	return engine_unlinkat(io->e, io->ectx, AT_FDCWD, path, 0);
}

int ioctx_rmdir(struct ioctx *io, const char *path)
{
	return engine_unlinkat(io->e, io->ectx, AT_FDCWD, path, AT_REMOVEDIR);
}

int ioctx_mkdir(struct ioctx *io, const char *path, mode_t mode)
{
	return engine_mkdirat(io->e, io->ectx, AT_FDCWD, path, mode);
}

int ioctx_rename(struct ioctx *io, const char *from, const char *to)
{
	return engine_renameat(io->e, io->ectx, AT_FDCWD, from, AT_FDCWD, to);
}

int ioctx_link(struct ioctx *io, const char *target, const char *path)
{
	return engine_linkat(io->e, io->ectx, AT_FDCWD, target, AT_FDCWD, path);
}

int ioctx_symlink(struct ioctx *io, const char *target, const char *path)
{
	return engine_symlinkat(io->e, io->ectx, target, AT_FDCWD, path);
}
