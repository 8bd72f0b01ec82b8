/* fsync_result.c - what the tests mean: the write-cache verdict on each durable method,
 * the durability row (the device's facts, the fastest durable method, PostgreSQL's and
 * SQLite's settings for it), and the crash test of the power-cut procedure. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fs/scratch.h"
#include "runner/runner.h"
#include "runner/vhook.h"
#include "stats/result.h"
#include "stats/result_keys.h"
#include "workload/fsync/fsync_int.h"

/* Commits per second from which a sync per commit is seldom what limits a database:
 * SQLite's FULL is then worth having. Below, NORMAL in WAL mode (a sync per checkpoint)
 * trades the last commits before a power cut for speed. */
#define SQLITE_FULL_OPS 500.0

static const char *method_names[FSYNC_M_COUNT] = { "open_datasync", "fdatasync", "fsync",
						   "open_sync" };

int fsync_method_parse(const char *name)
{
	int i;

	for (i = 0; i < FSYNC_M_COUNT; i++)
		if (!strcmp(name, method_names[i]))
			return i;
	return -1;
}

const char *fsync_method_name(enum fsync_method m)
{
	return method_names[m];
}

static int is_test(const struct row *r, const char *test)
{
	const char *v = kv_get(&r->params, RK_FSYNC_TEST);

	return v && !strcmp(v, test);
}

static int measured(const struct row *r)
{
	return !(r->flags & (ROW_FAILED | ROW_NOT_MEASURED)) && r->ops && r->rate > 0;
}

/* Flag the durable method rows of this repeat whose median op is under the floor; the
 * names go to list. Returns how many. */
static int flag_rows(struct fs_ctx *x, const struct wcache_verdict *v0, char *list,
		     size_t len)
{
	struct run *run = x->rc->run;
	struct wcache_verdict v;
	size_t i;
	int n = 0;

	list[0] = 0;
	for (i = 0; i < run->nrows; i++) {
		struct row *r = run->rows[i];

		if (r->repeat != x->rc->repeat || strcmp(r->workload, "fsync") || !measured(r) ||
		    is_test(r, "non_sync") || !r->lat.valid)
			continue;
		wcache_verdict(&x->facts, r->lat.p50_ns, &v);
		if (!v.implausible)
			continue;
		r->flags |= ROW_FLUSH_IMPLAUSIBLE;
		snprintf(list + strlen(list), len - strlen(list), "%s%s", n ? "," : "", r->phase);
		n++;
	}
	(void)v0;
	return n;
}

/* The fastest durable method of repeat rep with one write per sync, and the fdatasync
 * row. */
static void pick(const struct run *run, unsigned rep, const struct row **best,
		 const struct row **fds)
{
	size_t i;

	*best = *fds = NULL;
	for (i = 0; i < run->nrows; i++) {
		const struct row *r = run->rows[i];
		const char *m = kv_get(&r->params, RK_FSYNC_METHOD);

		if (r->repeat != rep || strcmp(r->workload, "fsync") ||
		    !is_test(r, "one_write") || !measured(r) || !m)
			continue;
		if (!*best || r->rate > (*best)->rate)
			*best = r;
		if (!strcmp(m, "fdatasync") || (!*fds && !strcmp(m, "fsync")))
			*fds = r;
	}
}

static void facts_params(struct fs_ctx *x, struct row *row, const struct wcache_verdict *v)
{
	const struct wcache_facts *f = &x->facts;

	if (v->floor_why[0])
		kv_set(&row->params, RK_FSYNC_FLOOR_WHY, "%s", v->floor_why);
	if (v->floor_ns)
		row_add_metric(row, RK_FSYNC_FLOOR_US, (double)v->floor_ns / 1e3, "us");
	if (!f->name[0])
		return;
	kv_set(&row->params, RK_FSYNC_DEVICE, "%s", f->name);
	if (f->model[0])
		kv_set(&row->params, RK_FSYNC_DEVICE_MODEL, "%s", f->model);
	kv_set(&row->params, RK_FSYNC_WRITE_CACHE, "%s", wcache_mode_name(f->write_cache));
	if (f->fua >= 0)
		kv_set(&row->params, RK_FSYNC_FUA, "%s", f->fua ? "true" : "false");
	if (f->rotational >= 0)
		kv_set(&row->params, RK_FSYNC_ROTATIONAL, "%s", f->rotational ? "true" : "false");
	if (f->rpm > 1) {
		kv_set(&row->params, RK_FSYNC_RPM, "%u", f->rpm);
		kv_set(&row->params, RK_FSYNC_RPM_SOURCE, "%s", f->rpm_source);
	}
}

