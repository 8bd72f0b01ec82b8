/* t_conformance.c - one matrix run against every engine in the registry whose probe
 * passes here (and io_uring again with each of its options): every op at depth 1 and,
 * through the queue (many queued, submitted in batches, reaped with min 0 and min N), at
 * depth 8 and 64; short transfers at the end of a file; errors as a request's res (a bad
 * fd, a write on a read-only fd, a misaligned O_DIRECT buffer where the file system
 * enforces alignment); fsync and fdatasync; every metadata call; the per-character path;
 * the data read back equals the data written (but for ENGINE_F_NOIO), and the file holds
 * it when read without the engine; DISCARD punches holes in a file (its blocks are freed,
 * the range reads as zeros, the size stays) at depth 1 and through the queue, and, as
 * root, discards a range of a loop device made here. Then every option each engine
 * declares (its optdefs), one at a time: set, init, a few requests, exit (t_option). An
 * engine that does not pass does not ship. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <sys/uio.h>

#include "config.h"
#include "fs/fsmake.h"
#include "engtest.h"

#define BS	4096u
#define NBLK	256u			/* blocks of the queue file (1 MiB) */
#define ARENA	(2 * NBLK * BS)		/* write half, read half */

struct variant {
	const struct engine *e;
	struct engine_opts o;
	char label[64];
};

static struct variant vars[16];
static unsigned nvars;
static const struct variant *v;	/* under test */
static char loop_dev[64];	/* a loop device this test attached (root), or "" */
static unsigned char *arena;	/* ARENA bytes, page-aligned, registered with every ioctx */
static int noio;		/* v is ENGINE_F_NOIO: no data checks */

static int open_io(struct ioctx *io, struct worker *w, unsigned depth)
{
	struct iovec iov = { arena, ARENA };
	int rc = ioctx_init_opts(io, v->e, depth, &v->o);

	VEQ(rc, 0);
	if (rc)
		return rc;
	eng_worker(w);
	ioctx_bind(io, w);
	rc = ioctx_register_buffers(io, &iov, 1);
	VEQ(rc, 0);
	return 0;
}

static int64_t do1(struct ioctx *io, int op, int fd, void *buf, size_t len, uint64_t off)
{
	struct engine_req *r = ioctx_get(io);
	int64_t res;

	if (!r)
		return -ENOBUFS;
	r->op = op;
	r->fd = fd;
	r->buf = buf;
	r->len = len;
	r->off = off;
	res = ioctx_do(io, r);
	ioctx_put(io, r);
	return res;
}

/* pread(2) the whole of path, outside the engine, into dst. Returns the bytes read. */
static ssize_t slurp(const char *path, unsigned char *dst, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = pread(fd, dst, len, 0);
	close(fd);
	return n;
}

/* Every data op once at depth 1: positional, at the current position, syncs. */
static void t_depth1(void)
{
	unsigned char *wr = arena, *rd = arena + ARENA / 2, *chk;
	struct ioctx io;
	struct worker w;
	char path[PATH_MAX];
	unsigned i;
	int fd;

	if (open_io(&io, &w, 1))
		return;
	fd = ioctx_openat(&io, AT_FDCWD, eng_path(path, sizeof(path), "d1"),
			  O_CREAT | O_RDWR | O_TRUNC, 0644);
	VCHECK(fd >= 0);
	for (i = 0; i < 16; i++) {
		eng_fill(wr + i * BS, BS, i, 1);
		VEQ(do1(&io, ENGINE_OP_PWRITE, fd, wr + i * BS, BS, (uint64_t)i * BS), BS);
	}
	memset(rd, 0, 16 * BS);
	for (i = 0; i < 16; i++)
		VEQ(do1(&io, ENGINE_OP_PREAD, fd, rd + i * BS, BS, (uint64_t)i * BS), BS);
	VEQ(w.ops, 32);
	VEQ(w.bytes, 32 * BS);
	VEQ(w.err, 0);
	if (!noio)
		for (i = 0; i < 16; i++)
			VCHECK(eng_same(rd + i * BS, BS, i, 1));
	/* at the current position: 4 blocks written over the start, then read back */
	VEQ(ioctx_lseek(&io, fd, 0, SEEK_SET), 0);
	for (i = 0; i < 4; i++) {
		eng_fill(wr + i * BS, BS, i, 2);
		VEQ(do1(&io, ENGINE_OP_WRITE, fd, wr + i * BS, BS, 0), BS);
	}
	if (!noio)
		VEQ(ioctx_lseek(&io, fd, 0, SEEK_CUR), 4 * BS);
	VEQ(ioctx_lseek(&io, fd, 0, SEEK_SET), 0);
	memset(rd, 0, 4 * BS);
	for (i = 0; i < 4; i++)
		VEQ(do1(&io, ENGINE_OP_READ, fd, rd + i * BS, BS, 0), BS);
	if (!noio) {
		VEQ(ioctx_lseek(&io, fd, 0, SEEK_CUR), 4 * BS);
		for (i = 0; i < 4; i++)
			VCHECK(eng_same(rd + i * BS, BS, i, 2));
	}
	VEQ(ioctx_sync(&io, fd, 0), 0);
	VEQ(ioctx_sync(&io, fd, 1), 0);
	VEQ(do1(&io, ENGINE_OP_FSYNC, fd, NULL, 0, 0), 0);
	VEQ(do1(&io, ENGINE_OP_FDATASYNC, fd, NULL, 0, 0), 0);
	VEQ(ioctx_close(&io, fd), 0);
	/* the file holds it, read without the engine */
	chk = malloc(16 * BS);
	if (chk && !noio) {
		VEQ(slurp(path, chk, 16 * BS), 16 * BS);
		for (i = 0; i < 16; i++)
			VCHECK(eng_same(chk + i * BS, BS, i, i < 4 ? 2 : 1));
	}
	free(chk);
	ioctx_exit(&io);
}

