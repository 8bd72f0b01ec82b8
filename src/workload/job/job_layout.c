/* job_layout.c - the files of a plan before the timed steps: created and filled with
 * random data (not sparse: a read of a never-written block measures nothing), or, for a
 * file that its jobs only write, given its space without data as fio does (its
 * fallocate=native with overwrite=0: the timed writes then fill reserved, unwritten
 * blocks, not rewrite written ones); made durable, untimed; the page cache dropped
 * before a step (fio's invalidate=1) and the residency measured.
 * Every call goes through the runner (psync engine). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comm/comm.h"
#include "observe/cache.h"
#include "core/rng.h"
#include "fs/scratch.h"
#include "runner/ioctx.h"
#include "runner/vhook.h"
#include "core/err.h"
#include "output/numfmt.h"
#include "workload/job/job_run.h"

#define LAYOUT_CHUNK	(1u << 20)

/* Fill [from, to) of fd with random data. 0 or -errno. */
static int layout_fill(struct ioctx *io, int fd, uint64_t from, uint64_t to, unsigned char *buf,
		       struct rng *r)
{
	struct engine_req *q = io->ctl;

	while (from < to && !sig_stop_requested()) {
		size_t n = to - from > LAYOUT_CHUNK ? LAYOUT_CHUNK : (size_t)(to - from);
		int64_t k;

		rng_fill(r, buf, n);
		memset(q, 0, sizeof(*q));
		q->op = ENGINE_OP_PWRITE;
		q->fd = fd;
		q->buf = buf;
		q->len = n;
		q->off = from;
		k = ioctx_call(io, q);
		if (k < 0)
			return (int)k;
		if (k == 0)
			return -EIO;
		from += (uint64_t)k;
	}
	return sig_stop_requested() ? -EINTR : 0;
}

/* --verify: all of [0, f->need) of fd in blocks of f->vbs, stamped by the hook (which
 * replaces the bytes of buf): requests of whole blocks, one block per request unless the
 * file's blocks are the hook's length (a request is then cut into blocks). 0 or -errno. */
static int layout_stamp(struct ioctx *io, const struct job_file *f, int fd, uint32_t hblock,
			unsigned char *buf)
{
	struct engine_req *q = io->ctl;
	uint64_t from = 0, chunk = f->vbs;
	int64_t k;

	if (f->vbs == hblock && f->vbs < LAYOUT_CHUNK)
		chunk = LAYOUT_CHUNK / f->vbs * f->vbs;
	while (from < f->need && !sig_stop_requested()) {
		memset(q, 0, sizeof(*q));
		q->op = ENGINE_OP_PWRITE;
		q->fd = fd;
		q->buf = buf;
		q->len = (size_t)(f->need - from < chunk ? f->need - from : chunk);
		q->off = from;
		k = ioctx_call(io, q);
		if (k < 0)
			return (int)k;
		if ((uint64_t)k != q->len)
			return -EIO;	/* a short write would leave part of a block */
		from += (uint64_t)k;
	}
	return sig_stop_requested() ? -EINTR : 0;
}

/* [from, f->need) of a file its jobs only write: reserved as fio reserves it (a file
 * system without fallocate: only the length, as fio's fallback). 0 or -errno. */
static int layout_reserve(struct ioctx *io, const struct job_file *f, int fd, uint64_t from)
{
	int rc = from < f->need ? ioctx_fallocate(io, fd, from, f->need - from) : 0;

	if (rc == -EOPNOTSUPP || rc == -ENOSYS || rc == -EINVAL)
		rc = ioctx_ftruncate(io, fd, f->need > f->have ? f->need : f->have);
	return rc;
}

