/* job_rows.c - a report unit's merged figures as rows of the results model: one per
 * direction (and "sync"), with fio's figures as metrics and iobattery's verdicts as
 * flags and notes; the step's aggregate row; the disk rows. The formatters (text_job.c,
 * fio_json.c) read nothing else. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comm/comm.h"
#include "observe/cache.h"
#include "fs/scratch.h"
#include "observe/sysinfo.h"
#include "core/units.h"
#include "runner/runner.h"
#include "stats/result.h"
#include "stats/result_keys.h"
#include "workload/job/job_run.h"

static const char *const jr_phase[JOB_NDIR] = { "read", "write", "trim", "sync" };
static const char *const jr_dist[] = { "random", "zipf", "pareto", "normal", "zoned" };
static const unsigned jr_bkt[JOB_DEPTH_BKT] = { 1, 2, 4, 8, 16, 32, 64 };

/* fio's sample standard deviation from n, sum and sum of squares. */
static double jr_sd(uint64_t n, double sum, double sumsq)
{
	double var;

	if (n < 2)
		return 0;
	var = (sumsq - sum * sum / (double)n) / (double)(n - 1);
	return var > 0 ? sqrt(var) : 0;
}

static int jr_metric(struct row *w, const char *name, double v, const char *unit)
{
	return row_add_metric(w, name, v, unit);
}

/* min, max, mean, sd and count of a summary as five metrics. */
static int jr_lsum(struct row *w, const struct job_lsum *s, const char *const names[5])
{
	double mean = s->n ? (double)s->sum / (double)s->n : 0;

	return jr_metric(w, names[0], (double)s->n, "ios") ||
	       jr_metric(w, names[1], s->n ? (double)s->min : 0, "ns") ||
	       jr_metric(w, names[2], (double)s->max, "ns") ||
	       jr_metric(w, names[3], mean, "ns") ||
	       jr_metric(w, names[4], jr_sd(s->n, (double)s->sum, (double)s->sumsq), "ns");
}

/* lat_percentiles=1 on an asynchronous engine: the total latency at each percentile of
 * the list, as lat_pctl_N_ns (N from 1; a synchronous engine's lat is its clat, whose
 * histogram the row holds). */
static int jr_lat_pctl(struct row *w, const struct job_def *d, const struct job_stats *s,
		       unsigned dir)
{
	char name[32];
	unsigned i;

	for (i = 0; s->lat_h && d->xo.lat_percentiles && !comm_multi() && i < d->npctl; i++) {
		snprintf(name, sizeof(name), "%s%u_ns", RK_JOB_LAT_PCTL_PFX, i + 1);
		if (jr_metric(w, name, (double)hist_percentile(&s->lat_h[dir], d->pctl[i]),
			      "ns"))
			return -ENOMEM;
	}
	return 0;
}

/* "4096" or "4096-65536" for one direction. */
static void jr_bs1(char *buf, size_t len, const struct job_bs *b)
{
	if (b->min == b->max)
		snprintf(buf, len, "%" PRIu64, b->min);
	else
		snprintf(buf, len, "%" PRIu64 "-%" PRIu64, b->min, b->max);
}

static void jr_bs(char *buf, size_t len, const struct job_def *d)
{
	char r[48], w[48];

	if (job_rw_trims(d->rw)) {	/* a trimwrite's writes are its trims' blocks */
		jr_bs1(buf, len, &d->bs[JOB_TRIM]);
		return;
	}
	jr_bs1(r, sizeof(r), &d->bs[JOB_READ]);
	jr_bs1(w, sizeof(w), &d->bs[JOB_WRITE]);
	if (!job_rw_writes(d->rw) || !strcmp(r, w))
		snprintf(buf, len, "%s", r);
	else if (!job_rw_reads(d->rw))
		snprintf(buf, len, "%s", w);
	else
		snprintf(buf, len, "%s,%s", r, w);
}