/* A read at the end of the file returns the short count, then 0. */
static void t_short(void)
{
	unsigned char *buf = arena + ARENA / 2;
	struct ioctx io;
	struct worker w;
	char path[PATH_MAX];
	int fd, raw;

	raw = open(eng_path(path, sizeof(path), "short"), O_CREAT | O_RDWR | O_TRUNC, 0644);
	VCHECK(raw >= 0);
	eng_fill(arena, 10000, 7, 3);
	VEQ(write(raw, arena, 10000), 10000);
	close(raw);
	if (open_io(&io, &w, 1))
		return;
	fd = ioctx_openat(&io, AT_FDCWD, path, O_RDONLY, 0);
	VCHECK(fd >= 0);
	if (noio) {
		VEQ(do1(&io, ENGINE_OP_PREAD, fd, buf, BS, 10000), BS);
	} else {
		VEQ(do1(&io, ENGINE_OP_PREAD, fd, buf, BS, 8192), 10000 - 8192);
		VCHECK(!memcmp(buf, arena + 8192, 10000 - 8192));
		VEQ(do1(&io, ENGINE_OP_PREAD, fd, buf, BS, 10000), 0);
		VEQ(do1(&io, ENGINE_OP_PREAD, fd, buf, BS, 1u << 30), 0);
		VEQ(ioctx_lseek(&io, fd, 8192, SEEK_SET), 8192);
		VEQ(do1(&io, ENGINE_OP_READ, fd, buf, BS, 0), 10000 - 8192);
		VEQ(do1(&io, ENGINE_OP_READ, fd, buf, BS, 0), 0);
	}
	VEQ(ioctx_close(&io, fd), 0);
	ioctx_exit(&io);
}

/* An fd number nothing is open at (not the lowest free one: the next open or ring would
 * take it). */
static int closed_fd(void)
{
	int fd = 1000;

	while (fcntl(fd, F_GETFD) >= 0)
		fd++;
	return fd;
}

/* Does the file system refuse a misaligned O_DIRECT read? 1 yes, 0 no, -1 no O_DIRECT. */
static int direct_enforced(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECT);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = pread(fd, arena + ARENA / 2 + 1, BS, 0);
	close(fd);
	return n < 0 && errno == EINVAL;
}

