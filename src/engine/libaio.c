/* libaio.c - the Linux AIO engine (libaio's io_submit/io_getevents).
 *
 * PREAD and PWRITE are iocbs, one per slot, a batch submitted with as few io_submit calls
 * as the kernel allows; fsync and fdatasync are IOCB_CMD_FSYNC/FDSYNC iocbs (Linux 4.18+)
 * and fall back to the system calls for good once a kernel refuses them. Asynchronous
 * only with O_DIRECT: on a buffered file the kernel does the I/O inside io_submit, so the
 * request completes before submit returns (engine_async_honest says 0 for such an fd).
 * READ and WRITE at the current position, COPY_RANGE and SENDFILE have no AIO form and run
 * synchronously inside submit (as psync); the next reap hands them out. The per-character
 * path and the metadata calls are the POSIX ones. */
#define _GNU_SOURCE
#include "config.h"
#ifdef HAVE_LIBAIO
#include <errno.h>
#include <libaio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine_int.h"

/* linux/aio_abi.h's IOCB_FLAG_IOPRIO: aio_reqprio holds the request's I/O priority */
#define AIO_FLAG_IOPRIO	(1u << 1)

struct aio {
	io_context_t ctx;
	unsigned depth;
	int no_fsync;			/* the kernel refused an FSYNC/FDSYNC iocb */
	struct iocb *iocbs;		/* depth, by slot */
	struct iocb **batch;		/* depth: iocbs waiting for io_submit */
	struct io_event *events;	/* depth */
	struct engine_req **ready;	/* depth: completed in submit, not reaped yet */
	unsigned nready;
};

static int aio_probe(void)
{
	io_context_t c = 0;
	int rc = io_setup(1, &c);

	if (rc < 0)
		return rc;
	io_destroy(c);
	return 0;
}

static const char *aio_hint(const struct engine_opts *o, int err)
{
	(void)o;
	switch (err) {
	case -ENOSYS:
		return "the kernel has no Linux AIO (CONFIG_AIO) or a seccomp filter hides it: "
		       "use --engine psync";
	case -EAGAIN:
		return "the system-wide limit of AIO requests is reached (fs.aio-max-nr)";
	case -EINVAL:
		return "O_DIRECT needs the buffer, offset and length aligned to the device's "
		       "logical block size";
	default:
		return NULL;
	}
}

static void aio_exit(void *ctx)
{
	struct aio *a = ctx;

	if (!a)
		return;
	if (a->ctx)
		io_destroy(a->ctx);
	free(a->iocbs);
	free(a->batch);
	free(a->events);
	free(a->ready);
	free(a);
}

static int aio_init(void **ctx, unsigned depth, const struct engine_opts *o)
{
	struct aio *a = calloc(1, sizeof(*a));
	int rc;

	(void)o;
	*ctx = NULL;
	if (!a)
		return -ENOMEM;
	a->depth = depth;
	a->iocbs = calloc(depth, sizeof(*a->iocbs));
	a->batch = calloc(depth, sizeof(*a->batch));
	a->events = calloc(depth, sizeof(*a->events));
	a->ready = calloc(depth, sizeof(*a->ready));
	if (!a->iocbs || !a->batch || !a->events || !a->ready) {
		aio_exit(a);
		return -ENOMEM;
	}
	rc = io_setup((int)depth, &a->ctx);
	if (rc < 0) {
		a->ctx = 0;
		aio_exit(a);
		return rc;
	}
	*ctx = a;
	return 0;
}

static void done_now(struct aio *a, struct engine_req *r, int64_t res)
{
	r->res = res;
	a->ready[a->nready++] = r;
}

static int is_sync_iocb(const struct iocb *cb)
{
	return cb->aio_lio_opcode == IO_CMD_FSYNC || cb->aio_lio_opcode == IO_CMD_FDSYNC;
}

/* io_submit the k iocbs of the batch. An iocb the kernel refuses completes with its error
 * (a bad fd, a misaligned O_DIRECT buffer) and the rest go on; -EAGAIN with none of them
 * taken stops there. Returns how many of the k were dealt with. */
