/* ranks_merge.c - after the last phase, every row of the run merged across the ranks
 * (rank 0's rows are the result), and the ranks' environments gathered. The row book
 * that phase_end fills lives here too. See ranks.h. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comm/comm.h"
#include "runner/ranks.h"
#include "runner/ranks_int.h"
#include "runner/runner.h"
#include "stats/hist.h"
#include "stats/result.h"

int ranks_book_row(struct runner *rc, const struct row *row, uint64_t start_ns, uint64_t *st,
		   uint64_t *sd, unsigned ns, uint64_t sw_bytes, uint64_t sw_ns)
{
	struct rank_book *b = rc->book;
	struct rank_book_entry *e;

	if (!b && !(b = rc->book = calloc(1, sizeof(*b))))
		return -ENOMEM;
	if (b->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 32;

		e = realloc(b->e, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		b->e = e;
		b->cap = cap;
	}
	e = &b->e[b->n++];
	e->row = (struct row *)row;
	e->start_ns = start_ns;
	e->st = st;
	e->sd = sd;
	e->ns = ns;
	e->sw_bytes = sw_bytes;
	e->sw_ns = sw_ns;
	return 0;
}

const struct rank_book_entry *ranks_book_find(const struct runner *rc, const struct row *row)
{
	size_t i;

	/* the latest: a row freed by a trial run may have left its address to a new one */
	for (i = rc->book ? rc->book->n : 0; i-- > 0;)
		if (rc->book->e[i].row == row)
			return &rc->book->e[i];
	return NULL;
}

void ranks_book_free(struct runner *rc)
{
	size_t i;

	if (!rc->book)
		return;
	for (i = 0; i < rc->book->n; i++) {
		free(rc->book->e[i].st);
		free(rc->book->e[i].sd);
	}
	free(rc->book->e);
	free(rc->book);
	rc->book = NULL;
}

/* Rows are matched across ranks by workload, phase, repeat and order of appearance. */
static uint64_t row_sig(const struct row *w)
{
	const char *parts[2] = { w->workload ? w->workload : "", w->phase ? w->phase : "" };
	uint64_t h = 1469598103934665603ull;
	unsigned i;

	for (i = 0; i < 2; i++) {
		const unsigned char *p = (const unsigned char *)parts[i];

		for (; *p; p++)
			h = (h ^ *p) * 1099511628211ull;
		h = (h ^ 0xff) * 1099511628211ull;
	}
	return (h ^ w->repeat) * 1099511628211ull;
}

/* This rank's figures for row w (NULL: it has no such row); first: the earliest stop of
 * any rank, ns from the start gate. */
static void fill_fig(const struct runner *rc, const struct row *w, struct rank_fig *f)
{
	const struct rank_book_entry *e = w ? ranks_book_find(rc, w) : NULL;

	memset(f, 0, sizeof(*f));
	f->cache_pct = -1;
	if (!w)
		return;
	f->present = 1;
	f->timed = e != NULL;
	f->start_ns = e ? e->start_ns : 0;
	f->elapsed_ns = w->elapsed_ns;
	f->bytes = w->bytes;
	f->ops = w->ops;
	f->buffered_ns = w->buffered_ns;
	f->durable_ns = w->durable_ns;
	f->rate = w->rate;
	f->flags = w->flags;
	f->cache_pct = w->cache_pct;
	f->cache_dropped = (uint32_t)w->cache_dropped;
	f->cpu_valid = (uint32_t)w->cpu.valid;
	f->user_s = w->cpu.user_s;
	f->sys_s = w->cpu.sys_s;
	f->sys_busy_pct = w->cpu.sys_busy_pct;
	f->sys_busy_s = w->cpu.sys_busy_s;
	f->sw_bytes = e ? e->sw_bytes : 0;
	f->sw_ns = e ? e->sw_ns : 0;
	if (w->lat.hist && w->lat.hist->n)
		ranks_fig_lat(f, w->lat.hist);
	snprintf(f->error, sizeof(f->error), "%s", w->error ? w->error : "");
}

/* Its share of work at the first rank's stop, from its samples (linear without). */
static double first_frac(const struct runner *rc, const struct row *w, const struct rank_fig *f,
			 uint64_t first)
{
	const struct rank_book_entry *e = ranks_book_find(rc, w);
	uint64_t at = first > f->start_ns ? first - f->start_ns : 0;

	if (!e || !e->ns || !e->sd[e->ns - 1])
		return ranks_done_at(NULL, NULL, 0, f->elapsed_ns, 1, at);
	return ranks_done_at(e->st, e->sd, e->ns, f->elapsed_ns, e->sd[e->ns - 1], at);
}

