/* fsync_tests.c - pg_test_fsync's tests through the runner: the file laid out, then one
 * timed phase per method, then the durability row. See fsync.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "core/rng.h"
#include "fs/scratch.h"
#include "observe/wcache.h"
#include "runner/runner.h"
#include "stats/result.h"
#include "stats/result_keys.h"
#include "workload/fsync/fsync.h"
#include "workload/fsync/fsync_int.h"

#ifndef O_DIRECT
#define O_DIRECT 0
#endif

/* The tests in pg_test_fsync's order, for block b (its sizes section scales with b). */
static unsigned build_tests(uint32_t b, struct fs_test *t)
{
	static const struct {
		enum fs_kind k;
		const char *name;
	} methods[] = {
		{ K_ODSYNC, "open_datasync" }, { K_FDATASYNC, "fdatasync" }, { K_FSYNC, "fsync" },
		{ K_WRITETHROUGH, "fsync_writethrough" }, { K_OSYNC, "open_sync" },
	};
	unsigned n = 0, i, w, per;
	char sz[16];

	for (w = 1; w <= 2; w++)
		for (i = 0; i < 5; i++, n++) {
			t[n].section = w == 1 ? "one_write" : "two_writes";
			t[n].kind = methods[i].k;
			t[n].writes = w;
			t[n].size = b;
			snprintf(t[n].phase, sizeof(t[n].phase), "%s_%uw", methods[i].name, w);
			snprintf(t[n].label, sizeof(t[n].label), "%s", methods[i].name);
		}
	/* 2b bytes (16 kB for the default 8 kB) as 1, 2, 4, 8 and 16 writes */
	for (per = 1; per <= 16; per *= 2, n++) {
		uint32_t s = 2 * b / per;

		if (s % 1024)
			snprintf(sz, sizeof(sz), "%uB", s);
		else
			snprintf(sz, sizeof(sz), "%ukB", s / 1024);
		t[n].section = "open_sync_sizes";
		t[n].kind = K_OSYNC;
		t[n].writes = per;
		t[n].size = s;
		snprintf(t[n].phase, sizeof(t[n].phase), "open_sync_%ux%s", per, sz);
		snprintf(t[n].label, sizeof(t[n].label), "%2u * %4s open_sync write%s", per, sz,
			 per > 1 ? "s" : "");
	}
	t[n] = (struct fs_test){ "fd_sync", "write_fsync_close", "write, fsync, close", K_WFC,
				 1, b };
	n++;
	t[n] = (struct fs_test){ "fd_sync", "write_close_fsync", "write, close, fsync", K_WCF,
				 1, b };
	n++;
	t[n] = (struct fs_test){ "non_sync", "write", "write", K_NOSYNC, 1, b };
	return n + 1;
}

static const char *kind_method(enum fs_kind k)
{
	static const char *const names[] = { "open_datasync", "fdatasync", "fsync",
					     "fsync_writethrough", "open_sync", "fsync_other_fd",
					     "fsync_other_fd", "none" };

	return names[k];
}

int fs_durable(enum fs_kind k)
{
	return k != K_NOSYNC;
}

/* One request through the engine, untimed (the op is timed whole). res or -errno. */
static int64_t req(struct fs_ctx *x, int op, int fd, size_t len, uint64_t off)
{
	struct engine_req *r = x->rq;

	r->op = op;
	r->fd = fd;
	r->buf = x->buf;
	r->len = len;
	r->off = off;
	return ioctx_call(&x->io, r);
}

/* A write of len bytes that must complete whole. 0 or -errno (-EIO when short). */
static int wr(struct fs_ctx *x, int op, int fd, size_t len, uint64_t off, const char **what)
{
	int64_t n = req(x, op, fd, len, off);

	*what = "write";
	return n == (int64_t)len ? 0 : n < 0 ? (int)n : -EIO;
}

static int sync_fd(struct fs_ctx *x, int fd, int data, const char **what)
{
	*what = data ? "fdatasync" : "fsync";
	return (int)req(x, data ? ENGINE_OP_FDATASYNC : ENGINE_OP_FSYNC, fd, 0, 0);
}

