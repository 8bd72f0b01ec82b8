/* uring.c - the io_uring engine (liburing): a ring per ioctx, sized to its depth.
 *
 * submit() prepares one SQE per request and makes one io_uring_submit for the whole
 * batch; reap() takes completions with io_uring_peek_batch_cqe and waits with
 * io_uring_wait_cqe_nr only for what min still lacks. READ and WRITE go at the file's
 * current position (offset -1). COPY_RANGE and SENDFILE have no io_uring form here and
 * run synchronously inside submit (as psync); their completion is handed out by the next
 * reap. Options:
 *   fixedbufs      requests whose buffer lies in a region given to regbufs() use
 *                  READ_FIXED/WRITE_FIXED (pages pinned once, not per request);
 *   registerfiles  an fd is put in the ring's file table on its first request and used
 *                  as a fixed file (no fget/fput per request); closed through this
 *                  engine, it leaves the table; the engine epoch catches other closes;
 *   sqthread_poll  a kernel thread polls the SQ (submit is a memory write unless the
 *                  thread sleeps); sqthread_poll_cpu=N pins it; registered files are
 *                  forced on kernels that need them for SQPOLL;
 *   hipri          IORING_SETUP_IOPOLL: completions are polled, not interrupt-driven;
 *                  needs O_DIRECT on a device with poll queues. A polled ring takes only
 *                  reads and writes, so fsync and the metadata calls run synchronously.
 * Otherwise metadata calls are SQEs submitted and waited for at once (uring_meta.c). */
#define _GNU_SOURCE
#include "config.h"
#include "engine/engine.h"

/* io_uring's options, by fio's names: bit i of engine_opts.flags is uring_optdefs[i]. */
enum {
	URING_O_FIXEDBUFS,
	URING_O_REGFILES,
	URING_O_SQPOLL,
	URING_O_SQPOLL_CPU,
	URING_O_HIPRI,
};

#define URING_F_FIXEDBUFS	(1u << URING_O_FIXEDBUFS)
#define URING_F_REGFILES	(1u << URING_O_REGFILES)
#define URING_F_SQPOLL		(1u << URING_O_SQPOLL)
#define URING_F_SQPOLL_CPU	(1u << URING_O_SQPOLL_CPU)
#define URING_F_HIPRI		(1u << URING_O_HIPRI)

static const struct engine_optdef uring_optdefs[] = {
	[URING_O_FIXEDBUFS] = { "fixedbufs", NULL, 0, 0, 0,
				"registered buffers: reads and writes from the workload's "
				"buffers go as READ_FIXED/WRITE_FIXED" },
	[URING_O_REGFILES] = { "registerfiles", NULL, 0, 0, 0,
			       "registered files: no file reference taken per request" },
	[URING_O_SQPOLL] = { "sqthread_poll", "sqpoll", 0, 0, 0,
			     "a kernel thread polls the submission queue" },
	[URING_O_SQPOLL_CPU] = { "sqthread_poll_cpu", NULL, 1, 0, 65535,
				 "the CPU the polling thread is pinned to (with sqthread_poll)" },
	[URING_O_HIPRI] = { "hipri", NULL, 0, 0, 0,
			    "polled completions (IOPOLL): O_DIRECT on a device with poll "
			    "queues" },
	{ NULL },
};

#ifdef HAVE_LIBURING
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/engine_int.h"
#include "engine/uring.h"

#define URING_MAX_FILES	4096u	/* fds at or above it are not registered */

/* The ops we use and want to know about; the kernel's probe says which it has. */
static const unsigned char probed_ops[] = {
	IORING_OP_READ, IORING_OP_WRITE, IORING_OP_READ_FIXED, IORING_OP_WRITE_FIXED,
	IORING_OP_FSYNC, IORING_OP_OPENAT, IORING_OP_CLOSE, IORING_OP_STATX,
	IORING_OP_UNLINKAT, IORING_OP_MKDIRAT, IORING_OP_RENAMEAT, IORING_OP_LINKAT,
	IORING_OP_SYMLINKAT, IORING_OP_FALLOCATE, 55 /* IORING_OP_FTRUNCATE, Linux 6.9 */,
};