/* The durability row's figure and settings from the best method's row. */
static void set_best(struct row *row, const struct row *best, const struct row *fds)
{
	row->rate = best->rate;
	str_set(&row->rate_unit, "ops/s");
	kv_set(&row->params, RK_FSYNC_BEST_METHOD, "%s", kv_get(&best->params, RK_FSYNC_METHOD));
	kv_set(&row->params, RK_FSYNC_WAL_SYNC_METHOD, "%s",
	       kv_get(&best->params, RK_FSYNC_METHOD));
	if (fds)
		kv_set(&row->params, RK_FSYNC_SQLITE_SYNCHRONOUS, "%s",
		       fds->rate >= SQLITE_FULL_OPS ? "FULL" : "NORMAL");
}

void fsync_durability_merged(struct run *run)
{
	const struct row *best, *fds;
	size_t i;

	for (i = 0; i < run->nrows; i++) {
		struct row *w = run->rows[i];

		if (strcmp(w->workload, "fsync") || strcmp(w->phase, "durability") ||
		    (w->flags & ROW_NOT_MEASURED))
			continue;
		pick(run, w->repeat, &best, &fds);
		if (best)
			set_best(w, best, fds);
	}
}

void fs_durability_row(struct fs_ctx *x)
{
	const struct row *best, *fds;
	struct wcache_verdict v;
	char list[512];
	struct row *row;
	int n;

	wcache_verdict(&x->facts, 0, &v);
	n = flag_rows(x, &v, list, sizeof(list));
	pick(x->rc->run, x->rc->repeat, &best, &fds);
	row = run_add_row(x->rc->run, "fsync", "durability");
	if (!row)
		return;
	row->repeat = x->rc->repeat;
	kv_set(&row->params, RK_FSYNC_TEST, "durability");
	kv_set(&row->params, RK_FSYNC_METHOD, "durability");
	kv_set(&row->params, RK_FSYNC_SECS_PER_TEST, "%u", x->c->secs);
	kv_set(&row->params, RK_ROW_DETAIL, "fastest durable method");
	facts_params(x, row, &v);
	if (n) {
		row->flags |= ROW_FLUSH_IMPLAUSIBLE;
		kv_set(&row->params, RK_FSYNC_IMPLAUSIBLE, "%s", list);
	}
	if (!best) {
		row->flags |= ROW_NOT_MEASURED;
		str_set(&row->note, "no durable method could be measured");
		return;
	}
	set_best(row, best, fds);
	if (!x->facts.name[0])
		str_set(&row->note, x->facts.reason[0] ? x->facts.reason
						       : "no block device under the file");
}

/* --- the crash test ------------------------------------------------------------------- */

static int64_t call(struct fs_ctx *x, int op, int fd, size_t len, uint64_t off)
{
	x->rq->op = op;
	x->rq->fd = fd;
	x->rq->buf = x->buf;
	x->rq->len = len;
	x->rq->off = off;
	return ioctx_call(&x->io, x->rq);
}

/* One write of block i and the method's sync. 0 or -errno. */
static int crash_op(struct fs_ctx *x, int fd, uint64_t i)
{
	size_t b = (size_t)x->c->block;
	int64_t n = call(x, ENGINE_OP_PWRITE, fd, b, i * b);

	if (n != (int64_t)b)
		return n < 0 ? (int)n : -EIO;
	if (x->c->method == FSYNC_M_FDATASYNC)
		return (int)call(x, ENGINE_OP_FDATASYNC, fd, 0, 0);
	if (x->c->method == FSYNC_M_FSYNC)
		return (int)call(x, ENGINE_OP_FSYNC, fd, 0, 0);
	return 0;
}

