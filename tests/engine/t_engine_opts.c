/* t_engine_opts.c - engine options and what each engine promises beyond the conformance
 * matrix: option parsing by fio's names, hints, engine_async_honest; that io_uring's
 * fixedbufs, registerfiles and sqthread_poll really change the path (each is observable:
 * a remapped registered buffer, a registered file swapped under its fd number, the
 * kernel's SQ thread), that the epoch makes a registered file look again, that hipri on a
 * buffered file fails with the poll-queue hint; the mmap engine's growth, remap, external
 * growth and shrink. Parts for engines missing from this build or refused here skip. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/uio.h>

#include "config.h"
#include "engtest.h"
#ifdef __linux__
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#endif

#define BS 4096u

static unsigned char *buf;	/* 16 blocks, page-aligned */

static int usable(const char *name)
{
	const struct engine *e = engine_find(name);
	int rc;

	if (!e) {
		printf("  %s: %s\n", name, engine_absent(name));
		return 0;
	}
	rc = e->probe ? e->probe() : 0;
	if (rc < 0)
		printf("  %s cannot run here: %s\n", name, strerror(-rc));
	return rc == 0;
}

/* ioctx for spec ("io_uring:fixedbufs"), depth 4, counting in w. */
static int open_spec(struct ioctx *io, struct worker *w, const char *spec)
{
	const struct engine *e;
	struct engine_opts o;
	char err[200];
	int rc;

	eng_cur = spec;
	rc = engine_parse(spec, &e, &o, err, sizeof(err));
	VEQ(rc, 0);
	if (rc)
		return rc;
	rc = ioctx_init_opts(io, e, 4, &o);
	VEQ(rc, 0);
	if (rc)
		return rc;
	eng_worker(w);
	ioctx_bind(io, w);
	return 0;
}

static int64_t do1(struct ioctx *io, int op, int fd, void *p, size_t len, uint64_t off)
{
	struct engine_req *r = ioctx_get(io);
	int64_t res;

	r->op = op;
	r->fd = fd;
	r->buf = p;
	r->len = len;
	r->off = off;
	res = ioctx_do(io, r);
	ioctx_put(io, r);
	return res;
}

/* A file of nblk blocks of seed s, written without the engine. */
static void make_file(const char *name, unsigned nblk, unsigned s)
{
	char path[PATH_MAX];
	int fd = open(eng_path(path, sizeof(path), name), O_CREAT | O_WRONLY | O_TRUNC, 0644);
	unsigned i;

	CHECK(fd >= 0);
	for (i = 0; i < nblk; i++) {
		eng_fill(buf, BS, i, s);
		CHECK(pwrite(fd, buf, BS, (off_t)i * BS) == (ssize_t)BS);
	}
	close(fd);
}

#ifdef HAVE_LIBURING
/* Whether o sets exactly options a and b of e (by fio's names). */
static int set_only(const struct engine *e, const struct engine_opts *o, const char *a,
		    const char *b)
{
	const struct engine_optdef *d;

	for (d = e->optdefs; d && d->name; d++)
		if (engine_opt_get(e, o, d->name, NULL) !=
		    (!strcmp(d->name, a) || !strcmp(d->name, b)))
			return 0;
	return 1;
}
#endif

