/* dd.c - dd's streaming loops through the engine, timed per call. */
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
#include "comm/comm.h"
#include "observe/cache.h"
#include "core/rng.h"
#include "core/units.h"
#include "stats/result.h"
#include "stats/result_keys.h"
#include "runner/ranks.h"
#include "runner/runner.h"
#include "runner/vhook.h"
#include "workload/dd/dd.h"

#define POOL_WINDOW	(1u << 20)	/* random data: blocks start at 256 places in 1 MiB */
#define POOL_STRIDE	(4096u * 37u)	/* odd multiple of 4 KiB: O_DIRECT-aligned, cycles 256 */
#define BUF_ALIGN	4096

struct dd_ctx {
	const struct dd_job *job;
	struct ioctx io;	/* two requests: the read and the write of a copy */
	struct worker *w;
	struct phase *ph;
	int stonewall;		/* --stonewall: the loops stop at the wall (runner/ranks.h) */
	int in_fd, out_fd;
	struct engine_req *rreq, *wreq;
	uint8_t *buf;		/* read/reblock buffer, or the generated pool */
	uint64_t pool_mask;	/* 0 for zeros: every block is the same buffer */
	uint64_t in_bytes, out_bytes;
	uint64_t rec_in_full, rec_in_part, rec_out_full, rec_out_part;
	int cleanup_slot;
	int walled;		/* the read loop passed ranks_stonewall */
};

/* A read loop's write failed before the wall: the other ranks still meet it there. */
static int stonewall_fail(struct dd_ctx *c, int rc)
{
	if (!c->walled) {
		c->walled = 1;
		(void)ranks_stonewall(c->ph, c->in_bytes, rc);
	}
	return rc;
}

/* Write len bytes from buf at the output position, retrying short writes as dd does; each
 * system call is timed. Counts one output record (full when len == obs).
 * Returns 0 or -errno. */
static int write_record(struct dd_ctx *c, const uint8_t *buf, size_t len)
{
	struct engine_req *wr = c->wreq;
	size_t done = 0;

	while (done < len) {
		int64_t r;

		wr->buf = (void *)(buf + done);
		wr->len = len - done;
		r = ioctx_do_chain(&c->io, wr);
		if (r <= 0)
			return r == 0 ? -EIO : (int)r;
		done += (size_t)r;
		wr->off += (uint64_t)r;
		c->out_bytes += (uint64_t)r;
	}
	if (len == c->job->obs)
		c->rec_out_full++;
	else
		c->rec_out_part++;
	return 0;
}

/* Generated data to the output: count records of ibs, written as obs records. */
static int loop_generate(struct dd_ctx *c)
{
	const struct dd_job *j = c->job;
	uint64_t total = j->count * j->ibs, i, n = total / j->obs;
	size_t tail = (size_t)(total % j->obs);
	int rc = 0;

	for (i = 0; i < n; i++) {
		rc = write_record(c, c->buf + ((i * POOL_STRIDE) & c->pool_mask), j->obs);
		if (rc || sig_stop_requested() || worker_stonewalled(c->w))
			break;
	}
	if (c->stonewall) {
		/* every rank comes here; with --wearout go on to the busiest rank's count */
		uint64_t want = ranks_stonewall(c->ph, c->out_bytes, rc) / j->obs;

		for (i++; !rc && i < want && i < n && !sig_stop_requested(); i++)
			rc = write_record(c, c->buf + ((i * POOL_STRIDE) & c->pool_mask), j->obs);
		if (worker_stonewalled(c->w))
			tail = 0;
	}
	if (!rc && tail && !sig_stop_requested())
		rc = write_record(c, c->buf, tail);
	/* dd counts the records it read from /dev/zero: all of them, full. */
	c->rec_in_full = c->out_bytes / j->ibs;
	c->rec_in_part = c->out_bytes % j->ibs ? 1 : 0;
	c->in_bytes = c->out_bytes;
	return rc;
}