static int reopen(struct fs_ctx *x, const char **what)
{
	int fd = ioctx_open(&x->io, x->c->path, O_RDWR | O_CLOEXEC, 0);

	*what = "open";
	return fd;
}

static int closefd(struct fs_ctx *x, int fd, const char **what)
{
	int rc = ioctx_close(&x->io, fd);

	if (rc < 0)
		*what = "close";
	return rc;
}

/* The descriptor tests: write, fsync, close (and an open and close more, so both lines
 * open the file twice); or write, close, then fsync on another descriptor. */
static int fd_test(struct fs_ctx *x, const struct fs_test *t, const char **what)
{
	int fd = reopen(x, what), rc, fd2;

	if (fd < 0)
		return fd;
	rc = wr(x, ENGINE_OP_WRITE, fd, t->size, 0, what);
	if (!rc && t->kind == K_WFC)
		rc = sync_fd(x, fd, 0, what);
	if (closefd(x, fd, what) < 0 && !rc)
		rc = -EIO;
	if (rc)
		return rc;
	if ((fd2 = reopen(x, what)) < 0)
		return fd2;
	if (t->kind == K_WCF)
		rc = sync_fd(x, fd2, 0, what);
	if (closefd(x, fd2, what) < 0 && !rc)
		rc = -EIO;
	return rc;
}

/* One op of test t on fd. 0 or -errno; *what names the call that failed. */
static int one_op(struct fs_ctx *x, const struct fs_test *t, int fd, const char **what)
{
	unsigned w;
	int rc;

	if (t->kind == K_WFC || t->kind == K_WCF)
		return fd_test(x, t, what);
	for (w = 0; w < t->writes; w++)
		if ((rc = wr(x, ENGINE_OP_PWRITE, fd, t->size, (uint64_t)w * t->size, what)))
			return rc;
	if (t->kind == K_FDATASYNC || t->kind == K_FSYNC)
		return sync_fd(x, fd, t->kind == K_FDATASYNC, what);
	return 0;
}

static void set_params(struct fs_ctx *x, struct row *row, const struct fs_test *t, int direct)
{
	kv_set(&row->params, RK_FSYNC_TEST, "%s", t->section);
	kv_set(&row->params, RK_FSYNC_METHOD, "%s", kind_method(t->kind));
	kv_set(&row->params, RK_FSYNC_WRITES_PER_OP, "%u", t->writes);
	kv_set(&row->params, RK_FSYNC_WRITE_SIZE, "%u", (unsigned)t->size);
	kv_set(&row->params, RK_FSYNC_DIRECT, "%s", direct ? "true" : "false");
	kv_set(&row->params, RK_FSYNC_SECS_PER_TEST, "%u", x->c->secs);
	kv_set(&row->params, RK_FSYNC_LABEL, "%s", t->label);
	kv_set(&row->params, RK_FSYNC_PLATFORM_DIRECT, "%s", O_DIRECT ? "true" : "false");
	kv_set(&row->params, RK_ROW_DETAIL, "%u x %u B%s", t->writes, (unsigned)t->size,
	       direct ? ", direct" : "");
}

/* A row without a figure: the method is missing here. */
static void na_row(struct fs_ctx *x, const struct fs_test *t, const char *na, const char *why,
		   int direct)
{
	struct row *row = run_add_row(x->rc->run, "fsync", t->phase);

	if (!row)
		return;
	row->repeat = x->rc->repeat;
	row->flags |= ROW_NOT_MEASURED;
	set_params(x, row, t, direct);
	kv_set(&row->params, RK_FSYNC_NA, "%s", na);
	str_set(&row->note, why);
}

/* The descriptor the test runs on (-1 for the descriptor tests, which open their own).
 * -errno on failure; *na set (1: "n/a*") when the file system refuses O_DIRECT. */
