/* job_io.c - one thread of a job: its engine and files, then fio's I/O loop through the
 * runner's request pool: the direction (rwmixread), the file (round robin), the offset
 * (sequential with fio's skip, or random: the random map, zipf, pareto, normal, zoned),
 * the block size, rate limits and think time, submit in batches of iodepth_batch_submit,
 * reap at least iodepth_batch_complete_min, fsync/fdatasync every N writes, ramp_time,
 * runtime, loops, number_ios; then the closing fsyncs.
 *
 * Inside the loop: no allocation, no lock, no floating point, except one log or pow per
 * zipf or pareto draw and one log per Poisson arrival (as fio). Per request the clock is
 * read when it is filled (asynchronous engines: slat starts there), after the submit
 * call (clat starts there) and at its completion; a synchronous engine's request is
 * filled before the clock starts, so its lat equals its clat. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "config.h"
#include "observe/cache.h"
#include "core/rng.h"
#include "fs/scratch.h"
#include "runner/runner.h"
#include "workload/job/job_cmdprio.h"
#include "workload/job/job_io_int.h"

#define WAIT_SLICE_NS	20000u	/* while waiting with requests in flight: reap this often */

/* fio's buckets: IO depths 1, 2-3, 4-7, ..., >= 64; submit/complete 0, 1-4, 5-8, 9-16,
 * 17-32, 33-64, > 64. */
static inline unsigned jw_depth_bkt(unsigned n)
{
	unsigned b = n ? 31u - (unsigned)__builtin_clz(n) : 0;

	return b > 6 ? 6 : b;
}

static inline unsigned jw_batch_bkt(unsigned n)
{
	if (!n)
		return 0;
	if (n <= 4)
		return 1;
	if (n > 64)
		return 6;
	return 32u - (unsigned)__builtin_clz(n - 1) - 1;	/* 5-8: 2, 9-16: 3 ... */
}

/* ---- completions ---- */

static void jw_sample(struct jw *j, uint64_t t1)
{
	struct job_stats *s = j->s;

	while (t1 >= j->next_samp) {
		struct job_sample *x;

		if (s->nsamp == JOB_SAMPLES_MAX) {
			unsigned i;

			/* full: every second end of interval stays, the interval doubles */
			for (i = 0; i < JOB_SAMPLES_MAX / 2; i++)
				s->samp[i] = s->samp[2 * i + 1];
			s->nsamp = JOB_SAMPLES_MAX / 2;
			s->samp_ns *= 2;
			j->next_samp = s->t_start + (uint64_t)(s->nsamp + 1) * s->samp_ns;
			continue;
		}
		x = &s->samp[s->nsamp++];
		x->bytes[JOB_READ] = s->bytes[JOB_READ];
		x->bytes[JOB_WRITE] = s->bytes[JOB_WRITE];
		x->bytes[JOB_TRIM] = s->bytes[JOB_TRIM];
		x->ios[JOB_READ] = s->ios[JOB_READ];
		x->ios[JOB_WRITE] = s->ios[JOB_WRITE];
		x->ios[JOB_TRIM] = s->ios[JOB_TRIM];
		j->next_samp += s->samp_ns;
	}
}

static void __attribute__((noinline)) jw_fail(struct jw *j, struct engine_req *r)
{
	unsigned d = (unsigned)r->user;

	/* continue_on_error: an error of a kind it names is counted, and the job goes on */
	if ((d == JOB_READ && (j->d->xo.continue_on_error & JOB_COE_READ)) ||
	    (d == JOB_WRITE && (j->d->xo.continue_on_error & JOB_COE_WRITE))) {
		j->s->errs[d]++;
		if (!j->s->first_err)
			j->s->first_err = (int)r->res;
		return;
	}
	if (!j->s->err) {
		j->s->err = (int)r->res;
		j->s->err_op = r->op;
		j->s->err_off = r->off;
		j->s->err_len = r->len;
	}
	j->stop = true;
}