static int uring_probe(void)
{
	struct io_uring ring;
	int rc = io_uring_queue_init(4, &ring, 0);

	if (rc < 0)
		return rc;
	io_uring_queue_exit(&ring);
	return 0;
}

static const char *uring_hint(const struct engine_opts *o, int err)
{
	int hipri = o && (o->flags & URING_F_HIPRI);

	switch (err) {
	case -ENOSYS:
		return "the kernel has no io_uring or a seccomp filter hides it: "
		       "use --engine psync";
	case -EPERM:
		return "io_uring is not allowed here (the kernel.io_uring_disabled sysctl or a "
		       "seccomp filter): use --engine psync";
	case -EOPNOTSUPP:
		if (hipri)
			return "polled completions need O_DIRECT on a device with poll queues "
			       "(nvme poll_queues)";
		return NULL;
	case -ENOMEM:
		return "the kernel refused the ring's memory (locked-memory limit, ulimit -l)";
	default:
		return NULL;
	}
}

/* Create the ring; COOP_TASKRUN first (fewer interrupts of the submitting thread), then
 * without it for kernels or modes (SQPOLL) that refuse it. sqthread_poll_cpu without
 * sqthread_poll does nothing, as in fio. */
static int ring_create(struct uring *u, unsigned entries, const struct engine_opts *o)
{
	struct io_uring_params p;
	unsigned base = 0, cpu = 0;
	int rc;

	if (o->flags & URING_F_HIPRI)
		base |= IORING_SETUP_IOPOLL;
	if (o->flags & URING_F_SQPOLL) {
		base |= IORING_SETUP_SQPOLL;
		if (o->flags & URING_F_SQPOLL_CPU) {
			base |= IORING_SETUP_SQ_AFF;
			cpu = (unsigned)o->val[URING_O_SQPOLL_CPU];
		}
	}
	memset(&p, 0, sizeof(p));
	p.flags = base;
	p.sq_thread_cpu = cpu;
	if (!(base & IORING_SETUP_SQPOLL))
		p.flags |= IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG;
	rc = io_uring_queue_init_params(entries, &u->ring, &p);
	if (rc == -EINVAL && p.flags != base) {
		memset(&p, 0, sizeof(p));
		p.flags = base;
		p.sq_thread_cpu = cpu;
		rc = io_uring_queue_init_params(entries, &u->ring, &p);
	}
	if (rc < 0)
		return rc;
	u->iopoll = (base & IORING_SETUP_IOPOLL) != 0;
	if ((base & IORING_SETUP_SQPOLL) && !(p.features & IORING_FEAT_SQPOLL_NONFIXED))
		u->flags |= URING_F_REGFILES;	/* before 5.11 SQPOLL takes fixed files only */
	return 0;
}

static void ops_probe(struct uring *u)
{
	struct io_uring_probe *p = io_uring_get_probe_ring(&u->ring);
	size_t i;

	u->ops = 0;
	if (!p)
		return;
	for (i = 0; i < sizeof(probed_ops); i++)
		if (io_uring_opcode_supported(p, probed_ops[i]))
			u->ops |= 1ull << probed_ops[i];
	io_uring_free_probe(p);
}

/* An empty (all -1) file table of nfiles entries, nfiles up to RLIMIT_NOFILE. */
static int files_setup(struct uring *u)
{
	struct rlimit rl;
	unsigned n = URING_MAX_FILES, i;
	int *fds, rc;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < n)
		n = (unsigned)rl.rlim_cur;
	u->files = calloc(n, sizeof(*u->files));
	fds = malloc(n * sizeof(*fds));
	if (!u->files || !fds) {
		free(fds);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		fds[i] = -1;
	rc = io_uring_register_files(&u->ring, fds, n);
	free(fds);
	if (rc < 0)
		return rc;
	u->nfiles = n;
	return 0;
}

static void uring_exit(void *ctx)
{
	struct uring *u = ctx;

	if (!u)
		return;
	io_uring_queue_exit(&u->ring);	/* drops registered files and buffers too */
	free(u->cqes);
	free(u->ready);
	free(u->files);
	free(u->bufs);
	free(u->slot_buf);
	free(u);
}

