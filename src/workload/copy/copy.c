/* copy.c - the cp test: copy a file by a named method, timed per call. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "observe/cache.h"
#include "observe/extents.h"
#include "fs/scratch.h"
#include "core/units.h"
#include "stats/result.h"
#include "stats/result_keys.h"
#include "workload/copy/copy.h"
#include "runner/runner.h"
#include "runner/vhook.h"

static const char *const method_names[] = { "auto", "rw", "copy_file_range", "sendfile" };

const char *copy_method_name(enum copy_method m)
{
	return method_names[m];
}

int copy_method_parse(const char *s, enum copy_method *out)
{
	unsigned i;

	for (i = 0; i < sizeof(method_names) / sizeof(method_names[0]); i++)
		if (!strcmp(s, method_names[i])) {
			*out = (enum copy_method)i;
			return 0;
		}
	return -EINVAL;
}

double copy_memory_bandwidth(void)
{
	const size_t len = 64u << 20;
	char *a = malloc(len), *b = malloc(len);
	double best = 0;
	int i;

	if (!a || !b) {
		free(a);
		free(b);
		return 0;
	}
	memset(a, 1, len);
	memset(b, 2, len);	/* fault both in before timing */
	for (i = 0; i < 3; i++) {
		uint64_t t0 = clock_ns(), dt;

		memcpy(b, a, len);
		dt = clock_ns() - t0;
		if (dt && (double)len / ((double)dt / 1e9) > best)
			best = (double)len / ((double)dt / 1e9);
		a[i] = b[len - 1 - (size_t)i];	/* keep the copies observable */
	}
	free(a);
	free(b);
	return best;
}

struct copy_ctx {
	const struct copy_job *job;
	struct ioctx io;
	struct engine_req *req;	/* the one request, issued again and again */
	struct worker *w;
	int in_fd, out_fd;
	char *buf;
	uint64_t copied;
	enum copy_method used;
	const char *fs_type;	/* the target's file system (run environment), or NULL */
	int dropped;		/* the source's pages were dropped first (job->drop_cache) */
};

/* read/write loop; short writes retried. */
static int loop_rw(struct copy_ctx *c)
{
	struct engine_req *r = c->req;

	while (!sig_stop_requested()) {
		int64_t n, done = 0;

		r->op = ENGINE_OP_READ;
		r->fd = c->in_fd;
		r->buf = c->buf;
		r->len = (size_t)c->job->buffer;
		n = ioctx_do(&c->io, r);
		if (n <= 0)
			return (int)n;
		r->op = ENGINE_OP_WRITE;
		r->fd = c->out_fd;
		while (done < n) {
			int64_t m;

			r->buf = c->buf + done;
			r->len = (size_t)(n - done);
			m = ioctx_do(&c->io, r);
			if (m <= 0)
				return m == 0 ? -EIO : (int)m;
			done += m;
		}
		c->copied += (uint64_t)n;
	}
	return 0;
}

/* copy_file_range or sendfile loop. Returns 0, -errno; -EXDEV/-ENOSYS/-EINVAL/-EOPNOTSUPP
 * before any byte moved mean "unsupported here". */
static int loop_kernel(struct copy_ctx *c, int op)
{
	struct engine_req *r = c->req;

	r->op = op;
	r->fd = c->in_fd;
	r->fd_out = c->out_fd;
	while (!sig_stop_requested()) {
		int64_t n;

		r->len = (size_t)c->job->buffer;
		n = ioctx_do(&c->io, r);
		if (n < 0)
			return (int)n;
		if (n == 0)
			return 0;
		c->copied += (uint64_t)n;
	}
	return 0;
}

static int unsupported(int err)
{
	return err == -EXDEV || err == -ENOSYS || err == -EINVAL || err == -EOPNOTSUPP;
}

static int do_copy(struct copy_ctx *c)
{
	int err;

	switch (c->job->method) {
	case COPY_RW:
		c->used = COPY_RW;
		return loop_rw(c);
	case COPY_SENDFILE:
		c->used = COPY_SENDFILE;
		return loop_kernel(c, ENGINE_OP_SENDFILE);
	case COPY_RANGE:
		c->used = COPY_RANGE;
		return loop_kernel(c, ENGINE_OP_COPY_RANGE);
	case COPY_AUTO:
	default:
		c->used = COPY_RANGE;
		err = loop_kernel(c, ENGINE_OP_COPY_RANGE);
		if (err && c->copied == 0 && unsupported(err)) {
			c->w->err = 0;
			c->used = COPY_RW;
			if (c->w->prog)		/* progress counts bytes read and written */
				c->w->prog->per_unit = 2;
			return loop_rw(c);
		}
		return err;
	}
}