/* The section's options, NAME=VALUE (or NAME) per line: fio's "job options". */
static char *jr_options(const struct job_list *l, unsigned job, bool global)
{
	const struct job_sect *s = NULL;
	size_t i, n = 1;
	char *out, *p;

	for (i = 0; i < l->nsects; i++) {
		if (global ? l->sects[i].global : l->sects[i].job == (long)job)
			s = &l->sects[i];
		if (!global && s)
			break;
	}
	if (!s || (global && !s->nopts))
		return NULL;
	for (i = 0; i < s->nopts; i++)
		n += strlen(s->opts[i].name) + 2 +
		     (s->opts[i].value ? strlen(s->opts[i].value) : 0);
	out = p = malloc(n);
	if (!out)
		return NULL;
	*p = '\0';
	for (i = 0; i < s->nopts; i++)
		p += sprintf(p, "%s%s%s%s", i ? "\n" : "", s->opts[i].name,
			     s->opts[i].value ? "=" : "", s->opts[i].value ? s->opts[i].value : "");
	return out;
}

char *job_rows_global_options(const struct job_list *l)
{
	return jr_options(l, 0, true);
}

static int jr_params(struct row *w, const struct job_plan *p, const struct job_unit *u)
{
	const struct job_thread *t = &p->threads[u->first_thread];
	const struct job_def *d = t->d;
	struct kvlist *k = &w->params;
	char bs[128], pl[JOB_PCTL_MAX * 12] = "", *opts;
	size_t i, n = 0;
	int rc = 0;

	jr_bs(bs, sizeof(bs), d);
	for (i = 0; i < d->npctl; i++)
		n += (size_t)snprintf(pl + n, sizeof(pl) - n, "%s%g", i ? ":" : "", d->pctl[i]);
	rc |= kv_set(k, RK_JOB_JOB, "%s", d->name);
	rc |= kv_set(k, RK_JOB_GROUPID, "%u", u->group);
	rc |= kv_set(k, RK_JOB_JOBS, "%u", u->nthreads);
	if (d->rw_seq_nr > 1)
		rc |= kv_set(k, RK_JOB_RW, "%s:%u", job_rw_name(d->rw), d->rw_seq_nr);
	else if (d->rw_seq_add)
		rc |= kv_set(k, RK_JOB_RW, "%s:%" PRId64, job_rw_name(d->rw), d->rw_seq_add);
	else
		rc |= kv_set(k, RK_JOB_RW, "%s", job_rw_name(d->rw));
	rc |= kv_set(k, RK_JOB_BS, "%s", bs);
	rc |= kv_set(k, RK_JOB_IODEPTH, "%u", d->iodepth);
	rc |= kv_set(k, RK_JOB_NUMJOBS, "%u", d->numjobs);
	rc |= kv_set(k, RK_JOB_IOENGINE, "%s", t->e->name);
	rc |= kv_set(k, RK_JOB_DIRECT, "%d", d->direct);
	rc |= kv_set(k, RK_JOB_SYNC, "%s", d->sync == JOB_SYNC_SYNC ? "sync" :
		     d->sync == JOB_SYNC_DSYNC ? "dsync" : "none");
	rc |= kv_set(k, RK_JOB_FSYNC, "%u", d->fsync);
	rc |= kv_set(k, RK_JOB_FDATASYNC, "%u", d->fdatasync);
	rc |= kv_set(k, RK_JOB_SIZE, "%" PRIu64, t->size);
	if (d->rw == JOB_RW_RW || d->rw == JOB_RW_RANDRW)
		rc |= kv_set(k, RK_JOB_RWMIXREAD, "%u", d->rwmix[JOB_READ]);
	if (job_rw_random(d->rw))
		rc |= kv_set(k, RK_JOB_DISTRIBUTION, "%s", jr_dist[d->dist.kind]);
	if (d->rate[0] || d->rate[1])
		rc |= kv_set(k, RK_JOB_RATE, "%" PRIu64 ",%" PRIu64, d->rate[0], d->rate[1]);
	if (d->rate_iops[0] || d->rate_iops[1])
		rc |= kv_set(k, RK_JOB_RATE_IOPS, "%u,%u", d->rate_iops[0], d->rate_iops[1]);
	if (d->runtime)
		rc |= kv_set(k, RK_JOB_RUNTIME, "%g", (double)d->runtime / 1e6);
	rc |= kv_set(k, RK_JOB_TIME_BASED, "%d", d->time_based);
	if (d->description)
		rc |= kv_set(k, RK_JOB_DESCRIPTION, "%s", d->description);
	rc |= kv_set(k, RK_JOB_PERCENTILE_LIST, "%s", pl);
	{
		/* what fio leaves out of its outputs (disable_*, gtod_reduce,
		 * clat_percentiles=0) and adds (lat_percentiles=1); the figures
		 * themselves stay in the model */
		const struct job_xopts *x = &d->xo;
		bool clat = !x->disable_clat, latp = x->lat_percentiles && !x->disable_lat;

		/* under mpirun an asynchronous engine's lat percentiles are the ranks' own,
		 * which do not merge: none shown rather than a wrong one */
		if (comm_multi() && (t->e->flags & ENGINE_F_ASYNC))
			latp = false;

		if (x->disable_slat || x->disable_clat || x->disable_lat ||
		    !x->clat_percentiles || latp)
			rc |= kv_set(k, RK_JOB_LAT_SHOWN, "%s%s%s%s%s",
				     x->disable_slat ? "" : "slat,",
				     clat ? "clat," : "", x->disable_lat ? "" : "lat,",
				     clat && x->clat_percentiles ? "clat_percentiles," : "",
				     latp ? "lat_percentiles" : "");
	}
	opts = jr_options(p->jobs, t->job, false);
	if (opts) {
		rc |= kv_set(k, RK_JOB_FIO_OPTIONS, "%s", opts);
		free(opts);
	}
	return rc ? -ENOMEM : 0;
}