static int uring_init(void **ctx, unsigned depth, const struct engine_opts *o)
{
	struct uring *u = calloc(1, sizeof(*u));
	int rc;

	*ctx = NULL;
	if (!u)
		return -ENOMEM;
	u->depth = depth;
	u->flags = o->flags;
	u->cqes = calloc(depth, sizeof(*u->cqes));
	u->ready = calloc(depth, sizeof(*u->ready));
	u->slot_buf = calloc(depth, sizeof(*u->slot_buf));
	if (!u->cqes || !u->ready || !u->slot_buf) {
		free(u->cqes);
		free(u->ready);
		free(u->slot_buf);
		free(u);
		return -ENOMEM;
	}
	/* depth requests and one metadata call at a time; the CQ is twice the SQ */
	rc = ring_create(u, depth + 1, o);
	if (rc < 0) {
		free(u->cqes);
		free(u->ready);
		free(u->slot_buf);
		free(u);
		return rc;
	}
	ops_probe(u);
	if (!uring_has(u, IORING_OP_READ) || !uring_has(u, IORING_OP_WRITE))
		rc = -ENOSYS;	/* before Linux 5.6: no non-vectored read and write */
	else if (u->flags & URING_F_REGFILES)
		rc = files_setup(u);
	if (rc < 0) {
		uring_exit(u);
		return rc;
	}
	*ctx = u;
	return 0;
}

void uring_file_forget(struct uring *u, int fd)
{
	int none = -1;

	if (fd < 0 || (unsigned)fd >= u->nfiles || !u->files[fd].reg)
		return;
	(void)io_uring_register_files_update(&u->ring, (unsigned)fd, &none, 1);
	u->files[fd].reg = 0;
}

/* Slow path of fixed_fd: (re)register fd, or say it cannot be (-1: use it as is). */
static int file_register(struct uring *u, int fd)
{
	struct uring_file *f = &u->files[fd];
	struct stat st;

	if (fstat(fd, &st) < 0) {
		uring_file_forget(u, fd);
		return -1;	/* a bad fd: the kernel reports it as the request's res */
	}
	if (f->reg && f->dev == st.st_dev && f->ino == st.st_ino) {
		f->epoch = engine_epoch_now();
		return fd;
	}
	f->reg = 0;
	if (io_uring_register_files_update(&u->ring, (unsigned)fd, &fd, 1) != 1)
		return -1;
	f->reg = 1;
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	f->epoch = engine_epoch_now();
	return fd;
}

/* The fixed-file index for fd (its own number), or -1 to pass fd as it is. */
static inline int fixed_fd(struct uring *u, int fd)
{
	if (fd < 0 || (unsigned)fd >= u->nfiles)
		return -1;
	if (u->files[fd].reg && u->files[fd].epoch == engine_epoch_now())
		return fd;
	return file_register(u, fd);
}

/* The registered buffer holding [buf, buf + len), or -1. */
static inline int buf_index(struct uring *u, const struct engine_req *r)
{
	uintptr_t a = (uintptr_t)r->buf;
	unsigned i = u->slot_buf[r->slot];

	if (i < u->nbufs && a >= (uintptr_t)u->bufs[i].iov_base &&
	    a + r->len <= (uintptr_t)u->bufs[i].iov_base + u->bufs[i].iov_len)
		return (int)i;
	for (i = 0; i < u->nbufs; i++) {
		uintptr_t b = (uintptr_t)u->bufs[i].iov_base;

		if (a >= b && a + r->len <= b + u->bufs[i].iov_len) {
			u->slot_buf[r->slot] = i;
			return (int)i;
		}
	}
	return -1;
}

