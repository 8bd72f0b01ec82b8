/* text_job.c - the text renderer of the job workload: fio 3.33's human summary laid out
 * where fio's users look (per job or group: IOPS and bandwidth, slat/clat/lat, clat
 * percentiles, the interval bandwidth and IOPS, the latency distribution, CPU, IO
 * depths; the group lines; disk stats), then iobattery's own lines: the stonewall steps'
 * aggregates, and per row the cache residency, buffered and durable times, verdicts and
 * flags. Everything is read from the model; the whole report is printed at the last job
 * row of each repeat. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/units.h"
#include "output/fio_fmt.h"
#include "output/output.h"
#include "output/text_renderers.h"
#include "stats/hist.h"
#include "stats/result.h"
#include "stats/result_keys.h"

static const char *const tj_name[FIO_DIRS] = { "read", "write", "trim", "sync" };

/* fio's unit for a min/max/mean line: ns, us above 20 us, ms above 20 ms. */
static const char *tj_lat_unit(double min, double mean, double *div)
{
	if (min > 20e6 && mean > 20e6) {
		*div = 1e6;
		return "msec";
	}
	if (min > 20e3 && mean > 20e3) {
		*div = 1e3;
		return "usec";
	}
	*div = 1;
	return "nsec";
}

static void tj_lat_line(FILE *f, const char *name, double n, double min, double max,
			double mean, double sd)
{
	char a[32], b[32];
	double div;
	const char *u;

	if (n <= 0)
		return;
	u = tj_lat_unit(min, mean, &div);
	fprintf(f, "    %s (%s): min=%s, max=%s, avg=%5.02f, stdev=%5.02f\n", name, u,
		fio_num(a, sizeof(a), floor(min / div), 6, 0, ""),
		fio_num(b, sizeof(b), floor(max / div), 6, 0, ""), mean / div, sd / div);
}

/* "    clat percentiles (usec):" and the lines of four, as fio prints them. */
/* "    NAME percentiles (usec):" and fio's lines of n percentiles p at values v (ns). */
static void tj_pctl_lines(FILE *f, const char *name, const double *p, const uint64_t *v,
			  size_t n)
{
	uint64_t vmin = UINT64_MAX, vmax = 0;
	double div = 1;
	const char *u = "nsec";
	size_t i;

	for (i = 0; i < n; i++) {
		if (v[i] < vmin)
			vmin = v[i];
		if (v[i] > vmax)
			vmax = v[i];
	}
	if (vmin > 2000000 && vmax > 99999999) {
		div = 1e6;
		u = "msec";
	} else if (vmin > 2000 && vmax > 99999) {
		div = 1e3;
		u = "usec";
	}
	fprintf(f, "    %s percentiles (%s):\n", name, u);
	for (i = 0; i < n; i++) {
		if (i % 4 == 0)
			fputs("     |", f);
		fprintf(f, " %5.2fth=[%5llu]%s", p[i], (unsigned long long)ceil((double)v[i] / div),
			i + 1 == n ? "\n" : ",");
		if (i + 1 < n && i % 4 == 3)
			fputc('\n', f);
	}
}

static void tj_pctl(FILE *f, const char *name, const struct row *w)
{
	const struct hist *h = w->lat.hist;
	double p[32];
	uint64_t v[32];
	size_t n, i;

	if (!h || !h->n)
		return;
	n = fio_pctl(w, p, 32);
	for (i = 0; i < n; i++)
		v[i] = hist_percentile(h, p[i]);
	tj_pctl_lines(f, name, p, v, n);
}