/* A request completed at t1: its latencies and counts by direction. */
static inline void jw_account(struct jw *j, struct engine_req *r, uint64_t t1)
{
	struct job_stats *s = j->s;
	unsigned d = (unsigned)r->user;

	if (__builtin_expect(r->res < 0, 0)) {
		jw_fail(j, r);
		return;
	}
	hist_add(&s->clat[d], t1 - r->t_issue);
	if (d == JOB_SYNC) {
		s->ios[JOB_SYNC]++;
		return;
	}
	if (__builtin_expect(t1 >= j->next_samp, 0))
		jw_sample(j, t1);
	if (j->async) {
		uint64_t tf = j->t_fill[r->slot];

		job_lsum_add(&s->slat[d], r->t_issue - tf);
		job_lsum_add(&s->lat[d], t1 - tf);
	}
	s->ios[d]++;
	s->bytes[d] += (uint64_t)r->res;
	if (__builtin_expect((uint64_t)r->res != r->len, 0))
		s->short_ios[d]++;
	if (d == JOB_WRITE)
		s->t_last_write = t1;
	/* one predictable branch when none is asked for (ss_next is then UINT64_MAX) */
	if (__builtin_expect(j->extra || t1 >= j->ss_next, 0))
		jw_extra(j, r, d, t1);
}

int jw_done(struct ioctx *io, struct engine_req *r)
{
	struct jw *j = io->user;

	jw_account(j, r, io->w->t_last);
	return 0;
}

/* ---- waiting (rate, think time, startdelay) ---- */

void jw_sleep(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR && !sig_stop_requested())
		;
}

static int jw_reap(struct jw *j, unsigned min)
{
	int n = ioctx_reap(&j->io, min);

	if (n > 0)
		j->s->complete[jw_batch_bkt((unsigned)n)]++;
	return n;
}

/* Until clock_ns() >= t, reaping what completes meanwhile. Returns the time. */
static uint64_t __attribute__((noinline)) jw_wait_until(struct jw *j, uint64_t t)
{
	uint64_t now;

	for (;;) {
		now = clock_ns();
		if (now >= t || sig_stop_requested())
			return now;
		if (j->async && j->io.inflight) {
			/* all that is done, a batch of at most reap_max at a time */
			while (j->io.inflight && jw_reap(j, 0) > 0)
				;
			jw_sleep(t - now < WAIT_SLICE_NS ? t - now : WAIT_SLICE_NS);
		} else {
			jw_sleep(t - now);
		}
	}
}

/* ---- what comes next ---- */

static inline bool jw_used(const struct jw_file *f, uint64_t k)
{
	return (f->map[k >> 3] >> (k & 7)) & 1;
}

/* The first free block of f at or after k (wrapping to the start as fio's random map
 * does), or n when every block is used. Skips whole used bytes of the map. */
static uint64_t jw_next_free(const struct jw_file *f, uint64_t k, uint64_t n)
{
	uint64_t i, e;
	int wrap;

	for (wrap = 0; wrap < 2; wrap++) {
		e = wrap ? k : n;
		for (i = wrap ? 0 : k; i < e;) {
			if ((i & 7) == 0 && i + 8 <= e && f->map[i >> 3] == 0xff) {
				i += 8;
				continue;
			}
			if (!jw_used(f, i))
				return i;
			i++;
		}
	}
	return n;
}

/* The random block of direction dir in f, and how many blocks from it are free (the
 * map), or 1. 0 blocks: the pass over f is complete. With variable sizes (the map) fio's
 * rule: a uniform draw; on a used block the next free one after it; the request is then
 * cut to the free run (jw_next_in), so a pass moves the region's bytes in requests of
 * about the sizes asked for. */
static uint64_t jw_rand_block(struct jw *j, struct jw_file *f, unsigned dir, uint64_t *run)
{
	struct job_offgen *g = &f->gen[j->shared_map ? 0 : dir];
	uint64_t k, e, n = g->n;

	if (!f->map) {
		*run = 1;
		return job_offgen_next(g, &j->rng);
	}
	k = jw_next_free(f, rng_below(&j->rng, n), n);
	if (k == n) {
		*run = 0;
		return 0;
	}
	for (e = k + 1; e < n && !jw_used(f, e); e++)
		;
	*run = e - k;
	return k;
}

/* Mark [off, off+len) of f used in the map. */
static void jw_mark(struct jw_file *f, uint64_t ba, uint64_t off, uint64_t len)
{
	uint64_t k = (off - f->lo) / ba, e = (off - f->lo + len + ba - 1) / ba;

	for (; k < e && k < f->nblk[0]; k++)
		f->map[k >> 3] |= (unsigned char)(1u << (k & 7));
}