static int open_files(struct copy_ctx *c, int *slot)
{
	const struct copy_job *j = c->job;
	int flags = O_WRONLY | O_NOFOLLOW | O_TRUNC;

	c->in_fd = ioctx_open(&c->io, j->src, O_RDONLY, 0);
	if (c->in_fd < 0)
		return c->in_fd;
	if (!j->dst_exists)
		flags |= O_CREAT | O_EXCL;
	c->out_fd = ioctx_open(&c->io, j->dst, flags, 0644);
	if (c->out_fd < 0)
		return c->out_fd;
	if (!j->dst_exists || j->dst_ours)
		*slot = cleanup_register(j->dst, 0);
	if (!j->dst_exists)
		(void)mark_created(c->out_fd);
	return 0;
}

/* A file system that may hand the copy to a server (offload). */
static int network_fs(const char *fs)
{
	static const char *const net[] = { "nfs", "cifs", "smb", "ceph", "fuse", "9p",
					   "glusterfs", "lustre", "gpfs", "beegfs", "afs" };
	size_t i;

	if (!fs)
		return 1;	/* unknown: do not rule it out */
	for (i = 0; i < sizeof(net) / sizeof(net[0]); i++)
		if (!strncmp(fs, net[i], strlen(net[i])))
			return 1;
	return 0;
}

/* A copy_file_range copy that moved no data: the file system shared the blocks (reflink)
 * or a server copied them (offload). Shared extents (FIEMAP) tell a reflink for certain;
 * the memory probe (tens of milliseconds, 128 MiB) runs only for a reflink (to say by how
 * much) or where an offload is possible: a network file system or one that cannot report
 * its extents, and a rate above COPY_PROBE_FLOOR. */
static void too_fast_check(struct copy_ctx *c, struct row *row, double rate_bps,
			   double src_pct)
{
	char a[32], b[32], src[48] = "";
	double mem;
	int shared;

	if (c->used != COPY_RANGE || row->bytes < (8u << 20))
		return;
	shared = extents_shared(c->out_fd);
	if (shared == 0 && !network_fs(c->fs_type))
		return;		/* a local file system that copied real blocks */
	if (shared != 1 && rate_bps <= COPY_PROBE_FLOOR)
		return;
	mem = copy_memory_bandwidth();
	row_add_metric(row, RK_CP_MEMCPY_BANDWIDTH, mem / 1e6, "MB/s");
	if (shared != 1 && !(mem > 0 && rate_bps > mem))
		return;
	row->flags |= ROW_TOO_FAST;
	free(row->note);
	if (src_pct >= 0)
		snprintf(src, sizeof(src), "source cache: %.0f%% resident; ", src_pct);
	if (mem > 0 && rate_bps > mem)
		row->note = str_printf("%scopy_file_range moved %s/s, faster than memory copies "
				       "(%s/s): the file system %s; this is not a disk rate",
				       src, units_fmt_bytes(a, sizeof(a), rate_bps),
				       units_fmt_bytes(b, sizeof(b), mem),
				       shared == 1 ? "shared the blocks (reflink)" :
				       "shared the blocks (reflink) or offloaded the copy");
	else
		row->note = str_printf("%scopy_file_range moved %s/s: the copy shares its "
				       "blocks with the source (reflink), nothing was copied; "
				       "this is not a disk rate", src,
				       units_fmt_bytes(a, sizeof(a), rate_bps));
}

static void finish_row(struct copy_ctx *c, struct row *row, uint64_t t0, uint64_t end,
		       uint64_t durable, double src_pct)
{
	char verdict[128];
	double rate_bps;

	row->bytes = c->copied;
	row->elapsed_ns = end > t0 ? end - t0 : 1;
	row->buffered_ns = row->elapsed_ns;
	if (durable)
		row->durable_ns = durable - t0;
	rate_bps = (double)row->bytes / ((double)row->elapsed_ns / 1e9);
	row->rate = rate_bps / 1e6;
	str_set(&row->rate_unit, "MB/s");
	kv_set(&row->params, RK_CP_METHOD, "%s", copy_method_name(c->used));
	kv_set(&row->params, RK_CP_METHOD_ASKED, "%s", copy_method_name(c->job->method));
	kv_set(&row->params, RK_CP_BUFFER, "%" PRIu64, c->job->buffer);
	kv_set(&row->params, RK_CP_SIZE, "%" PRIu64, row->bytes);
	kv_set(&row->params, RK_CP_ENGINE, "%s", c->io.e->name);
	kv_set(&row->params, RK_ROW_DETAIL, "%s", copy_method_name(c->used));
	if (src_pct >= 0) {
		row->cache_pct = src_pct;
		row->cache_dropped = c->dropped;
		cache_verdict(verdict, sizeof(verdict), src_pct, c->dropped);
		row->note = str_printf("source %s", verdict);
	}
	too_fast_check(c, row, rate_bps, src_pct);
}

