/* iobfault.c - a fault-injection shim for the tests (LD_PRELOAD=tests/fault/iobfault.so),
 * the one mechanism behind every write-path fault test (tests/cli/fault_matrix.sh; how to
 * use it: tests/README). It sits between iobattery (or SQLite inside it) and the C
 * library and makes chosen calls fail, as a dying disk or a full file system would:
 *
 *   IOB_FAULT="op=OP,err=ERR,nth=N[,once][,path=SUBSTR]"
 *     op    write   every way to write data: write, pwrite, writev, pwritev,
 *                   copy_file_range, sendfile, and stdio streams on matching files
 *           short   the Nth write writes half of what was asked (later ones are whole)
 *           corrupt the Nth write (counted as op=write counts; write and pwrite are
 *                   damaged, the others pass as they are) reaches the file with its
 *                   middle byte inverted and reports success, as silent damage on
 *                   the way to the disk would (later ones are whole)
 *           lose    the Nth write (counted as op=write counts; write and pwrite)
 *                   reports success and writes nothing, as a lost write would (the
 *                   file keeps what it held; later ones are whole)
 *           fsync   fsync, fdatasync and syncfs
 *           odirect every open with O_DIRECT fails (err: EINVAL, always), as on a file
 *                   system without direct I/O (nth and once do not apply)
 *           punch   every fallocate that punches a hole (FALLOC_FL_PUNCH_HOLE) fails
 *                   (err: EOPNOTSUPP, always), as on a file system without punch
 *                   hole, such as vfat (nth and once do not apply)
 *     err   EIO (default) or ENOSPC, the errno of the failed call
 *     nth   the first failing call, counted over matching calls from 1 (default 1)
 *     once  only the Nth call fails (default: it and every later one, as a dead disk)
 *     path  only descriptors opened on a path containing SUBSTR, or by a relative name
 *           in a directory opened so (default: every file but standard input, output
 *           and error)
 *
 * It writes "iobfault: OP failed (call N, BYTES bytes written before)" to standard error
 * once, when it first strikes ("iobfault: write corrupted (...)" for corrupt), so that a
 * test can tell it did. Linux and glibc only
 * (dlsym(RTLD_NEXT), fopencookie); built as test support, never installed, never linked
 * into iobattery. Not thread-safe beyond what a test needs (counters are atomic). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#define MAXFD 4096

enum { OP_NONE, OP_WRITE, OP_SHORT, OP_FSYNC, OP_CORRUPT, OP_LOSE, OP_ODIRECT, OP_PUNCH };

static struct {
	int ready, op, err, once;
	long nth;
	char path[256];
} cfg;
static atomic_long calls, done_bytes;
static atomic_int told;
static unsigned char tracked[MAXFD];

#define REAL(name) static __typeof__(name) *real_##name; \
	if (!real_##name) real_##name = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)

static void setup(void)
{
	const char *e = getenv("IOB_FAULT");
	char buf[512], *tok, *save = NULL;

	if (cfg.ready)
		return;
	cfg.ready = 1;
	cfg.err = EIO;
	cfg.nth = 1;
	if (!e || !*e)
		return;
	snprintf(buf, sizeof(buf), "%s", e);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "op=write"))
			cfg.op = OP_WRITE;
		else if (!strcmp(tok, "op=short"))
			cfg.op = OP_SHORT;
		else if (!strcmp(tok, "op=fsync"))
			cfg.op = OP_FSYNC;
		else if (!strcmp(tok, "op=corrupt"))
			cfg.op = OP_CORRUPT;
		else if (!strcmp(tok, "op=lose"))
			cfg.op = OP_LOSE;
		else if (!strcmp(tok, "op=odirect"))
			cfg.op = OP_ODIRECT;
		else if (!strcmp(tok, "op=punch"))
			cfg.op = OP_PUNCH;
		else if (!strcmp(tok, "err=ENOSPC"))
			cfg.err = ENOSPC;
		else if (!strcmp(tok, "err=EIO"))
			cfg.err = EIO;
		else if (!strncmp(tok, "nth=", 4))
			cfg.nth = atol(tok + 4);
		else if (!strcmp(tok, "once"))
			cfg.once = 1;
		else if (!strncmp(tok, "path=", 5))
			snprintf(cfg.path, sizeof(cfg.path), "%s", tok + 5);
	}
}

static void track(int fd, const char *path)
{
	setup();
	if (fd < 0 || fd >= MAXFD)
		return;
	tracked[fd] = fd > 2 && (!cfg.path[0] || (path && strstr(path, cfg.path)));
}

/* openat's relative names: a file in a directory opened on a matching path matches */
static void track_at(int fd, int dirfd, const char *path)
{
	track(fd, path);
	if (fd > 2 && fd < MAXFD && path && path[0] != '/' && dirfd >= 0 && dirfd < MAXFD &&
	    tracked[dirfd])
		tracked[fd] = 1;
}

