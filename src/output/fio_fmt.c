/* fio_fmt.c - fio's number shortening, latency buckets and the gathering of the job
 * workload's rows into fio's jobs (fio_fmt.h). Written from fio's printed output. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/fio_fmt.h"
#include "stats/hist.h"
#include "stats/result.h"
#include "stats/result_keys.h"

const unsigned fio_lat_edges[10] = { 2, 4, 10, 20, 50, 100, 250, 500, 750, 1000 };

static int fio_dir_of(const char *phase)
{
	if (!strcmp(phase, "read"))
		return 0;
	if (!strcmp(phase, "write"))
		return 1;
	if (!strcmp(phase, "trim"))
		return 2;
	if (!strcmp(phase, "sync"))
		return 3;
	return -1;
}

static int same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

struct fio_unit *fio_units(const struct run *run, int r, size_t *n)
{
	struct fio_unit *u = calloc(run->nrows ? run->nrows : 1, sizeof(*u)), *cur = NULL;
	size_t i;
	int last = -1;

	*n = 0;
	if (!u)
		return NULL;
	for (i = 0; i < run->nrows; i++) {
		const struct row *w = run->rows[i];
		int d;

		if (!w->workload || strcmp(w->workload, "job") || (r >= 0 && (int)w->repeat != r))
			continue;
		d = fio_dir_of(w->phase);
		if (d < 0) {
			last = -1;
			continue;
		}
		/* a unit's rows come together, read before write before trim before sync */
		if (!cur || d <= last || !same(kv_get(&w->params, RK_JOB_JOB),
					      kv_get(&cur->first->params, RK_JOB_JOB)) ||
		    !same(kv_get(&w->params, RK_JOB_GROUPID),
			  kv_get(&cur->first->params, RK_JOB_GROUPID))) {
			cur = &u[(*n)++];
			cur->first = w;
			cur->group = (unsigned)fio_param_u(w, RK_JOB_GROUPID, 0);
			cur->repeat = w->repeat;
		}
		cur->dir[d] = w;
		last = d;
	}
	if (!*n) {
		free(u);
		return NULL;
	}
	return u;
}

size_t fio_disks(const struct run *run, int r, const struct row **out, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < run->nrows && n < max; i++) {
		const struct row *w = run->rows[i];

		if (w->workload && !strcmp(w->workload, "job") && !strcmp(w->phase, "disk") &&
		    (r < 0 || (int)w->repeat == r))
			out[n++] = w;
	}
	return n;
}