/* Errors come back as a request's res, at depth 1 and through the queue. */
static void t_errors(void)
{
	struct ioctx io;
	struct worker w;
	char path[PATH_MAX];
	int fd, bad = closed_fd(), enf;

	if (noio)
		return;	/* null completes everything */
	if (open_io(&io, &w, 8))
		return;
	VEQ(do1(&io, ENGINE_OP_PREAD, -1, arena, BS, 0), -EBADF);
	VEQ(do1(&io, ENGINE_OP_PREAD, bad, arena, BS, 0), -EBADF);
	VEQ(do1(&io, ENGINE_OP_FSYNC, bad, NULL, 0, 0), -EBADF);
	VEQ(do1(&io, ENGINE_OP_FDATASYNC, bad, NULL, 0, 0), -EBADF);
	VEQ(w.err, -EBADF);
	fd = ioctx_openat(&io, AT_FDCWD, eng_path(path, sizeof(path), "short"), O_RDONLY, 0);
	VCHECK(fd >= 0);
	VEQ(do1(&io, ENGINE_OP_PWRITE, fd, arena, BS, 0), -EBADF);
	VEQ(do1(&io, ENGINE_OP_WRITE, fd, arena, BS, 0), -EBADF);
	/* queued: one bad among good ones completes with its own error */
	{
		struct engine_req *r[3];
		int i;

		for (i = 0; i < 3; i++) {
			r[i] = ioctx_get(&io);
			r[i]->op = ENGINE_OP_PREAD;
			r[i]->fd = i == 1 ? bad : fd;
			r[i]->buf = arena + ARENA / 2 + (size_t)i * BS;
			r[i]->len = BS;
			ioctx_queue(&io, r[i]);
		}
		VEQ(ioctx_submit(&io), 0);
		VEQ(ioctx_drain(&io), 0);
		/* completed requests went back to the pool; their res stays readable */
		VEQ(r[0]->res, BS);
		VEQ(r[1]->res, -EBADF);
		VEQ(r[2]->res, BS);
	}
	VEQ(ioctx_close(&io, fd), 0);
	enf = direct_enforced(path);
	if (enf > 0) {
		fd = ioctx_openat(&io, AT_FDCWD, path, O_RDONLY | O_DIRECT, 0);
		VCHECK(fd >= 0);
		if (v->e->flags & ENGINE_F_MAPPED)	/* a mapping ignores O_DIRECT */
			VEQ(do1(&io, ENGINE_OP_PREAD, fd, arena + 1, BS, 0), BS);
		else
			VEQ(do1(&io, ENGINE_OP_PREAD, fd, arena + 1, BS, 0), -EINVAL);
		VEQ(ioctx_close(&io, fd), 0);
	} else {
		printf("  [%s] O_DIRECT alignment not enforced here: not checked\n", eng_cur);
	}
	ioctx_exit(&io);
}

/* Completion check for the queued reads: block r->user of seed 4 (or a sync: res 0). */
static unsigned q_bad, q_done;

static int check_done(struct ioctx *io, struct engine_req *r)
{
	(void)io;
	q_done++;
	if (r->op == ENGINE_OP_FSYNC || r->op == ENGINE_OP_FDATASYNC) {
		if (r->res != 0)
			q_bad++;
		return 0;
	}
	if (r->res != (int64_t)BS)
		q_bad++;
	else if (!noio && r->op == ENGINE_OP_PREAD &&
		 !eng_same(r->buf, BS, (unsigned)r->user, 4))
		q_bad++;
	return 0;
}

/* Queue op for blocks [0, NBLK) in batches of batch; reap with min 0 after each submit
 * and with min N every fourth. */
static void queue_pass(struct ioctx *io, int fd, int op, unsigned batch)
{
	unsigned i, k = 0;

	for (i = 0; i < NBLK; i++) {
		struct engine_req *r = ioctx_get(io);

		VCHECK(r != NULL);
		if (!r)
			return;
		r->op = op;
		r->fd = fd;
		r->len = BS;
		r->off = (uint64_t)i * BS;
		r->user = i;
		r->buf = op == ENGINE_OP_PWRITE ? arena + (size_t)i * BS
						: arena + ARENA / 2 + (size_t)r->slot * BS;
		ioctx_queue(io, r);
		if (io->nqueued < batch)
			continue;
		VEQ(ioctx_submit(io), 0);
		VCHECK(ioctx_reap(io, 0) >= 0);
		if (++k % 4 == 0 && io->inflight) {
			unsigned want = io->inflight < 3 ? io->inflight : 3;

			VCHECK(ioctx_reap(io, want) >= (int)want);
		}
	}
	VEQ(ioctx_drain(io), 0);
	VEQ(io->inflight, 0);
	VEQ(io->nfree, io->depth);
}