/* bw (KiB/s) and iops of each sample interval of direction dir: fio's bw and iops lines. */
static int jr_samples(struct row *w, const struct job_stats *s, unsigned dir, double group_bw)
{
	double secs = (double)s->samp_ns / 1e9, bmin = 0, bmax = 0, bs = 0, bq = 0;
	double imin = 0, imax = 0, is = 0, iq = 0;
	unsigned i;

	for (i = 0; i < s->nsamp; i++) {
		uint64_t pb = i ? s->samp[i - 1].bytes[dir] : 0;
		uint64_t pi = i ? s->samp[i - 1].ios[dir] : 0;
		double b = (double)(s->samp[i].bytes[dir] - pb) / secs / 1024.0;
		double o = (double)(s->samp[i].ios[dir] - pi) / secs;

		if (!i || b < bmin)
			bmin = b;
		if (!i || b > bmax)
			bmax = b;
		if (!i || o < imin)
			imin = o;
		if (!i || o > imax)
			imax = o;
		bs += b;
		bq += b * b;
		is += o;
		iq += o * o;
	}
	return jr_metric(w, RK_JOB_BW_MIN, floor(bmin), "KiB/s") ||
	       jr_metric(w, RK_JOB_BW_MAX, floor(bmax), "KiB/s") ||
	       jr_metric(w, RK_JOB_BW_MEAN, s->nsamp ? bs / s->nsamp : 0, "KiB/s") ||
	       jr_metric(w, RK_JOB_BW_DEV, jr_sd(s->nsamp, bs, bq), "KiB/s") ||
	       jr_metric(w, RK_JOB_BW_AGG, s->nsamp && group_bw > 0 ?
			 bs / s->nsamp / group_bw * 100.0 : 0, "%") ||
	       jr_metric(w, RK_JOB_BW_SAMPLES, s->nsamp, "") ||
	       jr_metric(w, RK_JOB_IOPS_MIN, floor(imin), "IO/s") ||
	       jr_metric(w, RK_JOB_IOPS_MAX, floor(imax), "IO/s") ||
	       jr_metric(w, RK_JOB_IOPS_MEAN, s->nsamp ? is / s->nsamp : 0, "IO/s") ||
	       jr_metric(w, RK_JOB_IOPS_DEV, jr_sd(s->nsamp, is, iq), "IO/s") ||
	       jr_metric(w, RK_JOB_IOPS_SAMPLES, s->nsamp, "");
}