/* zonemode=strided (fio's): zonesize bytes of I/O inside a window of zonerange bytes,
 * then the next window zonerange + zoneskip further on, back to the start past the
 * region's end; sequential from the window's start, or uniform inside it. */
static bool __attribute__((noinline)) jw_next_zoned(struct jw *j, struct jw_file *f,
						   unsigned dir, struct jw_io *x)
{
	const struct job_xopts *z = &j->d->xo;
	const struct job_bs *b = &j->d->bs[dir];
	uint64_t zend, off, n;
	unsigned k;

	if (!f->zleft || !f->zstarted) {
		f->zlo = !f->zstarted ? f->lo : f->zlo + z->zonerange + z->zoneskip;
		if (f->zlo + b->min > f->hi)
			f->zlo = f->lo;
		f->zstarted = true;
		f->zleft = z->zonesize;
		for (k = 0; k < JOB_DDIRS; k++)
			f->pos[k] = f->zlo;
	}
	zend = f->zlo + z->zonerange < f->hi ? f->zlo + z->zonerange : f->hi;
	if (!j->random) {
		off = f->pos[dir];
		if (off + b->min > zend) {
			f->zleft = 0;	/* the window is read through: the next one */
			return jw_next_zoned(j, f, dir, x);
		}
	} else {
		n = (zend - f->zlo - b->min) / b->ba + 1;
		off = f->zlo + rng_below(&j->rng, n) * b->ba;
	}
	x->len = job_bs_next(b, &j->rng, zend - off);
	x->off = off;
	f->pos[dir] = off + x->len;
	f->zleft = x->len < f->zleft ? f->zleft - x->len : 0;
	return x->len != 0;
}

/* The next I/O of f in direction dir into x. false: f has no more in this pass. */
static bool jw_next_in(struct jw *j, struct jw_file *f, unsigned dir, struct jw_io *x)
{
	const struct job_def *d = j->d;
	const struct job_bs *b = &d->bs[dir];
	uint64_t off, room, run = 1;

	if (f->issued >= f->hi - f->lo)
		return false;
	if (__builtin_expect(d->xo.zonemode == JOB_ZONE_STRIDED, 0))
		return jw_next_zoned(j, f, dir, x);
	if (!j->random) {
		off = f->pos[dir];
		if (off < f->lo || off >= f->hi || (room = f->hi - off) < b->min)
			return false;
		x->len = job_bs_next(b, &j->rng, room);
		x->off = off;
		/* fio's rw=read:SIZE skips SIZE after each request; a negative one goes back
		 * and wraps to the region's end */
		if (d->rw_seq_add >= 0) {
			f->pos[dir] = off + x->len + (uint64_t)d->rw_seq_add;
		} else {
			uint64_t back = (uint64_t)-d->rw_seq_add, next = off + x->len;

			f->pos[dir] = next >= f->lo + back ? next - back
							   : f->hi - x->len - (f->lo + back - next);
		}
		return true;
	}
	if (f->seq_left && f->seq_next + b->min <= f->hi) {
		off = f->seq_next;	/* randread:N: a follow-up right after the last one */
		f->seq_left--;
	} else {
		uint64_t k = jw_rand_block(j, f, dir, &run);

		if (!run)
			return false;
		off = f->lo + k * b->ba;
		f->seq_left = d->rw_seq_nr - 1;
	}
	/* the size is drawn to fit the region (fio redraws at its end), then cut to the
	 * free run of the map (fio's mark_random_map shortens it so) */
	x->len = job_bs_next(b, &j->rng, f->hi - off);
	if (!x->len)
		return false;
	if (f->map && run * b->ba < x->len)
		x->len = run * b->ba;
	x->off = off;
	f->seq_next = off + x->len;
	if (f->map)
		jw_mark(f, b->ba, off, x->len);
	return true;
}

/* The next I/O: direction, file (round robin over those not done), offset and length.
 * trimwrite: after each trim, a write of the same block (fio's order). false when every
 * file is done for this pass. */
