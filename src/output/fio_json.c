/* fio_json.c - the fio-json formatter: the job workload's rows as fio 3.33's
 * --output-format=json document ("fio version", "timestamp", "timestamp_ms", "time",
 * "global options", "jobs" with jobname, groupid, error, "job options", read / write /
 * trim objects with io_bytes, io_kbytes, bw_bytes, bw (KiB/s), iops, runtime (ms),
 * total_ios, slat_ns / clat_ns / lat_ns with clat_ns.percentile keyed "99.000000", the
 * interval bw and iops figures, the sync object, CPU, IO depths, the latency buckets,
 * then "disk_util"), so that tools reading fio's JSON (fio-plot, fio2gnuplot-style
 * scripts) read iobattery's. Written at the end from the model; other workloads' rows
 * are left out. "fio version" says "iobattery-VERSION (fio-3.33 json)". With --verify
 * (fio's verify=) the read-back is counted in the writing job's read total_ios and
 * io_bytes, as fio counts its verify pass (iobattery's own outputs keep it on a verify
 * row of its own).
 * fio-json+ (fio's --output-format=json+) is the same document with each latency
 * histogram's "bins" too: {"NS": count} per bin fio would hold a count in, keyed by
 * fio's value of the bin (fio_fmt.h, FIO_PLAT_NR), as fio_jsonplus_clat2csv reads it. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "output/fio_fmt.h"
#include "output/output.h"
#include "stats/hist.h"
#include "stats/result.h"
#include "stats/result_keys.h"

static int fj_set(json_t *o, const char *k, json_t *v)
{
	return json_object_set_new(o, k, v ? v : json_null());
}

static json_t *fj_int(double v)
{
	return json_integer((json_int_t)(v > 0 ? floor(v + 0.5) : 0));
}

static json_t *fj_real(double v)
{
	return json_real(isfinite(v) ? v : 0);
}

/* {"min", "max", "mean", "stddev", "N"} of a min/max/mean/sd/N metric set. */
static json_t *fj_lat(const struct row *w, const char *const k[5])
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	fj_set(o, "min", fj_int(w ? fio_metric(w, k[1]) : 0));
	fj_set(o, "max", fj_int(w ? fio_metric(w, k[2]) : 0));
	fj_set(o, "mean", fj_real(w ? fio_metric(w, k[3]) : 0));
	fj_set(o, "stddev", fj_real(w ? fio_metric(w, k[4]) : 0));
	fj_set(o, "N", fj_int(w ? fio_metric(w, k[0]) : 0));
	return o;
}

/* json+'s "bins" of h: fio's bins that hold a count, in increasing order. */
static json_t *fj_bins(const struct hist *h)
{
	json_t *o = json_object();
	uint64_t n = 0;
	unsigned b, k;
	char key[32];

	for (b = 0; o && b < HIST_NBUCKETS; b++) {
		k = fio_plat_index(b);
		n += h->b[b];
		/* fio's last bin sums every bucket of ours from it on */
		if (!n || (k == FIO_PLAT_NR - 1 && b < HIST_NBUCKETS - 1))
			continue;
		snprintf(key, sizeof(key), "%llu", (unsigned long long)fio_plat_value(k));
		fj_set(o, key, json_integer((json_int_t)n));
		n = 0;
	}
	return o;
}

/* clat_ns (or the sync lat_ns) from the row's histogram, with the percentiles (and with
 * plus, json+'s bins). */