/* The interval bandwidth and IOPS lines (none when nothing was sampled). */
static void tj_samples(FILE *f, const struct row *w)
{
	double n = fio_metric(w, RK_JOB_BW_SAMPLES), max = fio_metric(w, RK_JOB_BW_MAX), div = 1;
	const char *u = "KiB";

	if (n <= 0)
		return;
	if (max >= 1e6) {
		div = 1024;
		u = "MiB";
	}
	fprintf(f, "   bw (%5s/s): min=%5.0f, max=%5.0f, per=%3.2f%%, avg=%5.02f, stdev=%5.02f, "
		"samples=%.0f\n", u, floor(fio_metric(w, RK_JOB_BW_MIN) / div), floor(max / div),
		fio_metric(w, RK_JOB_BW_AGG), fio_metric(w, RK_JOB_BW_MEAN) / div,
		fio_metric(w, RK_JOB_BW_DEV) / div, n);
	fprintf(f, "   iops        : min=%5.0f, max=%5.0f, avg=%5.02f, stdev=%5.02f, "
		"samples=%.0f\n",
		fio_metric(w, RK_JOB_IOPS_MIN), fio_metric(w, RK_JOB_IOPS_MAX),
		fio_metric(w, RK_JOB_IOPS_MEAN), fio_metric(w, RK_JOB_IOPS_DEV),
		fio_metric(w, RK_JOB_IOPS_SAMPLES));
}

static void tj_dir(FILE *f, const struct row *w, unsigned d)
{
	char iops[32], bw[32], bw10[32], io[32];
	double secs = (double)w->elapsed_ns / 1e9, bps = secs > 0 ? (double)w->bytes / secs : 0;
	const struct row_lat *l = &w->lat;
	double sd = fio_hist_sd(l->hist);

	if (d == 3) {
		fputs("  fsync/fdatasync/sync_file_range:\n", f);
		tj_lat_line(f, "sync", (double)l->n, (double)l->min_ns, (double)l->max_ns,
			    l->mean_ns, sd);
		tj_pctl(f, "sync", w);
		return;
	}
	fprintf(f, "  %s: IOPS=%s, BW=%s (%s)(%s/%llumsec)%s\n", tj_name[d],
		fio_num(iops, sizeof(iops), w->rate, 4, 0, ""),
		fio_num(bw, sizeof(bw), bps, 4, 1, "B/s"),
		fio_num(bw10, sizeof(bw10), bps, 4, 0, "B/s"),
		fio_num(io, sizeof(io), (double)w->bytes, 4, 1, "B"),
		(unsigned long long)(w->elapsed_ns / 1000000u), d == 1 ? "; 0 zone resets" : "");
	/* what the job's disable_*, gtod_reduce and clat_percentiles leave, as fio */
	if (fio_lat_shown(w, "slat"))
		tj_lat_line(f, "slat", fio_metric(w, RK_JOB_SLAT_N),
			    fio_metric(w, RK_JOB_SLAT_MIN_NS), fio_metric(w, RK_JOB_SLAT_MAX_NS),
			    fio_metric(w, RK_JOB_SLAT_MEAN_NS), fio_metric(w, RK_JOB_SLAT_SD_NS));
	if (fio_lat_shown(w, "clat"))
		tj_lat_line(f, "clat", (double)l->n, (double)l->min_ns, (double)l->max_ns,
			    l->mean_ns, sd);
	if (fio_lat_shown(w, "lat"))
		tj_lat_line(f, " lat", fio_metric(w, RK_JOB_LAT_N),
			    fio_metric(w, RK_JOB_LAT_MIN_NS), fio_metric(w, RK_JOB_LAT_MAX_NS),
			    fio_metric(w, RK_JOB_LAT_MEAN_NS), fio_metric(w, RK_JOB_LAT_SD_NS));
	if (fio_lat_shown(w, "clat_percentiles"))
		tj_pctl(f, "clat", w);
	if (fio_lat_shown(w, "lat_percentiles")) {
		double p[32];
		uint64_t v[32];
		size_t n = fio_lat_pctl(w, p, v, 32);

		if (n)
			tj_pctl_lines(f, "lat", p, v, n);
	}
	tj_samples(f, w);
}