static void t_queue(unsigned depth)
{
	struct ioctx io;
	struct worker w;
	char path[PATH_MAX];
	unsigned i, batch = depth > 8 ? 7 : 3;
	int fd;

	if (open_io(&io, &w, depth))
		return;
	io.on_done = check_done;
	q_bad = q_done = 0;
	fd = ioctx_openat(&io, AT_FDCWD, eng_path(path, sizeof(path), "q"),
			  O_CREAT | O_RDWR | O_TRUNC, 0644);
	VCHECK(fd >= 0);
	for (i = 0; i < NBLK; i++)
		eng_fill(arena + (size_t)i * BS, BS, i, 4);
	queue_pass(&io, fd, ENGINE_OP_PWRITE, batch);
	/* fsync and fdatasync queued like any request */
	for (i = 0; i < 2; i++) {
		struct engine_req *r = ioctx_get(&io);

		r->op = i ? ENGINE_OP_FDATASYNC : ENGINE_OP_FSYNC;
		r->fd = fd;
		ioctx_queue(&io, r);
	}
	VEQ(ioctx_drain(&io), 0);
	queue_pass(&io, fd, ENGINE_OP_PREAD, batch);
	VEQ(q_done, 2 * NBLK + 2);
	VEQ(q_bad, 0);
	VEQ(w.ops, 2 * NBLK + 2);
	VEQ(w.bytes, 2 * (uint64_t)NBLK * BS);
	VEQ(w.err, 0);
	/* a metadata call while reads are in flight: both complete, each once */
	for (i = 0; i < depth && i < 8; i++) {
		struct engine_req *r = ioctx_get(&io);

		r->op = ENGINE_OP_PREAD;
		r->fd = fd;
		r->buf = arena + ARENA / 2 + (size_t)r->slot * BS;
		r->len = BS;
		r->off = (uint64_t)i * BS;
		r->user = i;
		ioctx_queue(&io, r);
	}
	VEQ(ioctx_submit(&io), 0);
	{
		struct stat st;

		VEQ(ioctx_fstat(&io, fd, &st), 0);
		if (!noio)
			VEQ(st.st_size, NBLK * BS);
	}
	VEQ(ioctx_drain(&io), 0);
	VEQ(q_done, 2 * NBLK + 2 + (depth < 8 ? depth : 8));
	VEQ(q_bad, 0);
	VEQ(ioctx_close(&io, fd), 0);
	ioctx_exit(&io);
}

static void t_depth8(void)
{
	t_queue(8);
}

static void t_depth64(void)
{
	if (v->e->flags & ENGINE_F_ASYNC)
		t_queue(64);
}

/* O_DIRECT with aligned buffers through the queue, where the file system has it. */
static void t_direct(void)
{
	struct ioctx io;
	struct worker w;
	char path[PATH_MAX];
	int fd;

	if (open_io(&io, &w, 8))
		return;
	io.on_done = check_done;
	q_bad = q_done = 0;
	fd = ioctx_openat(&io, AT_FDCWD, eng_path(path, sizeof(path), "direct"),
			  O_CREAT | O_RDWR | O_TRUNC | O_DIRECT, 0644);
	if (fd == -EINVAL) {
		printf("  [%s] no O_DIRECT on this file system: not checked\n", eng_cur);
		ioctx_exit(&io);
		return;
	}
	VCHECK(fd >= 0);
	queue_pass(&io, fd, ENGINE_OP_PWRITE, 5);
	queue_pass(&io, fd, ENGINE_OP_PREAD, 5);
	VEQ(q_done, 2 * NBLK);
	VEQ(q_bad, 0);
	VEQ(ioctx_close(&io, fd), 0);
	ioctx_exit(&io);
}

/* Is the system call behind op in this build? Without it (./configure --posix-only, a
 * BSD) the engines answer -ENOSYS, which is what the test expects then. */
static int op_built(int op)
{
#ifndef HAVE_COPY_FILE_RANGE
	if (op == ENGINE_OP_COPY_RANGE)
		return 0;
#endif
#ifndef HAVE_SENDFILE
	if (op == ENGINE_OP_SENDFILE)
		return 0;
#endif
	(void)op;
	return 1;
}

/* COPY_RANGE and SENDFILE: whole file, positions advance. */
static void t_copy(void)
{
	struct ioctx io;
	struct worker w;
	char src[PATH_MAX], dst[PATH_MAX];
	int ops[2] = { ENGINE_OP_COPY_RANGE, ENGINE_OP_SENDFILE }, i;

	if (open_io(&io, &w, 4))
		return;
	for (i = 0; i < 2; i++) {
		int in = ioctx_openat(&io, AT_FDCWD, eng_path(src, sizeof(src), "short"),
				      O_RDONLY, 0);
		int out = ioctx_openat(&io, AT_FDCWD, eng_path(dst, sizeof(dst), "copy"),
				       O_CREAT | O_WRONLY | O_TRUNC, 0644);
		struct engine_req *r = ioctx_get(&io);
		uint64_t total = 0;
		int64_t n;

		VCHECK(in >= 0 && out >= 0 && r);
		r->op = ops[i];
		r->fd = in;
		r->fd_out = out;
		r->len = 6000;
		for (;;) {
			n = ioctx_do(&io, r);
			if (n <= 0)
				break;
			total += (uint64_t)n;
			if (noio && total >= 10000)
				break;	/* null never reaches the end */
		}
		ioctx_put(&io, r);
		if (noio) {
			VEQ(n, 6000);
		} else if (!op_built(ops[i])) {
			VEQ(n, -ENOSYS);
			VEQ(total, 0);
		} else {
			VEQ(n, 0);
			VEQ(total, 10000);
			VEQ(slurp(dst, arena + ARENA / 2, BS * 4), 10000);
			eng_fill(arena, 10000, 7, 3);
			VCHECK(!memcmp(arena + ARENA / 2, arena, 10000));
		}
		VEQ(ioctx_close(&io, in), 0);
		VEQ(ioctx_close(&io, out), 0);
	}
	ioctx_exit(&io);
}

