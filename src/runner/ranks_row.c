/* ranks_row.c - one row's merge across ranks from the ranks' figures, without any
 * communication (ranks_merge.c gathers the figures; t_ranks injects them). The rules
 * are in ranks.h and docs/methodology.md ("Several ranks"). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/ranks.h"
#include "runner/ranks_int.h"
#include "stats/hist.h"
#include "stats/result.h"
#include "stats/result_keys.h"

#define SLOW_SHARE	0.20	/* a rank this far below the median rate is named */

double ranks_done_at(const uint64_t *t, const uint64_t *done, unsigned n, uint64_t stop,
		     uint64_t total, uint64_t at)
{
	uint64_t t0 = 0, d0 = 0, t1 = stop, d1 = total;
	unsigned i;
	double f;

	if (at >= stop || total == 0)
		return at >= stop ? 1.0 : 0.0;
	/* the two known points around at: a sample, the start (0, 0) or the stop */
	for (i = 0; i < n; i++) {
		if (t[i] <= at) {
			t0 = t[i];
			d0 = done[i];
		} else {
			t1 = t[i];
			d1 = done[i];
			break;
		}
	}
	if (d1 < d0)
		d1 = d0;
	f = t1 > t0 ? (double)d0 + (double)(d1 - d0) * (double)(at - t0) / (double)(t1 - t0)
		    : (double)d0;
	f /= (double)total;
	return f < 0 ? 0 : f > 1 ? 1 : f;
}

double ranks_metric_merge(const char *unit, const double *v, unsigned n)
{
	double acc = 0;
	unsigned i, k = 0;
	int mx = unit && (!strcmp(unit, "s") || !strcmp(unit, "bool"));
	int mean = unit && !strcmp(unit, "%");

	for (i = 0; i < n; i++) {
		if (!isfinite(v[i]))
			continue;
		if (mx)
			acc = k == 0 || v[i] > acc ? v[i] : acc;
		else
			acc += v[i];
		k++;
	}
	if (k == 0)
		return NAN;
	return mean ? acc / k : acc;
}

void ranks_fig_lat(struct rank_fig *f, const struct hist *h)
{
	f->has_lat = 1;
	f->lat_n = h->n;
	f->lat_sum = h->sum;
	f->lat_min = h->min;
	f->lat_max = h->max;
	f->lat_sq_lo = (uint64_t)h->sumsq;
	f->lat_sq_hi = (uint64_t)(h->sumsq >> 64);
}

struct hist *ranks_hist_merge(const uint64_t *b, const struct rank_fig *fig, unsigned n)
{
	struct hist *h = malloc(sizeof(*h));
	unsigned r;

	if (!h)
		return NULL;
	hist_init(h);
	memcpy(h->b, b, sizeof(h->b));
	for (r = 0; r < n; r++) {
		if (!fig[r].has_lat)
			continue;
		h->n += fig[r].lat_n;
		h->sum += fig[r].lat_sum;
		h->sumsq += ((unsigned __int128)fig[r].lat_sq_hi << 64) | fig[r].lat_sq_lo;
		h->min = fig[r].lat_min < h->min ? fig[r].lat_min : h->min;
		h->max = fig[r].lat_max > h->max ? fig[r].lat_max : h->max;
	}
	return h;
}

/* The work a rank did in rate units: its rate over its own time. */
static double work_of(const struct rank_fig *f)
{
	return isfinite(f->rate) ? f->rate * (double)f->elapsed_ns / 1e9 : NAN;
}

