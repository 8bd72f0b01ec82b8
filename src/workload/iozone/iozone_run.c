/* iozone_run.c - the matrix: every cell of the grid with the selected passes in
 * iozone's order (table mode), or one cell with N workers (throughput mode); the device
 * probe that the RAM-speed marks are judged by; the marks; the effective options. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "observe/cache.h"
#include "observe/memlimit.h"
#include "core/rng.h"
#include "fs/scratch.h"
#include "stats/result.h"
#include "stats/result_keys.h"
#include "workload/iozone/iozone_int.h"

#define IOZ_SEED	0x12345u	/* the random tests' order: the same every run */
#define PROBE_MAX	(64ull << 20)
#define PROBE_MIN	(1ull << 20)
#define PROBE_CHUNK	(1u << 20)
#define MARK_MARGIN	1.10		/* "above the device": more than 10% above it */

struct ioz_run {
	struct ioz_job *job;
	unsigned nw;
	uint64_t *random, *stride;	/* record orders, for the largest cell */
	const char *failed;		/* the file of the failed pass (a job's path) */
};

static void jobs_free(struct ioz_run *x)
{
	unsigned i;

	for (i = 0; x->job && i < x->nw; i++) {
		if (x->job[i].fp)
			fclose(x->job[i].fp);
		if (x->job[i].fd >= 0)
			ioctx_close(&x->job[i].io, x->job[i].fd);
		if (x->job[i].io.e)
			ioctx_exit(&x->job[i].io);
		free(x->job[i].buf);
		free(x->job[i].sbuf);
	}
	free(x->job);
	free(x->random);
	free(x->stride);
	memset(x, 0, sizeof(*x));
}

static int jobs_init(struct ioz_run *x, struct runner *rc, const struct iozone_cfg *c,
		     const char *const *dirs, const char *const *names, uint64_t maxrec,
		     uint64_t maxnrec)
{
	struct rng g;
	unsigned i;
	int r;

	x->nw = c->workers ? c->workers : 1;
	x->job = calloc(x->nw, sizeof(*x->job));
	for (i = 0; x->job && i < x->nw; i++)
		x->job[i].fd = -1;	/* jobs_free after a failure below closes none */
	x->random = calloc(maxnrec, sizeof(*x->random));
	x->stride = calloc(maxnrec, sizeof(*x->stride));
	if (!x->job || !x->random || !x->stride)
		return -ENOMEM;
	rng_seed(&g, IOZ_SEED);
	for (i = 0; i < x->nw; i++) {
		struct ioz_job *j = &x->job[i];

		j->fd = -1;
		if (snprintf(j->path, sizeof(j->path), "%s/%s", dirs[i], names[i]) >=
		    (int)sizeof(j->path))
			return -ENAMETOOLONG;
		if (posix_memalign((void **)&j->buf, 4096, maxrec))
			return -ENOMEM;
		/* not zeros: a compressing or deduplicating file system must not gain */
		rng_fill(&g, j->buf, maxrec);
		r = ioctx_init(&j->io, rc->eng, c->depth ? c->depth : 1);
		if (r < 0)
			return r;
	}
	return 0;
}

/* The reading workers of the random mix: the first -+p percent, else every other one
 * (iozone's round robin). */
static int mix_reads(const struct iozone_cfg *c, unsigned i, unsigned nw)
{
	if (c->mix_read_pct)
		return i < c->mix_read_pct * nw / 100;
	return i % 2 == 0;
}

/* The cell's passes, and with --verify its verify row (*vh: the cell's hook, which the
 * caller stops once the files are gone). */