static void t_parse(void)
{
	const struct engine *e, *ps = engine_find("psync");
	struct engine_opts o;
	struct ioctx io;
	char err[200], s[100];
	long cpu = -1;

	eng_cur = "registry";
	VEQ(engine_parse("psync", &e, &o, err, sizeof(err)), 0);
	VCHECK(e == ps && o.flags == 0);
	VEQ(engine_parse("nope", &e, &o, err, sizeof(err)), -ENOENT);
	VCHECK(strstr(err, "unknown engine: 'nope'") != NULL);
	VEQ(engine_parse("psync:fixedbufs", &e, &o, err, sizeof(err)), -EINVAL);
	VCHECK(strstr(err, "engine 'psync' has no option 'fixedbufs'") != NULL);
	VEQ(engine_opt_set(ps, &o, "hipri", NULL), -ENOENT);
	VCHECK(engine_absent("nope") == NULL && engine_absent("psync") == NULL);
	memset(&o, 0, sizeof(o));
	o.flags = 1u;	/* an option bit: psync takes none, refused before any I/O */
	VEQ(ioctx_init_opts(&io, ps, 1, &o), -EINVAL);
#ifdef HAVE_LIBURING
	VEQ(engine_parse("io_uring:sqpoll,fixedbufs", &e, &o, err, sizeof(err)), 0);
	VCHECK(e == engine_find("io_uring"));
	VCHECK(set_only(e, &o, "sqthread_poll", "fixedbufs"));
	VCHECK(!strcmp(engine_opts_str(e, &o, s, sizeof(s)), "fixedbufs,sqthread_poll"));
	VEQ(engine_parse("io_uring:sqthread_poll=1,sqthread_poll_cpu=1,hipri=0", &e, &o, err,
			 sizeof(err)), 0);
	VCHECK(set_only(e, &o, "sqthread_poll", "sqthread_poll_cpu"));
	VEQ(engine_opt_get(e, &o, "sqthread_poll_cpu", &cpu), 1);
	VEQ(cpu, 1);
	VCHECK(!strcmp(engine_opts_str(e, &o, s, sizeof(s)), "sqthread_poll,sqthread_poll_cpu=1"));
	VEQ(engine_parse("io_uring:sqthread_poll_cpu=x", &e, &o, err, sizeof(err)), -EINVAL);
	VCHECK(strstr(err, "bad value for engine option 'sqthread_poll_cpu': 'x'") != NULL);
	VEQ(engine_parse("io_uring:fixedbufs=maybe", &e, &o, err, sizeof(err)), -EINVAL);
	VEQ(engine_parse("io_uring:bogus", &e, &o, err, sizeof(err)), -EINVAL);
	VCHECK(strstr(err, "no option 'bogus'") != NULL);
	VEQ(engine_parse("io_uring:", &e, &o, err, sizeof(err)), -EINVAL);
	VEQ(engine_opt_set(e, &o, "registerfiles", "yes"), 0);
	VEQ(engine_opt_get(e, &o, "registerfiles", NULL), 1);
	VEQ(engine_opt_set(e, &o, "registerfiles", "off"), 0);
	VEQ(engine_opt_get(e, &o, "registerfiles", NULL), 0);
#else
	(void)s;
	(void)cpu;
	VCHECK(strstr(engine_absent("io_uring"), "liburing") != NULL);
	VEQ(engine_parse("io_uring", &e, &o, err, sizeof(err)), -ENOENT);
	VCHECK(strstr(err, "liburing") != NULL);
#endif
}

static void t_hints(void)
{
	const struct engine *u = engine_find("io_uring"), *a = engine_find("libaio");
	struct engine_opts hip = { 0 };
	const char *h;

	eng_cur = "hints";
	VCHECK(engine_hint(engine_find("psync"), NULL, -EINVAL) == NULL);
	if (u) {
		VEQ(engine_opt_set(u, &hip, "hipri", NULL), 0);
		h = engine_hint(u, &hip, -EOPNOTSUPP);
		VCHECK(h && strstr(h, "polled completions need O_DIRECT on a device with poll "
				      "queues (nvme poll_queues)"));
		VCHECK(engine_hint(u, NULL, -EOPNOTSUPP) == NULL);
		h = engine_hint(u, NULL, -EPERM);
		VCHECK(h && strstr(h, "io_uring_disabled") && strstr(h, "psync"));
		h = engine_hint(u, NULL, -ENOSYS);
		VCHECK(h && strstr(h, "psync"));
	}
	if (a) {
		h = engine_hint(a, NULL, -ENOSYS);
		VCHECK(h && strstr(h, "psync"));
	}
}

static void t_honest(void)
{
	char path[PATH_MAX];
	int fd, dfd;

	eng_cur = "async_honest";
	make_file("h", 1, 1);
	fd = open(eng_path(path, sizeof(path), "h"), O_RDONLY);
	dfd = open(path, O_RDONLY | O_DIRECT);
	VCHECK(fd >= 0);
	VEQ(engine_async_honest(engine_find("psync"), fd), 0);
	VEQ(engine_async_honest(engine_find("null"), fd), 0);
	if (engine_find("io_uring"))
		VEQ(engine_async_honest(engine_find("io_uring"), fd), 1);
	if (engine_find("mmap"))
		VEQ(engine_async_honest(engine_find("mmap"), fd), 0);
	if (engine_find("libaio")) {
		VEQ(engine_async_honest(engine_find("libaio"), fd), 0);
		if (dfd >= 0)
			VEQ(engine_async_honest(engine_find("libaio"), dfd), 1);
	}
	close(fd);
	if (dfd >= 0)
		close(dfd);
}