/* Create or extend one file (idx: its number in the plan). 0 or -errno with the message. */
static int layout_file(struct ioctx *io, const struct job_plan *p, unsigned idx,
		       const struct job_safety *sf, unsigned char *buf, struct rng *r, char *err,
		       size_t errlen)
{
	struct job_file *f = &p->files[idx];
	int flags = O_WRONLY | O_NOFOLLOW | O_CLOEXEC, fd, rc = 0;
	/* a shared file: rank 0 made it (layout_create); this rank fills its segment */
	uint64_t from = f->shared && comm_rank() && f->lo > f->have ? f->lo : f->have;

	if (!f->exists && !f->shared)
		flags |= O_CREAT | O_EXCL;
	fd = ioctx_open(io, f->path, flags, 0644);
	if (fd < 0) {
		snprintf(err, errlen, "job: cannot create '%s': %s", f->path, strerror(-fd));
		return fd;
	}
	if (!f->exists && !f->in_scratch && !f->shared) {
		f->cleanup_slot = cleanup_register(f->path, 0);
		(void)mark_created(fd);	/* without xattrs, --overwrite is needed later */
	}
	if (f->fill) {
		/* fill_device: the job writes it until the file system is full */
		rc = job_verify_open(p->vh, io, f, idx, fd);
	} else if (p->vh && f->vbs) {
		/* --verify: the whole file, an existing one too, in checkable blocks */
		rc = job_verify_open(p->vh, io, f, idx, fd);
		if (!rc)
			rc = layout_stamp(io, f, fd, vhook_block(p->vh), buf);
	} else if (sf->no_layout) {
		/* shared: every rank sets the same length, whatever the order */
		rc = ioctx_ftruncate(io, fd, f->shared ? f->total : f->need);
	} else if (!f->read && !f->trimmed) {
		rc = layout_reserve(io, f, fd, from);
	} else {
		rc = layout_fill(io, fd, from, f->need, buf, r);
	}
	if (!rc && !sf->no_layout)
		rc = ioctx_sync(io, fd, 1);
	if (ioctx_close(io, fd) < 0 && !rc)
		rc = -EIO;
	if (rc && rc != -EINTR)
		snprintf(err, errlen, "job: cannot lay out '%s': %s", f->path, strerror(-rc));
	return rc;
}

/* Whether file f is laid out (the null engine touches no file; an existing one that is
 * long enough is kept, unless --verify stamps it). */
static bool layout_wanted(const struct job_plan *p, const struct job_file *f)
{
	return f->io && !f->device && !f->made_by_job &&
	       !(f->exists && f->need <= f->have && !(p->vh && f->vbs));
}

/* --shared-file under mpirun: rank 0 creates the new shared files (and registers a named
 * one for removal) before any rank fills its segment of them; a gate carries its
 * error to every rank. 0 or -errno (the message in err on rank 0). */
static int layout_create(struct ioctx *io, struct job_plan *p, char *err, size_t errlen)
{
	struct comm_fault cf;
	unsigned i, n = 0;
	int rc = 0, fd;

	for (i = 0; i < p->nfiles; i++)
		n += p->files[i].shared;
	if (!n || !comm_multi())
		return 0;
	for (i = 0; i < p->nfiles && !rc && comm_rank() == 0; i++) {
		struct job_file *f = &p->files[i];

		if (!f->shared || f->exists || !layout_wanted(p, f))
			continue;
		fd = ioctx_open(io, f->path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC | O_CREAT | O_EXCL,
				0644);
		if (fd < 0) {
			snprintf(err, errlen, "job: cannot create '%s': %s", f->path,
				 strerror(-fd));
			rc = fd;
			break;
		}
		if (!f->in_scratch) {
			f->cleanup_slot = cleanup_register(f->path, 0);
			(void)mark_created(fd);
		}
		if ((rc = ioctx_close(io, fd)) < 0)
			snprintf(err, errlen, "job: cannot create '%s': %s", f->path,
				 strerror(-rc));
	}
	if (comm_gate(rc, rc ? "cannot create the shared file" : NULL, &cf, NULL, NULL) < 0) {
		if (!rc)
			snprintf(err, errlen, "job: rank %u on %s could not create the shared "
				 "file", cf.rank, cf.host);
		return rc ? rc : cf.err;
	}
	return 0;
}