/* "  lat (usec)   : 50=1.07%, 100=95.02%" over the unit's reads, writes and trims. */
static void tj_lat_dist(FILE *f, const struct fio_unit *u)
{
	static const char *const unit[3] = { "nsec", "usec", "msec" };
	double dist[FIO_LAT_BKT] = { 0 };
	struct hist *h = malloc(sizeof(*h));
	unsigned i, k, on_line = 0;
	int cur = -1;

	if (!h)
		return;
	hist_init(h);
	for (i = 0; i < 3; i++)
		if (u->dir[i] && u->dir[i]->lat.hist)
			hist_merge(h, u->dir[i]->lat.hist);
	fio_lat_dist(h, dist);
	free(h);
	for (k = 0; k < FIO_LAT_BKT; k++) {
		unsigned grp = k < 30 ? k / 10 : 2;
		char label[16];

		if (dist[k] <= 0)
			continue;
		if (k < 30)
			snprintf(label, sizeof(label), "%u", fio_lat_edges[k % 10]);
		else
			snprintf(label, sizeof(label), k == 30 ? "2000" : ">=2000");
		if ((int)grp != cur || on_line == 5) {
			fprintf(f, "%s  lat (%s)   : ", cur >= 0 ? "\n" : "", unit[grp]);
			cur = (int)grp;
			on_line = 0;
		}
		fprintf(f, "%s%s=%.2f%%", on_line ? ", " : "", label,
			dist[k] < 0.01 ? 0.01 : dist[k]);
		on_line++;
	}
	if (cur >= 0)
		fputc('\n', f);
}

/* "1=100.0%, 2=0.0%, ..." (depth) or "0=0.0%, 4=100.0%, ..." (submit, complete). */
static void tj_dist_line(FILE *f, const char *head, const struct row *w, const char *pfx,
			 const char *ge, int calls)
{
	static const unsigned depth[6] = { 1, 2, 4, 8, 16, 32 };
	static const unsigned batch[5] = { 4, 8, 16, 32, 64 };
	const unsigned *v = calls ? batch : depth;
	unsigned i, n = calls ? 5 : 6;
	char name[32];

	fputs(head, f);
	if (calls)
		fputs("0=0.0%, ", f);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "%s%u", pfx, v[i]);
		fprintf(f, "%u=%.1f%%, ", v[i], fio_metric(w, name));
	}
	fprintf(f, ">=64=%.1f%%\n", fio_metric(w, ge));
}

static void tj_unit(FILE *f, const struct run *run, const struct fio_unit *u)
{
	const struct row *w = u->first;
	const char *name = kv_get(&w->params, RK_JOB_JOB);
	unsigned d;
	char date[64] = "";
	uint64_t tot[3] = { 0, 0, 0 }, shrt[3] = { 0, 0, 0 };
	double terr, ferr;
	unsigned long jobs = fio_param_u(w, RK_JOB_JOBS, 1);
	size_t nr = w->nranks > 1 ? w->nranks : run->nranks;
	char many[64] = "";

	if (run->env.date)
		snprintf(date, sizeof(date), "%s", run->env.date);
	/* several ranks: the param is one rank's threads; the unit is all ranks' */
	if (nr > 1)
		snprintf(many, sizeof(many), " (%zu ranks x %lu)", nr, jobs);
	fprintf(f, "%s: (groupid=%u, jobs=%lu%s): err=%2.0f: %s\n", name ? name : "?", u->group,
		nr > 1 ? jobs * nr : jobs, many, fio_unit_errno(u), date);
	for (d = 0; d < FIO_DIRS; d++)
		if (u->dir[d] && d < 3) {
			tj_dir(f, u->dir[d], d);
			/* fio counts what continue_on_error passed over as issued */
			tot[d] = u->dir[d]->ops + (uint64_t)fio_metric(u->dir[d], RK_JOB_ERRORS);
			shrt[d] = (uint64_t)fio_metric(u->dir[d], RK_JOB_SHORT_IOS);
		}
	if (fio_lat_shown(u->first, "clat"))
		tj_lat_dist(f, u);
	if (u->dir[3])
		tj_dir(f, u->dir[3], 3);
	fprintf(f, "  cpu          : usr=%.2f%%, sys=%.2f%%, ctx=%.0f, majf=%.0f, minf=%.0f\n",
		fio_metric(w, RK_JOB_USR_CPU), fio_metric(w, RK_JOB_SYS_CPU),
		fio_metric(w, RK_JOB_CTX),
		fio_metric(w, RK_JOB_MAJF), fio_metric(w, RK_JOB_MINF));
	tj_dist_line(f, "  IO depths    : ", w, RK_JOB_DEPTH_PFX, RK_JOB_DEPTH_GE64, 0);
	tj_dist_line(f, "     submit    : ", w, RK_JOB_SUBMIT_PFX, RK_JOB_SUBMIT_GE64, 1);
	tj_dist_line(f, "     complete  : ", w, RK_JOB_COMPLETE_PFX, RK_JOB_COMPLETE_GE64, 1);
	fprintf(f, "     issued rwts: total=%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 " short=%"
		PRIu64 ",%" PRIu64 ",%" PRIu64 ",0 dropped=0,0,0,0\n", tot[0], tot[1], tot[2],
		u->dir[3] ? u->dir[3]->ops : 0, shrt[0], shrt[1], shrt[2]);
	if (fio_unit_errors(u, &terr, &ferr))	/* continue_on_error, as fio */
		fprintf(f, "     errors    : total=%.0f, first_error=%.0f/<%s>\n", terr, ferr,
			strerror((int)ferr));
	fprintf(f, "     latency   : target=0, window=0, percentile=100.00%%, depth=%lu\n",
		fio_param_u(w, RK_JOB_IODEPTH, 1));
	fio_ss_line(f, w);
	fputc('\n', f);
}

