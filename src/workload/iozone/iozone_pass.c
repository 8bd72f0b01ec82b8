/* iozone_pass.c - one pass of one cell: the files opened as iozone opens them (untimed),
 * the timed loop of every worker (one request per record through the runner, or up to
 * -k/-H requests in flight), the timed tail (-e fsync, -c close), stonewalling in
 * throughput mode, the untimed end (fsync and close as iozone does after every test) and
 * the pass's row. See docs/methodology.md, "iozone", for what is inside the timer. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "observe/cache.h"
#include "fs/scratch.h"
#include "stats/result.h"
#include "stats/result_keys.h"
#include "workload/iozone/iozone_int.h"

void ioz_count(struct ioz_job *j, struct worker *w, uint64_t now)
{
	j->counted_bytes = w->bytes;
	j->counted_ns = now > w->t_first ? now - w->t_first : 0;
}

int ioz_stonewalled(struct ioz_pass *p, struct ioz_job *j, struct worker *w)
{
	if (j->stopped || !atomic_load_explicit(&p->stop, memory_order_relaxed))
		return 0;
	/* as iozone: stop counting here; readers stop, writers go on uncounted so that
	 * the file the next tests read is whole */
	j->stopped = 1;
	ioz_count(j, w, clock_ns());
	return j->reads;
}

void ioz_finished(struct ioz_pass *p, struct ioz_job *j, struct worker *w)
{
	uint64_t now = clock_ns(), zero = 0;

	(void)w;
	if (p->stonewall && !j->stopped) {
		atomic_compare_exchange_strong(&p->t_first_done, &zero, now);
		atomic_store(&p->stop, 1);
	}
}

int ioz_fail(struct ioz_job *j, const char *call, int err)
{
	if (err < 0 && err != -EINTR && !j->fail_call) {
		j->fail_call = call;
		j->fail_err = err;
	}
	return err;
}

static const char *op_name(int op)
{
	switch (op) {
	case ENGINE_OP_WRITE: return "write";
	case ENGINE_OP_PWRITE: return "pwrite";
	case ENGINE_OP_READ: return "read";
	}
	return "pread";
}

/* The record of r was transferred in part (the engine's n bytes, 0 < n < r->len): finish
 * it, each call timed and counted. With --verify a write is made again whole from the
 * record's start (a block is what one write put at one place: the rest as a write of its
 * own would split the block the header describes), the part counted once; a few tries,
 * then -EIO. r is as it was afterwards. Returns r->len or the -errno of the call that
 * failed (-EIO for one that moved nothing). */
static int64_t whole(struct ioz_job *j, struct engine_req *r, int64_t n)
{
	unsigned char *buf = r->buf;
	size_t len = r->len, done = (size_t)n;
	uint64_t off = r->off;
	int again = j->io.vh && (r->op == ENGINE_OP_WRITE || r->op == ENGINE_OP_PWRITE);
	int tries = 0;
	int64_t e;

	while (n > 0 && done < len) {
		if (again) {
			if (++tries > 4)
				break;
			if (r->op == ENGINE_OP_WRITE &&
			    (e = ioctx_lseek(&j->io, r->fd, -(int64_t)done, SEEK_CUR)) < 0) {
				n = e;
				break;
			}
			j->io.w->bytes -= done;
			done = 0;
		}
		r->buf = buf + done;
		r->len = len - done;
		r->off = off + done;
		n = ioctx_do_chain(&j->io, r);
		if (n > 0)
			done += (size_t)n;
	}
	r->buf = buf;
	r->len = len;
	r->off = off;
	if (done == len)
		return (int64_t)len;
	return n < 0 ? n : -EIO;
}

/* A completion of the queue-depth loop: a short transfer is queued again for the rest
 * (with --verify: the whole record again, as whole() says); one that moved nothing is an
 * error of the worker. r->user is the record's offset. */
static int on_done(struct ioctx *io, struct engine_req *r)
{
	struct ioz_job *j = io->user;
	uint64_t end = r->off + r->len;

	if (r->res < 0 || (size_t)r->res == r->len)
		return 0;	/* an error is the worker's already (worker_record) */
	if (r->res == 0) {
		if (io->w && !io->w->err)
			io->w->err = -EIO;
		return 0;
	}
	if (io->vh && !j->reads) {
		if (io->w)
			io->w->bytes -= r->off + (uint64_t)r->res - r->user;
		r->buf = j->buf;
		r->off = r->user;
	} else {
		r->buf = (unsigned char *)r->buf + r->res;
		r->off += (uint64_t)r->res;
	}
	r->len = (size_t)(end - r->off);
	ioctx_queue(io, r);
	return 1;
}