static int run_cell(struct runner *rc, const struct iozone_cfg *c, struct ioz_run *x,
		    const struct iozone_cellsz *cell, const int *passes, struct vhook **vh)
{
	int vpoint = ioz_verify_point(passes);
	struct ioz_pass p;
	unsigned i;
	int k, r = 0;

	memset(&p, 0, sizeof(p));
	p.c = c;
	p.rec = cell->rec_kb * 1024;
	p.nrec = cell->file_kb / cell->rec_kb;
	p.job = x->job;
	p.nw = x->nw;
	p.stonewall = c->workers && !c->no_stonewall;
	iozone_random_order(p.nrec, IOZ_SEED, x->random);
	iozone_stride_order(p.nrec, c->stride, x->stride);
	if (vpoint >= 0)
		r = ioz_verify_start(rc, &p);
	*vh = p.vh;
	for (k = 0; passes[k] >= 0 && !r; k++) {
		const struct iozone_pass_info *pi = iozone_pass(passes[k]);

		if (k == vpoint)
			r = ioz_verify_run(rc, &p);
		if (r)
			break;

		p.pass = passes[k];
		p.order = NULL;
		if (p.pass == IOZ_RANDOM_READ || p.pass == IOZ_RANDOM_WRITE ||
		    p.pass == IOZ_RANDOM_MIX)
			p.order = x->random;
		else if (p.pass == IOZ_STRIDE_READ)
			p.order = x->stride;
		for (i = 0; i < p.nw; i++)
			x->job[i].reads = p.pass == IOZ_RANDOM_MIX ? mix_reads(c, i, p.nw) :
					  pi->reads;
		r = ioz_run_pass(rc, &p);
		if (r < 0 && r != -EINTR && p.fail_job >= 0)
			x->failed = x->job[p.fail_job].path;
		if (!r && sig_stop_requested())
			r = -EINTR;
	}
	if (!r && passes[k] < 0 && k == vpoint)
		r = ioz_verify_run(rc, &p);
	return r;
}

int iozone_run(struct runner *rc, const struct iozone_cfg *c, const char *const *dirs,
	       const char *const *names, char *failed, size_t flen)
{
	struct iozone_cellsz *cells = calloc(IOZ_MAX_CELLS, sizeof(*cells));
	int passes[IOZ_NPASS + 1];
	struct ioz_run x;
	uint64_t maxrec = 4096, maxnrec = 1;
	size_t n, i;
	unsigned w;
	int r, e;

	memset(&x, 0, sizeof(x));
	if (!cells)
		return -ENOMEM;
	n = iozone_grid(c, cells, IOZ_MAX_CELLS);
	iozone_passes(c, passes);
	for (i = 0; i < n; i++) {
		if (cells[i].rec_kb * 1024 > maxrec)
			maxrec = cells[i].rec_kb * 1024;
		if (cells[i].file_kb / cells[i].rec_kb > maxnrec)
			maxnrec = cells[i].file_kb / cells[i].rec_kb;
	}
	r = jobs_init(&x, rc, c, dirs, names, maxrec, maxnrec);
	for (i = 0; i < n && !r; i++) {
		struct vhook *vh = NULL;

		r = run_cell(rc, c, &x, &cells[i], passes, &vh);
		/* as iozone: the file goes after each cell; -w keeps the last one */
		for (w = 0; w < x.nw && (!c->keep || i + 1 < n || r); w++)
			(void)ioctx_unlink(&x.job[w].io, x.job[w].path);
		e = ioz_verify_stop(x.job, x.nw, vh);
		if (e < 0 && !r)
			r = e;
	}
	if (x.failed && flen)
		snprintf(failed, flen, "%s", x.failed);
	jobs_free(&x);
	free(cells);
	if (!r && sig_stop_requested())
		r = -EINTR;
	return r;
}

/* ---- the device alone ------------------------------------------------------------- */

/* Write then read bytes at path with O_DIRECT, 1 MiB a call; the rates in B/s. */
static int probe_io(struct ioctx *io, const char *path, uint64_t bytes, void *buf,
		    double *wr, double *rd)
{
	struct engine_req *r;
	uint64_t off, t0;
	int fd, rc = 0, pass;

	for (pass = 0; pass < 2 && !rc; pass++) {
#ifdef O_DIRECT
		fd = ioctx_open(io, path, pass ? O_RDONLY | O_DIRECT :
				O_RDWR | O_CREAT | O_TRUNC | O_DIRECT, 0600);
#else
		fd = -ENOTSUP;
#endif
		if (fd < 0)
			return fd;
		r = ioctx_get(io);
		r->op = pass ? ENGINE_OP_PREAD : ENGINE_OP_PWRITE;
		r->fd = fd;
		r->buf = buf;
		r->len = PROBE_CHUNK;
		t0 = clock_ns();
		for (off = 0; off < bytes && !rc; off += PROBE_CHUNK) {
			r->off = off;
			if (ioctx_call(io, r) != PROBE_CHUNK)
				rc = r->res < 0 ? (int)r->res : -EIO;
		}
		/* the device has it only when the flush returned */
		if (!rc && !pass)
			rc = ioctx_sync(io, fd, 1);
		*(pass ? rd : wr) = (double)bytes / ((double)(clock_ns() - t0) / 1e9);
		ioctx_put(io, r);
		ioctx_close(io, fd);
	}
	return rc;
}