/* Read ibs records; discard them (read test) or reblock them into obs records. */
static int loop_read(struct dd_ctx *c)
{
	const struct dd_job *j = c->job;
	int discard = j->dst == DD_DST_NULL;
	size_t fill = 0;
	uint64_t i, want = 0;
	int rc = 0;

	for (i = 0; i < j->count && !sig_stop_requested(); i++) {
		int64_t r;

		c->rreq->buf = c->buf + (discard ? 0 : fill);
		c->rreq->len = j->ibs;
		r = ioctx_do_chain(&c->io, c->rreq);
		if (r < 0) {
			rc = (int)r;
			break;
		}
		if (r == 0)
			break;
		c->rreq->off += (uint64_t)r;
		c->in_bytes += (uint64_t)r;
		if ((uint64_t)r == j->ibs)
			c->rec_in_full++;
		else
			c->rec_in_part++;
		if (discard)
			continue;
		fill += (size_t)r;
		while (fill >= j->obs) {
			rc = write_record(c, c->buf, j->obs);
			if (rc)
				return c->stonewall ? stonewall_fail(c, rc) : rc;
			fill -= j->obs;
			memmove(c->buf, c->buf + j->obs, fill);
		}
		if (c->stonewall && worker_stonewalled(c->w) && !c->walled) {
			/* every rank comes here once; --wearout: up to the busiest rank's count */
			c->walled = 1;
			want = ranks_stonewall(c->ph, c->in_bytes, 0);
		}
		if (c->walled && c->in_bytes >= want)
			break;
	}
	if (c->stonewall && !c->walled) {
		c->walled = 1;
		(void)ranks_stonewall(c->ph, c->in_bytes, rc);
	}
	if (!rc && fill && !sig_stop_requested())
		rc = write_record(c, c->buf, fill);
	if (discard) {
		/* Records out are what dd would have written to /dev/null. */
		c->rec_out_full = c->rec_in_full;
		c->rec_out_part = c->rec_in_part;
		c->out_bytes = c->in_bytes;
	}
	return rc;
}

static int is_positional(struct dd_ctx *c, int fd)
{
	struct stat st;

	return ioctx_fstat(&c->io, fd, &st) == 0 && (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode));
}

static int open_input(struct dd_ctx *c)
{
	const struct dd_job *j = c->job;
	int flags = O_RDONLY;

#ifdef HAVE_O_DIRECT
	if (j->iflag & DD_FLAG_DIRECT)
		flags |= O_DIRECT;
#endif
	int64_t pos;

	c->in_fd = ioctx_open(&c->io, j->in, flags, 0);
	if (c->in_fd < 0)
		return c->in_fd;
	c->rreq->fd = c->in_fd;
	c->rreq->op = is_positional(c, c->in_fd) ? ENGINE_OP_PREAD : ENGINE_OP_READ;
	c->rreq->off = j->skip * j->ibs + (j->dst == DD_DST_NULL || j->shared ? j->seg_off : 0);
	if (c->rreq->op == ENGINE_OP_READ && c->rreq->off &&
	    (pos = ioctx_lseek(&c->io, c->in_fd, (int64_t)c->rreq->off, SEEK_SET)) < 0)
		return (int)pos;
	return 0;
}

static int open_output(struct dd_ctx *c)
{
	const struct dd_job *j = c->job;
	int flags = O_WRONLY | O_NOFOLLOW, rc, joiner = j->shared && comm_rank() != 0;

	/* --shared-file: rank 0 made the file; the others write their segments into it */
	if (!j->out_exists && !joiner)
		flags |= O_CREAT | O_EXCL;
#ifdef HAVE_O_DIRECT
	if (j->oflag & DD_FLAG_DIRECT)
		flags |= O_DIRECT;
#endif
	if (j->oflag & DD_FLAG_DSYNC)
		flags |= O_DSYNC;
	if (j->oflag & DD_FLAG_SYNC)
		flags |= O_SYNC;
	c->out_fd = ioctx_open(&c->io, j->out, flags, 0644);
	if (c->out_fd < 0)
		return c->out_fd;
	if ((!j->out_exists || j->out_ours) && !joiner)
		c->cleanup_slot = cleanup_register(j->out, 0);
	if (!j->out_exists && !joiner)
		(void)mark_created(c->out_fd);	/* without xattrs, --overwrite is needed later */
	if (!(j->conv & DD_CONV_NOTRUNC) && !joiner &&
	    (rc = ioctx_ftruncate(&c->io, c->out_fd, j->seek * j->obs)) < 0)
		return rc;
	c->wreq->fd = c->out_fd;
	c->wreq->op = ENGINE_OP_PWRITE;
	c->wreq->off = j->seek * j->obs + j->seg_off;
	return 0;
}