static bool jw_next(struct jw *j, struct jw_io *x)
{
	unsigned dir = j->mixed ? job_ddir_next(j->d, &j->rng) : j->dir0;

	if (__builtin_expect(j->trimwrite, 0)) {
		if (j->tw_pending) {
			j->tw_pending = false;
			*x = j->tw;	/* not counted in f->issued: the trim covered it */
			x->dir = JOB_WRITE;
			return true;
		}
		j->tw_pending = true;	/* undone below when no trim comes */
	}

	if (__builtin_expect(j->rated, 0) && j->mixed) {
		/* fio: a direction that must wait gives way to one that need not */
		unsigned o = !dir;

		if (j->rate_next[dir] > j->now && j->rate_next[o] < j->rate_next[dir] &&
		    (j->d->rate[o] || j->d->rate_iops[o]))
			dir = o;
	}
	while (j->ndone < j->nf) {
		struct jw_file *f = &j->f[j->cur];

		if (++j->cur == j->nf)
			j->cur = 0;
		if (f->done)
			continue;
		if (jw_next_in(j, f, dir, x)) {
			x->dir = dir;
			x->f = f;
			f->issued += x->len;
			if (j->trimwrite)
				j->tw = *x;
			return true;
		}
		if (j->mixed && jw_next_in(j, f, !dir, x)) {
			x->dir = !dir;	/* that direction reached the end: the other goes on */
			x->f = f;
			f->issued += x->len;
			return true;
		}
		f->done = true;
		j->ndone++;
	}
	j->tw_pending = false;
	return false;
}

/* A new pass over every file (loops, time_based). */
static void jw_new_pass(struct jw *j)
{
	unsigned i, dir;

	for (i = 0; i < j->nf; i++) {
		struct jw_file *f = &j->f[i];

		/* fio's invalidate=1 drops the cache again before every pass */
		if (j->d->invalidate && f->fd >= 0)
			(void)cache_forget(f->fd);
		f->issued = 0;
		f->done = false;
		f->seq_left = 0;
		for (dir = 0; dir < JOB_DDIRS; dir++)
			f->pos[dir] = f->lo;
		if (f->map) {
			memset(f->map, 0, (size_t)(f->nblk[0] / 8 + 1));
			f->gen[0].pos = f->gen[0].n;	/* a new permutation */
		}
	}
	j->ndone = 0;
	j->passes++;
}

/* ---- the rate ---- */

/* When this I/O of direction dir and length len may be issued; rate_next[dir] becomes
 * the time of the next one. Linear: the n-th comes at t0 + n x interval, so lateness is
 * caught up; Poisson: exponential gaps with the same mean (one log per I/O). */
static uint64_t jw_rate_at(struct jw *j, unsigned dir, uint64_t len)
{
	const struct job_def *d = j->d;
	uint64_t at;

	if (!d->rate[dir] && !d->rate_iops[dir])
		return 0;
	if (!j->rate_next[dir])
		j->rate_next[dir] = j->rate_t0;
	at = j->rate_next[dir];
	if (d->rate_process == JOB_RATE_POISSON) {
		double mean = d->rate_iops[dir] ? 1e9 / d->rate_iops[dir]
						: 1e9 * (double)len / (double)d->rate[dir];
		double u = ((double)(rng_next(&j->rng) >> 11) + 1.0) * 0x1.0p-53;

		j->rate_next[dir] += (uint64_t)(-log(u) * mean);
	} else if (d->rate_iops[dir]) {
		j->rate_n[dir]++;
		j->rate_next[dir] = j->rate_t0 + (uint64_t)((unsigned __int128)j->rate_n[dir] *
							    1000000000u / d->rate_iops[dir]);
	} else {
		j->rate_n[dir] += len;	/* bytes so far */
		j->rate_next[dir] = j->rate_t0 + (uint64_t)((unsigned __int128)j->rate_n[dir] *
							    1000000000u / d->rate[dir]);
	}
	return at;
}

/* ---- issuing ---- */

static int jw_submit(struct jw *j)
{
	unsigned k = j->io.nqueued;
	int rc;

	if (!k)
		return 0;
	rc = ioctx_submit(&j->io);
	j->s->submit[jw_batch_bkt(k)]++;
	if (j->async) {
		j->s->depth[jw_depth_bkt(j->io.inflight)] += k;
	} else {
		j->s->depth[0] += k;
		j->s->complete[jw_batch_bkt(k)]++;
	}
	return rc;
}

/* A free request: when every one is out, submit what is queued and reap at least
 * iodepth_batch_complete_min. NULL on failure. */
static inline struct engine_req *jw_get(struct jw *j)
{
	if (!j->io.nfree) {
		if (j->io.nqueued && jw_submit(j) < 0 && !j->io.nfree)
			return NULL;
		if (!j->io.nfree && j->io.inflight)
			jw_reap(j, j->io.reap_min);
	}
	return ioctx_get(&j->io);
}

