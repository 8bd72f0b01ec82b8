/* phase_sample.c - a phase's sampler and its interval bins: started with the phase
 * clock, the workers' counters read at every base interval on the sampler thread (the
 * tick), bins merged in pairs up to the series interval, all put into the row at
 * phase_end. See phase_sample.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "observe/waitstate.h"
#include "runner/phase_sample_int.h"
#include "runner/runner.h"
#include "stats/result.h"

static void obs_free(struct phase_obs *o)
{
	if (!o)
		return;
	sampler_free(o->s);
	for (unsigned i = 0; i < o->nbins; i++)
		free(o->bins[i].h);
	free(o->bins);
	free(o->open.h);
	free(o->slice);
	free(o->prev_h);
	free(o->prev_ops);
	free(o->prev_bytes);
	free(o->prev_max);
	free(o->tids);
	free(o->io0);
	free(o->io1);
	pthread_mutex_destroy(&o->mu);
	free(o);
}

void phase_obs_begin(struct phase *ph)
{
	struct runner_obs *ro = ph->rc ? ph->rc->obs : NULL;
	struct phase_obs *o;
	unsigned n = ph->nw;

	ph->obs = NULL;
	if (!ro)
		return;
	o = calloc(1, sizeof(*o));
	if (!o)
		return;
	pthread_mutex_init(&o->mu, NULL);
	o->ro = ro;
	o->ph = ph;
	o->nw = n;
	o->tids = calloc(n, sizeof(*o->tids));
	o->io0 = calloc(n, sizeof(*o->io0));
	o->io1 = calloc(n, sizeof(*o->io1));
	o->prev_ops = calloc(n, sizeof(*o->prev_ops));
	o->prev_bytes = calloc(n, sizeof(*o->prev_bytes));
	o->prev_max = calloc(n, sizeof(*o->prev_max));
	o->prev_h = malloc(n * sizeof(*o->prev_h));
	o->slice = malloc(sizeof(*o->slice));
	if (!o->tids || !o->io0 || !o->io1 || !o->prev_ops || !o->prev_bytes ||
	    !o->prev_max || !o->prev_h || !o->slice) {
		obs_free(o);
		return;	/* the phase runs without figures */
	}
	o->tids[0] = waitstate_tid();	/* one worker: the thread running the phase */
	ph->obs = o;
	ph->prog.live = &o->live;
	pthread_mutex_lock(&ro->mu);
	o->prev = ro->cur;
	ro->cur = o;
	pthread_mutex_unlock(&ro->mu);
}

void phase_obs_thread(struct phase *ph, unsigned i)
{
	if (ph->obs && i < ph->obs->nw)
		ph->obs->tids[i] = waitstate_tid();
}

void phase_obs_thread_done(struct phase *ph, unsigned i)
{
	if (ph->obs && i < ph->obs->nw)
		taskio_read(0, &ph->obs->io1[i]);
}

/* Forget the bins and readings: the series starts again (at a restart of the clock). */
static void obs_reset(struct phase_obs *o)
{
	for (unsigned i = 0; i < o->nbins; i++)
		free(o->bins[i].h);
	o->nbins = 0;
	free(o->open.h);
	memset(&o->open, 0, sizeof(o->open));
	memset(o->prev_ops, 0, o->nw * sizeof(*o->prev_ops));
	memset(o->prev_bytes, 0, o->nw * sizeof(*o->prev_bytes));
	memset(o->prev_max, 0, o->nw * sizeof(*o->prev_max));
	for (unsigned i = 0; i < o->nw; i++)
		hist_init(&o->prev_h[i]);
	o->width = 1;
	o->failed = 0;
	memset(&o->live, 0, sizeof(o->live));
}

static void obs_tick(void *arg, struct sampler *s, unsigned rec);

void phase_obs_restart(struct phase *ph)
{
	struct phase_obs *o = ph->obs;
	struct runner_obs *ro;
	struct sampler_cfg cfg;
	unsigned i, known = 0;

	if (!o)
		return;
	ro = o->ro;
	sampler_free(o->s);
	o->s = NULL;
	obs_reset(o);
	memset(&cfg, 0, sizeof(cfg));
	cfg.devices = &ro->set;
	cfg.interval_ns = ro->base_ns;
	cfg.wait_interval_ns = ro->o.wait_ns;
	cfg.want_stack = 1;
	cfg.tick = obs_tick;
	cfg.tick_arg = o;
	for (i = 0; i < o->nw; i++) {
		if (o->tids[i])
			known++;
		if (o->tids[i] && taskio_read(o->tids[i], &o->io0[i]) < 0)
			o->io0[i].ok = 0;
	}
	/* wait states of the workers alone when every one is known and they fit */
	if (known == o->nw && o->nw <= SAMPLER_MAX_TIDS) {
		memcpy(cfg.tids, o->tids, o->nw * sizeof(int));
		cfg.ntids = o->nw;
	}
	if (ro->datadir[0])
		o->npids = obs_server_pids(ro->datadir, o->pids, SAMPLER_MAX_PIDS);
	memcpy(cfg.pids, o->pids, o->npids * sizeof(int));
	cfg.npids = o->npids;
	cfg.records_hint = 64;
	if (sampler_start(&cfg, &o->s) < 0)
		o->s = NULL;	/* no figures for this phase */
}

/* ---- the tick: on the sampler thread ---- */