/* --shared-file: rank 0 creates (and truncates) the file before the others open it. */
static int open_shared(struct dd_ctx *c)
{
	struct comm_fault f;
	int err = comm_rank() == 0 ? open_output(c) : 0;

	if (comm_gate(err, err ? "cannot open the shared file" : NULL, &f, NULL, NULL) < 0)
		return err ? err : f.err;
	return comm_rank() == 0 ? 0 : open_output(c);
}

static int alloc_buffers(struct dd_ctx *c)
{
	const struct dd_job *j = c->job;
	size_t len;
	void *p;

	if (j->src == DD_SRC_FILE)
		len = (size_t)(j->ibs + j->obs);
	else if (j->src == DD_SRC_RANDOM)
		len = (size_t)j->obs + POOL_WINDOW;
	else
		len = (size_t)j->obs;
	if (posix_memalign(&p, BUF_ALIGN, len))
		return -ENOMEM;
	c->buf = p;
	if (j->src == DD_SRC_RANDOM) {
		struct rng r;

		rng_seed(&r, j->seed);
		rng_fill(&r, c->buf, len);
		c->pool_mask = POOL_WINDOW - 1;
	} else {
		memset(c->buf, 0, len);
	}
	return 0;
}

/* Page-cache residency of the part of the input that will be read, measured before the
 * first read. Returns 0 and *pct, or -errno when it cannot be told (pipes, devices). */
static int input_cache(struct dd_ctx *c, double *pct)
{
	const struct dd_job *j = c->job;
	struct stat st;
	uint64_t off = j->skip * j->ibs, len;

	if (ioctx_fstat(&c->io, c->in_fd, &st) < 0 || !S_ISREG(st.st_mode))
		return -ENODEV;
	if ((uint64_t)st.st_size <= off)
		return -ENODATA;
	len = (uint64_t)st.st_size - off;
	if (j->count != UINT64_MAX && j->count <= len / j->ibs)
		len = j->count * j->ibs;
	return cache_resident(c->in_fd, off, len, pct);
}

static void set_cache(struct row *row, const struct dd_job *j, double pct, int dropped)
{
	char verdict[128];

	row->cache_pct = pct;
	row->cache_dropped = dropped;
	if (pct >= CACHE_INFLATED_PCT && !(j->iflag & DD_FLAG_DIRECT))
		row->flags |= ROW_CACHE_INFLATED;
	str_set(&row->note, cache_verdict(verdict, sizeof(verdict), pct, dropped));
}

static const char *phase_name(const struct dd_job *j)
{
	if (j->src != DD_SRC_FILE)
		return "write";
	return j->dst == DD_DST_NULL ? "read" : "copy";
}