static json_t *fj_hist(const struct row *w, int plus)
{
	const struct hist *h = w ? w->lat.hist : NULL;
	json_t *o = json_object(), *p;
	double pc[32];
	size_t n, i;

	if (!o)
		return NULL;
	fj_set(o, "min", fj_int(h && h->n ? (double)h->min : 0));
	fj_set(o, "max", fj_int(h && h->n ? (double)h->max : 0));
	fj_set(o, "mean", fj_real(h ? hist_mean(h) : 0));
	fj_set(o, "stddev", fj_real(h ? fio_hist_sd(h) : 0));
	fj_set(o, "N", fj_int(h ? (double)h->n : 0));
	if (!h || !h->n)
		return o;
	p = json_object();
	n = fio_pctl(w, pc, 32);
	for (i = 0; p && i < n; i++) {
		char key[32];

		snprintf(key, sizeof(key), "%f", pc[i]);
		fj_set(p, key, fj_int((double)hist_percentile(h, pc[i])));
	}
	fj_set(o, "percentile", p);
	if (plus)
		fj_set(o, "bins", fj_bins(h));
	return o;
}

/* lat_ns's "percentile" (lat_percentiles=1), keyed as clat_ns's. */
static json_t *fj_lat_pctl(const struct row *w)
{
	json_t *p = json_object();
	double pc[32];
	uint64_t v[32];
	size_t n = fio_lat_pctl(w, pc, v, 32), i;
	char key[32];

	for (i = 0; p && i < n; i++) {
		snprintf(key, sizeof(key), "%f", pc[i]);
		fj_set(p, key, fj_int((double)v[i]));
	}
	return p;
}

/* The verify read-back a unit is given (fj_verify_share), counted as fio counts it. */
struct fj_extra {
	uint64_t ops, bytes;
};

static json_t *fj_dir(const struct row *w, const struct fj_extra *x, int plus)
{
	static const char *const sl[5] = { RK_JOB_SLAT_N, RK_JOB_SLAT_MIN_NS, RK_JOB_SLAT_MAX_NS,
					   RK_JOB_SLAT_MEAN_NS, RK_JOB_SLAT_SD_NS };
	static const char *const ll[5] = { RK_JOB_LAT_N, RK_JOB_LAT_MIN_NS, RK_JOB_LAT_MAX_NS,
					   RK_JOB_LAT_MEAN_NS, RK_JOB_LAT_SD_NS };
	json_t *o = json_object();
	double bw = w ? fio_metric(w, RK_JOB_BW_BYTES) : 0;

	if (!o)
		return NULL;
	fj_set(o, "io_bytes", fj_int((w ? (double)w->bytes : 0) + (x ? (double)x->bytes : 0)));
	fj_set(o, "io_kbytes", fj_int(((w ? w->bytes : 0) + (x ? x->bytes : 0)) / 1024));
	fj_set(o, "bw_bytes", fj_int(bw));
	fj_set(o, "bw", fj_int(floor(bw / 1024)));
	fj_set(o, "iops", fj_real(w ? w->rate : 0));
	fj_set(o, "runtime", fj_int(w ? (double)(w->elapsed_ns / 1000000u) : 0));
	/* fio counts the requests continue_on_error passed over as issued */
	fj_set(o, "total_ios", fj_int((w ? (double)w->ops + fio_metric(w, RK_JOB_ERRORS) : 0) +
				      (x ? (double)x->ops : 0)));
	fj_set(o, "short_ios", fj_int(w ? fio_metric(w, RK_JOB_SHORT_IOS) : 0));
	fj_set(o, "drop_ios", json_integer(0));
	/* what the job's disable_*, gtod_reduce and clat_percentiles leave, as fio: zeros */
	fj_set(o, "slat_ns", fj_lat(fio_lat_shown(w, "slat") ? w : NULL, sl));
	fj_set(o, "clat_ns", fj_hist(fio_lat_shown(w, "clat") ? w : NULL, plus));
	if (!fio_lat_shown(w, "clat_percentiles"))
		json_object_del(json_object_get(o, "clat_ns"), "percentile");
	fj_set(o, "lat_ns", fj_lat(fio_lat_shown(w, "lat") ? w : NULL, ll));
	if (fio_lat_shown(w, "lat_percentiles"))
		fj_set(json_object_get(o, "lat_ns"), "percentile", fj_lat_pctl(w));
	fj_set(o, "bw_min", fj_int(w ? fio_metric(w, RK_JOB_BW_MIN) : 0));
	fj_set(o, "bw_max", fj_int(w ? fio_metric(w, RK_JOB_BW_MAX) : 0));
	fj_set(o, "bw_agg", fj_real(w ? fio_metric(w, RK_JOB_BW_AGG) : 0));
	fj_set(o, "bw_mean", fj_real(w ? fio_metric(w, RK_JOB_BW_MEAN) : 0));
	fj_set(o, "bw_dev", fj_real(w ? fio_metric(w, RK_JOB_BW_DEV) : 0));
	fj_set(o, "bw_samples", fj_int(w ? fio_metric(w, RK_JOB_BW_SAMPLES) : 0));
	fj_set(o, "iops_min", fj_int(w ? fio_metric(w, RK_JOB_IOPS_MIN) : 0));
	fj_set(o, "iops_max", fj_int(w ? fio_metric(w, RK_JOB_IOPS_MAX) : 0));
	fj_set(o, "iops_mean", fj_real(w ? fio_metric(w, RK_JOB_IOPS_MEAN) : 0));
	fj_set(o, "iops_stddev", fj_real(w ? fio_metric(w, RK_JOB_IOPS_DEV) : 0));
	fj_set(o, "iops_samples", fj_int(w ? fio_metric(w, RK_JOB_IOPS_SAMPLES) : 0));
	return o;
}