/* The pages of a registered buffer are pinned: after the buffer's address is mapped to
 * fresh pages, a READ_FIXED still lands in the old ones, a plain read in the new ones. */
static int remap_read(const char *spec)
{
	struct ioctx io;
	struct worker w;
	struct iovec iov;
	char path[PATH_MAX];
	unsigned char *p;
	int fd, seen = -1;

	p = mmap(NULL, 4 * BS, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || open_spec(&io, &w, spec))
		return -1;
	iov.iov_base = p;
	iov.iov_len = 4 * BS;
	VEQ(ioctx_register_buffers(&io, &iov, 1), 0);
	fd = ioctx_open(&io, eng_path(path, sizeof(path), "fb"), O_RDONLY, 0);
	VCHECK(fd >= 0);
	VEQ(do1(&io, ENGINE_OP_PREAD, fd, p, BS, 0), BS);
	VCHECK(eng_same(p, BS, 0, 5));
	VCHECK(mmap(p, 4 * BS, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
		    -1, 0) == p);
	VEQ(do1(&io, ENGINE_OP_PREAD, fd, p + BS, BS, BS), BS);
	seen = eng_same(p + BS, BS, 1, 5);
	VEQ(ioctx_close(&io, fd), 0);
	ioctx_exit(&io);
	munmap(p, 4 * BS);
	return seen;
}

static void t_fixedbufs(void)
{
	if (!usable("io_uring"))
		return;
	make_file("fb", 2, 5);
	VEQ(remap_read("io_uring"), 1);			/* plain: the new pages */
	VEQ(remap_read("io_uring:fixedbufs"), 0);	/* fixed: the old, pinned ones */
}

/* fd now names file B behind the engine's back (dup2, no epoch): a registered file still
 * reads A; after a close through an engine (the epoch moves), the engine looks again. */
static void t_registerfiles(void)
{
	struct ioctx io;
	struct worker w;
	char a[PATH_MAX], b[PATH_MAX];
	int fd, fb;

	if (!usable("io_uring"))
		return;
	make_file("ra", 2, 6);
	make_file("rb", 2, 7);
	eng_path(a, sizeof(a), "ra");
	eng_path(b, sizeof(b), "rb");
	if (open_spec(&io, &w, "io_uring:registerfiles"))
		return;
	fd = ioctx_open(&io, a, O_RDONLY, 0);
	VEQ(do1(&io, ENGINE_OP_PREAD, fd, buf, BS, 0), BS);
	VCHECK(eng_same(buf, BS, 0, 6));
	fb = open(b, O_RDONLY);
	VCHECK(fb >= 0 && dup2(fb, fd) == fd);
	close(fb);
	VEQ(do1(&io, ENGINE_OP_PREAD, fd, buf, BS, 0), BS);
	VCHECK(eng_same(buf, BS, 0, 6));	/* the registered A, not what fd names now */
	/* a close through any engine moves the epoch: the engine checks and registers B */
	VEQ(engine_close(engine_find("psync"), NULL, fd), 0);
	fb = open(b, O_RDONLY);
	VCHECK(fb >= 0);
	if (fb != fd) {
		VCHECK(dup2(fb, fd) == fd);
		close(fb);
	}
	VEQ(do1(&io, ENGINE_OP_PREAD, fd, buf, BS, BS), BS);
	VCHECK(eng_same(buf, BS, 1, 7));
	VEQ(ioctx_close(&io, fd), 0);
	ioctx_exit(&io);
}