/* "name\tunit\tvalue\n" for each metric of w (NULL: none). Caller frees; *len set. */
static char *metrics_text(const struct row *w, size_t *len)
{
	size_t cap = 1, i, used = 0;
	char *s;

	for (i = 0; w && i < w->nmetrics; i++)
		cap += strlen(w->metrics[i].name) + strlen(w->metrics[i].unit) + 32;
	s = malloc(cap);
	if (!s)
		return NULL;
	s[0] = 0;
	for (i = 0; w && i < w->nmetrics; i++)
		used += (size_t)snprintf(s + used, cap - used, "%s\t%s\t%.17g\n",
					 w->metrics[i].name, w->metrics[i].unit,
					 w->metrics[i].value);
	*len = used;
	return s;
}

/* The value of metric name in one rank's text, NaN when absent. */
static double metric_in(const char *s, size_t len, const char *name)
{
	const char *end = s + len, *p = s;
	size_t nl = strlen(name);

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));

		if (!eol)
			break;
		if ((size_t)(eol - p) > nl && !strncmp(p, name, nl) && p[nl] == '\t') {
			const char *v = memchr(p + nl + 1, '\t', (size_t)(eol - p - (long)nl - 1));

			return v ? strtod(v + 1, NULL) : NAN;
		}
		p = eol + 1;
	}
	return NAN;
}

/* Metrics another rank's row holds and rank 0's row w does not (a verify row whose bad
 * blocks were on rank 1 only) are added to w, NaN for rank 0, so that the merge sees
 * them. 0 or -ENOMEM. */
static int add_absent(struct row *w, const char *all, const size_t *lens, unsigned n)
{
	char name[128], unit[64];
	size_t off = 0;
	unsigned r;

	for (r = 0; r < n; off += lens[r], r++) {
		const char *p = all + off, *end = all + off + lens[r];

		while (p < end) {
			const char *eol = memchr(p, '\n', (size_t)(end - p));
			const char *t1 = eol ? memchr(p, '\t', (size_t)(eol - p)) : NULL;
			const char *t2 = t1 ? memchr(t1 + 1, '\t', (size_t)(eol - t1 - 1)) : NULL;

			if (!t2)
				break;
			size_t nl = (size_t)(t1 - p), ul = (size_t)(t2 - t1 - 1);

			if (nl < sizeof(name) && ul < sizeof(unit)) {
				memcpy(name, p, nl);
				name[nl] = 0;
				memcpy(unit, t1 + 1, ul);
				unit[ul] = 0;
				if (!row_metric(w, name) && row_add_metric(w, name, NAN, unit) < 0)
					return -ENOMEM;
			}
			p = eol + 1;
		}
	}
	return 0;
}

/* Rank 0's row w (its first nm metrics) from every rank's metric texts. */
static int merge_metrics(struct row *w, size_t nm, const char *all, const size_t *lens,
			 const struct rank_fig *figs, const char *const *hosts, unsigned n)
{
	double *v = calloc(nm * n + 1, sizeof(*v));
	struct ranks_metric_in in = { v, n, figs, hosts, w->elapsed_ns };
	size_t i, off;
	unsigned r;
	int e;

	if (!v)
		return -ENOMEM;
	for (i = 0; i < nm; i++)
		for (r = 0, off = 0; r < n; off += lens[r], r++)
			v[i * n + r] = metric_in(all + off, lens[r], w->metrics[i].name);
	e = ranks_merge_metrics(w, nm, &in);
	free(v);
	return e;
}