int job_layout(struct job_plan *p, const struct job_safety *sf, char *err, size_t errlen)
{
	struct ioctx io;
	unsigned char *buf;
	size_t blen = LAYOUT_CHUNK;
	struct rng r;
	unsigned i;
	int rc;

	for (i = 0; i < p->nfiles; i++)
		blen = p->files[i].vbs > blen ? p->files[i].vbs : blen;
	if (!(buf = malloc(blen)))
		return -ENOMEM;
	rc = ioctx_init(&io, &engine_psync, 1);
	if (rc < 0) {
		free(buf);
		return rc;
	}
	rng_seed(&r, 0x1a1d0u ^ comm_rank());
	rc = layout_create(&io, p, err, errlen);
	for (i = 0; i < p->nfiles && !rc; i++)
		if (sig_stop_requested())
			rc = -EINTR;	/* a million files: a stop signal is heard between them */
		else if (layout_wanted(p, &p->files[i]))
			rc = layout_file(&io, p, i, sf, buf, &r, err, errlen);
	ioctx_exit(&io);
	free(buf);
	return rc;
}

void job_invalidate(struct job_plan *p, unsigned first, unsigned n)
{
	struct ioctx io;
	unsigned t, k, i;
	bool *done = calloc(p->nfiles ? p->nfiles : 1, sizeof(*done));

	if (!done || ioctx_init(&io, &engine_psync, 1) < 0) {
		free(done);
		return;
	}
	for (t = first; t < first + n; t++) {
		const struct job_thread *th = &p->threads[t];

		if (!th->d->invalidate || (th->e->flags & ENGINE_F_NOIO))
			continue;
		for (k = 0; k < th->nfiles; k++) {
			int fd;

			i = th->files[k].file;
			if (done[i])
				continue;
			done[i] = true;
			fd = ioctx_open(&io, p->files[i].path, O_RDONLY | O_CLOEXEC, 0);
			if (fd < 0)
				continue;
			(void)cache_drop(fd);	/* best effort, as fio's invalidate */
			(void)ioctx_close(&io, fd);
		}
	}
	ioctx_exit(&io);
	free(done);
}

double job_unit_residency(const struct job_plan *p, const struct job_unit *u)
{
	struct ioctx io;
	double sum = 0, total = 0;
	unsigned t, k;

	if (ioctx_init(&io, &engine_psync, 1) < 0)
		return -1;
	for (t = u->first_thread; t < p->nthreads; t++) {
		const struct job_thread *th = &p->threads[t];

		if (th->unit != (unsigned)(u - p->units))
			continue;
		if (th->e->flags & ENGINE_F_NOIO)
			break;
		for (k = 0; k < th->nfiles; k++) {
			const struct job_tfile *r = &th->files[k];
			int fd = ioctx_open(&io, p->files[r->file].path, O_RDONLY | O_CLOEXEC, 0);
			double pct;

			if (fd < 0)
				continue;
			if (cache_resident(fd, r->off, r->len, &pct) == 0) {
				sum += pct * (double)r->len;
				total += (double)r->len;
			}
			(void)ioctx_close(&io, fd);
		}
	}
	ioctx_exit(&io);
	return total > 0 ? sum / total : -1;	/* -1: nothing measured */
}

void job_layout_release(struct job_plan *p, bool keep)
{
	unsigned i;

	for (i = 0; i < p->nfiles; i++) {
		struct job_file *f = &p->files[i];
		uint64_t len = f->need;
		struct stat st;
		char sz[32];

		if (f->cleanup_slot < 0)
			continue;
		/* fill_device: as long as the job got before ENOSPC */
		if (f->fill && stat(f->path, &st) == 0)
			len = (uint64_t)st.st_size;
		numfmt(sz, sizeof(sz), (double)len / 1048576.0, "MiB");
		/* a filename= file the run made stays, as fio keeps it (it can be read
		 * again), unless a job using it asked for unlink=1; said either way */
		if (keep && !f->unlink) {
			cleanup_unregister(f->cleanup_slot);
			if (comm_rank() == 0)
				err_msg("job: kept '%s' (%s), made by this job (unlink=1 removes "
					"it)", f->path, sz);
		} else {
			(void)cleanup_remove(f->cleanup_slot);
			if (keep && comm_rank() == 0)
				err_msg("job: removed '%s' (%s), made by this job (unlink=1)",
					f->path, sz);
		}
		f->cleanup_slot = -1;
	}
}