/* Every metadata call through the engine. */
static void t_meta(void)
{
	struct ioctx io;
	struct worker w;
	struct stat st, st2;
	char a[PATH_MAX], b[PATH_MAX], d[PATH_MAX], l[PATH_MAX];
	int fd, dfd;

	if (open_io(&io, &w, 4))
		return;
	eng_path(a, sizeof(a), "m_a");
	eng_path(b, sizeof(b), "m_b");
	eng_path(d, sizeof(d), "m_dir");
	eng_path(l, sizeof(l), "m_link");
	fd = ioctx_open(&io, a, O_CREAT | O_EXCL | O_RDWR, 0600);
	VCHECK(fd >= 0);
	VEQ(ioctx_open(&io, a, O_CREAT | O_EXCL | O_RDWR, 0600), -EEXIST);
	VEQ(ioctx_open(&io, b, O_RDONLY, 0), -ENOENT);
	VEQ(ioctx_fstat(&io, fd, &st), 0);
	VCHECK(S_ISREG(st.st_mode) && st.st_size == 0 && (st.st_mode & 0777) == 0600);
	VEQ(ioctx_ftruncate(&io, fd, 12345), 0);
	VEQ(ioctx_fstat(&io, fd, &st), 0);
	VEQ(st.st_size, 12345);
	VEQ(ioctx_fallocate(&io, fd, 0, 65536), 0);
	VEQ(ioctx_stat(&io, a, &st2), 0);
	VEQ(st2.st_size, 65536);
	VCHECK(st2.st_ino == st.st_ino && st2.st_dev == st.st_dev);
	VCHECK(st2.st_blocks * 512 >= 65536);
	VEQ(ioctx_lseek(&io, fd, 0, SEEK_END), 65536);
	VEQ(ioctx_syncfs(&io, fd), 0);
	VEQ(ioctx_link(&io, a, b), 0);
	VEQ(ioctx_fstat(&io, fd, &st), 0);
	VEQ(st.st_nlink, 2);
	VEQ(ioctx_link(&io, a, b), -EEXIST);
	VEQ(ioctx_unlink(&io, b), 0);
	VEQ(ioctx_unlink(&io, b), -ENOENT);
	VEQ(ioctx_rename(&io, a, b), 0);
	VEQ(ioctx_stat(&io, a, &st2), -ENOENT);
	VEQ(ioctx_stat(&io, b, &st2), 0);
	VEQ(ioctx_symlink(&io, "m_b", l), 0);
	VEQ(ioctx_fstatat(&io, AT_FDCWD, l, &st2, AT_SYMLINK_NOFOLLOW), 0);
	VCHECK(S_ISLNK(st2.st_mode));
	VEQ(ioctx_stat(&io, l, &st2), 0);
	VCHECK(S_ISREG(st2.st_mode) && st2.st_ino == st.st_ino);
	VEQ(ioctx_mkdir(&io, d, 0700), 0);
	VEQ(ioctx_mkdir(&io, d, 0700), -EEXIST);
	dfd = ioctx_open(&io, d, O_RDONLY | O_DIRECTORY, 0);
	VCHECK(dfd >= 0);
	VEQ(ioctx_mkdirat(&io, dfd, "sub", 0700), 0);
	VEQ(ioctx_fstatat(&io, dfd, "sub", &st2, 0), 0);
	VCHECK(S_ISDIR(st2.st_mode));
	VEQ(ioctx_unlinkat(&io, dfd, "sub", 0), -EISDIR);
	VEQ(ioctx_unlinkat(&io, dfd, "sub", AT_REMOVEDIR), 0);
	VEQ(ioctx_close(&io, dfd), 0);
	VEQ(ioctx_rmdir(&io, d), 0);
	VEQ(ioctx_unlink(&io, l), 0);
	VEQ(ioctx_unlink(&io, b), 0);
	VEQ(ioctx_fstat(&io, fd, &st), 0);
	VEQ(st.st_nlink, 0);
	VEQ(ioctx_close(&io, fd), 0);
	VEQ(ioctx_close(&io, fd), -EBADF);
	VEQ(ioctx_syncfs(&io, -1), 0);
	ioctx_exit(&io);
}

