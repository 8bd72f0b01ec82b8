/* mmap.c - the mmap engine: reads and writes are memcpy from or into a shared mapping of
 * the file, synchronous, completed inside submit.
 *
 * What it measures is page faults and memory copies, not read(2)/write(2): the first
 * touch of a page costs a fault (a minor one when the page is cached, a read from the
 * device when not), later touches cost only the copy; written pages go to the device at
 * write-back or msync. O_DIRECT has no effect on a mapping (ENGINE_F_MAPPED).
 *
 * A regular file is mapped on its first request (the whole file, rounded up to pages) and
 * unmapped when closed through this engine. A write past the end first extends the file
 * with posix_fallocate (blocks reserved, so a full file system is an ENOSPC here and not a
 * SIGBUS inside memcpy), then remaps if the mapping is too short (it grows by doubling):
 * appending costs a posix_fallocate per write, a mapping cannot grow a file by itself.
 * A read checks the size again (fstat) before it returns a short count. fsync is msync
 * (MS_SYNC) of the mapping and then fsync(2) for the inode; fdatasync is msync alone
 * (Linux's msync syncs data as fdatasync does). READ and WRITE at the current position
 * take the position with lseek, copy, and move it with lseek (two system calls more than
 * read(2); not atomic against another thread using the same fd). Fds that are not regular
 * files (pipes, devices), COPY_RANGE and SENDFILE use the system calls, as psync.
 * Files opened through the engine O_WRONLY are opened O_RDWR: a shared writable mapping
 * needs read access. A file truncated behind the engine's back (not through engine_close
 * or engine_ftruncate) can make a later copy fault with SIGBUS: only this process's own
 * engine calls move the epoch that makes the engine look again. */
#define _GNU_SOURCE
#include "config.h"
#ifdef HAVE_MMAP
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/engine_int.h"

struct mfile {
	unsigned char *base;	/* NULL: not mapped (yet) */
	size_t maplen;		/* bytes mapped, a page multiple; may pass the end of file */
	uint64_t size;		/* file size as last seen */
	unsigned long epoch;	/* engine_epoch when last checked; 0: never */
	dev_t dev;
	ino_t ino;
	int known;		/* the fields above describe the file fd names */
	int plain;		/* not a regular file: system calls */
	int prot;		/* PROT_READ, | PROT_WRITE when open for writing */
	int append;		/* O_APPEND: WRITE goes at the end */
};

struct mm {
	struct mfile *f;	/* nf entries, index = fd */
	unsigned nf;
	size_t page;
};

static int mm_init(void **ctx, unsigned depth, const struct engine_opts *o)
{
	struct mm *m = calloc(1, sizeof(*m));
	long pg = sysconf(_SC_PAGESIZE);

	(void)depth;
	(void)o;
	*ctx = NULL;
	if (!m)
		return -ENOMEM;
	m->page = pg > 0 ? (size_t)pg : 4096;
	*ctx = m;
	return 0;
}

static void unmap(struct mfile *f)
{
	if (f->base)
		(void)munmap(f->base, f->maplen);
	memset(f, 0, sizeof(*f));
}

static void mm_exit(void *ctx)
{
	struct mm *m = ctx;
	unsigned i;

	if (!m)
		return;
	for (i = 0; i < m->nf; i++)
		unmap(&m->f[i]);
	free(m->f);
	free(m);
}

/* Look at fd again (first use, or the epoch moved): same file keeps its mapping. */
static int revalidate(struct mfile *f, int fd)
{
	struct stat st;
	int fl;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (f->known && f->dev == st.st_dev && f->ino == st.st_ino) {
		f->size = (uint64_t)st.st_size;
		f->epoch = engine_epoch_now();
		return 0;
	}
	unmap(f);
	fl = fcntl(fd, F_GETFL);
	if (fl < 0)
		return -errno;
	f->known = 1;
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	f->size = (uint64_t)st.st_size;
	f->plain = !S_ISREG(st.st_mode);
	f->prot = (fl & O_ACCMODE) == O_RDWR ? PROT_READ | PROT_WRITE : PROT_READ;
	f->append = (fl & O_APPEND) != 0;
	if ((fl & O_ACCMODE) == O_WRONLY)
		f->prot = 0;	/* cannot be mapped at all */
	f->epoch = engine_epoch_now();
	return 0;
}