/* Queue one request; submit when a batch is full. Sync engines complete it here. A trim
 * on an asynchronous engine runs inside the submit call (no engine has an asynchronous
 * one): it goes at once and is reaped at once, so that its time is its slat and lat,
 * not a clat of waiting to be reaped behind the requests in flight. */
static inline int jw_issue(struct jw *j, struct engine_req *r, unsigned dir)
{
	r->user = dir;
	if (j->async) {
		int rc;

		j->now = clock_ns();
		j->t_fill[r->slot] = j->now;
		ioctx_queue(&j->io, r);
		if (__builtin_expect(dir != JOB_TRIM, 1))
			return j->io.nqueued >= j->batch ? jw_submit(j) : 0;
		rc = jw_submit(j);
		jw_reap(j, 0);
		return rc;
	}
	ioctx_queue(&j->io, r);
	return jw_submit(j);
}

/* The fsync/fdatasync that fsync=N / fdatasync=N asks for after N writes: what is in
 * flight completes first, so the sync covers every write before it. */
static void __attribute__((noinline)) jw_sync(struct jw *j)
{
	struct engine_req *r;

	j->sync_pending = false;
	(void)ioctx_drain(&j->io);
	r = jw_get(j);
	if (!r) {
		j->stop = true;
		return;
	}
	r->op = j->sync_op;
	r->fd = j->sync_fd;
	if (jw_issue(j, r, JOB_SYNC) < 0 || ioctx_drain(&j->io) < 0)
		j->stop = true;
	if (!j->async)
		j->now = j->w->t_last;
}

/* ramp_time is over: what ran so far is not counted. */
static void __attribute__((noinline)) jw_ramp_over(struct jw *j)
{
	struct job_stats *s = j->s;
	struct job_sample *samp = s->samp;
	struct hist *lat_h = s->lat_h;
	bool sync_only = s->sync_only_engine;
	unsigned d;

	(void)ioctx_drain(&j->io);
	j->ramp_end = 0;
	job_stats_init(s);
	s->samp = samp;
	s->lat_h = lat_h;
	for (d = 0; lat_h && d < JOB_DDIRS; d++)
		hist_init(&lat_h[d]);
	s->sync_only_engine = sync_only;
	j->w->bytes = j->w->ops = 0;
	hist_init(&j->w->lat);
	j->now = clock_ns();
	s->t_start = j->w->t_first = j->w->t_last = j->now;
	j->log_t0 = s->t_start;		/* the request log's times from here too */
	j->next_samp = s->t_start + s->samp_ns;
	jw_rusage(&j->ru0);
}

/* fio's falloc and ftruncate engines: the request is a timed metadata call through the
 * engine (a trim of falloc stays the engine's discard, a hole punched): fallocate of its
 * range, or ftruncate of the file to its offset; counted as the request it stands for. */
static void __attribute__((noinline)) jw_meta_io(struct jw *j, const struct jw_io *x)
{
	struct engine_req r;
	uint64_t t1;
	int rc;

	memset(&r, 0, sizeof(r));
	r.user = x->dir;
	r.off = x->off;
	r.len = (size_t)x->len;
	r.t_issue = clock_ns();
	if (j->d->xo.iometa == JOB_IOM_FALLOC)
		rc = ioctx_fallocate(&j->io, x->f->fd, x->off, x->len);
	else
		rc = ioctx_ftruncate(&j->io, x->f->fd, x->off);
	t1 = clock_ns();
	r.res = rc < 0 ? rc : (int64_t)x->len;
	worker_record(j->w, t1 - r.t_issue, r.res, t1);
	jw_account(j, &r, t1);
	j->now = t1;
}

/* Whether the loop goes on after an I/O was picked or a pass ended. */
static inline bool jw_more(struct jw *j)
{
	if (__builtin_expect(j->stop || sig_stop_requested(), 0))
		return false;
	if (j->deadline && j->now >= j->deadline)
		return false;
	if (worker_stonewalled(j->w))	/* --stonewall: every rank's phase at once */
		return false;
	if (j->d->number_ios && j->ios_total >= j->d->number_ios)
		return false;
	if (__builtin_expect(j->budget != 0, 0) && j->issued >= j->budget)
		return false;	/* --wearout: as much as the busiest rank did */
	if (__builtin_expect(j->io_limit != 0, 0) && j->issued >= j->io_limit)
		return false;	/* io_size */
	if (__builtin_expect(j->t->exit_all != NULL, 0) &&
	    atomic_load_explicit(j->t->exit_all, memory_order_relaxed))
		return false;	/* exitall: a job of the step with it has finished */
	return true;
}