/* Every block once, then a sync: the region exists and is acknowledged. */
static int crash_layout(struct fs_ctx *x, int fd)
{
	uint64_t i;
	int rc = ioctx_ftruncate(&x->io, fd, 0);

	for (i = 0; !rc && i < x->c->blocks; i++) {
		int64_t n = call(x, ENGINE_OP_PWRITE, fd, (size_t)x->c->block, i * x->c->block);

		rc = n == (int64_t)x->c->block ? 0 : n < 0 ? (int)n : -EIO;
	}
	return rc ? rc : (int)call(x, ENGINE_OP_FSYNC, fd, 0, 0);
}

static int crash_loop(struct fs_ctx *x, int fd)
{
	struct phase ph;
	struct row *row;
	uint64_t k = 0, deadline;
	int err = phase_begin(&ph, x->rc, "crash_test", 1, "ops", 0);

	if (err)
		return err;
	ioctx_bind(&x->io, &ph.w[0]);
	phase_restart(&ph);
	worker_start(&ph.w[0]);
	deadline = ph.t0 + (uint64_t)x->c->secs * 1000000000ull;
	do {
		uint64_t t0 = op_begin();

		err = crash_op(x, fd, k++ % x->c->blocks);
		op_end(&ph.w[0], t0, err ? err : (int64_t)x->c->block);
	} while (!err && ph.w[0].t_last < deadline && !sig_stop_requested());
	row = phase_end(&ph, "fsync");
	if (!row)
		return -ENOMEM;
	kv_set(&row->params, RK_FSYNC_TEST, "crash_test");
	kv_set(&row->params, RK_FSYNC_METHOD, "%s", fsync_method_name(x->c->method));
	kv_set(&row->params, RK_FSYNC_WRITES_PER_OP, "1");
	kv_set(&row->params, RK_FSYNC_WRITE_SIZE, "%u", (unsigned)x->c->block);
	kv_set(&row->params, RK_FSYNC_DIRECT, "false");
	kv_set(&row->params, RK_FSYNC_BLOCKS, "%u", (unsigned)x->c->blocks);
	kv_set(&row->params, RK_FSYNC_SECS_PER_TEST, "%u", x->c->secs);
	kv_set(&row->params, RK_ROW_DETAIL, "%s, %u blocks", fsync_method_name(x->c->method),
	       (unsigned)x->c->blocks);
	row->rate = row->ops && row->elapsed_ns ?
		    (double)row->ops / ((double)row->elapsed_ns / 1e9) : 0;
	str_set(&row->rate_unit, "ops/s");
	if (row->ops)
		row_add_metric(row, RK_FSYNC_USECS_PER_OP,
			       (double)row->elapsed_ns / 1e3 / (double)row->ops, "us");
	return err;
}

int fs_crash_test(struct fs_ctx *x)
{
	static const int sync_flag[FSYNC_M_COUNT] = { O_DSYNC, 0, 0, O_SYNC };
	struct vhook *vh = NULL;
	struct row *row;
	int fd = -1, err, rc2;

	err = vhook_start(&vh, x->rc, (uint32_t)x->c->block, VBLOCK_DATA_RANDOM, 0);
	if (!err)
		err = vhook_attach(vh, &x->io);
	if (!err) {
		fd = ioctx_open(&x->io, x->c->path, O_RDWR | O_CREAT | O_CLOEXEC |
				sync_flag[x->c->method], 0600);
		err = fd < 0 ? fd : 0;
	}
	if (!err) {
		(void)mark_created(fd);
		err = vhook_file(&x->io, fd, x->c->path, 0, VHOOK_GEN_COUNT);
	}
	if (!err && (err = crash_layout(x, fd)) < 0 &&
	    (row = run_add_row(x->rc->run, "fsync", "crash_test"))) {
		row->repeat = x->rc->repeat;
		row->flags |= ROW_FAILED;
		row->error = str_printf("cannot lay out the region: %s", strerror(-err));
	}
	if (!err)
		err = crash_loop(x, fd);
	if (fd >= 0 && (rc2 = ioctx_close(&x->io, fd)) < 0 && !err)
		err = rc2;
	if (!err && (rc2 = vhook_verify(vh, x->rc, "fsync")) < 0)
		err = rc2;
	if ((rc2 = vhook_stop(vh)) < 0 && !err)
		err = rc2;
	/* the ioctx outlives the hook here: it must not stamp any more */
	vhook_detach(&x->io);
	return err;
}