/* The rates' spread over the present ranks, and a note naming the slow ones. */
static int spread(struct row *row, const struct rank_fig *fig, unsigned n,
		  const char *const *hosts)
{
	double *v = calloc(n, sizeof(*v)), sum = 0, sq = 0, mn = INFINITY, mx = -INFINITY, med;
	unsigned i, k = 0, j;
	char note[512] = "";
	size_t used = 0;
	int e = 0;

	if (!v)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (!fig[i].present || !isfinite(fig[i].rate) || (fig[i].flags & ROW_FAILED))
			continue;
		v[k++] = fig[i].rate;
		sum += fig[i].rate;
		mn = fig[i].rate < mn ? fig[i].rate : mn;
		mx = fig[i].rate > mx ? fig[i].rate : mx;
	}
	if (k == 0) {
		free(v);
		return 0;
	}
	for (i = 0; i < k; i++)
		sq += (v[i] - sum / k) * (v[i] - sum / k);
	e |= row_add_metric(row, RK_ROW_RANK_RATE_MIN, mn, RK_UNIT_RATE);
	e |= row_add_metric(row, RK_ROW_RANK_RATE_MAX, mx, RK_UNIT_RATE);
	e |= row_add_metric(row, RK_ROW_RANK_RATE_MEAN, sum / k, RK_UNIT_RATE);
	e |= row_add_metric(row, RK_ROW_RANK_RATE_SD, sqrt(sq / k), RK_UNIT_RATE);
	/* the median: insertion sort, k is the number of ranks */
	for (i = 1; i < k; i++)
		for (j = i; j > 0 && v[j - 1] > v[j]; j--) {
			double t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	med = k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
	for (i = 0; i < n && med > 0 && k > 1; i++) {
		double below = 1 - fig[i].rate / med;
		int w;

		if (!fig[i].present || !isfinite(fig[i].rate) || (fig[i].flags & ROW_FAILED) ||
		    below < SLOW_SHARE)
			continue;
		w = snprintf(note + used, sizeof(note) - used, "%srank %u on %s: %.0f%% below "
			     "the median", used ? "; " : "", i, hosts && hosts[i] && *hosts[i] ?
			     hosts[i] : "?", below * 100);
		if (w > 0 && (size_t)w < sizeof(note) - used)
			used += (size_t)w;
	}
	if (used) {
		char *s = row->note ? str_printf("%s; %s", row->note, note)
				    : str_printf("%s", note);

		if (!s)
			e = -ENOMEM;
		free(row->note);
		row->note = s;
	}
	free(v);
	return e ? -ENOMEM : 0;
}

/* IOR's rule on the timed rows, elbencho's first done, IOR's stonewall figures. */
static int timed(struct row *row, const struct rank_fig *fig, unsigned n, double work)
{
	uint64_t smin = UINT64_MAX, smax = 0, first = UINT64_MAX, buf = 0, dur = 0, swt = 0;
	uint64_t swmin = UINT64_MAX, swmax = 0, swsum = 0, bytes = 0;
	double fwork = 0, span;
	unsigned i;
	int e = 0;

	for (i = 0; i < n; i++) {
		const struct rank_fig *f = &fig[i];
		uint64_t stop = f->start_ns + f->elapsed_ns;

		if (!f->present)
			continue;
		smin = f->start_ns < smin ? f->start_ns : smin;
		smax = stop > smax ? stop : smax;
		first = stop < first ? stop : first;
		if (f->buffered_ns && f->start_ns + f->buffered_ns > buf)
			buf = f->start_ns + f->buffered_ns;
		if (f->durable_ns && f->start_ns + f->durable_ns > dur)
			dur = f->start_ns + f->durable_ns;
		bytes += f->bytes;
		if (f->sw_bytes) {
			swmin = f->sw_bytes < swmin ? f->sw_bytes : swmin;
			swmax = f->sw_bytes > swmax ? f->sw_bytes : swmax;
			swsum += f->sw_bytes;
			if (f->start_ns + f->sw_ns > swt)
				swt = f->start_ns + f->sw_ns;
		}
		if (isfinite(work_of(f)))
			fwork += f->first_frac * work_of(f);
	}
	if (smin == UINT64_MAX)
		return 0;
	row->elapsed_ns = smax > smin ? smax - smin : 1;
	row->buffered_ns = buf ? buf - smin : 0;
	row->durable_ns = dur ? dur - smin : 0;
	span = (double)row->elapsed_ns / 1e9;
	row->rate = work / span;
	e |= row_add_metric(row, RK_ROW_LAST_DONE_S, span, "s");
	e |= row_add_metric(row, RK_ROW_FIRST_DONE_S, (double)(first - smin) / 1e9, "s");
	if (first > smin && isfinite(work))
		e |= row_add_metric(row, RK_ROW_FIRST_DONE_RATE,
				    fwork / ((double)(first - smin) / 1e9), RK_UNIT_RATE);
	if (swsum) {
		double per_byte = bytes ? work / (double)bytes : NAN;
		double sws = swt > smin ? (double)(swt - smin) / 1e9 : span;

		e |= row_add_metric(row, RK_ROW_STONEWALL_S, sws, "s");
		e |= row_add_metric(row, RK_ROW_STONEWALL_BYTES_MIN, (double)swmin, "B");
		e |= row_add_metric(row, RK_ROW_STONEWALL_BYTES_MAX, (double)swmax, "B");
		if (isfinite(per_byte))
			e |= row_add_metric(row, RK_ROW_STONEWALL_RATE,
					    (double)swsum * per_byte / sws, RK_UNIT_RATE);
	}
	return e ? -ENOMEM : 0;
}