/* The kernel's SQ polling thread is a thread of this process: iou-sqp-PID. */
static int sqp_threads(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *de;
	int n = 0;

	while (d && (de = readdir(d))) {
		char p[300], comm[64] = "";
		FILE *f;

		snprintf(p, sizeof(p), "/proc/self/task/%s/comm", de->d_name);
		f = fopen(p, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strncmp(comm, "iou-sqp-", 8))
			n++;
		fclose(f);
	}
	if (d)
		closedir(d);
	return n;
}

static void t_sqpoll(void)
{
	struct ioctx io;
	struct worker w;
	char path[PATH_MAX];
	int fd, before;

	if (!usable("io_uring") || access("/proc/self/task", R_OK) < 0)
		return;
	make_file("sq", 1, 8);
	before = sqp_threads();
	if (open_spec(&io, &w, "io_uring:sqthread_poll"))
		return;
	fd = ioctx_open(&io, eng_path(path, sizeof(path), "sq"), O_RDONLY, 0);
	VEQ(do1(&io, ENGINE_OP_PREAD, fd, buf, BS, 0), BS);
	VCHECK(eng_same(buf, BS, 0, 8));
	VEQ(sqp_threads(), before + 1);
	VEQ(ioctx_close(&io, fd), 0);
	ioctx_exit(&io);
}

static void t_hipri(void)
{
	struct ioctx io;
	struct worker w;
	struct stat st;
	char path[PATH_MAX];
	int fd;
	int64_t res;

	if (!usable("io_uring"))
		return;
	make_file("hp", 2, 9);
	if (open_spec(&io, &w, "io_uring:hipri"))
		return;
	fd = ioctx_open(&io, eng_path(path, sizeof(path), "hp"), O_RDWR, 0);
	VCHECK(fd >= 0);
	/* buffered: the kernel refuses to poll it */
	VEQ(do1(&io, ENGINE_OP_PREAD, fd, buf, BS, 0), -EOPNOTSUPP);
	VEQ(w.err, -EOPNOTSUPP);
	/* a polled ring takes no fsync or metadata: those run synchronously and work */
	VEQ(do1(&io, ENGINE_OP_FSYNC, fd, NULL, 0, 0), 0);
	VEQ(ioctx_sync(&io, fd, 1), 0);
	VEQ(ioctx_fstat(&io, fd, &st), 0);
	VEQ(st.st_size, 2 * BS);
	VEQ(ioctx_close(&io, fd), 0);
	fd = ioctx_open(&io, path, O_RDONLY | O_DIRECT, 0);
	if (fd >= 0) {
		res = do1(&io, ENGINE_OP_PREAD, fd, buf, BS, BS);
		/* polled where the device has poll queues, else refused: both are honest */
		VCHECK(res == (int64_t)BS || res == -EOPNOTSUPP);
		if (res == (int64_t)BS)
			VCHECK(eng_same(buf, BS, 1, 9));
		printf("  hipri O_DIRECT read here: %s\n",
		       res == (int64_t)BS ? "polled" : strerror((int)-res));
		VEQ(ioctx_close(&io, fd), 0);
	}
	ioctx_exit(&io);
}

#ifdef __linux__
/* In a child, make system call nr fail with err (as a seccomp policy or the
 * io_uring_disabled sysctl would), then probe e. 1 when the probe says -err and the hint
 * suggests psync, 0 when not, -1 when no filter could be installed here. */
static int probe_refused(const struct engine *e, long nr, int err)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		struct sock_filter f[] = {
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nr, 0, 1),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (unsigned)err),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		};
		struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };
		const char *h;
		int rc;

		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
		    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
			_exit(77);
		rc = e->probe();
		h = engine_hint(e, NULL, rc);
		printf("  %s with %s refused: probe %d: %s\n", e->name, strerror(err), rc,
		       h ? h : "(no hint)");
		fflush(stdout);
		_exit(rc == -err && h && strstr(h, "psync") ? 0 : 1);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return 0;
	return WEXITSTATUS(st) == 77 ? -1 : WEXITSTATUS(st) == 0;
}

static void check_refused(const struct engine *e, long nr, int err)
{
	int rc = probe_refused(e, nr, err);

	if (rc < 0)
		printf("  no seccomp filter here: %s refusal not checked\n", e->name);
	else
		VEQ(rc, 1);
}
#endif