int copy_run(struct runner *rc, const struct copy_job *job)
{
	struct vhook *vh = NULL;
	struct copy_ctx c;
	struct phase ph;
	struct row *row;
	uint64_t end, durable = 0;
	struct stat st = { 0 };
	double src_pct = -1;
	int err, slot = -1, synced = 0;	/* synced: the fdatasync failed */

	memset(&c, 0, sizeof(c));
	c.job = job;
	c.in_fd = c.out_fd = -1;
	c.fs_type = rc->run->env.fs_type;
	if ((err = ioctx_init(&c.io, rc->eng, 1)) < 0)
		return err;
	c.req = ioctx_get(&c.io);
	c.buf = malloc((size_t)job->buffer);
	err = c.buf ? open_files(&c, &slot) : -ENOMEM;
	if (!err && job->drop_cache)
		c.dropped = cache_drop(c.in_fd) == 0;
	/* --verify: the copy is checked as it is (the source's blocks, not stamped here) */
	if (!err && !(err = vhook_start(&vh, rc, VBLOCK_MIN_LEN, VBLOCK_DATA_ZERO, 0)) &&
	    !(err = vhook_attach(vh, &c.io)))
		err = vhook_file(&c.io, c.out_fd, job->dst, 0, VHOOK_GEN_CHECK);
	if (!err && ioctx_fstat(&c.io, c.in_fd, &st) == 0 && S_ISREG(st.st_mode))
		cache_resident(c.in_fd, 0, (uint64_t)st.st_size, &src_pct);
	if (!err)
		err = phase_begin(&ph, rc, "copy", 1, "B", (uint64_t)st.st_size);
	if (!err && job->method == COPY_RW)
		ph.prog.per_unit = 2;	/* reads and writes both count bytes */
	if (err) {
		row = run_add_row(rc->run, "cp", "copy");
		if (row) {
			row->flags |= ROW_FAILED;
			row->error = str_printf("%s", strerror(-err));
		}
		goto out;
	}
	c.w = &ph.w[0];
	ioctx_bind(&c.io, c.w);
	phase_restart(&ph);
	worker_start(c.w);
	err = do_copy(&c);
	end = c.w->t_last;
	if (err && !c.w->err)
		c.w->err = err;
	row = phase_end(&ph, "cp");
	if (!row) {
		err = -ENOMEM;
		goto out;
	}
	if (!err && !sig_stop_requested()) {
		int sr = ioctx_sync(&c.io, c.out_fd, 1);

		if (sr < 0) {
			err = sr;
			synced = 1;	/* the sync failed: no durable figure */
			row->flags |= ROW_FAILED;
		} else {
			durable = clock_ns();
		}
	}
	finish_row(&c, row, ph.t0, end, durable, src_pct);
	/* what failed and how far it got: the copy or its sync, and the bytes copied */
	if (err && err != -EINTR) {
		free(row->error);
		row->error = str_printf("%s%s after %" PRIu64 " bytes copied",
					synced ? "fdatasync: " : "", strerror(-err), c.copied);
	}
	if (!err && sig_stop_requested())
		err = -EINTR;
	if (!err && (err = vhook_verify(vh, rc, "cp")) > 0)
		err = 0;	/* bad blocks fail the verify row; the copy is kept for a look */
out:
	if (c.in_fd >= 0)
		ioctx_close(&c.io, c.in_fd);
	if (c.out_fd >= 0) {
		int r2 = ioctx_close(&c.io, c.out_fd);

		if (r2 < 0 && !err)
			err = r2;
	}
	if (slot >= 0) {
		if (err || !job->keep_output)
			cleanup_remove(slot);
		else
			cleanup_unregister(slot);
	}
	ioctx_put(&c.io, c.req);
	ioctx_exit(&c.io);
	vhook_stop(vh);
	free(c.buf);
	return err;
}