static int is_tracked(int fd)
{
	setup();
	if (fd < 0 || fd >= MAXFD || cfg.op == OP_NONE)
		return 0;
	if (!cfg.path[0])
		return fd > 2;
	return tracked[fd];
}

static void tell(const char *what, long n)
{
	char msg[160];
	int len;

	if (atomic_exchange(&told, 1))
		return;
	len = snprintf(msg, sizeof(msg), "iobfault: %s (call %ld, %ld bytes written "
		       "before)\n", what, n, (long)atomic_load(&done_bytes));
	if (len > 0 && write(2, msg, (size_t)len) < 0)
		return;
}

/* Should this call of kind op on fd fail? Returns 0 (go on), 1 (fail with cfg.err),
 * 2 (short: write half), 3 (corrupt: write it with a byte changed), 4 (lose: write
 * nothing, report it all written). */
static int strike(int fd, int op)
{
	int one = cfg.op == OP_SHORT || cfg.op == OP_CORRUPT || cfg.op == OP_LOSE;
	long n;

	if (!is_tracked(fd))
		return 0;
	if (!(cfg.op == op || (op == OP_WRITE && one)))
		return 0;
	n = atomic_fetch_add(&calls, 1) + 1;
	if (n < cfg.nth || (cfg.once && n != cfg.nth) || (one && n != cfg.nth))
		return 0;
	tell(cfg.op == OP_FSYNC ? "sync failed" : cfg.op == OP_SHORT ? "a whole write failed" :
	     cfg.op == OP_CORRUPT ? "write corrupted" : cfg.op == OP_LOSE ? "write lost" :
	     "write failed", n);
	return cfg.op == OP_SHORT ? 2 : cfg.op == OP_CORRUPT ? 3 : cfg.op == OP_LOSE ? 4 : 1;
}

/* A copy of buf with its middle byte inverted (NULL when len is 0 or memory is short:
 * the write then goes out as it was). The caller frees it. */
static void *damaged(const void *buf, size_t len)
{
	unsigned char *c = len ? malloc(len) : NULL;

	if (!c)
		return NULL;
	memcpy(c, buf, len);
	c[len / 2] ^= 0xff;
	return c;
}

static ssize_t wrote(ssize_t r)
{
	if (r > 0)
		atomic_fetch_add(&done_bytes, (long)r);
	return r;
}

/* ---- opening: remember which descriptors are on matching paths ---- */

/* op=odirect: refuse an open with O_DIRECT of a matching path. 1 when refused. */
static int no_direct(const char *path, int flags)
{
	setup();
	if (cfg.op != OP_ODIRECT || !(flags & O_DIRECT) ||
	    (cfg.path[0] && (!path || !strstr(path, cfg.path))))
		return 0;
	if (!atomic_exchange(&told, 1) &&
	    write(2, "iobfault: O_DIRECT open refused\n", 32) < 0)
		return 1;
	return 1;
}

/* The open family: the mode argument only where the flags create a file; O_DIRECT
 * refused for op=odirect; the new descriptor tracked by its path. */
#define OPEN_MODE(flags, mode) do {					\
		if ((flags) & (O_CREAT | O_TMPFILE)) {			\
			va_list ap;					\
			va_start(ap, flags);				\
			mode = (mode_t)va_arg(ap, int);			\
			va_end(ap);					\
		}							\
	} while (0)
#define OPEN_WRAPPER(name)						\
	int name(const char *path, int flags, ...)			\
	{								\
		mode_t mode = 0;					\
		int fd;							\
		REAL(name);						\
									\
		OPEN_MODE(flags, mode);					\
		if (no_direct(path, flags)) {				\
			errno = EINVAL;					\
			return -1;					\
		}							\
		fd = real_##name(path, flags, mode);			\
		track(fd, path);					\
		return fd;						\
	}
#define OPENAT_WRAPPER(name)						\
	int name(int dirfd, const char *path, int flags, ...)		\
	{								\
		mode_t mode = 0;					\
		int fd;							\
		REAL(name);						\
									\
		OPEN_MODE(flags, mode);					\
		if (no_direct(path, flags)) {				\
			errno = EINVAL;					\
			return -1;					\
		}							\
		fd = real_##name(dirfd, path, flags, mode);		\
		track_at(fd, dirfd, path);				\
		return fd;						\
	}