/* CPU, faults, context switches and fio's IO depths distributions: the unit's. */
static int jr_unit_figures(struct row *w, const struct job_stats *s)
{
	static const char *const fam[3] = { RK_JOB_DEPTH_PFX, RK_JOB_SUBMIT_PFX,
					    RK_JOB_COMPLETE_PFX };
	static const char *const ge[3] = { RK_JOB_DEPTH_GE64, RK_JOB_SUBMIT_GE64,
					   RK_JOB_COMPLETE_GE64 };
	const uint64_t *v[3] = { s->depth, s->submit, s->complete };
	double rt = (double)s->rt_sum_ns;
	unsigned k, i;
	char name[32];

	if (jr_metric(w, RK_JOB_USR_CPU, rt > 0 ? (double)s->usr_ns / rt * 100 : 0, "%") ||
	    jr_metric(w, RK_JOB_SYS_CPU, rt > 0 ? (double)s->sys_ns / rt * 100 : 0, "%") ||
	    jr_metric(w, RK_JOB_CTX, (double)s->ctx, "") ||
	    jr_metric(w, RK_JOB_MAJF, (double)s->majf, "") ||
	    jr_metric(w, RK_JOB_MINF, (double)s->minf, "") ||
	    jr_metric(w, RK_JOB_JOB_RUNTIME, floor(rt / 1e6), "ms") ||
	    jr_metric(w, RK_JOB_ERRNO, s->err < 0 ? -s->err : 0, ""))
		return -ENOMEM;
	for (k = 0; k < 3; k++) {
		uint64_t tot = 0;

		for (i = 0; i < JOB_DEPTH_BKT; i++)
			tot += v[k][i];
		/* depth buckets 1 2 4 ... 32; submit/complete buckets 4 8 ... 64 (0 is never
		 * counted: a call that submits nothing is not made) */
		for (i = k ? 1 : 0; i < JOB_DEPTH_BKT; i++) {
			double pct = tot ? (double)v[k][i] / (double)tot * 100 : 0;

			if (i == JOB_DEPTH_BKT - 1) {
				if (jr_metric(w, ge[k], pct, "%"))
					return -ENOMEM;
				continue;
			}
			snprintf(name, sizeof(name), "%s%u", fam[k], k ? jr_bkt[i + 1] : jr_bkt[i]);
			if (jr_metric(w, name, pct, "%"))
				return -ENOMEM;
		}
	}
	return 0;
}

static const char *jr_opname(int op)
{
	switch (op) {
	case ENGINE_OP_PREAD:
		return "read";
	case ENGINE_OP_PWRITE:
		return "write";
	case ENGINE_OP_FSYNC:
		return "fsync";
	case ENGINE_OP_FDATASYNC:
		return "fdatasync";
	case ENGINE_OP_DISCARD:
		return "trim";
	default:
		return "request";
	}
}

/* The row's error: what failed in setup, or the first failed request with the
 * alignment rule O_DIRECT broke, or the engine's explanation (hipri without poll
 * queues ...). */
static int jr_error(struct row *w, const struct job_thread *t, const struct job_stats *s)
{
	const char *h = engine_hint(t->e, &t->eo, s->err);

	if (s->err_op < 0 && s->errtxt[0])
		w->error = str_printf("%s", s->errtxt);
	else if (s->err == -EINVAL && t->d->direct)
		w->error = str_printf("%s of %" PRIu64 " bytes at offset %" PRIu64 " failed: %s: "
				      "O_DIRECT needs offsets, sizes and buffers aligned to the "
				      "device's logical block size (bs and ba multiples of 512 or "
				      "4096)", jr_opname(s->err_op), s->err_len, s->err_off,
				      strerror(-s->err));
	else
		w->error = str_printf("%s of %" PRIu64 " bytes at offset %" PRIu64
				      " failed: %s%s%s", jr_opname(s->err_op), s->err_len,
				      s->err_off, strerror(-s->err), h ? ": " : "", h ? h : "");
	w->flags |= ROW_FAILED;
	return w->error ? 0 : -ENOMEM;
}

/* Append "; " + text to the row's note. */
static void jr_note(struct row *w, const char *text)
{
	char *n = w->note ? str_printf("%s; %s", w->note, text) : str_printf("%s", text);

	if (n) {
		free(w->note);
		w->note = n;
	}
}

/* continue_on_error: the requests of the direction it passed over and the first error
 * (fio's total_err and first_error, 0 when nothing failed), and a note when some did. */
static int jr_errors(struct row *w, const struct job_def *d, const struct job_stats *s,
		     unsigned dir)
{
	char v[160];

	if (!d->xo.continue_on_error)
		return 0;
	if (!s->errs[dir])
		return jr_metric(w, RK_JOB_ERRORS, 0, "ios") ||
		       jr_metric(w, RK_JOB_FIRST_ERROR, -s->first_err, "");
	snprintf(v, sizeof(v), "continue_on_error: %" PRIu64 " %s failed and were passed over "
		 "(not in the figures); the job's first: %s", s->errs[dir],
		 dir == JOB_READ ? "reads" : dir == JOB_WRITE ? "writes" : "trims",
		 strerror(-s->first_err));
	jr_note(w, v);
	return jr_metric(w, RK_JOB_ERRORS, (double)s->errs[dir], "ios") ||
	       jr_metric(w, RK_JOB_FIRST_ERROR, -s->first_err, "");
}