static int digits(uint64_t v)
{
	int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

char *fio_num(char *buf, size_t len, double value, int maxlen, int pow2, const char *unit)
{
	static const char *const si[] = { "", "k", "M", "G", "T", "P", "E" };
	static const char *const iec[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
	uint64_t base = pow2 ? 1024 : 1000, num = value > 0 ? (uint64_t)value : 0, rem = 0;
	unsigned idx = 0;
	int divided = 0, dec;

	while (digits(num) > maxlen && idx < 6) {
		rem = num % base;
		num /= base;
		idx++;
		divided = 1;
	}
	dec = maxlen - digits(num) - 1;
	if (dec > 18)
		dec = 18;	/* a uint64_t's fraction digits: the format's width stays bounded */
	if (divided && dec >= 1) {
		uint64_t scale = 1, frac;
		int k;

		for (k = 0; k < dec; k++)
			scale *= 10;
		frac = (uint64_t)llround((double)rem / (double)base * (double)scale);
		if (frac >= scale) {
			num++;
			frac = 0;
		}
		snprintf(buf, len, "%llu.%0*llu%s%s", (unsigned long long)num, dec,
			 (unsigned long long)frac, pow2 ? iec[idx] : si[idx], unit ? unit : "");
		return buf;
	}
	if (divided && rem * 2 >= base)
		num++;
	snprintf(buf, len, "%llu%s%s", (unsigned long long)num, pow2 ? iec[idx] : si[idx],
		 unit ? unit : "");
	return buf;
}

double fio_metric(const struct row *w, const char *name)
{
	const struct metric *m = w ? row_metric(w, name) : NULL;

	return m ? m->value : 0;
}

unsigned long fio_param_u(const struct row *w, const char *name, unsigned long dflt)
{
	const char *v = w ? kv_get(&w->params, name) : NULL;

	return v ? strtoul(v, NULL, 10) : dflt;
}

int fio_lat_shown(const struct row *w, const char *what)
{
	const char *v = w ? kv_get(&w->params, RK_JOB_LAT_SHOWN) : NULL;
	size_t n = strlen(what);

	if (!v)		/* fio's default: all but lat_percentiles */
		return strcmp(what, "lat_percentiles") != 0;
	while (*v) {
		const char *c = strchr(v, ',');
		size_t k = c ? (size_t)(c - v) : strlen(v);

		if (k == n && !strncmp(v, what, n))
			return 1;
		if (!c)
			break;
		v = c + 1;
	}
	return 0;
}

size_t fio_pctl(const struct row *w, double *p, size_t max)
{
	static const double def[] = { 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5,
				      99.9, 99.95, 99.99 };
	const char *v = w ? kv_get(&w->params, RK_JOB_PERCENTILE_LIST) : NULL;
	size_t n = 0;

	if (!v || !*v) {
		for (n = 0; n < sizeof(def) / sizeof(def[0]) && n < max; n++)
			p[n] = def[n];
		return n;
	}
	while (*v && n < max) {
		char *end;

		p[n++] = strtod(v, &end);
		if (end == v)
			break;
		v = *end == ':' ? end + 1 : end;
	}
	return n;
}

int fio_unit_errors(const struct fio_unit *u, double *total, double *first)
{
	int any = 0;
	unsigned d;

	*total = *first = 0;
	for (d = 0; d < FIO_DIRS; d++) {
		const struct metric *m = u->dir[d] ? row_metric(u->dir[d], RK_JOB_ERRORS) : NULL;

		if (!m)
			continue;
		any = 1;
		*total += m->value;
		if (!*first)
			*first = fio_metric(u->dir[d], RK_JOB_FIRST_ERROR);
	}
	return any;
}

double fio_unit_errno(const struct fio_unit *u)
{
	double e = fio_metric(u->first, RK_JOB_ERRNO), total, first;

	if (!e && fio_unit_errors(u, &total, &first))
		e = first;
	return e;
}

size_t fio_lat_pctl(const struct row *w, double *p, uint64_t *v, size_t max)
{
	size_t n = fio_pctl(w, p, max), i;
	char name[64];

	if (!w || !w->lat.hist || !w->lat.hist->n)
		return 0;
	for (i = 0; i < n; i++) {
		const struct metric *m;

		snprintf(name, sizeof(name), "%s%zu_ns", RK_JOB_LAT_PCTL_PFX, i + 1);
		m = row_metric(w, name);
		v[i] = m ? (uint64_t)m->value : hist_percentile(w->lat.hist, p[i]);
	}
	return n;
}

void fio_ss_line(FILE *f, const struct row *w)
{
	const char *spec = kv_get(&w->params, RK_JOB_SS);
	double bw = fio_metric(w, RK_JOB_SS_BW_MEAN);
	char b1[32], b2[32], io[32];
	size_t n;

	if (!spec)
		return;
	n = strlen(spec);
	fprintf(f, "  steadystate  : attained=%s, bw=%s (%s), iops=%s, %s%s=%.3f%s\n",
		fio_metric(w, RK_JOB_SS_ATTAINED) > 0 ? "yes" : "no",
		fio_num(b1, sizeof(b1), bw, 4, 1, "B/s"), fio_num(b2, sizeof(b2), bw, 4, 0, "B/s"),
		fio_num(io, sizeof(io), fio_metric(w, RK_JOB_SS_IOPS_MEAN), 4, 0, ""),
		!strncmp(spec, "iops", 4) ? "iops" : !strncmp(spec, "lat", 3) ? "lat" : "bw",
		strstr(spec, "_slope") ? " slope" : " mean dev",
		fio_metric(w, RK_JOB_SS_CRITERION), n && spec[n - 1] == '%' ? "%" : "");
}

unsigned fio_plat_index(unsigned b)
{
	return b < FIO_PLAT_NR - 1 ? b : FIO_PLAT_NR - 1;
}

uint64_t fio_plat_value(unsigned i)
{
	unsigned e;

	if (i < 2 * HIST_SUB)
		return i;
	/* group i / 64 starts at 2^(group + 5) ns with bins 2^(group - 1) wide: the middle
	 * of bin k of it is 2^(group + 5) + (k + 1/2) x 2^(group - 1) */
	e = i / HIST_SUB - 1;
	return (1ull << (e + HIST_SUB_BITS)) + ((2ull * (i % HIST_SUB) + 1) << (e - 1));
}

double fio_hist_sd(const struct hist *h)
{
	double n, mean, var;

	if (!h || h->n < 2)
		return 0;
	n = (double)h->n;
	mean = (double)h->sum / n;
	var = ((double)h->sumsq - n * mean * mean) / (n - 1);
	return var > 0 ? sqrt(var) : 0;
}

/* The bucket a latency of ns falls into: below the first edge at or above it. */
static unsigned lat_bucket(double ns)
{
	double scale = 1;
	unsigned u, i;

	for (u = 0; u < 3; u++, scale *= 1000)
		for (i = 0; i < 10; i++)
			if (ns <= fio_lat_edges[i] * scale)
				return u * 10 + i;
	return ns <= 2000.0 * 1e6 ? 30 : 31;
}

void fio_lat_dist(const struct hist *h, double out[FIO_LAT_BKT])
{
	unsigned i;

	if (!h || !h->n)
		return;
	for (i = 0; i < HIST_NBUCKETS; i++) {
		double mid;

		if (!h->b[i])
			continue;
		mid = (double)hist_bucket_low(i) + (double)hist_bucket_width(i) / 2.0;
		out[lat_bucket(mid)] += (double)h->b[i] * 100.0 / (double)h->n;
	}
}