/* The entry for fd, checked against the epoch; NULL with *err set on failure. */
static struct mfile *lookup(struct mm *m, int fd, int *err)
{
	struct mfile *f;

	if (fd < 0) {
		*err = -EBADF;
		return NULL;
	}
	if ((unsigned)fd >= m->nf) {
		unsigned n = m->nf ? m->nf : 16;
		struct mfile *nf;

		while (n <= (unsigned)fd)
			n *= 2;
		nf = realloc(m->f, n * sizeof(*nf));
		if (!nf) {
			*err = -ENOMEM;
			return NULL;
		}
		memset(nf + m->nf, 0, (n - m->nf) * sizeof(*nf));
		m->f = nf;
		m->nf = n;
	}
	f = &m->f[fd];
	if (!f->known || f->epoch != engine_epoch_now()) {
		*err = revalidate(f, fd);
		if (*err)
			return NULL;
	}
	return f;
}

/* Make [0, end) addressable in the mapping. */
static int ensure_map(struct mm *m, struct mfile *f, int fd, uint64_t end)
{
	size_t want, len;
	void *p;

	if (end <= f->maplen)
		return 0;
	if (end > (uint64_t)SIZE_MAX - m->page)
		return -EFBIG;
	want = ((size_t)end + m->page - 1) / m->page * m->page;
	len = f->maplen;
	if (len < want)
		len = len * 2 > want ? len * 2 : want;
	p = mmap(NULL, len, f->prot, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	if (f->base)
		(void)munmap(f->base, f->maplen);
	f->base = p;
	f->maplen = len;
	return 0;
}

static int64_t map_read(struct mm *m, struct mfile *f, int fd, void *buf, size_t len,
			uint64_t off)
{
	struct stat st;
	uint64_t n;
	int rc;

	if (!(f->prot & PROT_READ))
		return -EBADF;	/* open write-only: read(2) says the same */
	if (off + len > f->size || off + len < off) {
		/* short by what we saw: the file may have grown since */
		if (fstat(fd, &st) < 0)
			return -errno;
		f->size = (uint64_t)st.st_size;
	}
	if (off >= f->size)
		return 0;
	n = f->size - off < len ? f->size - off : len;
	if ((rc = ensure_map(m, f, fd, off + n)) < 0)
		return rc;
	memcpy(buf, f->base + off, (size_t)n);
	return (int64_t)n;
}

static int64_t map_write(struct mm *m, struct mfile *f, int fd, const void *buf, size_t len,
			 uint64_t off)
{
	uint64_t end = off + len;
	int rc;

	if (!(f->prot & PROT_WRITE))
		return f->prot ? -EBADF : -EACCES;	/* read-only fd, as write(2) says */
	if (end < off || end > (uint64_t)INT64_MAX)
		return -EFBIG;
	if (end > f->size) {
		/* f->size may be below the real size (another fd grew the file): allocating a
		 * range that exists changes no byte and never shrinks the file */
		rc = posix_fallocate(fd, (off_t)f->size, (off_t)(end - f->size));
		if (rc == EINVAL || rc == EOPNOTSUPP)
			rc = ftruncate(fd, (off_t)end) < 0 ? errno : 0;
		if (rc)
			return -rc;
		f->size = end;
	}
	if ((rc = ensure_map(m, f, fd, end)) < 0)
		return rc;
	memcpy(f->base + off, buf, len);
	return (int64_t)len;
}

/* msync the mapping (if any), then fsync for the inode when !datasync. */
static int64_t map_sync(struct mfile *f, int fd, int datasync)
{
	if (f->base && msync(f->base, f->maplen, MS_SYNC) < 0)
		return -errno;
	if (!f->base) {
#ifdef HAVE_FDATASYNC
		if (datasync)
			return fdatasync(fd) < 0 ? -errno : 0;
#endif
		return fsync(fd) < 0 ? -errno : 0;
	}
	if (!datasync && fsync(fd) < 0)
		return -errno;
	return 0;
}

/* READ or WRITE at the current position, through the mapping. */
static int64_t map_at_pos(struct mm *m, struct mfile *f, struct engine_req *r, size_t len)
{
	off_t pos = lseek(r->fd, 0, SEEK_CUR);
	int64_t n;

	if (pos < 0)
		return -errno;
	if (r->op == ENGINE_OP_WRITE) {
		if (f->append) {
			struct stat st;

			if (fstat(r->fd, &st) < 0)
				return -errno;
			pos = st.st_size;
		}
		n = map_write(m, f, r->fd, r->buf, len, (uint64_t)pos);
	} else {
		n = map_read(m, f, r->fd, r->buf, len, (uint64_t)pos);
	}
	if (n > 0 && lseek(r->fd, pos + (off_t)n, SEEK_SET) < 0)
		return -errno;
	return n;
}

static int64_t mm_one(struct mm *m, struct engine_req *r)
{
	size_t len = r->len > ENGINE_MAX_RW ? ENGINE_MAX_RW : r->len;
	struct mfile *f;
	int err = 0;

	if (r->op < ENGINE_OP_READ || r->op > ENGINE_OP_FDATASYNC)
		return engine_sync_one(r);	/* COPY_RANGE, SENDFILE, DISCARD, bad */
	f = lookup(m, r->fd, &err);
	if (!f)
		return err;
	if (f->plain)
		return engine_sync_one(r);
	switch (r->op) {
	case ENGINE_OP_PREAD:
		return map_read(m, f, r->fd, r->buf, len, r->off);
	case ENGINE_OP_PWRITE:
		return map_write(m, f, r->fd, r->buf, len, r->off);
	case ENGINE_OP_READ:
	case ENGINE_OP_WRITE:
		return map_at_pos(m, f, r, len);
	case ENGINE_OP_FSYNC:
		return map_sync(f, r->fd, 0);
	default:
		return map_sync(f, r->fd, 1);
	}
}

static int mm_submit(void *ctx, struct engine_req **reqs, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		reqs[i]->res = mm_one(ctx, reqs[i]);
	return (int)n;
}

static int mm_openat(void *ctx, int dirfd, const char *path, int flags, mode_t mode)
{
	int fd;

	(void)ctx;
	if ((flags & O_ACCMODE) == O_WRONLY) {
		fd = engine_openat(&engine_psync, NULL, dirfd, path,
				   (flags & ~O_ACCMODE) | O_RDWR, mode);
		if (fd != -EACCES)
			return fd;	/* else a write-only file: writes will say EACCES */
	}
	return engine_openat(&engine_psync, NULL, dirfd, path, flags, mode);
}

static int mm_close(void *ctx, int fd)
{
	struct mm *m = ctx;

	if (fd >= 0 && (unsigned)fd < m->nf)
		unmap(&m->f[fd]);
	return engine_close(&engine_psync, NULL, fd);
}

static const char *mm_hint(const struct engine_opts *o, int err)
{
	(void)o;
	if (err == -EACCES)
		return "the mmap engine maps files read-write: the file must be readable too";
	return NULL;
}

#else
#include "engine/engine.h"
#endif /* HAVE_MMAP */

const struct engine engine_mmap = {
	.name = "mmap",
	.summary = "reads and writes are copies through a shared mapping (page faults, memcpy)",
	.flags = ENGINE_F_MAPPED,
#ifdef HAVE_MMAP
	.init = mm_init,
	.exit = mm_exit,
	.submit = mm_submit,
	.hint = mm_hint,
	.openat = mm_openat,
	.close = mm_close,
#else
	.absent = "not in this build: configure found no mmap/msync: use psync",
#endif
};