/* The group line of direction d ("   READ: bw=..."), or nothing (0) when it has none:
 * bandwidth of all its bytes over its longest runtime, the range of its units'. */
static int tj_group_line(FILE *f, const struct fio_unit *u, size_t n, unsigned g, unsigned d)
{
	static const char *const label[3] = { "   READ", "  WRITE", "   TRIM" };
	double bmin = 0, bmax = 0, bytes = 0, agg;
	uint64_t rmin = UINT64_MAX, rmax = 0;
	char a[32], b[32], c[32], e[32], h[32], k[32], m[32], o[32];
	int any = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct row *w = u[i].dir[d];
		double bw;

		if (u[i].group != g || !w)
			continue;
		bw = w->elapsed_ns ? (double)w->bytes * 1e9 / (double)w->elapsed_ns : 0;
		if (!any || bw < bmin)
			bmin = bw;
		if (!any || bw > bmax)
			bmax = bw;
		if (w->elapsed_ns < rmin)
			rmin = w->elapsed_ns;
		if (w->elapsed_ns > rmax)
			rmax = w->elapsed_ns;
		bytes += (double)w->bytes;
		any = 1;
	}
	if (!any)
		return 0;
	agg = rmax ? bytes * 1e9 / (double)rmax : 0;
	fprintf(f, "%s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%llu-%llumsec\n", label[d],
		fio_num(a, 32, agg, 4, 1, "B/s"), fio_num(b, 32, agg, 4, 0, "B/s"),
		fio_num(c, 32, bmin, 4, 1, "B/s"), fio_num(e, 32, bmax, 4, 1, "B/s"),
		fio_num(h, 32, bmin, 4, 0, "B/s"), fio_num(k, 32, bmax, 4, 0, "B/s"),
		fio_num(m, 32, bytes, 4, 1, "B"), fio_num(o, 32, bytes, 4, 0, "B"),
		(unsigned long long)(rmin / 1000000u), (unsigned long long)(rmax / 1000000u));
	return 1;
}

/* "Run status group N (all jobs):" and a line per direction. */
static void tj_groups(FILE *f, const struct fio_unit *u, size_t n)
{
	unsigned g, gmax = 0, d;
	size_t i;

	for (i = 0; i < n; i++)
		if (u[i].group > gmax)
			gmax = u[i].group;
	for (g = 0; g <= gmax; g++) {
		for (i = 0; i < n && u[i].group != g; i++)
			;
		if (i == n)
			continue;
		fprintf(f, "Run status group %u (all jobs):\n", g);
		for (d = 0; d < 3; d++)
			(void)tj_group_line(f, u, n, g, d);
		fputc('\n', f);
	}
}