static int test_fd(struct fs_ctx *x, const struct fs_test *t, int *direct, int *na)
{
	int flags = O_RDWR | O_CLOEXEC, fd;

	*direct = *na = 0;
	if (t->kind == K_WFC || t->kind == K_WCF)
		return -1;
	if (t->kind == K_ODSYNC || t->kind == K_OSYNC) {
		flags |= (t->kind == K_ODSYNC ? O_DSYNC : O_SYNC) | O_DIRECT;
		*direct = O_DIRECT != 0;
	}
	fd = ioctx_open(&x->io, x->c->path, flags, 0);
	if (fd == -EINVAL && *direct)
		*na = 1;
	return fd;
}

static void device_figures(struct fs_ctx *x, struct row *row,
			   const struct diskstats_counters *a, int have_a)
{
	struct diskstats_counters b;

	if (!have_a || fsync_dev_counters(&x->set, x->dev, &b) < 0 || b.nfields < a->nfields)
		return;
	if (a->nfields >= 17 && b.fl_ios >= a->fl_ios)
		row_add_metric(row, RK_FSYNC_DEVICE_FLUSHES, (double)(b.fl_ios - a->fl_ios),
			       "flushes");
	if (b.wr_ios >= a->wr_ios)
		row_add_metric(row, RK_FSYNC_DEVICE_WRITES, (double)(b.wr_ios - a->wr_ios),
			       "writes");
}

/* Time test t for secs seconds: one row. 0, -EINTR, or -errno of the method (the row
 * failed, the tests go on). */
static int run_test(struct fs_ctx *x, const struct fs_test *t)
{
	struct diskstats_counters c0;
	const char *what = "open";
	uint64_t deadline;
	struct phase ph;
	struct row *row;
	int direct, na, fd, err = 0, have_c0;

	if (t->kind == K_WRITETHROUGH) {
		na_row(x, t, "n/a", "fsync_writethrough needs F_FULLFSYNC (macOS) or Windows' "
		       "_commit; this system has neither", 0);
		return 0;
	}
	fd = test_fd(x, t, &direct, &na);
	if (na) {
		na_row(x, t, "n/a*", "the file system refuses O_DIRECT", 1);
		return 0;
	}
	if (fd < -1)
		err = fd;
	have_c0 = x->dev >= 0 && fsync_dev_counters(&x->set, x->dev, &c0) == 0;
	if ((fd >= -1) && (err = phase_begin(&ph, x->rc, t->phase, 1, "ops", 0)) == 0) {
		ioctx_bind(&x->io, &ph.w[0]);
		phase_restart(&ph);
		worker_start(&ph.w[0]);
		deadline = ph.t0 + (uint64_t)x->c->secs * 1000000000ull;
		/* one clock read per op: an op's latency runs from the end of the one before
		 * (as ioctx_do_chain), which matters for the page-cache writes */
		do {
			uint64_t t1;

			err = one_op(x, t, fd, &what);
			t1 = clock_ns();
			worker_record(&ph.w[0], t1 - ph.w[0].t_last,
				      err ? err : (int64_t)t->writes * t->size, t1);
		} while (!err && ph.w[0].t_last < deadline && !sig_stop_requested());
		row = phase_end(&ph, "fsync");
		if (!row)
			err = -ENOMEM;
	} else {
		row = run_add_row(x->rc->run, "fsync", t->phase);
		if (row) {
			row->repeat = x->rc->repeat;
			row->flags |= ROW_FAILED;
		}
	}
	if (fd >= 0 && ioctx_close(&x->io, fd) < 0 && !err) {
		err = -EIO;
		what = "close";
	}
	if (!row)
		return -ENOMEM;
	set_params(x, row, t, direct);
	/* ops/sec as pg_test_fsync: the ops over the time, exactly from the row's fields */
	row->rate = row->ops && row->elapsed_ns ?
		    (double)row->ops / ((double)row->elapsed_ns / 1e9) : 0;
	str_set(&row->rate_unit, "ops/s");
	if (row->ops)
		row_add_metric(row, RK_FSYNC_USECS_PER_OP,
			       (double)row->elapsed_ns / 1e3 / (double)row->ops, "us");
	device_figures(x, row, &c0, have_c0);
	if (err && err != -EINTR) {
		row->flags |= ROW_FAILED;
		free(row->error);
		row->error = str_printf("%s: %s", what, strerror(-err));
		x->failed = 1;
		return 0;
	}
	return err;
}

