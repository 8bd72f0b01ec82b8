/* phase_sample_row.c - a phase's figures into its row: row->sys from the whole span of
 * the sampler's records, row->series from the bins (phase_sample.c). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "observe/waitstate.h"
#include "runner/phase_sample_int.h"
#include "runner/runner.h"
#include "stats/result.h"
#include "stats/result_sys.h"

void obs_hist_bounds(struct hist *h, uint64_t gmax)
{
	int lo = -1, hi = -1;

	for (unsigned b = 0; b < HIST_NBUCKETS; b++)
		if (h->b[b]) {
			if (lo < 0)
				lo = (int)b;
			hi = (int)b;
		}
	if (lo < 0) {
		h->min = UINT64_MAX;
		h->max = 0;
		return;
	}
	h->min = hist_bucket_low((unsigned)lo);
	h->max = hist_bucket_low((unsigned)hi) + hist_bucket_width((unsigned)hi) - 1;
	/* the exact maximum, when the slowest bucket holds it */
	if (gmax && hist_index(gmax) == (unsigned)hi)
		h->max = gmax;
}

void obs_bin_summarise(struct obs_bin *b)
{
	struct hist *h = b->h;
	unsigned hi;

	if (!h)
		return;
	obs_hist_bounds(h, b->gmax);
	b->n = h->n;
	if (h->n) {
		b->p50 = hist_percentile(h, 50);
		b->p99 = hist_percentile(h, 99);
		hi = hist_index(h->max);
		/* exact when reached in the bin, else the midpoint of the slowest bucket */
		b->max = b->gmax && hist_index(b->gmax) == hi ? b->gmax :
			 hist_percentile(h, 100);
	}
	free(h);
	b->h = NULL;
}

static void fill_dev(struct row_sys_dev *d, const struct diskstats_figures *f)
{
	double *v = d->v;

	v[RSD_RD_BYTES] = (double)f->rd_bytes;
	v[RSD_WR_BYTES] = (double)f->wr_bytes;
	v[RSD_R_S] = f->r_s;
	v[RSD_W_S] = f->w_s;
	v[RSD_RKB_S] = f->rkb_s;
	v[RSD_WKB_S] = f->wkb_s;
	v[RSD_RRQM_S] = f->rrqm_s;
	v[RSD_WRQM_S] = f->wrqm_s;
	v[RSD_R_AWAIT] = f->r_await;
	v[RSD_W_AWAIT] = f->w_await;
	v[RSD_AQU_SZ] = f->aqu_sz;
	v[RSD_RAREQ_SZ] = f->rareq_sz;
	v[RSD_WAREQ_SZ] = f->wareq_sz;
	v[RSD_UTIL] = f->util_pct;
	if (f->has_discard) {
		v[RSD_D_S] = f->d_s;
		v[RSD_DKB_S] = f->dkb_s;
		v[RSD_D_AWAIT] = f->d_await;
	}
	if (f->has_flush) {
		v[RSD_F_S] = f->f_s;
		v[RSD_F_AWAIT] = f->f_await;
	}
}

/* Devices: per device over the whole phase. */
static int sys_devices(struct phase_obs *o, struct row_sys *s)
{
	const struct diskstats_set *set = sampler_devices(o->s);
	struct diskstats_figures f;

	if (!set->ndev)
		return str_set(&s->devices_reason, set->reason[0] ? set->reason :
			       "no block device found");
	if (row_sys_set_devs(s, set->ndev) < 0)
		return -ENOMEM;
	for (unsigned d = 0; d < set->ndev; d++) {
		if (str_set(&s->dev[d].name, set->dev[d].name) < 0 ||
		    str_set(&s->dev[d].role, diskstats_role_name(set->dev[d].role)) < 0)
			return -ENOMEM;
		if (sampler_dev(o->s, SAMPLER_WHOLE, d, &f) == 0) {
			fill_dev(&s->dev[d], &f);
			o->dev_read = 1;
		}
	}
	if (o->dev_read)
		return 0;
	/* devices without a single reading: none, and why */
	row_sys_set_devs(s, 0);
	return str_set(&s->devices_reason, "the device counters could not be read "
		       "(/proc/diskstats)");
}