/* Fill sqe for r (a read, write or sync the ring takes). */
static void prep(struct uring *u, struct io_uring_sqe *sqe, struct engine_req *r)
{
	unsigned len = r->len > ENGINE_MAX_RW ? ENGINE_MAX_RW : (unsigned)r->len;
	uint64_t off = (r->op == ENGINE_OP_PREAD || r->op == ENGINE_OP_PWRITE) ? r->off
										 : (uint64_t)-1;
	int fd = r->fd, bi = -1, ff = -1;

	if (u->nfiles)
		ff = fixed_fd(u, fd);
	if (u->nbufs && r->op <= ENGINE_OP_PWRITE)
		bi = buf_index(u, r);
	switch (r->op) {
	case ENGINE_OP_READ:
	case ENGINE_OP_PREAD:
		if (bi >= 0)
			io_uring_prep_read_fixed(sqe, fd, r->buf, len, off, bi);
		else
			io_uring_prep_read(sqe, fd, r->buf, len, off);
		break;
	case ENGINE_OP_WRITE:
	case ENGINE_OP_PWRITE:
		if (bi >= 0)
			io_uring_prep_write_fixed(sqe, fd, r->buf, len, off, bi);
		else
			io_uring_prep_write(sqe, fd, r->buf, len, off);
		break;
	case ENGINE_OP_FSYNC:
		io_uring_prep_fsync(sqe, fd, 0);
		break;
	default:	/* ENGINE_OP_FDATASYNC */
		io_uring_prep_fsync(sqe, fd, IORING_FSYNC_DATASYNC);
		break;
	}
	if (r->ioprio && r->op <= ENGINE_OP_PWRITE)
		sqe->ioprio = r->ioprio;	/* a priority of its own (fio's cmdprio) */
	if (ff >= 0) {
		sqe->fd = ff;
		sqe->flags |= IOSQE_FIXED_FILE;
	}
	io_uring_sqe_set_data(sqe, r);
}

/* Ops that run synchronously in submit: no io_uring form, or a polled ring. */
static inline int runs_sync(const struct uring *u, const struct engine_req *r)
{
	switch (r->op) {
	case ENGINE_OP_READ:
	case ENGINE_OP_WRITE:
	case ENGINE_OP_PREAD:
	case ENGINE_OP_PWRITE:
		return 0;
	case ENGINE_OP_FSYNC:
	case ENGINE_OP_FDATASYNC:
		return u->iopoll || !uring_has(u, IORING_OP_FSYNC);
	default:	/* COPY_RANGE, SENDFILE, DISCARD (no file form in io_uring: synchronous,
			 * as fio does), or a bad op (-EINVAL from engine_sync_one) */
		return 1;
	}
}

void uring_harvest(struct uring *u)
{
	struct io_uring_cqe *cqe;
	unsigned head, n = 0;

	io_uring_for_each_cqe(&u->ring, head, cqe) {
		struct engine_req *r = io_uring_cqe_get_data(cqe);

		n++;
		if (!r)
			continue;
		r->res = cqe->res;
		u->ready[u->nready++] = r;
	}
	io_uring_cq_advance(&u->ring, n);
}

int uring_flush(struct uring *u)
{
	int sqpoll = (u->ring.flags & IORING_SETUP_SQPOLL) != 0;
	unsigned tries = 0;

	while (io_uring_sq_ready(&u->ring)) {
		int rc = io_uring_submit(&u->ring);

		if (sqpoll && rc >= 0)
			return 0;	/* the kernel thread consumes them on its own */
		if (rc > 0)
			continue;	/* a partial submit: the rest go next */
		if (rc == 0 || rc == -EINTR || rc == -EAGAIN || rc == -EBUSY) {
			/* no resources for now: make room by taking what completed */
			uring_harvest(u);
			if (++tries < 100000) {
				if (tries > 100)
					sched_yield();
				continue;
			}
			rc = -EAGAIN;
		}
		u->broken = rc;
		return rc;
	}
	return 0;
}

static int uring_submit(void *ctx, struct engine_req **reqs, unsigned n)
{
	struct uring *u = ctx;
	unsigned i, nsqe = 0;
	int rc;

	if (u->broken)
		return u->broken;
	for (i = 0; i < n; i++) {
		struct engine_req *r = reqs[i];
		struct io_uring_sqe *sqe;

		if (runs_sync(u, r)) {
			r->res = engine_sync_one(r);
			u->ready[u->nready++] = r;
			continue;
		}
		sqe = io_uring_get_sqe(&u->ring);
		if (!sqe)
			break;	/* cannot happen with depth slots; the rest come back */
		prep(u, sqe, r);
		nsqe++;
	}
	if (nsqe && (rc = uring_flush(u)) < 0)
		return rc;
	return (int)i;
}