static void set_params(struct row *row, const struct dd_job *j, const char *engine)
{
	static const char *const src_names[] = { "file", "zero", "random" };
	char bs[32];

	if (j->ibs == j->obs)
		kv_set(&row->params, RK_DD_BS, "%" PRIu64, j->ibs);
	kv_set(&row->params, RK_DD_IBS, "%" PRIu64, j->ibs);
	kv_set(&row->params, RK_DD_OBS, "%" PRIu64, j->obs);
	if (j->count != UINT64_MAX) {
		kv_set(&row->params, RK_DD_COUNT, "%" PRIu64, j->count);
		kv_set(&row->params, RK_DD_SIZE, "%" PRIu64, j->count * j->ibs);
	}
	kv_set(&row->params, RK_DD_DATA, "%s", src_names[j->src]);
	kv_set(&row->params, RK_DD_CONV, "%s%s%s", j->conv & DD_CONV_FDATASYNC ? "fdatasync " : "",
	       j->conv & DD_CONV_FSYNC ? "fsync " : "", j->conv & DD_CONV_NOTRUNC ? "notrunc" : "");
	kv_set(&row->params, RK_DD_DIRECT, "%s",
	       (j->iflag | j->oflag) & DD_FLAG_DIRECT ? "true" : "false");
	kv_set(&row->params, RK_DD_OFLAG, "%s%s", j->oflag & DD_FLAG_DSYNC ? "dsync " : "",
	       j->oflag & DD_FLAG_SYNC ? "sync" : "");
	kv_set(&row->params, RK_DD_ENGINE, "%s", engine);
	if (j->ibs % (1u << 20) == 0)
		snprintf(bs, sizeof(bs), "%" PRIu64 "M", j->ibs >> 20);
	else if (j->ibs % 1024 == 0)
		snprintf(bs, sizeof(bs), "%" PRIu64 "K", j->ibs >> 10);
	else
		snprintf(bs, sizeof(bs), "%" PRIu64, j->ibs);
	kv_set(&row->params, RK_ROW_DETAIL, "bs=%s%s%s", bs,
	       (j->iflag | j->oflag) & DD_FLAG_DIRECT ? ", direct" : "",
	       j->drop_cache ? ", cache dropped" : "");
}

/* Sync the output and return the time it returned, or 0 with *err set. */
static uint64_t sync_output(struct dd_ctx *c, int full, int *err)
{
	int rc = ioctx_sync(&c->io, c->out_fd, !full);

	if (rc < 0) {
		*err = rc;
		return 0;
	}
	return clock_ns();
}

static void finish_row(struct dd_ctx *c, struct row *row, uint64_t t0, uint64_t buffered_end,
		       uint64_t end)
{
	const struct dd_job *j = c->job;

	row->bytes = c->out_bytes;
	row->elapsed_ns = end > t0 ? end - t0 : 1;
	if (j->dst == DD_DST_FILE)
		row->buffered_ns = buffered_end > t0 ? buffered_end - t0 : 1;
	row->rate = (double)row->bytes / ((double)row->elapsed_ns / 1e9) / 1e6;
	str_set(&row->rate_unit, "MB/s");
	row_add_metric(row, RK_DD_RECORDS_IN_FULL, (double)c->rec_in_full, "records");
	row_add_metric(row, RK_DD_RECORDS_IN_PARTIAL, (double)c->rec_in_part, "records");
	row_add_metric(row, RK_DD_RECORDS_OUT_FULL, (double)c->rec_out_full, "records");
	row_add_metric(row, RK_DD_RECORDS_OUT_PARTIAL, (double)c->rec_out_part, "records");
	row_add_metric(row, RK_DD_BYTES_IN, (double)c->in_bytes, "B");
	set_params(row, j, c->io.e->name);
}