/* The workers' own bytes (task I/O accounting), when every worker's is known. */
static void sys_workload_io(struct phase_obs *o, struct row_sys *s)
{
	uint64_t rd = 0, wr = 0;

	for (unsigned i = 0; i < o->nw; i++) {
		if (!o->io0[i].ok || !o->io1[i].ok)
			return;
		rd += o->io1[i].rchar - o->io0[i].rchar;
		wr += o->io1[i].wchar - o->io0[i].wchar;
	}
	s->v[RS_WL_READ] = (double)rd;
	s->v[RS_WL_WRITTEN] = (double)wr;
	if (s->ndev && wr > 0 && isfinite(s->dev[0].v[RSD_WR_BYTES]))
		s->v[RS_WRITE_AMP] = s->dev[0].v[RSD_WR_BYTES] / (double)wr;
}

static void sys_cpu_mem(struct phase_obs *o, struct row_sys *s)
{
	struct procstat_split c;
	struct procstat_mem m0;
	struct sampler_record r;
	unsigned n = sampler_count(o->s);
	int ok0;

	if (sampler_cpu(o->s, SAMPLER_WHOLE, &c) == 0) {
		s->v[RS_CPU_USER] = c.user;
		s->v[RS_CPU_NICE] = c.nice;
		s->v[RS_CPU_SYSTEM] = c.system;
		s->v[RS_CPU_IOWAIT] = c.iowait;
		s->v[RS_CPU_IRQ] = c.irq;
		s->v[RS_CPU_SOFTIRQ] = c.softirq;
		s->v[RS_CPU_STEAL] = c.steal;
		s->v[RS_CPU_IDLE] = c.idle;
	}
	sampler_mem_start(o->s, &m0, &ok0);
	if (ok0) {
		s->v[RS_DIRTY0] = (double)m0.dirty;
		s->v[RS_WB0] = (double)m0.writeback;
		s->v[RS_CACHED0] = (double)m0.cached;
	}
	if (n && sampler_get(o->s, n - 1, &r) == 0 && r.mem_ok) {
		s->v[RS_DIRTY1] = (double)r.mem.dirty;
		s->v[RS_WB1] = (double)r.mem.writeback;
		s->v[RS_CACHED1] = (double)r.mem.cached;
	}
}

/* Wait states: every key seen, largest share first. */
static int sys_waits(struct phase_obs *o, struct row_sys *s)
{
	struct sampler_wait_count *wc = malloc(WAITSTATE_MAX_KEYS * sizeof(*wc));
	struct waitstate_acc *acc = malloc(sizeof(*acc));
	struct sampler_record r;
	struct waitstate_key key;
	uint64_t passes = 0;
	unsigned i, n = sampler_count(o->s);
	int k, rc = -ENOMEM;

	if (!wc || !acc)
		goto out;
	for (i = 0; i < n; i++)
		if (sampler_get(o->s, i, &r) == 0)
			passes += r.wait_passes;
	sampler_wait_totals(o->s, acc);
	s->v[RS_WAIT_PASSES] = (double)passes;
	s->v[RS_WAIT_OBS] = (double)acc->observations;
	s->wchan_hidden = waitstate_wchan_hidden(acc);
	k = sampler_wait(o->s, SAMPLER_WHOLE, wc, WAITSTATE_MAX_KEYS);
	if (k > WAITSTATE_MAX_KEYS)
		k = WAITSTATE_MAX_KEYS;
	if (k < 0 || row_sys_set_waits(s, (size_t)k) < 0)
		goto out;
	for (int a = 0; a < k; a++)		/* few keys: a selection sort */
		for (int b = a + 1; b < k; b++)
			if (wc[b].count > wc[a].count) {
				struct sampler_wait_count t = wc[a];

				wc[a] = wc[b];
				wc[b] = t;
			}
	for (int a = 0; a < k; a++) {
		struct row_sys_wait *w = &s->wait[a];

		if (sampler_wait_key(o->s, wc[a].key, &key) < 0)
			memset(&key, 0, sizeof(key));
		w->state = key.state ? key.state : '?';
		if (str_set(&w->wchan, key.wchan) < 0 || str_set(&w->syscall, key.syscall) < 0)
			goto out;
		w->count = (double)wc[a].count;
		w->share_pct = acc->observations ?
			       100.0 * (double)wc[a].count / (double)acc->observations : NAN;
	}
	rc = 0;
out:
	free(wc);
	free(acc);
	return rc;
}