/* Wait until at least want CQEs are posted (a polled ring polls for them). */
static int wait_cqes(struct uring *u, unsigned want)
{
	struct io_uring_cqe *cqe;
	int rc;

	do
		rc = io_uring_wait_cqe_nr(&u->ring, &cqe, want);
	while (rc == -EINTR);
	return rc == -ETIME ? 0 : rc;
}

static int uring_reap(void *ctx, struct engine_req **done, unsigned min, unsigned max)
{
	struct uring *u = ctx;
	unsigned n = 0, k, got;
	int rc, polled = 0;

	if (u->broken)
		return u->broken;
	while (u->nready && n < max)
		done[n++] = u->ready[--u->nready];
	while (n < max) {
		got = io_uring_peek_batch_cqe(&u->ring, u->cqes,
					      max - n < u->depth ? max - n : u->depth);
		for (k = 0; k < got; k++) {
			struct engine_req *r = io_uring_cqe_get_data(u->cqes[k]);

			if (!r)
				continue;	/* a stray metadata CQE: nobody waits for it */
			r->res = u->cqes[k]->res;
			done[n++] = r;
		}
		io_uring_cq_advance(&u->ring, got);
		if (got) {
			if (n >= min)
				break;
			continue;
		}
		if (n >= min) {
			/* a polled ring shows nothing until someone polls: poll once */
			if (!u->iopoll || polled)
				break;
			polled = 1;
			if ((rc = io_uring_get_events(&u->ring)) < 0 && rc != -EINTR)
				return n ? (int)n : rc;
			continue;
		}
		if ((rc = wait_cqes(u, min - n)) < 0)
			return n ? (int)n : rc;
	}
	return (int)n;
}

static int uring_regbufs(void *ctx, const struct iovec *iov, unsigned n)
{
	struct uring *u = ctx;
	struct iovec *copy = NULL;
	int rc;

	if (!(u->flags & URING_F_FIXEDBUFS))
		return 0;	/* not asked for: plain reads and writes */
	if (u->nbufs) {
		(void)io_uring_unregister_buffers(&u->ring);
		free(u->bufs);
		u->bufs = NULL;
		u->nbufs = 0;
	}
	if (!n)
		return 0;
	copy = malloc(n * sizeof(*copy));
	if (!copy)
		return -ENOMEM;
	memcpy(copy, iov, n * sizeof(*copy));
	rc = io_uring_register_buffers(&u->ring, copy, n);
	if (rc < 0) {
		free(copy);
		return rc;
	}
	memset(u->slot_buf, 0, u->depth * sizeof(*u->slot_buf));
	u->bufs = copy;
	u->nbufs = n;
	return 0;
}

#endif /* HAVE_LIBURING */

const struct engine engine_io_uring = {
	.name = "io_uring",
	.summary = "Linux io_uring: queue depth, batched submit and reap, metadata on the ring",
	.flags = ENGINE_F_ASYNC,
	.optdefs = uring_optdefs,
#ifdef HAVE_LIBURING
	.probe = uring_probe,
	.init = uring_init,
	.exit = uring_exit,
	.submit = uring_submit,
	.reap = uring_reap,
	.regbufs = uring_regbufs,
	.hint = uring_hint,
	.openat = uring_openat,
	.close = uring_close,
	.fstat = uring_fstat,
	.fstatat = uring_fstatat,
	.unlinkat = uring_unlinkat,
	.mkdirat = uring_mkdirat,
	.renameat = uring_renameat,
	.linkat = uring_linkat,
	.symlinkat = uring_symlinkat,
	.ftruncate = uring_ftruncate,
	.fallocate = uring_fallocate,
#else
	.absent = "not in this build: configure found no liburing "
		  "(install liburing-dev, run ./configure): use psync",
#endif
};