/* How the unit's trims were made: BLKDISCARD or punched holes, and on what. */
static void jr_trim_note(struct row *w, const struct job_plan *p, const struct job_unit *u)
{
	const struct job_thread *t = &p->threads[u->first_thread];
	const struct job_file *f;
	char v[256];

	if ((t->e->flags & ENGINE_F_NOIO) || !t->nfiles)
		return;
	f = &p->files[t->files[0].file];
	if (f->trim_kind == ENGINE_DISCARD_BLKDEV)
		snprintf(v, sizeof(v), "trim: %s on the device (fio's trim too)",
			 engine_discard_method(f->trim_kind));
	else
		snprintf(v, sizeof(v), "trim: holes punched with %s%s%s (fio sends BLKDISCARD, "
			 "which a regular file refuses)",
			 engine_discard_method(ENGINE_DISCARD_PUNCH), f->trim_fs[0] ? " on " : "",
			 f->trim_fs);
	jr_note(w, v);
	if (t->e->flags & ENGINE_F_ASYNC)
		jr_note(w, "trims run synchronously inside submit with this engine (as fio's)");
}

/* Bytes of the distinct files a unit's threads use (its working set). */
static uint64_t jr_working_set(const struct job_plan *p, const struct job_unit *u)
{
	uint64_t n = 0;
	unsigned t, k;

	for (t = u->first_thread; t < u->first_thread + u->nthreads; t++)
		for (k = 0; k < p->threads[t].nfiles; k++)
			n += p->threads[t].files[k].len;
	return n;
}

/* iobattery's verdicts on a unit's row: cache, O_DIRECT, engines that ran synchronously,
 * durability of writes. */
static void jr_verdicts(struct row *w, const struct job_plan *p, const struct job_unit *u,
			unsigned dir, const struct diskstats_figures *dev)
{
	const struct job_thread *t = &p->threads[u->first_thread];
	const struct job_def *d = t->d;
	const struct job_stats *s = &u->st;
	char v[160], a[32], b[32];
	uint64_t ws, ram;

	if (t->e->flags & ENGINE_F_NOIO) {
		jr_note(w, "ioengine=null: no I/O was done; the figures are iobattery's own cost "
			   "per request");
		return;
	}
	if (dir == JOB_READ && !d->direct && u->cache_pct >= 0) {
		w->cache_pct = u->cache_pct;
		w->cache_dropped = d->invalidate;
		jr_note(w, cache_verdict(v, sizeof(v), u->cache_pct, d->invalidate));
		if (u->cache_pct >= CACHE_INFLATED_PCT)
			w->flags |= ROW_CACHE_INFLATED;
	}
	if (t->e->flags & ENGINE_F_MAPPED) {
		if (d->direct)
			jr_note(w, "direct=1 has no effect with ioengine=mmap: the data moves "
				   "through the page cache");
		if (dir == JOB_READ)
			w->flags |= ROW_CACHE_INFLATED;
	} else if (dir == JOB_READ && d->direct && dev && s->bytes[JOB_READ] >= (1u << 20) &&
		   (double)dev->rd_bytes < 0.5 * (double)s->bytes[JOB_READ]) {
		snprintf(v, sizeof(v), "direct=1, but the device read only %.0f%% of the bytes: "
			 "the file system does not honour O_DIRECT (or caches)",
			 100.0 * (double)dev->rd_bytes / (double)s->bytes[JOB_READ]);
		jr_note(w, v);
		w->flags |= ROW_CACHE_INFLATED;
	}
	ws = jr_working_set(p, u);
	ram = sysinfo_ram();
	if (dir == JOB_TRIM)
		jr_trim_note(w, p, u);
	if (!d->direct && dir != JOB_SYNC && dir != JOB_TRIM && ram && ws <= ram) {
		snprintf(v, sizeof(v), "the working set (%s) fits in RAM (%s) and is not direct: "
			 "the page cache can serve it", units_fmt_bytes(a, sizeof(a), (double)ws),
			 units_fmt_bytes(b, sizeof(b), (double)ram));
		jr_note(w, v);
	}
	if (d->iodepth > 1 && !(t->e->flags & ENGINE_F_ASYNC)) {
		snprintf(v, sizeof(v), "iodepth=%u has no effect with the synchronous engine %s: "
			 "one request at a time (fio warns the same)", d->iodepth, d->engine_name);
		jr_note(w, v);
	}
	if ((t->e->flags & ENGINE_F_DIRECT_ASYNC) && s->sync_only_engine)
		jr_note(w, "libaio on a file without O_DIRECT ran synchronously: the kernel did "
			   "each request inside io_submit, one in flight at a time");
	if (dir == JOB_WRITE) {
		if (s->t_last_write > s->t_start)
			w->buffered_ns = s->t_last_write - s->t_start;
		if (s->t_durable > s->t_start)
			w->durable_ns = s->t_durable - s->t_start;
		if (!s->t_durable && d->sync == JOB_SYNC_NONE && !d->fsync && !d->fdatasync)
			jr_note(w, d->direct ?
				"durable: not flushed (O_DIRECT writes may sit in the device's "
				"volatile cache; use end_fsync=1)" :
				"buffered: no fsync, the data may still be in the page cache (use "
				"end_fsync=1 for a durable figure)");
		else if (d->fsync || d->fdatasync)
			jr_note(w, "durable: a sync after every N writes, but (as fio) none after "
				   "the last write");
	}
}