/* Rows without a window of their own: a latency-time row (its elapsed is the sum of its
 * samples, as PostMark's per-operation rows) sums the times, any other takes the
 * longest. */
static void untimed(struct row *row, const struct rank_fig *fig, unsigned n, double work)
{
	uint64_t sum = 0, mx = 0;
	int lat_time = 1;
	unsigned i;

	for (i = 0; i < n; i++) {
		if (!fig[i].present)
			continue;
		sum += fig[i].elapsed_ns;
		mx = fig[i].elapsed_ns > mx ? fig[i].elapsed_ns : mx;
		if (!fig[i].has_lat || fig[i].elapsed_ns != fig[i].lat_sum)
			lat_time = 0;
	}
	row->elapsed_ns = lat_time ? sum : mx;
	if (row->elapsed_ns)
		row->rate = work / ((double)row->elapsed_ns / 1e9);
}

static void merge_cpu(struct row *row, const struct rank_fig *fig, unsigned n)
{
	struct row_cpu *c = &row->cpu;
	double busy = 0, busy_s = 0;
	unsigned i, k = 0;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < n; i++) {
		if (!fig[i].present || !fig[i].cpu_valid)
			continue;
		c->user_s += fig[i].user_s;
		c->sys_s += fig[i].sys_s;
		busy += fig[i].sys_busy_pct;
		busy_s += fig[i].sys_busy_s;
		k++;
	}
	if (!k)
		return;
	c->valid = 1;
	c->proc_pct = row->elapsed_ns ? (c->user_s + c->sys_s) / ((double)row->elapsed_ns / 1e9) *
		      100.0 : 0;
	/* ranks on one host see the same system: the busy share is their mean */
	c->wall_s = (double)row->elapsed_ns / 1e9;
	c->ops = row->ops;
	c->sys_busy_pct = busy / k;
	c->sys_busy_s = busy_s / k;
	c->cpu_ns_per_op = row->ops ? (c->user_s + c->sys_s) * 1e9 / (double)row->ops : 0;
}