/* The step's first thread finished: the bytes done until then (elbencho's and IOR's
 * stonewall figure). */
void jw_snap(struct jw *j)
{
	j->s->first_done_bytes = j->s->bytes[JOB_READ] + j->s->bytes[JOB_WRITE] +
				 j->s->bytes[JOB_TRIM];
	j->snapped = true;
}

/* Picks, waits, fills and issues until the job is done; then what is in flight. */
void jw_loop(struct jw *j)
{
	const struct job_def *d = j->d;
	static const int ops[JOB_DDIRS] = { ENGINE_OP_PREAD, ENGINE_OP_PWRITE, ENGINE_OP_DISCARD };
	_Atomic uint64_t *first = j->t->first_done;
	struct engine_req *r;
	struct jw_io x;
	uint64_t wear_mark = 0;

	for (;;) {
		if (__builtin_expect(j->ramp_end && j->now >= j->ramp_end, 0))
			jw_ramp_over(j);
		if (!jw_more(j))
			break;
		if (__builtin_expect(!j->snapped, 1) &&
		    __builtin_expect(atomic_load_explicit(first, memory_order_relaxed) != 0, 0))
			jw_snap(j);
		if (!jw_next(j, &x)) {
			/* a pass over the files is complete */
			if (!(d->time_based && j->deadline) && !j->budget && !j->io_limit &&
			    j->passes + 1 >= d->loops)
				break;
			if (j->io_limit && j->issued == wear_mark)
				break;	/* io_size: a pass with nothing to issue */
			if (j->budget && j->issued == wear_mark)
				break;	/* a pass with nothing to issue: no more to wear out */
			wear_mark = j->issued;
			jw_new_pass(j);
			continue;
		}
		/* io_size: fio issues no request that would go past it */
		if (__builtin_expect(j->io_limit != 0, 0) && j->issued + x.len > j->io_limit)
			break;
		/* fio syncs after every N writes, but not after the job's last one */
		if (__builtin_expect(j->sync_pending, 0))
			jw_sync(j);
		if (__builtin_expect(j->rated, 0)) {
			uint64_t at = jw_rate_at(j, x.dir, x.len);

			if (at > j->now)
				j->now = jw_wait_until(j, at);
		}
		if (__builtin_expect(d->xo.iometa != 0, 0) && x.dir != JOB_TRIM) {
			jw_meta_io(j, &x);
			goto issued;
		}
		r = jw_get(j);
		if (!r) {
			j->stop = true;
			break;
		}
		r->op = ops[x.dir];
		r->fd = x.f->fd;
		r->buf = j->buf + (size_t)r->slot * j->slot_len;
		r->len = (size_t)x.len;
		r->off = x.off;
		r->ioprio = __builtin_expect(j->cmdprio, 0) ?
			(uint16_t)job_cmdprio_pick(&d->xo.cmdprio, x.dir, x.len, &j->rng) : 0;
		if (x.dir == JOB_WRITE && j->data.fill)
			j->data.fill(&j->data, r->buf, r->len, r->off);
		if (jw_issue(j, r, x.dir) < 0)
			j->stop = true;
		if (!j->async)
			j->now = j->w->t_last;
issued:
		if (__builtin_expect(j->log != NULL, 0))
			job_iolog_io(j->log, (j->now - j->log_t0) / 1000000u, x.f->name, x.dir,
				     x.off, x.len);
		j->ios_total++;
		j->issued += x.len;
		if (x.dir == JOB_WRITE) {
			x.f->wrote = true;
			if (j->sync_every && ++j->since_sync >= j->sync_every) {
				j->since_sync = 0;
				j->sync_pending = true;
				j->sync_fd = x.f->fd;
			}
		}
		if (__builtin_expect(d->thinktime != 0, 0) &&
		    ++j->think_n >= d->xo.thinktime_blocks) {
			j->think_n = 0;
			if (jw_submit(j) < 0)
				j->stop = true;
			j->now = jw_wait_until(j, j->now + d->thinktime * 1000u);
		}
	}
	(void)ioctx_drain(&j->io);
}
