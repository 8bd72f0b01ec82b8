/* t_vhook_track.c - the hook's table of each block's last generation (vhook_track):
 * driven request by request through vhook_before and vhook_after, with the bytes put in
 * the file by hand in the order a test wants them to land. A write that completed alone
 * on its block sets what the block must hold, so a write reported done but never landed
 * is stale; two writes of one block that overlapped may land in either order and neither
 * is stale (the newer one counts in flight); a write off the grid ends the tracking
 * (any generation again, said by verify_generations). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "verify/vblock.h"
#include "engine/engine.h"
#include "runner/ioctx.h"
#include "runner/runner.h"
#include "runner/vhook.h"
#include "stats/result.h"
#include "stats/result_keys.h"
#include "test.h"

#define BLK	4096u
#define NBLK	4u

struct fix {
	char dir[256], path[300];
	struct runner rc;
	struct vhook_cfg cfg;
	struct vhook *h;
	struct ioctx io;
	int io_ready, fd;
	unsigned char buf[BLK];
};

/* A hook on a file of NBLK blocks, laid out (generation 1 of every block) and tracked. */
static int fix_open(struct fix *x)
{
	const char *tmp = getenv("TESTS_TMP");
	struct engine_req *q;

	memset(x, 0, sizeof(*x));
	x->fd = -1;
	snprintf(x->dir, sizeof(x->dir), "%s/t_vhook.XXXXXX", tmp ? tmp : "/tmp");
	if (!mkdtemp(x->dir))
		return -errno;
	snprintf(x->path, sizeof(x->path), "%s/f", x->dir);
	x->cfg.on = 1;
	x->rc.verify = &x->cfg;
	x->rc.eng = &engine_psync;
	x->rc.run = run_new("t");
	x->fd = -1;
	if (!x->rc.run || vhook_start(&x->h, &x->rc, BLK, VBLOCK_DATA_RANDOM, 0) < 0 ||
	    ioctx_init(&x->io, &engine_psync, 4) < 0)
		return -ENOMEM;
	x->io_ready = 1;
	if (vhook_attach(x->h, &x->io) < 0)
		return -ENOMEM;
	x->fd = ioctx_open(&x->io, x->path, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (x->fd < 0 || vhook_file(&x->io, x->fd, x->path, 7, VHOOK_GEN_COUNT) < 0)
		return -EIO;
	CHECK_EQ_U64(vhook_track(&x->io, 7, BLK, (uint64_t)NBLK * BLK), 1);
	CHECK(vhook_track(&x->io, 8, BLK, BLK) == -EINVAL);	/* not named */
	CHECK(vhook_track(&x->io, 7, 32, BLK) == -EINVAL);	/* below a header */
	q = x->io.ctl;
	memset(q, 0, sizeof(*q));
	q->op = ENGINE_OP_PWRITE;
	q->fd = x->fd;
	q->buf = x->buf;
	q->len = (size_t)NBLK * BLK;	/* longer than the template: four blocks */
	q->off = 0;
	return ioctx_call(&x->io, q) == (int64_t)NBLK * BLK ? 0 : -EIO;
}

static void fix_close(struct fix *x)
{
	if (x->fd >= 0)
		(void)ioctx_close(&x->io, x->fd);
	if (x->io_ready)
		ioctx_exit(&x->io);
	(void)vhook_stop(x->h);
	run_free(x->rc.run);
	(void)unlink(x->path);
	(void)rmdir(x->dir);
}

/* A pool request writing block k, stamped (vhook_before) but not yet written. */
static struct engine_req *issue(struct fix *x, unsigned k)
{
	struct engine_req *r = ioctx_get(&x->io);

	if (!r)
		return NULL;
	r->op = ENGINE_OP_PWRITE;
	r->fd = x->fd;
	r->buf = x->buf;
	r->len = BLK;
	r->off = (uint64_t)k * BLK;
	CHECK(vhook_before(&x->io, r) == 0);
	CHECK(r->buf != x->buf);	/* the hook's stamped block */
	return r;
}

/* The stamped bytes of r land in the file (or not: lost). */
static void land(struct fix *x, struct engine_req *r)
{
	CHECK(pwrite(x->fd, r->buf, r->len, (off_t)r->off) == (ssize_t)r->len);
}

/* r is reported done, whole. */
static void done(struct fix *x, struct engine_req *r)
{
	r->res = (int64_t)r->len;
	vhook_after(&x->io, r);
	CHECK(r->buf == x->buf);	/* the workload's buffer is back */
	ioctx_put(&x->io, r);
}

static double metric(const struct row *w, const char *name)
{
	const struct metric *m = row_metric(w, name);

	return m ? m->value : -1;
}

/* The verify row after checking: returns it (the run's last row). */
static const struct row *check(struct fix *x, int want)
{
	CHECK_EQ_U64(vhook_verify(x->h, &x->rc, "t"), want);
	return x->rc.run->nrows ? x->rc.run->rows[x->rc.run->nrows - 1] : NULL;
}

/* Writes that overlap on a block land in either order: none is stale. */
static void t_overlap(void)
{
	struct engine_req *a, *b, *c, *d;
	const struct row *w;
	struct fix x;

	if (fix_open(&x) < 0) {
		CHECK(0);
		fix_close(&x);
		return;
	}
	/* block 1: a alone (clean), b while a is in flight; b lands and is done first, a
	 * lands last: the block holds a's older generation, which is right */
	a = issue(&x, 1);
	b = issue(&x, 1);
	land(&x, b);
	done(&x, b);
	land(&x, a);
	done(&x, a);
	/* block 2: the same, but the newer one lands last: in flight (accepted) */
	c = issue(&x, 2);
	d = issue(&x, 2);
	land(&x, c);
	land(&x, d);
	done(&x, c);
	done(&x, d);
	w = check(&x, 0);
	CHECK(w && !(w->flags & ROW_FAILED));
	if (w) {
		CHECK_EQ_U64(metric(w, RK_VERIFY_BLOCKS), NBLK);
		CHECK_EQ_U64(metric(w, RK_VERIFY_OK), NBLK - 1);
		CHECK_EQ_U64(metric(w, RK_VERIFY_IN_FLIGHT), 1);
		CHECK(!strcmp(kv_get(&w->params, RK_VERIFY_GENERATIONS), "last-write"));
	}
	fix_close(&x);
}

/* A write reported done that never landed: its block keeps the layout's generation,
 * older than its last write: stale, at its offset. */
static void t_lost(void)
{
	struct engine_req *a, *b;
	const struct row *w;
	struct fix x;

	if (fix_open(&x) < 0) {
		CHECK(0);
		fix_close(&x);
		return;
	}
	a = issue(&x, 3);
	done(&x, a);		/* lost: never landed */
	b = issue(&x, 0);	/* a later write of another block lands */
	land(&x, b);
	done(&x, b);
	w = check(&x, 1);
	CHECK(w && (w->flags & ROW_FAILED));
	if (w) {
		CHECK_EQ_U64(metric(w, RK_VERIFY_STALE), 1);
		CHECK_EQ_U64(metric(w, RK_VERIFY_FIRST_STALE), 3 * BLK);
		CHECK_EQ_U64(metric(w, RK_VERIFY_OK), NBLK - 1);
		CHECK(w->error && strstr(w->error, "stale 1 (first at offset 12288 of '"));
	}
	fix_close(&x);
}

/* A write off the grid ends the tracking: a lost write is no longer seen (any
 * generation of the run is fine), and the row says so. */
static void t_off_grid(void)
{
	struct engine_req *a, *r;
	const struct row *w;
	struct fix x;

	if (fix_open(&x) < 0) {
		CHECK(0);
		fix_close(&x);
		return;
	}
	a = issue(&x, 3);
	done(&x, a);		/* lost */
	r = ioctx_get(&x.io);
	if (r) {
		r->op = ENGINE_OP_PWRITE;
		r->fd = x.fd;
		r->buf = x.buf;
		r->len = BLK;
		r->off = 512;	/* across blocks 0 and 1: breaks the rule */
		CHECK(vhook_before(&x.io, r) == 0);
		r->res = (int64_t)r->len;	/* not landed either: the file stays walkable */
		vhook_after(&x.io, r);
		ioctx_put(&x.io, r);
	}
	w = check(&x, 0);
	CHECK(w && !(w->flags & ROW_FAILED));
	if (w) {
		CHECK_EQ_U64(metric(w, RK_VERIFY_OK), NBLK);
		CHECK(!strcmp(kv_get(&w->params, RK_VERIFY_GENERATIONS), "any"));
	}
	fix_close(&x);
}

int main(void)
{
	RUN(t_overlap);
	RUN(t_lost);
	RUN(t_off_grid);
	return test_done();
}