/* st_blocks of fd after its data reached the disk (delayed allocation counts late). */
static int64_t blocks_of(struct ioctx *io, int fd)
{
	struct stat st;

	if (ioctx_sync(io, fd, 0) < 0 || ioctx_fstat(io, fd, &st) < 0)
		return -1;
	return (int64_t)st.st_blocks;
}

/* BLKDISCARD of the first 64 KiB of the loop device (when there is one); a range off a
 * logical block is refused by the kernel. */
static void t_discard_dev(struct ioctx *io)
{
	struct engine_discard_info di;
	int dfd;

	if (!loop_dev[0])
		return;
	dfd = ioctx_open(io, loop_dev, O_RDWR, 0);
	VCHECK(dfd >= 0);
	VEQ(engine_discard_probe(dfd, &di), 0);
	VEQ(di.kind, ENGINE_DISCARD_BLKDEV);
	VCHECK(di.max_bytes > 0 && di.granularity >= 512);
	VEQ(do1(io, ENGINE_OP_DISCARD, dfd, NULL, 16 * BS, 0), 16 * BS);
	if (!noio)
		VEQ(do1(io, ENGINE_OP_DISCARD, dfd, NULL, BS, 100), -EINVAL);
	VEQ(ioctx_close(io, dfd), 0);
}

/* Blocks 32..47 of fd discarded as four requests through the queue. */
static void queue_discards(struct ioctx *io, int fd)
{
	unsigned i;

	for (i = 0; i < 4; i++) {
		struct engine_req *r = ioctx_get(io);

		VCHECK(r != NULL);
		if (!r)
			break;
		r->op = ENGINE_OP_DISCARD;
		r->fd = fd;
		r->buf = NULL;
		r->len = 4 * BS;
		r->off = (uint64_t)(32 + 4 * i) * BS;
		ioctx_queue(io, r);
	}
	VCHECK(ioctx_submit(io) >= 0);
	VEQ(ioctx_drain(io), 0);
}

/* DISCARD on a regular file: a punched hole (blocks freed, zeros, size kept), at depth 1
 * and four through the queue; then the loop device's. */
static void t_discard(void)
{
	unsigned char *wr = arena, *rd = arena + ARENA / 2;
	struct engine_discard_info di;
	struct ioctx io;
	struct worker w;
	struct stat st;
	char path[PATH_MAX];
	int64_t b0, b1;
	unsigned i;
	int fd, rc;

	if (open_io(&io, &w, 8))
		return;
	fd = ioctx_openat(&io, AT_FDCWD, eng_path(path, sizeof(path), "trim"),
			  O_CREAT | O_RDWR | O_TRUNC, 0644);
	VCHECK(fd >= 0);
	for (i = 0; i < 64; i++) {
		eng_fill(wr + i * BS, BS, i, 5);
		VEQ(do1(&io, ENGINE_OP_PWRITE, fd, wr + i * BS, BS, (uint64_t)i * BS), BS);
	}
	rc = engine_discard_probe(fd, &di);
	if (rc == -ENOSYS) {
		printf("skip discard of a file: this build has no punch hole\n");
		VEQ(do1(&io, ENGINE_OP_DISCARD, fd, NULL, BS, 0), noio ? (int64_t)BS : -ENOSYS);
		goto dev;
	}
	if (rc == -EOPNOTSUPP) {
		printf("skip discard of a file: the file system (%s) has no punch hole\n",
		       di.fstype[0] ? di.fstype : "?");
		goto dev;
	}
	VEQ(rc, 0);
	VEQ(di.kind, ENGINE_DISCARD_PUNCH);
	VCHECK(di.granularity >= 512);
	b0 = blocks_of(&io, fd);
	VCHECK(noio || b0 >= 64 * BS / 512);	/* null wrote nothing */
	/* blocks 8..23 at depth 1 */
	VEQ(do1(&io, ENGINE_OP_DISCARD, fd, NULL, 16 * BS, 8 * BS), 16 * BS);
	queue_discards(&io, fd);
	VEQ(w.err, 0);
	VEQ(w.ops, 64 + 1 + 4);
	VEQ(w.bytes, 64 * BS + 32 * BS);
	b1 = blocks_of(&io, fd);
	VEQ(ioctx_fstat(&io, fd, &st), 0);
	VEQ(st.st_size, noio ? 0 : 64 * BS);
	if (noio) {
		VEQ(b1, b0);	/* null does nothing */
	} else {
		/* 32 blocks freed, give or take a file system block at each end */
		VCHECK(b1 >= 0 && b1 <= b0 - (int64_t)(32 * BS - 4 * di.granularity) / 512);
		VEQ(slurp(path, rd, 64 * BS), 64 * BS);
		for (i = 0; i < 64; i++) {
			int hole = (i >= 8 && i < 24) || (i >= 32 && i < 48);
			unsigned k;

			if (!hole) {
				VCHECK(eng_same(rd + i * BS, BS, i, 5));
				continue;
			}
			for (k = 0; k < BS && !rd[i * BS + k]; k++)
				;
			VEQ(k, BS);
		}
	}
	/* a bad descriptor */
	VEQ(do1(&io, ENGINE_OP_DISCARD, closed_fd(), NULL, BS, 0), noio ? (int64_t)BS : -EBADF);
dev:
	VEQ(ioctx_close(&io, fd), 0);
	t_discard_dev(&io);
	ioctx_exit(&io);
}