int iozone_probe(struct runner *rc, const struct iozone_cfg *c, const char *dir)
{
	struct kvlist *o = &rc->run->options;
	uint64_t bytes = iozone_space_needed(c) / (c->workers ? c->workers : 1);
	char path[PATH_MAX], why[160];
	double wr = 0, rd = 0;
	struct ioctx io;
	void *buf = NULL;
	int e = 0;

	if (kv_set(o, RK_IOZ_ENGINE, "%s", rc->eng->name) ||
	    kv_set(o, RK_IOZ_PAGE_CACHE_BYTES, "%llu",
		   (unsigned long long)memlimit_cache_bytes(NULL)))
		return -ENOMEM;
	bytes = bytes > PROBE_MAX ? PROBE_MAX : bytes < PROBE_MIN ? PROBE_MIN : bytes;
	bytes -= bytes % PROBE_CHUNK;
	if (c->no_probe)
		snprintf(why, sizeof(why), "none: --no-device-probe");
	else if (c->direct)
		snprintf(why, sizeof(why), "none: -I bypasses the page cache");
	else if (rc->eng->flags & ENGINE_F_NOIO)
		snprintf(why, sizeof(why), "none: the %s engine moves no data", rc->eng->name);
	else
		why[0] = '\0';
	if (!why[0]) {
		snprintf(path, sizeof(path), "%s/iozone.probe", dir);
		if (posix_memalign(&buf, 4096, PROBE_CHUNK))
			return -ENOMEM;
		memset(buf, 0x5a, PROBE_CHUNK);
		e = ioctx_init(&io, rc->eng, 1);
		if (!e) {
			e = probe_io(&io, path, bytes, buf, &wr, &rd);
			(void)ioctx_unlink(&io, path);
			ioctx_exit(&io);
		}
		free(buf);
		if (e < 0)
			snprintf(why, sizeof(why), "none: O_DIRECT probe failed: %s", strerror(-e));
		else
			snprintf(why, sizeof(why), "o_direct");
	}
	if (kv_set(o, RK_IOZ_PROBE, "%s", why))
		return -ENOMEM;
	if (e < 0 || strcmp(why, "o_direct"))
		return 0;
	if (kv_set(o, RK_IOZ_PROBE_BYTES, "%llu", (unsigned long long)bytes) ||
	    kv_set(o, RK_IOZ_DEVICE_READ, "%.0f", rd) || kv_set(o, RK_IOZ_DEVICE_WRITE, "%.0f", wr))
		return -ENOMEM;
	return 0;
}

static double opt_num(const struct run *run, const char *key)
{
	const char *v = kv_get(&run->options, key);

	return v ? strtod(v, NULL) : 0;
}

void iozone_mark(struct run *run)
{
	double cache = opt_num(run, RK_IOZ_PAGE_CACHE_BYTES);
	double rd = opt_num(run, RK_IOZ_DEVICE_READ), wr = opt_num(run, RK_IOZ_DEVICE_WRITE);
	size_t i;

	for (i = 0; i < run->nrows; i++) {
		struct row *w = run->rows[i];
		const char *fk = kv_get(&w->params, RK_IOZ_FILE_KB);
		const char *nw = kv_get(&w->params, RK_IOZ_WORKERS);
		int p = iozone_pass_of(w->phase), reads, marked = 0;
		double bytes, limit;
		char note[400];

		if (!iozone_is_row(w) || p < 0 || !fk || row_metric(w, RK_IOZ_RAM_SPEED))
			continue;
		reads = iozone_pass(p)->reads;
		bytes = strtod(fk, NULL) * 1024.0 * (nw ? strtod(nw, NULL) : 1);
		limit = reads ? rd : wr;
		if (!(w->flags & (ROW_FAILED | ROW_NOT_MEASURED)) && cache > 0 && bytes <= cache) {
			if (limit > 0)
				marked = w->rate * 1024.0 > limit * MARK_MARGIN;
			else
				marked = reads && (w->flags & ROW_CACHE_INFLATED);
		}
		row_add_metric(w, RK_IOZ_RAM_SPEED, marked, "bool");
		if (!marked)
			continue;
		if (reads)
			w->flags |= ROW_CACHE_INFLATED;
		if (limit > 0) {
			snprintf(note, sizeof(note), "%s%sfaster than the device alone (%.0f MB/s, "
				 "O_DIRECT) with the file fitting in the page cache: RAM speed",
				 w->note ? w->note : "", w->note ? "; " : "", limit / 1e6);
			str_set(&w->note, note);
		}
	}
}