/* Bytes per second of the units of group g (fio's group bandwidth). */
static double jr_group_bw(const struct job_plan *p, unsigned g, unsigned dir)
{
	uint64_t bytes = 0, rt = 0;
	unsigned i;

	for (i = 0; i < p->nunits; i++)
		if (p->units[i].group == g && p->units[i].merged) {
			bytes += p->units[i].st.bytes[dir];
			if (p->units[i].st.rt_max_ns > rt)
				rt = p->units[i].st.rt_max_ns;
		}
	return rt ? (double)bytes / ((double)rt / 1e9) / 1024.0 : 0;
}

static int jr_unit_row(struct runner *rc, const struct job_plan *p, const struct job_unit *u,
		       unsigned dir, const struct diskstats_figures *dev, const struct row *agg)
{
	static const char *const sl[5] = { RK_JOB_SLAT_N, RK_JOB_SLAT_MIN_NS, RK_JOB_SLAT_MAX_NS,
					   RK_JOB_SLAT_MEAN_NS, RK_JOB_SLAT_SD_NS };
	static const char *const ll[5] = { RK_JOB_LAT_N, RK_JOB_LAT_MIN_NS, RK_JOB_LAT_MAX_NS,
					   RK_JOB_LAT_MEAN_NS, RK_JOB_LAT_SD_NS };
	const struct job_def *d = p->threads[u->first_thread].d;
	const struct job_stats *s = &u->st;
	struct row *w = run_add_row(rc->run, "job", jr_phase[dir]);
	double secs = (double)s->rt_max_ns / 1e9, cpu;
	uint64_t all = s->ios[0] + s->ios[1] + s->ios[2] + s->ios[3];
	struct job_lsum lat;
	struct hist *h;

	if (!w || jr_params(w, p, u) < 0 || kv_set(&w->params, RK_ROW_DETAIL, "%s %s", d->name,
						    jr_phase[dir]))
		return -ENOMEM;
	w->repeat = rc->repeat;
	w->bytes = s->bytes[dir];
	w->ops = s->ios[dir];
	w->elapsed_ns = s->rt_max_ns;
	w->rate = secs > 0 ? (double)w->ops / secs : 0;
	if (str_set(&w->rate_unit, "IOPS"))
		return -ENOMEM;
	cpu = (double)(s->usr_ns + s->sys_ns);
	w->cpu.valid = 1;
	w->cpu.user_s = (double)s->usr_ns / 1e9;
	w->cpu.sys_s = (double)s->sys_ns / 1e9;
	w->cpu.proc_pct = s->rt_max_ns ? cpu / (double)s->rt_max_ns * 100 : 0;
	w->cpu.wall_s = (double)s->rt_max_ns / 1e9;
	w->cpu.ops = all;
	w->cpu.cpu_ns_per_op = all ? cpu / (double)all : 0;
	if (agg && agg->cpu.valid) {
		w->cpu.sys_busy_pct = agg->cpu.sys_busy_pct;
		w->cpu.sys_busy_s = agg->cpu.sys_busy_s;
	}
	h = malloc(sizeof(*h));
	if (!h)
		return -ENOMEM;
	*h = s->clat[dir];
	row_set_lat(w, h);
	if (jr_metric(w, RK_JOB_BW_BYTES, secs > 0 ? (double)w->bytes / secs : 0, "B/s"))
		return -ENOMEM;
	if (dir != JOB_SYNC) {
		/* synchronous engines fill a request before the clock starts: lat is clat */
		lat = s->lat[dir];
		if (!lat.n && s->clat[dir].n) {
			lat.n = s->clat[dir].n;
			lat.sum = s->clat[dir].sum;
			lat.sumsq = s->clat[dir].sumsq;
			lat.min = s->clat[dir].min;
			lat.max = s->clat[dir].max;
		}
		if (jr_metric(w, RK_JOB_SHORT_IOS, (double)s->short_ios[dir], "ios") ||
		    jr_lsum(w, &s->slat[dir], sl) || jr_lsum(w, &lat, ll) ||
		    jr_lat_pctl(w, d, s, dir) || jr_errors(w, d, s, dir) ||
		    jr_samples(w, s, dir, jr_group_bw(p, u->group, dir)))
			return -ENOMEM;
	}
	if (jr_unit_figures(w, s) < 0)
		return -ENOMEM;
	if (w->elapsed_ns < ROW_SHORT_NS)
		w->flags |= ROW_SHORT;
	if (sig_stop_requested())
		w->flags |= ROW_INCOMPLETE;
	if (s->err && jr_error(w, &p->threads[u->first_thread], s) < 0)
		return -ENOMEM;
	jr_verdicts(w, p, u, dir, dev);
	return 1;
}