/* {"1": 100.0, ..., ">=64": 0.0} of a family of metrics. */
static json_t *fj_dist(const struct row *w, const char *pfx, const char *ge, int calls)
{
	static const unsigned depth[6] = { 1, 2, 4, 8, 16, 32 };
	static const unsigned batch[5] = { 4, 8, 16, 32, 64 };
	const unsigned *v = calls ? batch : depth;
	unsigned i, n = calls ? 5 : 6;
	json_t *o = json_object();
	char name[32], key[16];

	if (!o)
		return NULL;
	if (calls)
		fj_set(o, "0", fj_real(0));
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "%s%u", pfx, v[i]);
		snprintf(key, sizeof(key), "%u", v[i]);
		fj_set(o, key, fj_real(fio_metric(w, name)));
	}
	fj_set(o, ">=64", fj_real(fio_metric(w, ge)));
	return o;
}

/* latency_ns, latency_us, latency_ms: fio's buckets over reads, writes and trims. */
static void fj_lat_dist(json_t *job, const struct fio_unit *u)
{
	static const char *const names[3] = { "latency_ns", "latency_us", "latency_ms" };
	double dist[FIO_LAT_BKT] = { 0 };
	struct hist *h = malloc(sizeof(*h));
	unsigned g, i;

	if (h) {
		hist_init(h);
		for (i = 0; i < 3; i++)
			if (u->dir[i] && u->dir[i]->lat.hist)
				hist_merge(h, u->dir[i]->lat.hist);
		fio_lat_dist(h, dist);
		free(h);
	}
	for (g = 0; g < 3; g++) {
		json_t *o = json_object();
		char key[16];

		for (i = 0; o && i < 10; i++) {
			snprintf(key, sizeof(key), "%u", fio_lat_edges[i]);
			fj_set(o, key, fj_real(dist[g * 10 + i]));
		}
		if (o && g == 2) {
			fj_set(o, "2000", fj_real(dist[30]));
			fj_set(o, ">=2000", fj_real(dist[31]));
		}
		fj_set(job, names[g], o);
	}
}

/* "name=value" lines into an object of strings. */
static json_t *fj_options(const char *text)
{
	json_t *o = json_object();
	const char *p = text;

	while (o && p && *p) {
		const char *nl = strchr(p, '\n'), *end = nl ? nl : p + strlen(p);
		const char *eq = memchr(p, '=', (size_t)(end - p));
		char name[256], val[1024];

		snprintf(name, sizeof(name), "%.*s", (int)((eq ? eq : end) - p), p);
		snprintf(val, sizeof(val), "%.*s", eq ? (int)(end - eq - 1) : 0, eq ? eq + 1 : "");
		fj_set(o, name, json_string(val));
		p = nl ? nl + 1 : NULL;
	}
	return o;
}