/* Flags, error, cache and the per-rank table. */
static int merge_misc(struct row *row, const struct rank_fig *fig, unsigned n,
		      const char *const *hosts, uint64_t smin)
{
	double cache = 0;
	unsigned i, k = 0, flags = 0;
	int dropped = 1, named = (row->flags & ROW_FAILED) != 0;

	row->ranks = calloc(n, sizeof(*row->ranks));
	if (!row->ranks)
		return -ENOMEM;
	row->nranks = n;
	for (i = 0; i < n; i++) {
		const struct rank_fig *f = &fig[i];
		struct row_rank *r = &row->ranks[i];

		r->rank = i;
		if (!f->present)
			continue;
		r->present = 1;
		r->start_ns = f->timed && f->start_ns >= smin ? f->start_ns - smin : 0;
		r->stop_ns = r->start_ns + f->elapsed_ns;
		r->bytes = f->bytes;
		r->ops = f->ops;
		r->elapsed_ns = f->elapsed_ns;
		r->rate = f->rate;
		r->stonewall_bytes = f->sw_bytes;
		r->flags = f->flags;
		flags |= f->flags;
		if (f->cache_pct >= 0) {
			cache += f->cache_pct;
			k++;
			dropped &= f->cache_dropped != 0;
		}
		if (i && f->error[0] && !named && (f->flags & ROW_FAILED)) {
			named = 1;
			free(row->error);
			row->error = str_printf("rank %u on %s: %s", i, hosts && hosts[i] ?
						hosts[i] : "?", f->error);
		}
	}
	row->flags = (row->flags | flags) & ~ROW_SHORT;
	if (row->elapsed_ns < ROW_SHORT_NS)
		row->flags |= ROW_SHORT;
	if (k) {
		row->cache_pct = cache / k;
		row->cache_dropped = dropped;
	}
	return 0;
}

static int same_host(const char *const *hosts, unsigned a, unsigned b)
{
	return hosts && hosts[a] && hosts[b] && !strcmp(hosts[a], hosts[b]);
}

/* A device's row (the job workload's disk rows: param RK_JOB_DEVICE) counts what the
 * device did, which every rank on a host sees whole: each host's largest count, summed
 * over the hosts, instead of every rank's. *work becomes theirs likewise. */
static void device_counts(struct row *row, const struct rank_fig *fig, unsigned n,
			  const char *const *hosts, double *work)
{
	unsigned i, q, best;

	if (!kv_get(&row->params, RK_JOB_DEVICE))
		return;
	row->bytes = row->ops = 0;
	*work = 0;
	for (i = 0; i < n; i++) {
		if (!fig[i].present)
			continue;
		for (q = 0; q < i && !(fig[q].present && same_host(hosts, q, i)); q++)
			;
		if (q < i)
			continue;	/* its host is counted already */
		for (best = i, q = i + 1; q < n; q++)
			if (fig[q].present && same_host(hosts, q, i) &&
			    fig[q].bytes + fig[q].ops > fig[best].bytes + fig[best].ops)
				best = q;
		row->bytes += fig[best].bytes;
		row->ops += fig[best].ops;
		*work += work_of(&fig[best]);
	}
}

int ranks_merge_row(struct row *row, const struct rank_fig *fig, unsigned n, struct hist *h,
		    const char *const *hosts)
{
	double work = 0;
	uint64_t smin = UINT64_MAX;
	unsigned i;
	int e;

	row->bytes = row->ops = 0;
	for (i = 0; i < n; i++) {
		if (!fig[i].present)
			continue;
		row->bytes += fig[i].bytes;
		row->ops += fig[i].ops;
		work += work_of(&fig[i]);	/* NaN when a rate is (db's script_total) */
		if (fig[i].timed && fig[i].start_ns < smin)
			smin = fig[i].start_ns;
	}
	device_counts(row, fig, n, hosts, &work);
	if (fig[0].timed)
		e = timed(row, fig, n, work);
	else {
		untimed(row, fig, n, work);
		e = 0;
		smin = 0;
	}
	if (!e)
		e = merge_misc(row, fig, n, hosts, smin == UINT64_MAX ? 0 : smin);
	if (!e)
		e = spread(row, fig, n, hosts);
	if (!e)
		e = kv_set(&row->params, RK_ROW_RANK_COUNT, "%u", n);
	merge_cpu(row, fig, n);
	if (h && h->n)
		row_set_lat(row, h);
	else
		free(h);
	return e;
}