int job_rows_unit(struct runner *rc, const struct job_plan *p, const struct job_unit *u,
		  const struct diskstats_figures *dev, const struct row *agg)
{
	const struct job_def *d = p->threads[u->first_thread].d;
	unsigned dir;
	int n = 0, rc1;

	for (dir = 0; dir < JOB_NDIR; dir++) {
		bool want = dir == JOB_READ ? job_rw_reads(d->rw) :
			    dir == JOB_WRITE ? job_rw_writes(d->rw) :
			    dir == JOB_TRIM ? job_rw_trims(d->rw) : u->st.ios[JOB_SYNC] > 0;

		/* a failed unit still says so in a row */
		if (!want && !(dir == JOB_READ && u->st.err && !job_rw_reads(d->rw) &&
			       !job_rw_modifies(d->rw)))
			continue;
		rc1 = jr_unit_row(rc, p, u, dir, dev, agg);
		if (rc1 < 0)
			return rc1;
		n += rc1;
	}
	return n;
}

int job_rows_aggregate(struct row *row, const struct job_plan *p, unsigned step,
		       const struct job_stats *all, uint64_t first_done)
{
	const struct job_step *st = &p->steps[step];
	double el, fd;
	unsigned i;
	char names[512] = "";
	size_t n = 0;
	int rc = 0;

	for (i = st->first; i < st->first + st->n; i++) {
		const struct job_def *d = p->threads[i].d;

		if (i > st->first && p->threads[i - 1].d == d)
			continue;
		n += (size_t)snprintf(names + n, n < sizeof(names) ? sizeof(names) - n : 0, "%s%s",
				      n ? "," : "", d->name);
		if (n >= sizeof(names))
			n = sizeof(names) - 1;
	}
	row->bytes = all->bytes[JOB_READ] + all->bytes[JOB_WRITE] + all->bytes[JOB_TRIM];
	row->ops = all->ios[JOB_READ] + all->ios[JOB_WRITE] + all->ios[JOB_TRIM];
	if (all->t_stop > all->t_start && all->t_start != UINT64_MAX)
		row->elapsed_ns = all->t_stop - all->t_start;
	el = (double)row->elapsed_ns / 1e9;
	row->rate = el > 0 ? (double)row->bytes / el / 1048576.0 : 0;
	row->flags &= ~ROW_SHORT;
	if (row->elapsed_ns < ROW_SHORT_NS)
		row->flags |= ROW_SHORT;
	fd = first_done > all->t_start && all->t_start != UINT64_MAX ?
	     (double)(first_done - all->t_start) / 1e9 : 0;
	rc |= str_set(&row->rate_unit, "MiB/s");
	rc |= kv_set(&row->params, RK_JOB_STEP, "%u", step);
	rc |= kv_set(&row->params, RK_JOB_JOB, "%s", names);
	rc |= kv_set(&row->params, RK_ROW_DETAIL, "step %u", step);
	rc |= jr_metric(row, RK_JOB_THREADS, st->n, "");
	rc |= jr_metric(row, RK_JOB_IOPS, el > 0 ? (double)row->ops / el : 0, "IO/s");
	rc |= jr_metric(row, RK_JOB_FIRST_DONE_S, fd, "s");
	rc |= jr_metric(row, RK_JOB_FIRST_DONE_BYTES, (double)all->first_done_bytes, "B");
	rc |= jr_metric(row, RK_JOB_FIRST_DONE_RATE, fd > 0 ?
			(double)all->first_done_bytes / fd / 1048576.0 : 0, "MiB/s");
	rc |= jr_metric(row, RK_JOB_LAST_DONE_S, el, "s");
	return rc ? -ENOMEM : 0;
}