/* A comma-separated list of integers as an array. */
static json_t *fj_list(const char *s)
{
	json_t *a = json_array();
	char *end;

	while (a && s && *s) {
		json_array_append_new(a, json_integer((json_int_t)strtoll(s, &end, 10)));
		s = *end == ',' ? end + 1 : NULL;
	}
	return a;
}

/* fio's "steadystate" object of a unit that judged it (steadystate=, the ss_* keys), or
 * NULL. */
static json_t *fj_ss(const struct row *w)
{
	const char *spec = kv_get(&w->params, RK_JOB_SS);
	json_t *o, *data;
	char crit[64];
	size_t n;

	if (!spec || !(o = json_object()))
		return NULL;
	n = strlen(spec);
	snprintf(crit, sizeof(crit), "%f%s", fio_metric(w, RK_JOB_SS_CRITERION),
		 n && spec[n - 1] == '%' ? "%" : "");
	fj_set(o, "ss", json_string(spec));
	fj_set(o, "duration", fj_int(fio_metric(w, RK_JOB_SS_DURATION)));
	fj_set(o, "attained", fj_int(fio_metric(w, RK_JOB_SS_ATTAINED)));
	fj_set(o, "criterion", json_string(crit));
	fj_set(o, "max_deviation", fj_real(fio_metric(w, RK_JOB_SS_MAX_DEV)));
	fj_set(o, "slope", fj_real(fio_metric(w, RK_JOB_SS_SLOPE)));
	data = json_object();
	if (data) {
		fj_set(data, "bw_mean", json_integer((json_int_t)fio_metric(w, RK_JOB_SS_BW_MEAN)));
		fj_set(data, "iops_mean",
		       json_integer((json_int_t)fio_metric(w, RK_JOB_SS_IOPS_MEAN)));
		if (kv_get(&w->params, RK_JOB_SS_LAT_DATA)) {	/* fio 3.42's lat criteria */
			/* rounded as the per-second list is (%.0f), not truncated */
			json_int_t lm = (json_int_t)llround(fio_metric(w, RK_JOB_SS_LAT_MEAN));

			fj_set(data, "lat_mean", json_integer(lm));
			fj_set(data, "lat_ns", fj_list(kv_get(&w->params, RK_JOB_SS_LAT_DATA)));
		}
		fj_set(data, "iops", fj_list(kv_get(&w->params, RK_JOB_SS_IOPS_DATA)));
		fj_set(data, "bw", fj_list(kv_get(&w->params, RK_JOB_SS_BW_DATA)));
	}
	fj_set(o, "data", data);
	return o;
}