int iozone_record_options(struct run *run, const struct iozone_cfg *c)
{
	struct iozone_cellsz one[2];
	struct kvlist *o = &run->options;
	char tests[64] = "";
	unsigned t = iozone_tests(c), k;
	int r = 0;

	for (k = 0; k < IOZONE_NTESTS; k++)
		if (t & (1u << k))
			snprintf(tests + strlen(tests), sizeof(tests) - strlen(tests), "%s%u",
				 tests[0] ? "," : "", k);
	r |= kv_set(o, RK_IOZ_AUTO, "%d", c->autom);
	r |= kv_set(o, RK_IOZ_TESTS, "%s", tests);
	if (iozone_grid(c, one, 2) == 1) {
		r |= kv_set(o, RK_IOZ_FILE_KB, "%llu", (unsigned long long)one[0].file_kb);
		r |= kv_set(o, RK_IOZ_RECLEN_KB, "%llu", (unsigned long long)one[0].rec_kb);
	}
	r |= kv_set(o, RK_IOZ_WORKERS, "%u", c->workers ? c->workers : 1);
	r |= kv_set(o, RK_IOZ_DIRECT, "%d", c->direct);
	r |= kv_set(o, RK_IOZ_DEPTH, "%u", c->depth ? c->depth : 1);
	r |= kv_set(o, RK_IOZ_FSYNC_TIMED, "%d", c->fsync_timed);
	r |= kv_set(o, RK_IOZ_CLOSE_TIMED, "%d", c->close_timed);
	r |= kv_set(o, RK_IOZ_OSYNC, "%d", c->osync);
	r |= kv_set(o, RK_IOZ_STRIDE, "%u", c->stride);
	if (c->workers) {
		r |= kv_set(o, RK_IOZ_STONEWALL, "%d", !c->no_stonewall);
		r |= kv_set(o, RK_IOZ_THREADS, "%d", c->threads);
		r |= kv_set(o, RK_IOZ_DELAY_US, "%u", c->delay_us);
		r |= kv_set(o, RK_IOZ_MIX_READ_PCT, "%u", c->mix_read_pct);
	}
	r |= kv_set(o, RK_IOZ_NO_RETEST, "%d", c->no_retest);
	r |= kv_set(o, RK_IOZ_NO_CROSSOVER, "%d", c->nocross);
	r |= kv_set(o, RK_IOZ_MULTIPLIER, "%u", c->multiplier);
	r |= kv_set(o, RK_IOZ_EXCEL, "%d", c->excel);
	if (c->xlsx)
		r |= kv_set(o, RK_IOZ_XLSX, "%s", c->xlsx);
	if (c->file || c->nfiles)
		r |= kv_set(o, RK_IOZ_FILE, "%s", c->file ? c->file : c->files[0]);
	r |= kv_set(o, RK_IOZ_CACHE_KB, "%u", c->cache_kb);
	r |= kv_set(o, RK_IOZ_LINE_BYTES, "%u", c->line_bytes);
	r |= kv_set(o, RK_IOZ_KEEP, "%d", c->keep);
	r |= kv_set(o, RK_IOZ_DROP_CACHE, "%d", c->drop_cache);
	r |= kv_set(o, RK_IOZ_VERIFY, "%d", c->verify);
	r |= kv_set(o, RK_IOZ_EXTENDED, "%d", c->extended || (t & (1u << 9 | 1u << 10)));
	return r ? -ENOMEM : 0;
}