/* Read worker i's counters and add what it did since the last reading to the slice. */
static void obs_read_worker(struct phase_obs *o, unsigned i, struct obs_bin *sl)
{
	struct worker *w = &o->ph->w[i];
	struct hist *prev = &o->prev_h[i], *h = o->slice;
	uint64_t ops = __atomic_load_n(&w->ops, __ATOMIC_RELAXED);
	uint64_t bytes = __atomic_load_n(&w->bytes, __ATOMIC_RELAXED);
	uint64_t mx, n;

	sl->ops += (int64_t)(ops - o->prev_ops[i]);
	sl->bytes += (int64_t)(bytes - o->prev_bytes[i]);
	o->prev_bytes[i] = bytes;
	n = __atomic_load_n(&w->lat.n, __ATOMIC_RELAXED);
	if (n == prev->n && ops == o->prev_ops[i])
		return;	/* nothing completed: the buckets are as they were */
	o->prev_ops[i] = ops;
	prev->n = n;
	for (unsigned b = 0; b < HIST_NBUCKETS; b++) {
		uint64_t v = __atomic_load_n(&w->lat.b[b], __ATOMIC_RELAXED);

		if (v != prev->b[b]) {
			h->b[b] += v - prev->b[b];
			h->n += v - prev->b[b];
			prev->b[b] = v;
		}
	}
	/* a maximum that grew was reached in this slice: it is exact */
	mx = __atomic_load_n(&w->lat.max, __ATOMIC_RELAXED);
	if (mx > o->prev_max[i]) {
		o->prev_max[i] = mx;
		if (mx > sl->gmax)
			sl->gmax = mx;
	}
}

/* Add bin src into dst (src follows dst). */
static void bin_add(struct obs_bin *dst, struct obs_bin *src)
{
	dst->last = src->last;
	dst->nrec += src->nrec;
	dst->ops += src->ops;
	dst->bytes += src->bytes;
	if (src->gmax > dst->gmax)
		dst->gmax = src->gmax;
	if (dst->h && src->h)
		hist_merge(dst->h, src->h);
	free(src->h);
	src->h = NULL;
}

/* Twenty bins: merge them in pairs and double the width. */
static void obs_merge(struct phase_obs *o)
{
	unsigned i, k = 0;

	for (i = 0; i + 1 < o->nbins; i += 2) {
		o->bins[k] = o->bins[i];
		bin_add(&o->bins[k], &o->bins[i + 1]);
		k++;
	}
	if (i < o->nbins)
		o->bins[k++] = o->bins[i];
	o->nbins = k;
	o->width *= 2;
	if (o->width >= o->ro->factor)
		for (i = 0; i < o->nbins; i++)
			obs_bin_summarise(&o->bins[i]);
}

/* Close the open bin: keep it, summarised when it will not be merged any more. */
static int obs_close(struct phase_obs *o)
{
	if (o->nbins == o->cap) {
		unsigned ncap = o->cap ? o->cap * 2 : 32;
		struct obs_bin *b = realloc(o->bins, ncap * sizeof(*b));

		if (!b)
			return -ENOMEM;
		o->bins = b;
		o->cap = ncap;
	}
	if (o->width >= o->ro->factor)
		obs_bin_summarise(&o->open);
	o->bins[o->nbins++] = o->open;
	memset(&o->open, 0, sizeof(o->open));
	if (o->width < o->ro->factor && o->nbins >= OBS_MERGE_AT)
		obs_merge(o);
	return 0;
}

static void obs_tick(void *arg, struct sampler *s, unsigned rec)
{
	struct phase_obs *o = arg;
	struct obs_bin sl;
	uint64_t p99;

	if (o->failed)
		return;
	memset(&sl, 0, sizeof(sl));
	sl.first = sl.last = rec;
	sl.nrec = 1;
	hist_init(o->slice);
	for (unsigned i = 0; i < o->nw; i++)
		obs_read_worker(o, i, &sl);
	obs_hist_bounds(o->slice, sl.gmax);
	if (!o->open.nrec) {
		o->open.first = rec;
		o->open.h = malloc(sizeof(*o->open.h));
		if (!o->open.h) {
			o->failed = 1;
			return;
		}
		hist_init(o->open.h);
	}
	hist_merge(o->open.h, o->slice);
	o->open.last = rec;
	o->open.nrec++;
	o->open.ops += sl.ops;
	o->open.bytes += sl.bytes;
	if (sl.gmax > o->open.gmax)
		o->open.gmax = sl.gmax;
	if (o->open.nrec >= o->width && obs_close(o) < 0)
		o->failed = 1;
	/* the progress line's figures */
	p99 = hist_percentile(o->slice, 99);
	if (o->slice->n) {
		__atomic_store_n(&o->live.p99_ns, p99, __ATOMIC_RELAXED);
		__atomic_or_fetch(&o->live.have, PROGRESS_LIVE_P99, __ATOMIC_RELAXED);
	}
	/* the sampler as the tick hands it: its first tick can come before
	 * sampler_start has stored it in o->s */
	obs_view_update(o, s, rec, &sl);
}

void phase_obs_end(struct phase *ph, struct row *row)
{
	struct phase_obs *o = ph->obs;
	struct runner_obs *ro;
	struct phase_obs **pp;

	if (!o)
		return;
	ro = o->ro;
	if (o->s)
		sampler_stop(o->s);	/* the last record and tick: the workers are done */
	if (o->nw == 1 && o->tids[0] == waitstate_tid())
		taskio_read(0, &o->io1[0]);
	if (row && o->s && !o->failed && o->open.nrec && obs_close(o) < 0)
		o->failed = 1;
	if (row && o->s)
		obs_fill_row(o, row);
	pthread_mutex_lock(&ro->mu);
	for (pp = &ro->cur; *pp && *pp != o; pp = &(*pp)->prev)
		;
	if (*pp)
		*pp = o->prev;
	pthread_mutex_unlock(&ro->mu);
	ph->prog.live = NULL;
	ph->obs = NULL;
	obs_free(o);
}