static json_t *fj_job(const struct fio_unit *u, const struct fj_extra *vx, int plus)
{
	const struct row *w = u->first;
	json_t *j = json_object(), *sync, *ss;
	const char *name = kv_get(&w->params, RK_JOB_JOB);
	double secs = (double)w->elapsed_ns / 1e9, terr, ferr;

	if (!j)
		return NULL;
	fj_set(j, "jobname", json_string(name ? name : ""));
	fj_set(j, "groupid", json_integer(u->group));
	fj_set(j, "error", fj_int(fio_unit_errno(u)));
	fj_set(j, "eta", json_integer(0));
	fj_set(j, "elapsed", fj_int(ceil(secs)));
	fj_set(j, "job options", fj_options(kv_get(&w->params, RK_JOB_FIO_OPTIONS)));
	fj_set(j, "read", fj_dir(u->dir[0], vx, plus));
	fj_set(j, "write", fj_dir(u->dir[1], NULL, plus));
	fj_set(j, "trim", fj_dir(u->dir[2], NULL, plus));
	sync = json_object();
	if (sync) {
		fj_set(sync, "total_ios", fj_int(u->dir[3] ? (double)u->dir[3]->ops : 0));
		fj_set(sync, "lat_ns", fj_hist(u->dir[3], plus));
	}
	fj_set(j, "sync", sync);
	fj_set(j, "job_runtime", fj_int(fio_metric(w, RK_JOB_JOB_RUNTIME)));
	fj_set(j, "usr_cpu", fj_real(fio_metric(w, RK_JOB_USR_CPU)));
	fj_set(j, "sys_cpu", fj_real(fio_metric(w, RK_JOB_SYS_CPU)));
	fj_set(j, "ctx", fj_int(fio_metric(w, RK_JOB_CTX)));
	fj_set(j, "majf", fj_int(fio_metric(w, RK_JOB_MAJF)));
	fj_set(j, "minf", fj_int(fio_metric(w, RK_JOB_MINF)));
	fj_set(j, "iodepth_level", fj_dist(w, RK_JOB_DEPTH_PFX, RK_JOB_DEPTH_GE64, 0));
	fj_set(j, "iodepth_submit", fj_dist(w, RK_JOB_SUBMIT_PFX, RK_JOB_SUBMIT_GE64, 1));
	fj_set(j, "iodepth_complete", fj_dist(w, RK_JOB_COMPLETE_PFX, RK_JOB_COMPLETE_GE64, 1));
	fj_lat_dist(j, u);
	if (fio_unit_errors(u, &terr, &ferr)) {	/* continue_on_error, as fio */
		fj_set(j, "total_err", fj_int(terr));
		fj_set(j, "first_error", fj_int(ferr));
	}
	fj_set(j, "latency_depth", json_integer((json_int_t)fio_param_u(w, RK_JOB_IODEPTH, 1)));
	fj_set(j, "latency_target", json_integer(0));
	fj_set(j, "latency_percentile", fj_real(100));
	fj_set(j, "latency_window", json_integer(0));
	if ((ss = fj_ss(w)) != NULL)
		fj_set(j, "steadystate", ss);
	return j;
}

static json_t *fj_disk(const struct row *d)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	fj_set(o, "name", json_string(kv_get(&d->params, RK_JOB_DEVICE)));
	fj_set(o, "read_ios", fj_int(fio_metric(d, RK_JOB_READ_IOS)));
	fj_set(o, "write_ios", fj_int(fio_metric(d, RK_JOB_WRITE_IOS)));
	fj_set(o, "read_merges", fj_int(fio_metric(d, RK_JOB_READ_MERGES)));
	fj_set(o, "write_merges", fj_int(fio_metric(d, RK_JOB_WRITE_MERGES)));
	fj_set(o, "read_ticks", fj_int(fio_metric(d, RK_JOB_READ_TICKS)));
	fj_set(o, "write_ticks", fj_int(fio_metric(d, RK_JOB_WRITE_TICKS)));
	fj_set(o, "in_queue", fj_int(fio_metric(d, RK_JOB_IN_QUEUE)));
	fj_set(o, "util", fj_real(fio_metric(d, RK_JOB_UTIL)));
	return o;
}

/* fio reads back what a job wrote as that job's reads (its read total_ios and
 * io_bytes); iobattery checks every file in one verify row after the steps. The row's
 * requests and bytes go to the units of its repeat that wrote, in proportion to the
 * bytes each wrote (all of them to a lone writer). x[i] receives unit i's share. */
static void fj_verify_share(const struct run *run, const struct fio_unit *u, size_t n,
			    struct fj_extra *x)
{
	size_t i, k;

