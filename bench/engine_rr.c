/* engine_rr.c - a small random-read driver for the engines, through the runner's ioctx
 * as a workload drives it (until `iobattery job` exists): take a free request (the pool
 * reaps with min 1 when all qd are out), fill it with a bs-aligned random offset over the
 * whole file (xorshift64*, fixed seed), queue it, and submit when batch are queued - fio's
 * iodepth_batch_submit, whose default 1 submits each request as soon as it is filled.
 * The file is opened O_DIRECT. Built and run by bench/engines.sh; not a test.
 *   engine_rr FILE ENGINE[:OPTS] QD SECONDS [BS [BATCH]]
 * Prints one line: engine, qd, batch, ios, seconds, IOPS, mean latency (us), user and
 * system CPU time per I/O (ns, getrusage over the timed loop). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/uio.h>

#include "core/clock.h"
#include "engine/engine.h"
#include "runner/ioctx.h"

struct rr {
	int fd;
	uint64_t nblk, bs, rng;
	unsigned char *bufs;
	int stop;
};

static uint64_t next_off(struct rr *x)
{
	x->rng ^= x->rng >> 12;
	x->rng ^= x->rng << 25;
	x->rng ^= x->rng >> 27;
	return (x->rng * 2685821657736338717ull) % x->nblk * x->bs;
}

/* A read completed: a failed or short one stops the run. */
static int check(struct ioctx *io, struct engine_req *r)
{
	struct rr *x = io->user;

	if (r->res != (int64_t)x->bs)
		x->stop = 1;
	return 0;
}

static uint64_t tv_ns(struct timeval t)
{
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_usec * 1000ull;
}

int main(int argc, char **argv)
{
	const struct engine *e;
	struct engine_opts o;
	struct ioctx io;
	struct worker w;
	struct rusage ru0, ru1;
	struct iovec iov;
	struct stat st;
	struct rr x = { .bs = 4096, .rng = 0x9e3779b97f4a7c15ull };
	char err[256];
	unsigned qd, batch = 1;
	uint64_t t0, t1, dur;
	double secs;
	int rc;

	if (argc < 5) {
		fprintf(stderr, "usage: engine_rr FILE ENGINE[:OPTS] QD SECONDS [BS [BATCH]]\n");
		return 2;
	}
	if (engine_parse(argv[2], &e, &o, err, sizeof(err)) < 0) {
		fprintf(stderr, "engine_rr: %s\n", err);
		return 2;
	}
	qd = (unsigned)atoi(argv[3]);
	dur = (uint64_t)(atof(argv[4]) * 1e9);
	if (argc > 5)
		x.bs = (uint64_t)atoll(argv[5]);
	if (argc > 6)
		batch = (unsigned)atoi(argv[6]);
	if (qd < 1 || qd > IOCTX_MAX_DEPTH || batch < 1 || batch > qd || x.bs < 512) {
		fprintf(stderr, "engine_rr: bad QD, BS or BATCH\n");
		return 2;
	}
	if ((rc = ioctx_init_opts(&io, e, qd, &o)) < 0) {
		const char *h = engine_hint(e, &o, rc);

		fprintf(stderr, "engine_rr: engine setup failed: %s%s%s\n", strerror(-rc),
			h ? ": " : "", h ? h : "");
		return 1;
	}
	x.fd = ioctx_open(&io, argv[1], O_RDONLY | O_DIRECT, 0);
	if (x.fd >= 0 && ioctx_fstat(&io, x.fd, &st) == 0)
		x.nblk = (uint64_t)st.st_size / x.bs;
	if (x.fd < 0 || x.nblk == 0) {
		fprintf(stderr, "engine_rr: cannot open '%s' O_DIRECT\n", argv[1]);
		return 1;
	}
	if (posix_memalign((void **)&x.bufs, 4096, qd * x.bs))
		return 1;
	memset(x.bufs, 0, qd * x.bs);
	iov.iov_base = x.bufs;
	iov.iov_len = qd * x.bs;
	if ((rc = ioctx_register_buffers(&io, &iov, 1)) < 0) {
		fprintf(stderr, "engine_rr: buffers: %s\n", strerror(-rc));
		return 1;
	}
	memset(&w, 0, sizeof(w));
	hist_init(&w.lat);
	ioctx_bind(&io, &w);
	io.user = &x;
	io.on_done = check;
	getrusage(RUSAGE_SELF, &ru0);
	t0 = clock_ns();
	w.t_last = t0;
	while (!x.stop && w.t_last - t0 < dur) {
		struct engine_req *r = ioctx_get(&io);

		if (!r)
			break;
		r->op = ENGINE_OP_PREAD;
		r->fd = x.fd;
		r->len = x.bs;
		r->buf = x.bufs + (size_t)r->slot * x.bs;
		r->off = next_off(&x);
		ioctx_queue(&io, r);
		if (io.nqueued >= batch && ioctx_submit(&io) < 0)
			break;
	}
	x.stop = 1;
	(void)ioctx_drain(&io);
	t1 = clock_ns();
	getrusage(RUSAGE_SELF, &ru1);
	secs = (double)(t1 - t0) / 1e9;
	if (w.err) {
		const char *h = engine_hint(e, &o, w.err);

		fprintf(stderr, "engine_rr: a read failed: %s%s%s\n", strerror(-w.err),
			h ? ": " : "", h ? h : "");
	}
	printf("engine=%s qd=%u batch=%u ios=%llu secs=%.3f iops=%.0f lat_us=%.2f usr_ns=%.0f "
	       "sys_ns=%.0f\n", argv[2], qd, batch, (unsigned long long)w.ops, secs,
	       (double)w.ops / secs, hist_mean(&w.lat) / 1e3,
	       (double)(tv_ns(ru1.ru_utime) - tv_ns(ru0.ru_utime)) / (double)w.ops,
	       (double)(tv_ns(ru1.ru_stime) - tv_ns(ru0.ru_stime)) / (double)w.ops);
	ioctx_close(&io, x.fd);
	ioctx_exit(&io);
	free(x.bufs);
	return w.err ? 1 : 0;
}
