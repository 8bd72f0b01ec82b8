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

#include "core/cache.h"
#include "core/scratch.h"
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

/* A short transfer in the queue-depth loop is an error of the worker. */
static int on_done(struct ioctx *io, struct engine_req *r)
{
	if (r->res >= 0 && (size_t)r->res != r->len && io->w && !io->w->err)
		io->w->err = -EIO;
	return 0;
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
		if (ioctx_do_chain(&j->io, r) != (int64_t)p->rec) {
			rc = r->res < 0 ? (int)r->res : -EIO;
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
		r->off = offset_of(p, i);
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
	return rc;
}

/* The timed tail after the records: -e fsync, -c close, as iozone includes them. */
static int timed_tail(struct ioz_pass *p, struct ioz_job *j)
{
	int rc = 0, e;

	if (p->c->fsync_timed && (e = ioctx_sync(&j->io, j->fd, 0)) < 0)
		rc = e;
	if (p->c->close_timed) {
		e = ioctx_close(&j->io, j->fd);
		j->fd = -1;
		if (e < 0 && !rc)
			rc = e;
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