OPEN_WRAPPER(open)
OPEN_WRAPPER(open64)
OPENAT_WRAPPER(openat)
OPENAT_WRAPPER(openat64)

int creat(const char *path, mode_t mode)
{
	return open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
}

int mkstemp(char *tmpl)
{
	int fd;
	REAL(mkstemp);

	fd = real_mkstemp(tmpl);
	track(fd, tmpl);
	return fd;
}

int mkstemp64(char *tmpl)
{
	return mkstemp(tmpl);
}

int dup(int old)
{
	int fd;
	REAL(dup);

	fd = real_dup(old);
	if (fd >= 0 && fd < MAXFD && old >= 0 && old < MAXFD)
		tracked[fd] = tracked[old];
	return fd;
}

int close(int fd)
{
	REAL(close);

	if (fd >= 0 && fd < MAXFD)
		tracked[fd] = 0;
	return real_close(fd);
}

/* ---- writing ---- */

ssize_t write(int fd, const void *buf, size_t len)
{
	int s = strike(fd, OP_WRITE);
	void *bad = s == 3 ? damaged(buf, len) : NULL;
	ssize_t r;
	REAL(write);

	if (s == 1) {
		errno = cfg.err;
		return -1;
	}
	if (s == 4)
		return (ssize_t)len;
	r = wrote(real_write(fd, bad ? bad : buf, s == 2 && len > 1 ? len / 2 : len));
	free(bad);
	return r;
}

/* pwrite and pwrite64 alike: fails, writes half, damages or loses as strike says. */
#define PWRITE_WRAPPER(name)						\
	ssize_t name(int fd, const void *buf, size_t len, off_t off)	\
	{								\
		int s = strike(fd, OP_WRITE);				\
		void *bad = s == 3 ? damaged(buf, len) : NULL;		\
		ssize_t r;						\
		REAL(name);						\
									\
		if (s == 1) {						\
			errno = cfg.err;				\
			return -1;					\
		}							\
		if (s == 4)						\
			return (ssize_t)len;				\
		r = wrote(real_##name(fd, bad ? bad : buf,		\
				      s == 2 && len > 1 ? len / 2 : len, off)); \
		free(bad);						\
		return r;						\
	}

PWRITE_WRAPPER(pwrite)
PWRITE_WRAPPER(pwrite64)

ssize_t writev(int fd, const struct iovec *iov, int n)
{
	int s = strike(fd, OP_WRITE);
	REAL(writev);

	if (s == 1) {
		errno = cfg.err;
		return -1;
	}
	if (s == 2 && n > 0) {
		REAL(write);
		return wrote(real_write(fd, iov[0].iov_base, iov[0].iov_len > 1 ?
					iov[0].iov_len / 2 : iov[0].iov_len));
	}
	return wrote(real_writev(fd, iov, n));
}

ssize_t pwritev(int fd, const struct iovec *iov, int n, off_t off)
{
	int s = strike(fd, OP_WRITE);
	REAL(pwritev);

	if (s == 1) {
		errno = cfg.err;
		return -1;
	}
	if (s == 2 && n > 0) {
		REAL(pwrite);
		return wrote(real_pwrite(fd, iov[0].iov_base, iov[0].iov_len > 1 ?
					 iov[0].iov_len / 2 : iov[0].iov_len, off));
	}
	return wrote(real_pwritev(fd, iov, n, off));
}

ssize_t copy_file_range(int in, off_t *ioff, int out, off_t *ooff, size_t len,
			unsigned flags)
{
	int s = strike(out, OP_WRITE);
	REAL(copy_file_range);

	if (s == 1) {
		errno = cfg.err;
		return -1;
	}
	return wrote(real_copy_file_range(in, ioff, out, ooff, s == 2 && len > 1 ? len / 2 :
					  len, flags));
}

ssize_t sendfile(int out, int in, off_t *off, size_t len)
{
	int s = strike(out, OP_WRITE);
	REAL(sendfile);

	if (s == 1) {
		errno = cfg.err;
		return -1;
	}
	return wrote(real_sendfile(out, in, off, s == 2 && len > 1 ? len / 2 : len));
}

ssize_t sendfile64(int out, int in, off_t *off, size_t len)
{
	return sendfile(out, in, off, len);
}

/* ---- syncing ---- */

/* op=punch: 1 when a hole punched in fd is refused. */
static int no_punch(int fd, int mode)
{
	if (!(mode & FALLOC_FL_PUNCH_HOLE) || !is_tracked(fd) || cfg.op != OP_PUNCH)
		return 0;
	if (!atomic_exchange(&told, 1) &&
	    write(2, "iobfault: punch hole refused\n", 29) < 0)
		return 1;
	return 1;
}