/* The loop, the user's sync (inside the dd time) and our own fdatasync (after it). */
static int dd_measure(struct runner *rc, struct dd_ctx *c)
{
	const struct dd_job *j = c->job;
	struct phase ph;
	struct row *row;
	uint64_t buffered_end, end, durable = 0;
	int err = 0, dropped = 0, have_pct = -1;
	const char *sync_what = NULL;	/* the sync that failed, if one did */
	double pct = 0;

	if (c->in_fd >= 0 && j->drop_cache)
		dropped = cache_drop(c->in_fd) == 0;
	if (c->in_fd >= 0)
		have_pct = input_cache(c, &pct);
	err = phase_begin(&ph, rc, phase_name(j), 1, "B",
			  j->count == UINT64_MAX ? 0 : j->count * j->ibs);
	/* A file-to-file copy counts the bytes of its reads and of its writes. */
	if (!err && j->src == DD_SRC_FILE && j->dst == DD_DST_FILE)
		ph.prog.per_unit = 2;
	if (err)
		return err;
	c->w = &ph.w[0];
	c->ph = &ph;
	c->stonewall = rc->stonewall_ns != 0;
	ioctx_bind(&c->io, c->w);
	phase_restart(&ph);
	worker_start(c->w);
	err = j->src == DD_SRC_FILE ? loop_read(c) : loop_generate(c);
	buffered_end = c->w->t_last;
	end = buffered_end;
	if (!err && c->out_fd >= 0 && (j->conv & (DD_CONV_FDATASYNC | DD_CONV_FSYNC)) &&
	    !sig_stop_requested()) {
		end = sync_output(c, j->conv & DD_CONV_FSYNC, &err);
		durable = end;	/* 0 when the sync failed: no durable figure */
		if (err)
			sync_what = j->conv & DD_CONV_FSYNC ? "fsync" : "fdatasync";
	}
	if (err && !c->w->err)
		c->w->err = err;
	row = phase_end(&ph, "dd");
	if (!row)
		return -ENOMEM;
	if (c->out_fd >= 0 && !err && !durable && !sig_stop_requested()) {
		durable = sync_output(c, 0, &err);
		if (err) {
			row->flags |= ROW_FAILED;
			sync_what = "fdatasync";
		}
	}
	finish_row(c, row, ph.t0, buffered_end, end ? end : buffered_end);
	if (durable)
		row->durable_ns = durable - ph.t0;
	if (have_pct == 0)
		set_cache(row, j, pct, dropped);
	/* what failed and how far it got: the write or the sync, and the bytes written */
	if (err && err != -EINTR) {
		free(row->error);
		row->error = str_printf("%s%s%s after %" PRIu64 " bytes written",
					sync_what ? sync_what : "", sync_what ? ": " : "",
					strerror(-err), c->out_bytes);
	}
	if (err)
		return err;
	return sig_stop_requested() ? -EINTR : 0;
}

int dd_run(struct runner *rc, const struct dd_job *job)
{
	struct vhook *vh = NULL;
	struct dd_ctx c;
	int err, rc2;

	memset(&c, 0, sizeof(c));
	c.job = job;
	c.in_fd = c.out_fd = -1;
	c.cleanup_slot = -1;
	if ((err = ioctx_init(&c.io, rc->eng, 2)) < 0)
		return err;
	c.rreq = ioctx_get(&c.io);
	c.wreq = ioctx_get(&c.io);
	err = alloc_buffers(&c);
	/* --verify: the written blocks are stamped (the template follows --data) */
	if (!err && job->dst == DD_DST_FILE &&
	    !(err = vhook_start(&vh, rc, (uint32_t)job->obs,
				job->src == DD_SRC_RANDOM ? VBLOCK_DATA_RANDOM : VBLOCK_DATA_ZERO,
				VHOOK_F_PASSES)))
		err = vhook_attach(vh, &c.io);
	if (!err && job->src == DD_SRC_FILE)
		err = open_input(&c);
	if (!err && job->dst == DD_DST_FILE)
		err = job->shared ? open_shared(&c) : open_output(&c);
	if (!err)
		err = vhook_file(&c.io, c.out_fd, job->out, 0, 1);
	if (!err) {
		/* The input cache state is measured before the loop reads anything. */
		err = dd_measure(rc, &c);
		/* bad blocks fail the verify row and keep the file for a look */
		if (!err && (rc2 = vhook_verify(vh, rc, "dd")) < 0)
			err = rc2;
	} else {
		struct row *row = run_add_row(rc->run, "dd", phase_name(job));

		if (row) {
			row->flags |= ROW_FAILED;
			row->error = str_printf("%s", strerror(-err));
			set_params(row, job, rc->eng->name);
		}
	}
	if (c.in_fd >= 0)
		ioctx_close(&c.io, c.in_fd);
	if (c.out_fd >= 0 && (rc2 = ioctx_close(&c.io, c.out_fd)) < 0 && !err)
		err = rc2;
	if (c.cleanup_slot >= 0) {
		if (err || !job->keep_output)
			cleanup_remove(c.cleanup_slot);
		else
			cleanup_unregister(c.cleanup_slot);
	}
	ioctx_put(&c.io, c.rreq);
	ioctx_put(&c.io, c.wreq);
	ioctx_exit(&c.io);
	if ((rc2 = vhook_stop(vh)) < 0 && !err)
		err = rc2;
	free(c.buf);
	return err;
}