/* The file: 16 MiB (at least two blocks) of random bytes, fsynced, as pg_test_fsync lays
 * it out before the tests so that later syncs do not pay for its allocation. */
static int lay_out(struct fs_ctx *x, const char **what)
{
	int fd = ioctx_open(&x->io, x->c->path, O_RDWR | O_CREAT | O_CLOEXEC, 0600), rc;
	size_t off, n;

	*what = "open";
	if (fd < 0)
		return fd;
	if (x->c->new_file || x->c->scratch)
		(void)mark_created(fd);
	/* one write of it all, as pg_test_fsync (the page cache then holds the file as it
	 * holds pg_test_fsync's); a short write is resumed */
	for (off = 0, rc = 0; off < x->buflen && !rc; off += n) {
		int64_t w;

		x->rq->op = ENGINE_OP_PWRITE;
		x->rq->fd = fd;
		x->rq->buf = x->buf + off;
		x->rq->len = x->buflen - off;
		x->rq->off = off;
		w = ioctx_call(&x->io, x->rq);
		n = w > 0 ? (size_t)w : 0;
		rc = w > 0 ? 0 : w < 0 ? (int)w : -EIO;
		*what = "write";
	}
	if (!rc)
		rc = sync_fd(x, fd, 0, what);
	if (ioctx_close(&x->io, fd) < 0 && !rc) {
		rc = -EIO;
		*what = "close";
	}
	return rc;
}

static int ctx_init(struct fs_ctx *x, struct runner *rc, struct fsync_cfg *c)
{
	struct rng r;
	void *p;
	int err;

	memset(x, 0, sizeof(*x));
	x->rc = rc;
	x->c = c;
	x->dev = -1;
	x->facts.write_cache = x->facts.fua = x->facts.rotational = -1;
	diskstats_init(&x->set);
	x->buflen = FSYNC_PREFILL > 2 * c->block ? FSYNC_PREFILL : (size_t)(2 * c->block);
	if (posix_memalign(&p, 4096, x->buflen))
		return -ENOMEM;
	x->buf = p;
	rng_seed(&r, 0x70675f7465737466ull ^ (uint64_t)getpid());
	rng_fill(&r, x->buf, x->buflen);
	if ((err = ioctx_init(&x->io, rc->eng, 1)) < 0)
		return err;
	x->rq = ioctx_get(&x->io);
	/* the device under the directory: the file may not exist yet */
	(void)diskstats_find(c->dir, &x->set);
	x->dev = wcache_facts(NULL, &x->set, c->rpm, &x->facts);
	return 0;
}

static void ctx_free(struct fs_ctx *x)
{
	if (x->io.e) {
		ioctx_put(&x->io, x->rq);
		ioctx_exit(&x->io);
	}
	diskstats_close(&x->set);
	free(x->buf);
}

int fsync_run(struct runner *rc, struct fsync_cfg *c)
{
	struct fs_test t[FS_MAX_TESTS];
	struct fs_ctx x;
	const char *what = "open";
	unsigned n, i;
	int err;

	err = ctx_init(&x, rc, c);
	if (!err && c->crash) {
		err = fs_crash_test(&x);
		ctx_free(&x);
		return err;
	}
	if (!err && (err = lay_out(&x, &what)) < 0) {
		struct row *row = run_add_row(rc->run, "fsync", "layout");

		if (row) {
			row->repeat = rc->repeat;
			row->flags |= ROW_FAILED;
			row->error = str_printf("cannot lay out the test file: %s: %s", what,
						strerror(-err));
		}
	}
	n = build_tests((uint32_t)c->block, t);
	for (i = 0; !err && i < n; i++)
		err = sig_stop_requested() ? -EINTR : run_test(&x, &t[i]);
	if (!err)
		fs_durability_row(&x);
	ctx_free(&x);
	if (!err && x.failed)
		err = -EIO;
	return err;
}