/* The probe says why an engine cannot run, and the hint suggests psync. */
static void t_probe(void)
{
#ifdef __linux__
	const struct engine *u = engine_find("io_uring"), *a = engine_find("libaio");

	eng_cur = "probe";
	fflush(stdout);
#ifdef __NR_io_uring_setup
	if (u && usable("io_uring")) {
		check_refused(u, __NR_io_uring_setup, EPERM);
		check_refused(u, __NR_io_uring_setup, ENOSYS);
	}
#endif
#ifdef __NR_io_setup
	if (a && usable("libaio"))
		check_refused(a, __NR_io_setup, ENOSYS);
#endif
	(void)u;
	(void)a;
#endif
}

/* A mapping grows with the file, follows growth by others, survives a shrink. */
static void t_mmap(void)
{
	struct ioctx io;
	struct worker w;
	struct stat st;
	char path[PATH_MAX];
	int fd, raw;

	if (!usable("mmap") || open_spec(&io, &w, "mmap"))
		return;
	fd = ioctx_open(&io, eng_path(path, sizeof(path), "mm"), O_CREAT | O_WRONLY | O_TRUNC,
			0644);
	VCHECK(fd >= 0);
	eng_fill(buf, BS, 0, 10);
	VEQ(do1(&io, ENGINE_OP_PWRITE, fd, buf, BS, 0), BS);
	eng_fill(buf, BS, 1, 10);
	VEQ(do1(&io, ENGINE_OP_PWRITE, fd, buf, BS, 1u << 20), BS);	/* past the mapping */
	VEQ(ioctx_fstat(&io, fd, &st), 0);
	VEQ(st.st_size, (1u << 20) + BS);
	VEQ(ioctx_ftruncate(&io, fd, 3u << 20), 0);
	eng_fill(buf, BS, 2, 10);
	VEQ(do1(&io, ENGINE_OP_PWRITE, fd, buf, BS, 5u << 19), BS);
	VEQ(do1(&io, ENGINE_OP_FDATASYNC, fd, NULL, 0, 0), 0);
	VEQ(do1(&io, ENGINE_OP_FSYNC, fd, NULL, 0, 0), 0);
	/* another fd grows the file: the engine sees it on its next read there */
	raw = open(path, O_RDWR);
	eng_fill(buf, BS, 3, 10);
	VCHECK(raw >= 0 && pwrite(raw, buf, BS, 4u << 20) == (ssize_t)BS);
	memset(buf, 0, BS);
	VEQ(do1(&io, ENGINE_OP_PREAD, fd, buf, BS, 4u << 20), BS);
	VCHECK(eng_same(buf, BS, 3, 10));
	VEQ(do1(&io, ENGINE_OP_PREAD, fd, buf, BS, 1u << 20), BS);
	VCHECK(eng_same(buf, BS, 1, 10));
	VEQ(do1(&io, ENGINE_OP_PREAD, fd, buf, BS, 5u << 19), BS);
	VCHECK(eng_same(buf, BS, 2, 10));
	/* what the mapping wrote is in the file for read(2) */
	VCHECK(pread(raw, buf, BS, 0) == (ssize_t)BS && eng_same(buf, BS, 0, 10));
	/* shrunk through an engine: reads past the new end are 0, not SIGBUS */
	VEQ(engine_ftruncate(engine_find("psync"), NULL, raw, 2 * BS), 0);
	VEQ(do1(&io, ENGINE_OP_PREAD, fd, buf, BS, 1u << 20), 0);
	VEQ(do1(&io, ENGINE_OP_PREAD, fd, buf, BS, BS + 100), BS - 100);
	close(raw);
	VEQ(ioctx_close(&io, fd), 0);
	ioctx_exit(&io);
}

int main(void)
{
	if (eng_mkdir("t_engine_opts") < 0 || posix_memalign((void **)&buf, 4096, 16 * BS)) {
		perror("t_engine_opts: setup");
		return 1;
	}
	RUN(t_parse);
	RUN(t_hints);
	RUN(t_probe);
	RUN(t_honest);
	RUN(t_fixedbufs);
	RUN(t_registerfiles);
	RUN(t_sqpoll);
	RUN(t_hipri);
	RUN(t_mmap);
	free(buf);
	eng_rmdir();
	return test_done();
}
