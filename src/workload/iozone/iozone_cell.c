/* iozone_cell.c - running one pass of a cell and making its row: the files opened as
 * iozone opens them and the untimed preparation (fsync, the read test's priming read,
 * the cache residency), the workers released together, the untimed end (fsync and close
 * after the timer, as iozone does after every test) and the row's figures, params and
 * cache verdict. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "observe/cache.h"
#include "core/err.h"
#include "fs/scratch.h"
#include "stats/result.h"
#include "stats/result_keys.h"
#include "workload/iozone/iozone_int.h"

static int open_flags(const struct ioz_pass *p, const struct ioz_job *j)
{
	int fl = j->reads ? O_RDONLY : O_RDWR;

	if (p->pass == IOZ_WRITE)
		fl |= O_CREAT | O_TRUNC;	/* iozone creat()s the file first */
	else if (!j->reads)
		fl |= O_CREAT;			/* record rewrite and pwrite may start it */
	if (!j->reads && p->c->osync)
		fl |= O_SYNC;
#ifdef O_DIRECT
	if (p->c->direct)
		fl |= O_DIRECT;
#endif
	return fl;
}

/* Open every job's file and prepare it, untimed: iozone fsyncs the file after opening
 * it, and its read test reads one record and seeks back before starting the clock. */
static int prepare(struct ioz_pass *p, double *pct, int *dropped)
{
	double sum = 0, one;
	unsigned i, nres = 0;
	int rc;

	*dropped = 0;
	for (i = 0; i < p->nw; i++) {
		struct ioz_job *j = &p->job[i];
		int fd;

		j->stopped = 0;
		j->counted_bytes = j->counted_ns = 0;
		j->t_written = j->t_end = 0;
		j->fail_call = NULL;
		j->fail_err = 0;
		if (iozone_pass(p->pass)->stdio) {
			rc = ioz_stdio_open(p, j);
			if (rc < 0)
				return rc;
			fd = fileno(j->fp);
		} else {
			fd = ioctx_open(&j->io, j->path, open_flags(p, j), 0600);
			if (fd < 0)
				return ioz_fail(j, "open", fd);
			j->fd = fd;
			if ((rc = ioz_verify_file(p, j, fd)) < 0)
				return ioz_fail(j, "open", rc);
			if ((rc = ioctx_sync(&j->io, fd, 0)) < 0)
				return ioz_fail(j, "fsync before the test", rc);
		}
		if (!j->reads)
			continue;
		if (p->pass == IOZ_READ || p->pass == IOZ_REREAD) {
			struct engine_req *r = ioctx_get(&j->io);

			if (!r)
				return ioz_fail(j, "read before the test", -EIO);
			r->op = ENGINE_OP_PREAD;
			r->fd = fd;
			r->buf = j->buf;
			r->len = p->rec;
			rc = (int)ioctx_call(&j->io, r);
			ioctx_put(&j->io, r);
			if (rc < 0)
				return ioz_fail(j, "read before the test", rc);
		}
		if (p->c->drop_cache && cache_drop(fd) == 0)
			*dropped = 1;
		if (cache_resident(fd, 0, p->nrec * p->rec, &one) == 0) {
			sum += one;
			nres++;
		}
	}
	*pct = nres ? sum / nres : -1;
	return 0;
}

/* The untimed end: fsync the written file (unless -e timed it, or -c closed it inside
 * the timer, where iozone does not fsync) and close. *sync_ns: the longest fsync, 0 when
 * one failed (no durable figure then). */
static int finish(struct ioz_pass *p, uint64_t *sync_ns)
{
	unsigned i;
	int rc = 0, e, c;

	*sync_ns = 0;
	for (i = 0; i < p->nw; i++) {
		struct ioz_job *j = &p->job[i];
		int do_sync = !j->reads && !p->c->fsync_timed && !p->c->close_timed;
		uint64_t t0 = clock_ns(), ns = 0;

		if (j->fp) {
			e = ioz_stdio_close(j, do_sync, &ns);
		} else if (j->fd >= 0) {
			e = do_sync ? ioctx_sync(&j->io, j->fd, 0) : 0;
			if (e < 0)
				ioz_fail(j, "fsync after the test", e);
			ns = do_sync && !e ? clock_ns() - t0 : 0;
			if ((c = ioctx_close(&j->io, j->fd)) < 0 && !e)
				e = ioz_fail(j, "close", c);
			j->fd = -1;
		} else {
			e = 0;
		}
		if (ns > *sync_ns)
			*sync_ns = ns;
		if (e < 0 && !rc)
			rc = e;
	}
	if (rc < 0)
		*sync_ns = 0;
	return rc;
}