/* Bonnie's per-character path: n one-byte writes, then reads to the end of the file. */
static void t_chars(void)
{
	unsigned char src[300], dst[310];
	struct ioctx io;
	struct worker w;
	char path[PATH_MAX];
	unsigned i;
	int fd, err;

	if (open_io(&io, &w, 1))
		return;
	for (i = 0; i < sizeof(src); i++)
		src[i] = (unsigned char)(i * 13);
	fd = ioctx_openat(&io, AT_FDCWD, eng_path(path, sizeof(path), "chars"),
			  O_CREAT | O_RDWR | O_TRUNC, 0644);
	VCHECK(fd >= 0);
	VEQ(ioctx_cwrite_n(&io, fd, src, 300, &err), 300);
	VEQ(err, 0);
	VEQ(ioctx_lseek(&io, fd, 0, SEEK_SET), 0);
	if (noio) {
		VEQ(ioctx_cread_n(&io, fd, dst, 300, &err), 300);
	} else {
		VEQ(ioctx_cread_n(&io, fd, dst, 310, &err), 300);
		VEQ(err, 0);	/* end of file */
		VCHECK(!memcmp(src, dst, 300));
	}
	VEQ(ioctx_close(&io, fd), 0);
	ioctx_exit(&io);
}

/* One option of e on its own (a flag on, a number at its minimum): init, a few requests
 * (written, read back, synced), exit. An option this machine cannot honour (hipri wants
 * O_DIRECT on a device with poll queues) may fail, at init or per request, but only with
 * an error the engine explains (its hint); what it did write reads back right. */
static void t_option(const struct engine *e, const struct engine_optdef *d)
{
	unsigned char *wr = arena, *rd = arena + ARENA / 2;
	struct iovec iov = { arena, ARENA };
	struct engine_opts o;
	char val[32], path[PATH_MAX];
	struct ioctx io;
	struct worker w;
	int64_t res;
	unsigned i, ok = 0;
	int rc, fd;

	memset(&o, 0, sizeof(o));
	snprintf(val, sizeof(val), "%ld", d->min);
	VEQ(engine_opt_set(e, &o, d->name, d->takes_value ? val : NULL), 0);
	VEQ(engine_opt_get(e, &o, d->name, NULL), 1);
	rc = ioctx_init_opts(&io, e, 4, &o);
	if (rc < 0) {
		VCHECK(engine_hint(e, &o, rc) != NULL);
		printf("  %s: refused here at init: %s\n", eng_cur, strerror(-rc));
		return;
	}
	eng_worker(&w);
	ioctx_bind(&io, &w);
	VEQ(ioctx_register_buffers(&io, &iov, 1), 0);
	fd = ioctx_openat(&io, AT_FDCWD, eng_path(path, sizeof(path), "opt"),
			  O_CREAT | O_RDWR | O_TRUNC, 0644);
	VCHECK(fd >= 0);
	for (i = 0; fd >= 0 && i < 4; i++) {
		eng_fill(wr + i * BS, BS, i, 7);
		res = do1(&io, ENGINE_OP_PWRITE, fd, wr + i * BS, BS, (uint64_t)i * BS);
		VCHECK(res == BS || (res < 0 && engine_hint(e, &o, (int)res) != NULL));
		ok += res == BS;
	}
	memset(rd, 0, 4 * BS);
	for (i = 0; fd >= 0 && i < ok; i++) {
		res = do1(&io, ENGINE_OP_PREAD, fd, rd + i * BS, BS, (uint64_t)i * BS);
		VCHECK(res == BS || (res < 0 && engine_hint(e, &o, (int)res) != NULL));
		if (res == BS && !noio)
			VCHECK(eng_same(rd + i * BS, BS, i, 7));
	}
	if (fd >= 0) {
		res = do1(&io, ENGINE_OP_FSYNC, fd, NULL, 0, 0);
		VCHECK(res == 0 || (res < 0 && engine_hint(e, &o, (int)res) != NULL));
		VEQ(ioctx_close(&io, fd), 0);
	}
	if (ok < 4)
		printf("  %s: requests refused here: the engine says why\n", eng_cur);
	ioctx_exit(&io);
}