int fallocate(int fd, int mode, off_t off, off_t len)
{
	REAL(fallocate);

	if (no_punch(fd, mode)) {
		errno = EOPNOTSUPP;
		return -1;
	}
	return real_fallocate(fd, mode, off, len);
}

int fallocate64(int fd, int mode, off64_t off, off64_t len)
{
	REAL(fallocate64);

	if (no_punch(fd, mode)) {
		errno = EOPNOTSUPP;
		return -1;
	}
	return real_fallocate64(fd, mode, off, len);
}

int fsync(int fd)
{
	REAL(fsync);

	if (strike(fd, OP_FSYNC)) {
		errno = cfg.err;
		return -1;
	}
	return real_fsync(fd);
}

int fdatasync(int fd)
{
	REAL(fdatasync);

	if (strike(fd, OP_FSYNC)) {
		errno = cfg.err;
		return -1;
	}
	return real_fdatasync(fd);
}

int syncfs(int fd)
{
	REAL(syncfs);

	/* syncfs takes any descriptor of the file system: count it when unfiltered */
	if ((!cfg.path[0] || is_tracked(fd)) && strike(fd > 2 ? fd : 3, OP_FSYNC)) {
		errno = cfg.err;
		return -1;
	}
	return real_syncfs(fd);
}

/* ---- stdio: glibc writes a FILE through its own internal write, which no preload
 * reaches; a stream on a matching file is therefore made a cookie stream whose writes
 * come through write() above ---- */

static ssize_t ck_read(void *c, char *buf, size_t len)
{
	return read((int)(long)c, buf, len);
}

static ssize_t ck_write(void *c, const char *buf, size_t len)
{
	size_t off = 0;
	ssize_t n;

	while (off < len) {
		n = write((int)(long)c, buf + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return off ? (ssize_t)off : -1;
		off += (size_t)n;
	}
	return (ssize_t)off;
}

static int ck_seek(void *c, off64_t *pos, int whence)
{
	off_t r = lseek((int)(long)c, (off_t)*pos, whence);

	if (r < 0)
		return -1;
	*pos = r;
	return 0;
}

/* A cookie stream has no descriptor of its own (fileno says -1); fileno() below gives
 * the one under it, so that a program can fsync what it wrote through the stream. */
#define MAXSTREAMS 64
static struct {
	FILE *f;
	int fd;
} streams[MAXSTREAMS];

static int ck_close(void *c)
{
	int i;

	for (i = 0; i < MAXSTREAMS; i++)
		if (streams[i].f && streams[i].fd == (int)(long)c)
			streams[i].f = NULL;
	return close((int)(long)c);
}

static FILE *cookie(int fd, const char *mode)
{
	cookie_io_functions_t io = { ck_read, ck_write, ck_seek, ck_close };
	FILE *f = fopencookie((void *)(long)fd, mode, io);
	int i;

	for (i = 0; f && i < MAXSTREAMS; i++)
		if (!streams[i].f) {
			streams[i].f = f;
			streams[i].fd = fd;
			break;
		}
	return f;
}

int fileno(FILE *f)
{
	int i;
	REAL(fileno);

	for (i = 0; f && i < MAXSTREAMS; i++)
		if (streams[i].f == f)
			return streams[i].fd;
	return real_fileno(f);
}

static int mode_flags(const char *mode)
{
	int rw = strchr(mode, '+') ? O_RDWR : mode[0] == 'r' ? O_RDONLY : O_WRONLY;

	if (mode[0] == 'w')
		return rw | O_CREAT | O_TRUNC;
	if (mode[0] == 'a')
		return rw | O_CREAT | O_APPEND;
	return rw;
}

FILE *fopen(const char *path, const char *mode)
{
	int fd;
	FILE *f;
	REAL(fopen);

	setup();
	if (cfg.op == OP_NONE || mode[0] == 'r' || !cfg.path[0] || !strstr(path, cfg.path))
		return real_fopen(path, mode);
	fd = open(path, mode_flags(mode) | O_CLOEXEC, 0666);
	if (fd < 0)
		return NULL;
	f = cookie(fd, mode);
	if (!f)
		close(fd);
	return f;
}

FILE *fopen64(const char *path, const char *mode)
{
	return fopen(path, mode);
}

FILE *fdopen(int fd, const char *mode)
{
	REAL(fdopen);

	if (mode[0] == 'r' || !is_tracked(fd))
		return real_fdopen(fd, mode);
	return cookie(fd, mode);
}