static void set_params(struct row *row, const struct ioz_pass *p, const char *engine)
{
	const struct iozone_cfg *c = p->c;
	int stdio = iozone_pass(p->pass)->stdio;

	kv_set(&row->params, RK_IOZ_FILE_KB, "%llu",
	       (unsigned long long)(p->nrec * p->rec / 1024));
	kv_set(&row->params, RK_IOZ_RECLEN_KB, "%llu", (unsigned long long)(p->rec / 1024));
	kv_set(&row->params, RK_IOZ_WORKERS, "%u", p->nw);
	kv_set(&row->params, RK_IOZ_DIRECT, "%d", c->direct && !stdio);
	kv_set(&row->params, RK_IOZ_ENGINE, "%s", stdio ? "stdio" : engine);
	kv_set(&row->params, RK_IOZ_DEPTH, "%u", c->depth ? c->depth : 1);
	kv_set(&row->params, RK_IOZ_FSYNC_TIMED, "%d", c->fsync_timed);
	kv_set(&row->params, RK_IOZ_CLOSE_TIMED, "%d", c->close_timed);
	kv_set(&row->params, RK_IOZ_OSYNC, "%d", c->osync && !stdio);
	if (c->workers)
		kv_set(&row->params, RK_IOZ_STONEWALL, "%d", p->stonewall);
	if (p->pass == IOZ_STRIDE_READ)
		kv_set(&row->params, RK_IOZ_STRIDE, "%u", c->stride);
	if (p->pass == IOZ_RANDOM_MIX)
		kv_set(&row->params, RK_IOZ_MIX_READ_PCT, "%u", c->mix_read_pct);
	kv_set(&row->params, RK_ROW_DETAIL, "%llu kB/%llu kB",
	       (unsigned long long)(p->nrec * p->rec / 1024), (unsigned long long)(p->rec / 1024));
}

static void set_note(struct row *row, const struct ioz_pass *p, double pct, int dropped)
{
	char buf[200];
	int stdio = iozone_pass(p->pass)->stdio;

	row->cache_pct = pct;
	row->cache_dropped = dropped;
	if (p->c->direct && !stdio) {
		snprintf(buf, sizeof(buf), "O_DIRECT: the page cache was bypassed");
	} else if (iozone_pass(p->pass)->reads && pct >= 0) {
		cache_verdict(buf, sizeof(buf), pct, dropped);
		if (pct >= CACHE_INFLATED_PCT && p->pass != IOZ_RANDOM_MIX)
			row->flags |= ROW_CACHE_INFLATED;
	} else if (iozone_pass(p->pass)->reads) {
		return;
	} else if (p->c->fsync_timed) {
		snprintf(buf, sizeof(buf), "fsync timed (-e): the data was on the device");
	} else {
		snprintf(buf, sizeof(buf), "no fsync timed: the writes may have ended in the "
			 "page cache (-e times the fsync)");
	}
	str_set(&row->note, buf);
}

/* Throughput mode: iozone's Children see (the rate), Parent sees and the rest. */
static void tput_figures(struct row *row, const struct ioz_pass *p, uint64_t t0)
{
	double sum = 0, mn = -1, mx = 0, xfer_min = -1, parent_s;
	uint64_t counted = 0, t_last = 0, tf = atomic_load(&p->t_first_done);
	unsigned i, stopped = 0;
	char name[32];

	for (i = 0; i < p->nw; i++) {
		const struct ioz_job *j = &p->job[i];
		double kb = (double)j->counted_bytes / 1024.0;
		double r = j->counted_ns ? kb / ((double)j->counted_ns / 1e9) : 0;

		sum += r;
		mn = mn < 0 || r < mn ? r : mn;
		mx = r > mx ? r : mx;
		xfer_min = xfer_min < 0 || kb < xfer_min ? kb : xfer_min;
		counted += j->counted_bytes;
		stopped += j->stopped;
		if (j->t_end > t_last)
			t_last = j->t_end;
		snprintf(name, sizeof(name), RK_IOZ_WORKER_RATE_FMT, i + 1);
		row_add_metric(row, name, r, IOZONE_RATE_UNIT);
		snprintf(name, sizeof(name), RK_IOZ_WORKER_XFER_FMT, i + 1);
		row_add_metric(row, name, kb, "KiB");
	}
	/* Parent sees: all counted kB over the time until the stonewall (the first worker
	 * done), or with -x until the last worker was done */
	parent_s = (double)((p->stonewall && tf > t0 ? tf : t_last) - t0) / 1e9;
	row->rate = sum;
	row_add_metric(row, RK_IOZ_PARENT_RATE,
		       parent_s > 0 ? (double)counted / 1024.0 / parent_s : 0, IOZONE_RATE_UNIT);
	row_add_metric(row, RK_IOZ_MIN_RATE, mn < 0 ? 0 : mn, IOZONE_RATE_UNIT);
	row_add_metric(row, RK_IOZ_MAX_RATE, mx, IOZONE_RATE_UNIT);
	row_add_metric(row, RK_IOZ_AVG_RATE, p->nw ? sum / p->nw : 0, IOZONE_RATE_UNIT);
	row_add_metric(row, RK_IOZ_MIN_XFER, xfer_min < 0 ? 0 : xfer_min, "KiB");
	row_add_metric(row, RK_IOZ_STONEWALLED, stopped, "workers");
}