int job_rows_disks(struct runner *rc, const struct diskstats_set *set,
		   const struct diskstats_snap *a, const struct diskstats_snap *b)
{
	unsigned i;

	for (i = 0; i < set->ndev && i < a->ndev && i < b->ndev; i++) {
		const struct diskstats_counters *x = &a->c[i], *y = &b->c[i];
		uint64_t ms = (b->t_ns - a->t_ns) / 1000000u;
		struct row *w;
		int e = 0;

		if (!x->nfields || !y->nfields)
			continue;
		w = run_add_row(rc->run, "job", "disk");
		if (!w)
			return -ENOMEM;
		w->repeat = rc->repeat;
		w->bytes = (y->rd_sectors - x->rd_sectors + y->wr_sectors - x->wr_sectors) *
			   DISKSTATS_SECTOR;
		w->ops = y->rd_ios - x->rd_ios + y->wr_ios - x->wr_ios;
		w->elapsed_ns = b->t_ns - a->t_ns;
		w->rate = w->elapsed_ns ? (double)w->bytes / ((double)w->elapsed_ns / 1e9) /
					  1048576.0 : 0;
		e |= str_set(&w->rate_unit, "MiB/s");
		e |= kv_set(&w->params, RK_JOB_DEVICE, "%s", set->dev[i].name);
		e |= kv_set(&w->params, RK_ROW_DETAIL, "%s", set->dev[i].name);
		e |= jr_metric(w, RK_JOB_READ_IOS, (double)(y->rd_ios - x->rd_ios), "ios");
		e |= jr_metric(w, RK_JOB_WRITE_IOS, (double)(y->wr_ios - x->wr_ios), "ios");
		e |= jr_metric(w, RK_JOB_READ_MERGES, (double)(y->rd_merges - x->rd_merges), "ios");
		e |= jr_metric(w, RK_JOB_WRITE_MERGES, (double)(y->wr_merges - x->wr_merges),
			       "ios");
		e |= jr_metric(w, RK_JOB_READ_TICKS, (double)(uint32_t)(y->rd_ticks - x->rd_ticks),
			       "ms");
		e |= jr_metric(w, RK_JOB_WRITE_TICKS,
			       (double)(uint32_t)(y->wr_ticks - x->wr_ticks), "ms");
		e |= jr_metric(w, RK_JOB_IN_QUEUE,
			       (double)(uint32_t)(y->time_in_queue - x->time_in_queue), "ms");
		e |= jr_metric(w, RK_JOB_UTIL, ms ? fmin(100.0, (double)(uint32_t)(y->io_ticks -
			       x->io_ticks) / (double)ms * 100) : 0, "%");
		e |= jr_metric(w, RK_JOB_DEV_READ_BYTES,
			       (double)((y->rd_sectors - x->rd_sectors) * DISKSTATS_SECTOR), "B");
		e |= jr_metric(w, RK_JOB_DEV_WRITE_BYTES,
			       (double)((y->wr_sectors - x->wr_sectors) * DISKSTATS_SECTOR), "B");
		if (e)
			return -ENOMEM;
	}
	return 0;
}