/* Every option every engine of the registry declares, one at a time (t_option). */
static void t_options(const struct engine *const *list)
{
	const struct engine_optdef *d;
	char label[64];
	unsigned i;

	for (i = 0; list[i]; i++) {
		if (list[i]->probe && list[i]->probe() < 0)
			continue;
		noio = (list[i]->flags & ENGINE_F_NOIO) != 0;
		for (d = list[i]->optdefs; d && d->name; d++) {
			snprintf(label, sizeof(label), "%s:%s", list[i]->name, d->name);
			eng_cur = label;
			test_failed_in_current = 0;
			t_option(list[i], d);
			printf("%s option %s\n", test_failed_in_current ? "FAIL" : "ok", label);
		}
	}
}

static int loop_fd = -1;

/* As root, a loop device over a 1 MiB image in the scratch directory, for DISCARD on a
 * block device; it goes when loop_fd is closed (autoclear). Otherwise a skip line. */
static void loop_setup(void)
{
	char img[PATH_MAX];
	int dio;

	if (geteuid() != 0) {
		printf("skip discard of a loop device: not root\n");
		return;
	}
	eng_path(img, sizeof(img), "loop.img");
	if (fsmake_image(img, 1u << 20) < 0 ||
	    fsmake_loop_attach(img, loop_dev, sizeof(loop_dev), &loop_fd, &dio) < 0) {
		printf("skip discard of a loop device: cannot attach one\n");
		loop_dev[0] = '\0';
		loop_fd = -1;
	}
}

static void add(const struct engine *e, const char *opts)
{
	struct variant *x = &vars[nvars];
	char spec[64], err[256];

	if (nvars >= sizeof(vars) / sizeof(vars[0]))
		return;
	snprintf(spec, sizeof(spec), "%s%s%s", e->name, opts ? ":" : "", opts ? opts : "");
	if (engine_parse(spec, &x->e, &x->o, err, sizeof(err)) < 0) {
		fprintf(stderr, "bad variant '%s': %s\n", spec, err);
		test_failed_checks++;
		return;
	}
	snprintf(x->label, sizeof(x->label), "%s", spec);
	nvars++;
}

int main(void)
{
	const struct engine *const *list = engine_list();
	unsigned i;

	if (eng_mkdir("t_conformance") < 0 || posix_memalign((void **)&arena, 4096, ARENA)) {
		perror("t_conformance: setup");
		return 1;
	}
	loop_setup();
	for (i = 0; list[i]; i++) {
		int rc = list[i]->probe ? list[i]->probe() : 0;

		if (rc < 0) {
			const char *h = engine_hint(list[i], NULL, rc);

			printf("skip %s: cannot run here: %s%s%s\n", list[i]->name, strerror(-rc),
			       h ? ": " : "", h ? h : "");
			continue;
		}
		add(list[i], NULL);
		if (!strcmp(list[i]->name, "io_uring")) {
			add(list[i], "registerfiles");
			add(list[i], "fixedbufs");
			add(list[i], "sqthread_poll");
			add(list[i], "sqthread_poll,registerfiles,fixedbufs");
		}
	}
	for (i = 0; i < nvars; i++) {
		v = &vars[i];
		eng_cur = v->label;
		noio = (v->e->flags & ENGINE_F_NOIO) != 0;
		printf("engine %s\n", v->label);
		RUN(t_depth1);
		RUN(t_short);
		RUN(t_errors);
		RUN(t_depth8);
		RUN(t_depth64);
		RUN(t_direct);
		RUN(t_copy);
		RUN(t_meta);
		RUN(t_chars);
		RUN(t_discard);
	}
	t_options(list);
	free(arena);
	fsmake_loop_release(loop_fd);
	eng_rmdir();
	return test_done();
}