static void times(struct row *row, const struct ioz_pass *p, uint64_t t0, uint64_t sync_ns)
{
	uint64_t tw = 0, te = 0;
	unsigned i;

	for (i = 0; i < p->nw; i++) {
		tw = p->job[i].t_written > tw ? p->job[i].t_written : tw;
		te = p->job[i].t_end > te ? p->job[i].t_end : te;
	}
	if (p->nw == 1) {
		const struct ioz_job *j = &p->job[0];
		double s = (double)j->counted_ns / 1e9;

		/* iozone's time: from the first record to the end of the timed tail */
		row->elapsed_ns = j->counted_ns;
		row->flags &= ~ROW_SHORT;
		if (row->elapsed_ns < ROW_SHORT_NS)
			row->flags |= ROW_SHORT;
		row->rate = s > 0 ? (double)j->counted_bytes / 1024.0 / s : 0;
		t0 = j->t_end - j->counted_ns;
	}
	if (iozone_pass_writes(p->pass) && tw > t0) {
		row->buffered_ns = tw - t0;
		if (p->c->fsync_timed)
			row->durable_ns = te - t0;
		else if (sync_ns)
			row->durable_ns = tw - t0 + sync_ns;
	}
}

/* A failed pass: the row says which call of which worker failed and how far the pass
 * got ("write: Input/output error after 8192 bytes written"); p->fail_job is that
 * worker. */
static void fail_text(struct row *row, struct ioz_pass *p, int err)
{
	const struct ioz_job *j = NULL;
	unsigned i;

	for (i = 0; i < p->nw && !j; i++)
		if (p->job[i].fail_call)
			j = &p->job[i];
	p->fail_job = j ? (int)(j - p->job) : 0;
	row->flags |= ROW_FAILED;
	free(row->error);
	row->error = str_printf("%s%s%s after %llu bytes %s", j ? j->fail_call : "",
				j ? ": " : "", strerror(-(j ? j->fail_err : err)),
				(unsigned long long)row->bytes,
				iozone_pass(p->pass)->reads ? "read" : "written");
}

int ioz_run_pass(struct runner *rc, struct ioz_pass *p)
{
	const struct iozone_pass_info *pi = iozone_pass(p->pass);
	struct phase ph;
	struct row *row;
	uint64_t sync_ns = 0, t0;
	double pct = -1;
	int dropped = 0, r, e;

	atomic_store(&p->stop, 0);
	atomic_store(&p->t_first_done, 0);
	p->fail_job = -1;
	r = prepare(p, &pct, &dropped);
	e = phase_begin(&ph, rc, pi->phase, p->nw, "B", p->nrec * p->rec * p->nw);
	if (e < 0) {
		finish(p, &sync_ns);
		return e;
	}
	/* a file that cannot be opened or prepared: the row says so, no worker runs */
	if (r < 0)
		ph.w[0].err = r;
	else
		r = runner_parallel(&ph, ioz_worker, p);
	t0 = ph.t0;
	row = phase_end(&ph, IOZONE_WORKLOAD);
	e = finish(p, &sync_ns);
	if (!row)
		return -ENOMEM;
	if (!r && e < 0)
		r = e;
	str_set(&row->rate_unit, IOZONE_RATE_UNIT);
	set_params(row, p, rc->eng->name);
	/* every row of a verified run, also fwrite's after the cell's check */
	if (vhook_cfg_on(rc->verify))
		kv_set(&row->params, RK_VERIFY, "true");
	if (p->c->workers)
		tput_figures(row, p, t0);
	/* the figures of a pass that ended early would be of a part of it: none */
	if (!r)
		times(row, p, t0, sync_ns);
	if (pi->reads || p->pass == IOZ_RANDOM_MIX)
		set_note(row, p, pct, dropped);
	else
		set_note(row, p, -1, 0);
	if (r == -EINTR || sig_stop_requested())
		row->flags |= ROW_INCOMPLETE;
	else if (r < 0)
		fail_text(row, p, r);
	return r;
}