/* One series point from bin b: the workers' figures, then the sampler's over its span. */
static void series_point(struct phase_obs *o, struct row_series *se, size_t i,
			 const struct obs_bin *b)
{
	const struct diskstats_set *set = sampler_devices(o->s);
	struct diskstats_figures f;
	struct procstat_split c;
	struct sampler_record r;

	if (sampler_get(o->s, b->last, &r) == 0) {
		se->v[RSE_T_NS][i] = (double)(r.t1_ns > o->ph->t0 ? r.t1_ns - o->ph->t0 : 0);
		if (r.mem_ok) {
			se->v[RSE_DIRTY][i] = (double)r.mem.dirty;
			se->v[RSE_WB][i] = (double)r.mem.writeback;
		}
	}
	se->v[RSE_OPS][i] = (double)b->ops;
	se->v[RSE_BYTES][i] = (double)b->bytes;
	if (b->n) {
		se->v[RSE_P50][i] = (double)b->p50;
		se->v[RSE_P99][i] = (double)b->p99;
		se->v[RSE_MAX][i] = (double)b->max;
	}
	if (sampler_cpu_span(o->s, b->first, b->last, &c) == 0) {
		se->v[RSE_CPU_USER][i] = c.user + c.nice;
		se->v[RSE_CPU_SYSTEM][i] = c.system + c.irq + c.softirq;
		se->v[RSE_CPU_IOWAIT][i] = c.iowait;
		se->v[RSE_CPU_STEAL][i] = c.steal;
		se->v[RSE_CPU_IDLE][i] = c.idle;
	}
	for (unsigned d = 0; d < set->ndev && d < se->ndev; d++) {
		double **v = se->dev[d].v;

		if (sampler_dev_span(o->s, b->first, b->last, d, &f) < 0)
			continue;
		v[RSED_UTIL][i] = f.util_pct;
		v[RSED_AQU][i] = f.aqu_sz;
		v[RSED_R_S][i] = f.r_s;
		v[RSED_W_S][i] = f.w_s;
		v[RSED_RKB_S][i] = f.rkb_s;
		v[RSED_WKB_S][i] = f.wkb_s;
		v[RSED_R_AWAIT][i] = f.r_await;
		v[RSED_W_AWAIT][i] = f.w_await;
	}
}

static int series_fill(struct phase_obs *o, struct row *row)
{
	const struct diskstats_set *set = sampler_devices(o->s);
	struct row_series *se;

	if (o->failed || !o->nbins)
		return 0;
	se = row_series_new(o->nbins, o->dev_read ? set->ndev : 0);
	if (!se)
		return -ENOMEM;
	se->interval_ns = o->ro->base_ns * o->width;
	for (unsigned d = 0; d < se->ndev; d++)
		if (str_set(&se->dev[d].name, set->dev[d].name) < 0) {
			row_series_free(se);
			return -ENOMEM;
		}
	for (unsigned i = 0; i < o->nbins; i++) {
		obs_bin_summarise(&o->bins[i]);
		series_point(o, se, i, &o->bins[i]);
	}
	row->series = se;
	return 0;
}

int obs_fill_row(struct phase_obs *o, struct row *row)
{
	struct row_sys *s = row_sys_new();
	uint64_t cpu_ns = 0, wall_ns = 0;

	if (!s)
		return -ENOMEM;
	if (sys_devices(o, s) < 0 || sys_waits(o, s) < 0) {
		row_sys_free(s);
		return -ENOMEM;
	}
	sys_workload_io(o, s);
	sys_cpu_mem(o, s);
	sampler_self_cpu(o->s, &cpu_ns, &wall_ns);
	s->v[RS_SAMPLER_CPU_S] = (double)cpu_ns / 1e9;
	row_sys_free(row->sys);
	row->sys = s;
	return series_fill(o, row);
}