static void tj_disks(FILE *f, const struct row *const *dk, size_t n)
{
	size_t i;

	if (!n)
		return;
	fputs("Disk stats (read/write):\n", f);
	for (i = 0; i < n; i++)
		fprintf(f, "  %s: ios=%.0f/%.0f, merge=%.0f/%.0f, ticks=%.0f/%.0f, in_queue=%.0f, "
			"util=%3.2f%%\n", kv_get(&dk[i]->params, RK_JOB_DEVICE),
			fio_metric(dk[i], RK_JOB_READ_IOS), fio_metric(dk[i], RK_JOB_WRITE_IOS),
			fio_metric(dk[i], RK_JOB_READ_MERGES),
			fio_metric(dk[i], RK_JOB_WRITE_MERGES),
			fio_metric(dk[i], RK_JOB_READ_TICKS), fio_metric(dk[i], RK_JOB_WRITE_TICKS),
			fio_metric(dk[i], RK_JOB_IN_QUEUE), fio_metric(dk[i], RK_JOB_UTIL));
}

/* "4096" or "4096-65536" (n characters of spec) as fio's "4096B-65536B". */
static void tj_bs_range(char *out, size_t len, const char *spec, size_t n)
{
	const char *dash = memchr(spec, '-', n);

	if (dash)
		snprintf(out, len, "%.*sB-%.*sB", (int)(dash - spec), spec,
			 (int)(n - (size_t)(dash - spec) - 1), dash + 1);
	else
		snprintf(out, len, "%.*sB-%.*sB", (int)n, spec, (int)n, spec);
}

/* fio's first lines, one per job: its name, group and the settings. */
static void tj_heads(FILE *f, const struct run *run, const struct fio_unit *u, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		const struct row *w = u[i].first;
		const char *name = kv_get(&w->params, RK_JOB_JOB);
		const char *bs = kv_get(&w->params, RK_JOB_BS);
		const char *comma = bs ? strchr(bs, ',') : NULL;
		char r[128] = "?", wr[128] = "?";

		for (j = 0; j < i; j++)
			if (!strcmp(kv_get(&u[j].first->params, RK_JOB_JOB), name ? name : ""))
				break;
		if (j < i)
			continue;
		if (bs) {
			tj_bs_range(r, sizeof(r), bs, comma ? (size_t)(comma - bs) : strlen(bs));
			if (comma)
				tj_bs_range(wr, sizeof(wr), comma + 1, strlen(comma + 1));
			else
				snprintf(wr, sizeof(wr), "%s", r);
		}
		fprintf(f, "%s: (g=%u): rw=%s, bs=(R) %s, (W) %s, (T) %s, ioengine=%s, "
			"iodepth=%lu\n",
			name ? name : "?", u[i].group, kv_get(&w->params, RK_JOB_RW), r, wr, r,
			kv_get(&w->params, RK_JOB_IOENGINE), fio_param_u(w, RK_JOB_IODEPTH, 1));
	}
	fprintf(f, "iobattery-%s\n\n", run->env.tool_version ? run->env.tool_version : "?");
}