/* One row: w is this rank's row (NULL if none); on rank 0, w is the row merged into. */
static int merge_one(struct runner *rc, struct row *w, uint64_t *buckets, struct rank_fig *figs,
		     const char *const *hosts)
{
	unsigned n = comm_size(), root = comm_rank() == 0;
	uint64_t v[2], first;
	size_t *lens = NULL, mlen = 0;
	struct rank_fig f;
	void *all = NULL;
	char *mt;
	int e;

	fill_fig(rc, w, &f);
	v[0] = UINT64_MAX - (f.present && f.timed ? f.start_ns + f.elapsed_ns : UINT64_MAX);
	v[1] = f.has_lat;
	if ((e = comm_allreduce_u64(v, 2, COMM_MAX)) < 0)
		return e;
	first = UINT64_MAX - v[0];
	if (f.present && f.timed)
		f.first_frac = first_frac(rc, w, &f, first);
	if ((e = comm_gather(&f, sizeof(f), figs)) < 0)
		return e;
	if (v[1]) {
		const uint64_t *mine = f.has_lat ? w->lat.hist->b : NULL;

		if (!mine)
			memset(buckets, 0, HIST_NBUCKETS * sizeof(*buckets));
		e = comm_reduce_sum_u64(mine ? mine : buckets, buckets, HIST_NBUCKETS);
		if (e < 0)
			return e;
	}
	mt = metrics_text(w, &mlen);
	lens = calloc(n, sizeof(*lens));
	if (!lens)
		comm_abort(1);	/* the others wait in the gather */
	/* a failed allocation of the text still joins the gather, with nothing to say */
	e = comm_gatherv(mt ? mt : "", mt ? mlen : 0, &all, lens);
	free(mt);
	if (e == 0 && root && (e = add_absent(w, all, lens, n)) < 0)
		root = 0;	/* -ENOMEM: nothing merged */
	if (e == 0 && root) {
		struct hist *h = v[1] ? ranks_hist_merge(buckets, figs, n) : NULL;
		size_t nm = w->nmetrics;	/* the row's own; the merge adds its own */

		e = v[1] && !h ? -ENOMEM : 0;
		if (!e)
			e = ranks_merge_row(w, figs, n, h, hosts);
		if (!e)		/* after the row's time is merged: the span rule uses it */
			e = merge_metrics(w, nm, all, lens, figs, hosts, n);
	}
	free(all);
	free(lens);
	return e;
}

/* Rank 0's row list (signatures) to everyone; map[j]: this rank's row for rank 0's j. */
static int match_rows(const struct run *run, uint64_t *nrows, uint64_t **sigs, struct row ***map)
{
	uint64_t j, k, occ, mine;
	size_t i;
	int e;

	*nrows = run->nrows;
	if ((e = comm_bcast(nrows, sizeof(*nrows))) < 0)
		return e;
	*sigs = calloc(*nrows + 1, sizeof(**sigs));
	*map = calloc(*nrows + 1, sizeof(**map));
	if (!*sigs || !*map)
		return -ENOMEM;	/* the others then wait in the next collective: see caller */
	for (j = 0; comm_rank() == 0 && j < *nrows; j++)
		(*sigs)[j] = row_sig(run->rows[j]);
	if ((e = comm_bcast(*sigs, *nrows * sizeof(**sigs))) < 0)
		return e;
	for (j = 0; j < *nrows; j++) {
		for (k = 0, occ = 0; k < j; k++)
			occ += (*sigs)[k] == (*sigs)[j];
		for (i = 0, mine = 0; i < run->nrows; i++) {
			if (row_sig(run->rows[i]) != (*sigs)[j])
				continue;
			if (mine++ == occ) {
				(*map)[j] = run->rows[i];
				break;
			}
		}
	}
	return 0;
}

int ranks_merge(struct runner *rc)
{
	unsigned n = comm_size(), r;
	uint64_t nrows = 0, j, *sigs = NULL;
	struct row **map = NULL;
	struct rank_fig *figs = calloc(n, sizeof(*figs));
	uint64_t *buckets = calloc(HIST_NBUCKETS, sizeof(*buckets));
	const char **hosts = calloc(n, sizeof(*hosts));
	int e;

	if (n < 2) {
		free(figs);
		free(buckets);
		free(hosts);
		return 0;
	}
	if (!figs || !buckets || !hosts)
		comm_abort(1);	/* the others are in the same collectives: cannot go on */
	for (r = 0; r < n; r++)
		hosts[r] = comm_host_of(r);
	e = match_rows(rc->run, &nrows, &sigs, &map);
	if (e == -ENOMEM)
		comm_abort(1);
	for (j = 0; e == 0 && j < nrows; j++)
		e = merge_one(rc, map[j], buckets, figs, hosts);
	if (e == 0)
		e = ranks_merge_envs(rc->run);
	free(sigs);
	free(map);
	free(figs);
	free(buckets);
	free(hosts);
	return e;
}