static int op_of(const struct ioz_pass *p, const struct ioz_job *j)
{
	int seq = p->pass == IOZ_WRITE || p->pass == IOZ_REWRITE || p->pass == IOZ_READ ||
		  p->pass == IOZ_REREAD;

	/* iozone's write and read tests use write(2)/read(2) at the file position; the
	 * others seek, which pread/pwrite do in the same call; with requests in flight
	 * every request names its offset */
	if (seq && !p->c->depth)
		return j->reads ? ENGINE_OP_READ : ENGINE_OP_WRITE;
	return j->reads ? ENGINE_OP_PREAD : ENGINE_OP_PWRITE;
}

static uint64_t offset_of(const struct ioz_pass *p, uint64_t i)
{
	if (p->pass == IOZ_RECORD_REWRITE)
		return 0;		/* the same record again and again */
	if (p->pass == IOZ_BKWD_READ)
		return (p->nrec - 1 - i) * p->rec;
	return (p->order ? p->order[i] : i) * p->rec;
}

/* One request at a time: ioctx_do_chain per record. */
static int loop_one(struct ioz_pass *p, struct ioz_job *j, struct worker *w)
{
	struct engine_req *r = ioctx_get(&j->io);
	uint64_t i;
	int64_t n;
	int rc = 0;

	if (!r)
		return j->io.err ? j->io.err : -EIO;
	r->op = op_of(p, j);
	r->fd = j->fd;
	r->buf = j->buf;
	r->len = p->rec;
	worker_start(w);
	for (i = 0; i < p->nrec; i++) {
		if (sig_stop_requested()) {
			rc = -EINTR;
			break;
		}
		if (p->stonewall && ioz_stonewalled(p, j, w))
			break;
		r->off = offset_of(p, i);
		n = ioctx_do_chain(&j->io, r);
		if (n != (int64_t)p->rec && (n = whole(j, r, n)) != (int64_t)p->rec) {
			rc = ioz_fail(j, op_name(r->op), n < 0 ? (int)n : -EIO);
			break;
		}
	}
	ioctx_put(&j->io, r);
	return rc;
}

/* -k/-H N: up to N requests in flight, each naming its offset. */
static int loop_depth(struct ioz_pass *p, struct ioz_job *j, struct worker *w)
{
	uint64_t i;
	int rc = 0, e;

	j->io.on_done = on_done;
	j->io.user = j;
	worker_start(w);
	for (i = 0; i < p->nrec && !w->err; i++) {
		struct engine_req *r;

		if (sig_stop_requested()) {
			rc = -EINTR;
			break;
		}
		if (p->stonewall && ioz_stonewalled(p, j, w))
			break;
		r = ioctx_get(&j->io);
		if (!r) {
			rc = j->io.err ? j->io.err : -EIO;
			break;
		}
		r->op = op_of(p, j);
		r->fd = j->fd;
		r->buf = j->buf;
		r->len = p->rec;
		r->off = r->user = offset_of(p, i);
		ioctx_queue(&j->io, r);
		if (j->io.nqueued >= j->io.depth / 2 + 1 && (e = ioctx_submit(&j->io)) < 0) {
			rc = e;
			break;
		}
	}
	e = ioctx_drain(&j->io);
	j->io.on_done = NULL;
	if (!rc)
		rc = e < 0 ? e : w->err;
	return ioz_fail(j, op_name(op_of(p, j)), rc);
}

/* The timed tail after the records: -e fsync, -c close, as iozone includes them. */
static int timed_tail(struct ioz_pass *p, struct ioz_job *j)
{
	int rc = 0, e;

	if (p->c->fsync_timed && (e = ioctx_sync(&j->io, j->fd, 0)) < 0)
		rc = ioz_fail(j, "fsync", e);
	if (p->c->close_timed) {
		e = ioctx_close(&j->io, j->fd);
		j->fd = -1;
		if (e < 0 && !rc)
			rc = ioz_fail(j, "close", e);
	}
	return rc;
}

int ioz_worker(void *arg, unsigned i, struct worker *w)
{
	struct ioz_pass *p = arg;
	struct ioz_job *j = &p->job[i];
	int rc;

	ioctx_bind(&j->io, w);
	if (p->c->delay_us && i) {
		/* -d: worker i leaves the start i delays later, as iozone's parent lets
		 * its children go one delay apart */
		uint64_t ns = (uint64_t)p->c->delay_us * 1000u * i;
		struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };

		while (nanosleep(&ts, &ts) < 0 && errno == EINTR && !sig_stop_requested())
			;
	}
	if (iozone_pass(p->pass)->stdio)
		return ioz_stdio_loop(p, j, w);
	rc = p->c->depth ? loop_depth(p, j, w) : loop_one(p, j, w);
	j->t_written = clock_ns();
	if (rc)
		return rc;
	ioz_finished(p, j, w);
	rc = timed_tail(p, j);
	j->t_end = clock_ns();
	w->t_last = j->t_end;
	if (!j->stopped)
		ioz_count(j, w, j->t_end);
	if (rc && !w->err)
		w->err = rc;
	return rc;
}