/* iobattery's lines: the steps' aggregates, then per row what fio does not say. */
static void tj_own(FILE *f, const struct run *run, int r)
{
	size_t i;
	char a[32], b[32], c[32];

	fputs("iobattery:\n", f);
	for (i = 0; i < run->nrows; i++) {
		const struct row *w = run->rows[i];
		const char *job = kv_get(&w->params, RK_JOB_JOB);

		/* a --verify row is printed after the summary, as every workload's */
		if (!w->workload || strcmp(w->workload, "job") || (int)w->repeat != r ||
		    !strcmp(w->phase, "disk") || !strcmp(w->phase, "verify"))
			continue;
		if (!strcmp(w->phase, "aggregate")) {
			fprintf(f, "  step %lu (%s): %.0f threads, %s in %s: %.1f MiB/s, %.0f IOPS "
				"(earliest start to latest stop)\n", fio_param_u(w, RK_JOB_STEP, 0),
				job ? job : "?", fio_metric(w, RK_JOB_THREADS),
				units_fmt_bytes(a, sizeof(a), (double)w->bytes),
				units_fmt_ns(b, sizeof(b), (double)w->elapsed_ns), w->rate,
				fio_metric(w, RK_JOB_IOPS));
			if (fio_metric(w, RK_JOB_THREADS) > 1)
				fprintf(f, "    first finished after %s: %.1f MiB/s (stonewall); "
					"last finished after %s\n",
					units_fmt_ns(c, sizeof(c),
						     fio_metric(w, RK_JOB_FIRST_DONE_S) * 1e9),
					fio_metric(w, RK_JOB_FIRST_DONE_RATE),
					units_fmt_ns(b, sizeof(b),
						     fio_metric(w, RK_JOB_LAST_DONE_S) * 1e9));
			if (w->cpu.valid)
				fprintf(f, "    cpu: %.1f%% of a CPU (process), system busy "
					"%.1f%%, %s cpu/op\n", w->cpu.proc_pct, w->cpu.sys_busy_pct,
					units_fmt_ns(c, sizeof(c), w->cpu.cpu_ns_per_op));
			if (w->flags & ROW_INCOMPLETE)
				fputs("    interrupted: partial figures\n", f);
			out_text_system(f, w, NULL);
			continue;
		}
		fprintf(f, "  %s %s:", job ? job : "?", w->phase);
		if (w->lat.valid)
			fprintf(f, " p50 %s, p99 %s, p99.9 %s;",
				units_fmt_ns(a, sizeof(a), (double)w->lat.p50_ns),
				units_fmt_ns(b, sizeof(b), (double)w->lat.p99_ns),
				units_fmt_ns(c, sizeof(c), (double)w->lat.p999_ns));
		if (w->cpu.valid && w->ops)
			fprintf(f, " %s cpu/op", units_fmt_ns(a, sizeof(a), w->cpu.cpu_ns_per_op));
		fputc('\n', f);
		if (w->buffered_ns || w->durable_ns) {
			fputs("   ", f);
			if (w->buffered_ns)
				fprintf(f, " buffered %s (last write returned)",
					units_fmt_ns(a, sizeof(a), (double)w->buffered_ns));
			if (w->durable_ns)
				fprintf(f, "%s durable %s (closing fsync returned)",
					w->buffered_ns ? "," : "",
					units_fmt_ns(b, sizeof(b), (double)w->durable_ns));
			fputc('\n', f);
		}
		if (w->note)
			fprintf(f, "    %s\n", w->note);
		if (w->flags & ROW_CACHE_INFLATED)
			fputs("    cache-inflated: read largely from the page cache, not the "
			      "device\n", f);
		if (w->flags & ROW_SHORT)
			fputs("    short: ran under 0.5 s; figures may be imprecise\n", f);
		if (w->flags & ROW_INCOMPLETE)
			fputs("    interrupted: partial figures\n", f);
		if (w->flags & ROW_FAILED)
			fprintf(f, "    failed: %s\n", w->error ? w->error : "unknown error");
		if (w->flags & ROW_INCONSISTENT)
			fputs("    inconsistent: repeats differ by more than 10%\n", f);
		out_text_system(f, w, NULL);
	}
}

/* Is w the last job row of its repeat? */
static int tj_last(const struct run *run, const struct row *w)
{
	size_t i;
	int seen = 0;

	for (i = 0; i < run->nrows; i++) {
		const struct row *x = run->rows[i];

		if (x == w) {
			seen = 1;
			continue;
		}
		if (seen && x->workload && !strcmp(x->workload, "job") && x->repeat == w->repeat &&
		    (!x->phase || strcmp(x->phase, "verify")))
			return 0;
	}
	return 1;
}

int text_job_row(FILE *f, const struct run *run, const struct row *row)
{
	const struct row *dk[16];
	struct fio_unit *u;
	size_t n, nd;
	size_t i;

	if (!tj_last(run, row))
		return 0;
	u = fio_units(run, (int)row->repeat, &n);
	nd = fio_disks(run, (int)row->repeat, dk, 16);
	if (run->nrows && row->repeat)
		fprintf(f, "--- repeat %u ---\n", row->repeat + 1);
	if (u) {
		tj_heads(f, run, u, n);
		for (i = 0; i < n; i++)
			tj_unit(f, run, &u[i]);
		tj_groups(f, u, n);
	}
	tj_disks(f, dk, nd);
	if (nd)
		fputc('\n', f);
	tj_own(f, run, (int)row->repeat);
	free(u);
	return ferror(f) ? -EIO : 0;
}