	for (k = 0; k < run->nrows; k++) {
		const struct row *v = run->rows[k];
		uint64_t wsum = 0, ops = 0, bytes = 0, last = n;

		if (!v->workload || strcmp(v->workload, "job") || !v->phase ||
		    strcmp(v->phase, "verify"))
			continue;
		for (i = 0; i < n; i++)
			if (u[i].repeat == v->repeat && u[i].dir[1])
				wsum += u[i].dir[1]->bytes;
		for (i = 0; i < n && wsum; i++) {
			if (u[i].repeat != v->repeat || !u[i].dir[1])
				continue;
			x[i].ops = (uint64_t)((unsigned __int128)v->ops * u[i].dir[1]->bytes /
					      wsum);
			x[i].bytes = (uint64_t)((unsigned __int128)v->bytes * u[i].dir[1]->bytes /
						wsum);
			ops += x[i].ops;
			bytes += x[i].bytes;
			last = i;
		}
		if (last < n) {	/* what the division left goes to the last writer */
			x[last].ops += v->ops - ops;
			x[last].bytes += v->bytes - bytes;
		}
	}
}

/* The whole document: every repeat's jobs, the disk rows of the last repeat. */
static json_t *fj_doc(const struct run *run, int plus)
{
	json_t *doc = json_object(), *jobs = json_array(), *disks = json_array();
	const struct row *dk[16];
	struct fio_unit *u;
	struct fj_extra *vx;
	char ver[96], tbuf[64];
	time_t now = time(NULL);
	struct tm tm;
	size_t n, i, nd;
	const char *g = kv_get(&run->options, RK_JOB_GLOBAL_OPTIONS);

	if (!doc || !jobs || !disks) {
		json_decref(doc);
		json_decref(jobs);
		json_decref(disks);
		return NULL;
	}
	snprintf(ver, sizeof(ver), "iobattery-%s (fio-3.33 json)",
		 run->env.tool_version ? run->env.tool_version : "?");
	localtime_r(&now, &tm);
	strftime(tbuf, sizeof(tbuf), "%a %b %e %H:%M:%S %Y", &tm);
	fj_set(doc, "fio version", json_string(ver));
	fj_set(doc, "timestamp", json_integer((json_int_t)now));
	fj_set(doc, "timestamp_ms", json_integer((json_int_t)now * 1000));
	fj_set(doc, "time", json_string(tbuf));
	if (g)
		fj_set(doc, "global options", fj_options(g));
	u = fio_units(run, -1, &n);
	vx = n ? calloc(n, sizeof(*vx)) : NULL;
	if (vx)
		fj_verify_share(run, u, n, vx);
	for (i = 0; i < n; i++)
		json_array_append_new(jobs, fj_job(&u[i], vx ? &vx[i] : NULL, plus));
	free(vx);
	free(u);
	fj_set(doc, "jobs", jobs);
	nd = fio_disks(run, run->nrows ? (int)run->rows[run->nrows - 1]->repeat : 0, dk, 16);
	for (i = 0; i < nd; i++)
		json_array_append_new(disks, fj_disk(dk[i]));
	fj_set(doc, "disk_util", disks);
	return doc;
}

static int fj_write(FILE *f, const struct run *run, int plus)
{
	json_t *doc = fj_doc(run, plus);
	char *s;
	int rc = 0;

	if (!doc)
		return -ENOMEM;
	s = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
	json_decref(doc);
	if (!s)
		return -ENOMEM;
	if (fputs(s, f) == EOF || fputc('\n', f) == EOF)
		rc = -EIO;
	free(s);
	return rc;
}

static int fj_end(FILE *f, const struct run *run)
{
	return fj_write(f, run, 0);
}

static int fj_end_plus(FILE *f, const struct run *run)
{
	return fj_write(f, run, 1);
}

const struct out_fmt out_fio_json = {
	.name = "fio-json",
	.ext = "fio.json",
	.begin = NULL,
	.row = NULL,
	.end = fj_end,
};

const struct out_fmt out_fio_json_plus = {
	.name = "fio-json+",
	.ext = "fio-plus.json",
	.begin = NULL,
	.row = NULL,
	.end = fj_end_plus,
};