static unsigned flush(struct aio *a, unsigned k)
{
	unsigned j = 0;

	while (j < k) {
		int rc = io_submit(a->ctx, (long)(k - j), a->batch + j);
		struct iocb *cb;

		if (rc > 0) {
			j += (unsigned)rc;
			continue;
		}
		if (rc == -EINTR)
			continue;
		if (rc == 0 || rc == -EAGAIN)
			break;
		cb = a->batch[j++];
		if (rc == -EINVAL && is_sync_iocb(cb)) {
			a->no_fsync = 1;	/* before Linux 4.18: no FSYNC iocbs */
			done_now(a, cb->data, engine_sync_one(cb->data));
		} else {
			done_now(a, cb->data, rc);
		}
	}
	return j;
}

static int aio_submit(void *ctx, struct engine_req **reqs, unsigned n)
{
	struct aio *a = ctx;
	unsigned i, k = 0, sent;

	for (i = 0; i < n; i++) {
		struct engine_req *r = reqs[i];
		struct iocb *cb = &a->iocbs[r->slot];
		size_t len = r->len > ENGINE_MAX_RW ? ENGINE_MAX_RW : r->len;

		switch (r->op) {
		case ENGINE_OP_PREAD:
			io_prep_pread(cb, r->fd, r->buf, len, (long long)r->off);
			break;
		case ENGINE_OP_PWRITE:
			io_prep_pwrite(cb, r->fd, r->buf, len, (long long)r->off);
			break;
		case ENGINE_OP_FSYNC:
		case ENGINE_OP_FDATASYNC:
			if (!a->no_fsync) {
				if (r->op == ENGINE_OP_FSYNC)
					io_prep_fsync(cb, r->fd);
				else
					io_prep_fdsync(cb, r->fd);
				break;
			}
			/* fall through */
		default:
			/* no AIO form: the queued iocbs go first, to keep the order */
			sent = flush(a, k);
			if (sent < k)
				return (int)(i - (k - sent));
			k = 0;
			done_now(a, r, engine_sync_one(r));
			continue;
		}
		cb->data = r;
		if (r->ioprio && r->op != ENGINE_OP_FSYNC && r->op != ENGINE_OP_FDATASYNC) {
			/* a priority of its own (fio's cmdprio) */
			cb->aio_reqprio = (short)r->ioprio;
			cb->u.c.flags |= AIO_FLAG_IOPRIO;
		}
		a->batch[k++] = cb;
	}
	sent = flush(a, k);
	return (int)(n - (k - sent));
}

static int aio_reap(void *ctx, struct engine_req **done, unsigned min, unsigned max)
{
	struct aio *a = ctx;
	unsigned n = 0;

	while (a->nready && n < max)
		done[n++] = a->ready[--a->nready];
	while (n < max) {
		struct timespec zero = { 0, 0 };
		unsigned want = min > n ? min - n : 0, room = max - n;
		int got, k;

		if (room > a->depth)
			room = a->depth;
		/* a zero timeout with nothing to wait for: libaio looks at the ring in user
		 * space and makes no system call when it is empty */
		got = io_getevents(a->ctx, (long)want, (long)room, a->events, want ? NULL : &zero);
		if (got == -EINTR)
			continue;
		if (got < 0)
			return n ? (int)n : got;
		for (k = 0; k < got; k++) {
			struct engine_req *r = a->events[k].data;

			r->res = (int64_t)(long)a->events[k].res;
			done[n++] = r;
		}
		if (n >= min)
			break;
	}
	return (int)n;
}

#else
#include "engine/engine.h"
#endif /* HAVE_LIBAIO */

/* fio maps these spellings to its libaio engine */
static const char *const aio_aliases[] = { "aio", "linuxaio", NULL };

const struct engine engine_libaio = {
	.name = "libaio",
	.summary = "Linux AIO: queue depth for O_DIRECT files (buffered ones run synchronously)",
	.flags = ENGINE_F_ASYNC | ENGINE_F_ALIGNED | ENGINE_F_DIRECT_ASYNC,
	.aliases = aio_aliases,
#ifdef HAVE_LIBAIO
	.probe = aio_probe,
	.init = aio_init,
	.exit = aio_exit,
	.submit = aio_submit,
	.reap = aio_reap,
	.hint = aio_hint,
	/* no AIO form at the current position: the system calls themselves */
	.cwrite = write,
	.cread = read,
#else
	.absent = "not in this build: configure found no libaio "
		  "(install libaio-dev, run ./configure): use psync",
#endif
};
