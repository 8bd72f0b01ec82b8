/* result_check.c - re-derive a result's summary figures from its raw data and check its
 * digest (result_check.h). The rules, each named in docs/methodology.md ("Self-checking
 * results"):
 *   rate      bytes or operations over elapsed_ns, in the row's rate_unit
 *   cpu       proc_pct = (user_s + sys_s) / elapsed; cpu_ns_per_op = (user_s + sys_s) / ops
 *   latency   n = the histogram's count; min and max in its first and last buckets;
 *             p50 ... p99.9 = hist_percentile of the histogram; the mean inside the
 *             bounds the buckets allow; sd at most half the range
 *   repeats   inconsistent exactly on the figures whose repeats' CV passes 10%
 *   ranks     bytes and ops the sums of the ranks'; elapsed the ranks' span (or their
 *             sum, for a row timed by its latencies); rate the ranks' work over it; each
 *             rank's rate from its own bytes or ops and time; rank_rate_min/max/mean
 *   system    steal, device_idle and writeback_pending as row_sys_flags() says
 *   knee      a sustained row's knee figures (knee_found, intervals, burst_rate,
 *             sustained_rate, cliff_bytes, cliff_s, temp_cliff_c) from its series, the
 *             knee's own points (knee_series), by the rule of stats/knee.h; temp_end_c
 *             and temp_max_c from the series' temperatures (and temp_start_c's)
 * Reals were written with 15 significant digits, so two figures agree when they differ by
 * under RC_REL of the larger (a rule that rounds the same numbers the writer rounded). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "stats/compare.h"
#include "stats/hist.h"
#include "stats/knee.h"
#include "stats/result.h"
#include "stats/result_canon.h"
#include "stats/result_check.h"
#include "stats/result_json.h"
#include "stats/result_keys.h"
#include "stats/result_sys.h"

#define RC_REL		1e-9	/* relative agreement of two re-derived reals */
#define RC_MAX_TEXT	(1u << 30)

struct rc_ctx {
	struct result_check *out;
	result_check_fn fn;
	void *arg;
	char who[160];		/* "rows[3] dd write" */
};

static void bad(struct rc_ctx *c, const char *fig, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void bad(struct rc_ctx *c, const char *fig, const char *fmt, ...)
{
	char name[224], why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	snprintf(name, sizeof(name), "%s%s%s", c->who, *c->who ? ": " : "", fig);
	c->out->bad++;
	if (c->fn)
		c->fn(c->arg, name, why);
}

static int near(double a, double b)
{
	double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);

	if (!isfinite(a) || !isfinite(b))
		return isnan(a) && isnan(b);
	return fabs(a - b) <= RC_REL * m + 1e-300;
}

/* One real figure against its re-derived value. */
static void real_fig(struct rc_ctx *c, const char *fig, double have, double want)
{
	c->out->figures++;
	if (!near(have, want))
		bad(c, fig, "is %.15g, its data give %.15g", have, want);
}

static void int_fig(struct rc_ctx *c, const char *fig, uint64_t have, uint64_t want)
{
	c->out->figures++;
	if (have != want)
		bad(c, fig, "is %llu, its data give %llu", (unsigned long long)have,
		    (unsigned long long)want);
}

/* Bytes per unit of a byte rate, or 0 for an operation rate, -1 for no rate rule. */
static double unit_bytes(const char *u)
{
	static const struct { const char *unit; double bytes; } t[] = {
		{ "MB/s", 1e6 }, { "MiB/s", 1048576.0 }, { "K/sec", 1024.0 },
		{ "kB/s", 1024.0 }, { "IOPS", 0 }, { "ops/s", 0 }, { "files/s", 0 },
		{ "seeks/s", 0 }, { "tps", 0 }, { "rows/s", 0 },
	};
	size_t i;

	for (i = 0; u && i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(u, t[i].unit))
			return t[i].bytes;
	return -1;
}

/* The rate bytes or ops over ns give in unit; NAN when no rule applies. */
static double rate_of(const char *unit, uint64_t bytes, uint64_t ops, uint64_t ns)
{
	double per = unit_bytes(unit), s = (double)ns / 1e9;

	if (per < 0 || ns == 0)
		return NAN;
	return per > 0 ? (double)bytes / per / s : (double)ops / s;
}

static int row_measured(const struct row *w)
{
	return !(w->flags & (ROW_FAILED | ROW_NOT_MEASURED | ROW_IMPORTED)) &&
	       isfinite(w->rate) && w->elapsed_ns;
}

static void check_rate(struct rc_ctx *c, const struct row *w)
{
	/* Bonnie++'s rewrite moves every byte twice and counts it once */
	uint64_t bytes = w->workload && w->phase && !strcmp(w->workload, "bonnie") &&
			 !strcmp(w->phase, "rewrite") ? w->bytes / 2 : w->bytes;
	double want = rate_of(w->rate_unit, bytes, w->ops, w->elapsed_ns);

	if (!row_measured(w) || isnan(want))
		return;
	real_fig(c, RK_ROW_RATE, w->rate, want);
}

static void check_cpu(struct rc_ctx *c, const struct row *w)
{
	const struct row_cpu *p = &w->cpu;
	double t = p->user_s + p->sys_s;
	uint64_t n;

	if (!p->valid || (!w->elapsed_ns && p->wall_s <= 0))
		return;
	/* over the CPU sample's own window where the row says it, else elapsed_ns */
	real_fig(c, RK_ROW_CPU "." RK_CPU_PROC_PCT, p->proc_pct, t / (p->wall_s > 0 ?
		 p->wall_s : (double)w->elapsed_ns / 1e9) * 100.0);
	n = p->ops ? p->ops : w->ops;
	real_fig(c, RK_ROW_CPU "." RK_CPU_NS_PER_OP, p->cpu_ns_per_op,
		 n ? t * 1e9 / (double)n : 0);
}

/* The bounds the buckets put on the mean: every sample lies in its bucket. */
static void lat_mean_bounds(const struct hist *h, double *lo, double *hi)
{
	long double a = 0, b = 0;
	unsigned i;

	for (i = 0; i < HIST_NBUCKETS; i++) {
		if (!h->b[i])
			continue;
		a += (long double)h->b[i] * hist_bucket_low(i);
		b += (long double)h->b[i] * (hist_bucket_low(i) + hist_bucket_width(i) -
					     (i == HIST_NBUCKETS - 1 ? 0 : 1));
	}
	*lo = (double)(a / h->n);
	*hi = (double)(b / h->n);
	if (h->b[HIST_NBUCKETS - 1])
		*hi = INFINITY;		/* the last bucket holds everything above */
}

static void check_lat(struct rc_ctx *c, const struct row_lat *l)
{
	static const struct { const char *key; double p; size_t off; } pct[] = {
		{ RK_ROW_LATENCY "." RK_LAT_P50_NS, 50, offsetof(struct row_lat, p50_ns) },
		{ RK_ROW_LATENCY "." RK_LAT_P90_NS, 90, offsetof(struct row_lat, p90_ns) },
		{ RK_ROW_LATENCY "." RK_LAT_P99_NS, 99, offsetof(struct row_lat, p99_ns) },
		{ RK_ROW_LATENCY "." RK_LAT_P999_NS, 99.9, offsetof(struct row_lat, p999_ns) },
	};
	const struct hist *h = l->hist;
	uint64_t total = 0;
	unsigned i, first = HIST_NBUCKETS, last = 0;
	double lo, hi;

	if (!l->valid || !h)
		return;
	for (i = 0; i < HIST_NBUCKETS; i++) {
		total += h->b[i];
		if (h->b[i]) {
			first = first < i ? first : i;
			last = i;
		}
	}
	int_fig(c, RK_ROW_LATENCY "." RK_LAT_N, l->n, total);
	if (!total || total != l->n)
		return;
	c->out->figures += 2;
	if (hist_index(l->min_ns) != first)
		bad(c, RK_ROW_LATENCY "." RK_LAT_MIN_NS, "is %llu, outside the first bucket "
		    "of the histogram (from %llu ns)", (unsigned long long)l->min_ns,
		    (unsigned long long)hist_bucket_low(first));
	if (hist_index(l->max_ns) != last)
		bad(c, RK_ROW_LATENCY "." RK_LAT_MAX_NS, "is %llu, outside the last bucket "
		    "of the histogram (from %llu ns)", (unsigned long long)l->max_ns,
		    (unsigned long long)hist_bucket_low(last));
	for (i = 0; i < sizeof(pct) / sizeof(pct[0]); i++)
		int_fig(c, pct[i].key, *(const uint64_t *)((const char *)l + pct[i].off),
			hist_percentile(h, pct[i].p));
	lat_mean_bounds(h, &lo, &hi);
	c->out->figures += 2;
	if (!(l->mean_ns >= lo * (1 - RC_REL) && l->mean_ns <= hi * (1 + RC_REL)) ||
	    l->mean_ns < (double)l->min_ns * (1 - RC_REL) ||
	    l->mean_ns > (double)l->max_ns * (1 + RC_REL))
		bad(c, RK_ROW_LATENCY "." RK_LAT_MEAN_NS, "is %.15g, the histogram puts it in "
		    "[%.15g, %.15g]", l->mean_ns, lo, hi);
	/* no spread can pass half the range (Popoviciu's inequality) */
	if (!(l->sd_ns >= 0) ||
	    l->sd_ns > ((double)l->max_ns - (double)l->min_ns) / 2 * (1 + RC_REL) + 1)
		bad(c, RK_ROW_LATENCY "." RK_LAT_SD_NS, "is %.15g, more than half the range "
		    "from min_ns to max_ns", l->sd_ns);
}

static void check_sys_flags(struct rc_ctx *c, const struct row *w)
{
	unsigned mask = ROW_STEAL | ROW_DEVICE_IDLE | ROW_WRITEBACK_PENDING, want;

	if (!w->sys || (w->flags & ROW_IMPORTED))
		return;
	want = row_sys_flags(w);
	c->out->figures++;
	if ((w->flags & mask) != want)
		bad(c, RK_ROW_FLAGS, "the system figures call for %s%s%s%s, the row says %s%s%s",
		    want & ROW_STEAL ? "steal " : "", want & ROW_DEVICE_IDLE ? "device_idle " : "",
		    want & ROW_WRITEBACK_PENDING ? "writeback_pending " : "",
		    want ? "" : "none", w->flags & ROW_STEAL ? "steal " : "",
		    w->flags & ROW_DEVICE_IDLE ? "device_idle " : "",
		    w->flags & ROW_WRITEBACK_PENDING ? "writeback_pending" : "");
}

/* The rank_rate_* metrics over the present ranks that did not fail. */
static void check_rank_spread(struct rc_ctx *c, const struct row *w)
{
	double mn = INFINITY, mx = -INFINITY, sum = 0;
	const struct metric *m;
	unsigned k = 0;
	size_t i;

	for (i = 0; i < w->nranks; i++) {
		const struct row_rank *r = &w->ranks[i];

		if (!r->present || !isfinite(r->rate) || (r->flags & ROW_FAILED))
			continue;
		mn = r->rate < mn ? r->rate : mn;
		mx = r->rate > mx ? r->rate : mx;
		sum += r->rate;
		k++;
	}
	if (!k)
		return;
	if ((m = row_metric(w, RK_ROW_RANK_RATE_MIN)))
		real_fig(c, "metrics." RK_ROW_RANK_RATE_MIN, m->value, mn);
	if ((m = row_metric(w, RK_ROW_RANK_RATE_MAX)))
		real_fig(c, "metrics." RK_ROW_RANK_RATE_MAX, m->value, mx);
	if ((m = row_metric(w, RK_ROW_RANK_RATE_MEAN)))
		real_fig(c, "metrics." RK_ROW_RANK_RATE_MEAN, m->value, sum / k);
}

static void check_ranks(struct rc_ctx *c, const struct row *w)
{
	uint64_t bytes = 0, ops = 0, smin = UINT64_MAX, smax = 0, sum_el = 0;
	double work = 0;
	char fig[64];
	size_t i;

	if (!w->nranks)
		return;
	for (i = 0; i < w->nranks; i++) {
		const struct row_rank *r = &w->ranks[i];
		double want;

		if (!r->present)
			continue;
		bytes += r->bytes;
		ops += r->ops;
		sum_el += r->elapsed_ns;
		smin = r->start_ns < smin ? r->start_ns : smin;
		smax = r->stop_ns > smax ? r->stop_ns : smax;
		if (isfinite(r->rate))
			work += r->rate * (double)r->elapsed_ns / 1e9;
		want = rate_of(w->rate_unit, r->bytes, r->ops, r->elapsed_ns);
		snprintf(fig, sizeof(fig), RK_RUN_RANKS "[%zu].rate", i);
		if (isfinite(r->rate) && !isnan(want) && !(r->flags & ROW_FAILED))
			real_fig(c, fig, r->rate, want);
		snprintf(fig, sizeof(fig), RK_RUN_RANKS "[%zu].stop_ns", i);
		int_fig(c, fig, r->stop_ns, r->start_ns + r->elapsed_ns);
	}
	if (smin == UINT64_MAX)
		return;
	int_fig(c, RK_ROW_BYTES, w->bytes, bytes);
	int_fig(c, RK_ROW_OPS, w->ops, ops);
	c->out->figures++;
	if (w->elapsed_ns != (smax > smin ? smax - smin : 1) && w->elapsed_ns != sum_el &&
	    w->elapsed_ns != smax)
		bad(c, RK_ROW_ELAPSED_NS, "is %llu, the ranks span %llu ns",
		    (unsigned long long)w->elapsed_ns, (unsigned long long)(smax - smin));
	if (row_measured(w))
		real_fig(c, RK_ROW_RATE " (the ranks' work over elapsed_ns)", w->rate,
			 work / ((double)w->elapsed_ns / 1e9));
	check_rank_spread(c, w);
}

/* A knee figure: metric name of w against want (a metric that is missing is a figure
 * that does not follow). */
static void knee_fig(struct rc_ctx *c, const struct row *w, const char *name, double want)
{
	const struct metric *m = row_metric(w, name);
	char fig[64];

	snprintf(fig, sizeof(fig), "metrics.%s", name);
	if (m) {
		real_fig(c, fig, m->value, want);
		return;
	}
	c->out->figures++;
	bad(c, fig, "is missing, its series gives %.15g", want);
}

/* The knee's points from the series into t and b (n + 1 each, point 0 the start): 0, or
 * -EINVAL after naming what is wrong. */
static int knee_points(struct rc_ctx *c, const struct row_series *s, uint64_t *t, uint64_t *b)
{
	for (size_t i = 0; i < s->n; i++) {
		double tv = s->v[RSE_T_NS][i], bv = s->v[RSE_BYTES][i];

		if (!(tv >= 0 && tv < 9e15 && bv >= 0 && bv < 9e15) || (uint64_t)tv < t[i] ||
		    b[i] > UINT64_MAX / 2) {
			c->out->figures++;
			bad(c, RK_ROW_SERIES, "interval %zu: no time or bytes, or a time before "
			    "the one before it: the knee cannot be derived", i);
			return -EINVAL;
		}
		t[i + 1] = (uint64_t)tv;
		b[i + 1] = b[i] + (uint64_t)bv;
	}
	return 0;
}

/* sustained: the temperature at the end (the series' last reading) and the highest (of
 * the start's reading, which no interval closes, and the series'). The start itself has
 * no other record to follow from. */
static void check_temps(struct rc_ctx *c, const struct row *w, const struct row_series *s)
{
	const struct metric *st = row_metric(w, RK_SUS_TEMP_START);
	double mx = st && isfinite(st->value) ? st->value : -INFINITY, last;
	size_t i;

	for (i = 0; i < s->n; i++)
		if (isfinite(s->v[RSE_TEMP_C][i]) && s->v[RSE_TEMP_C][i] > mx)
			mx = s->v[RSE_TEMP_C][i];
	last = s->v[RSE_TEMP_C][s->n - 1];
	if (isfinite(last) && row_metric(w, RK_SUS_TEMP_END))
		knee_fig(c, w, RK_SUS_TEMP_END, last);
	if (isfinite(mx) && row_metric(w, RK_SUS_TEMP_MAX))
		knee_fig(c, w, RK_SUS_TEMP_MAX, mx);
}

/* sustained: the knee's figures from the row's series, the knee's own points (t_ns from
 * the first write, bytes of each interval), with the row's own rule (drop_pct, hold). */
static void check_knee(struct rc_ctx *c, const struct row *w)
{
	const struct row_series *s = w->series;
	const char *ks = kv_get(&w->params, RK_SUS_KNEE_SERIES);
	const char *dp = kv_get(&w->params, RK_SUS_DROP), *hp = kv_get(&w->params, RK_SUS_HOLD);
	struct knee_rule rule;
	struct knee k;
	uint64_t *t, *b;
	char *e1 = NULL, *e2 = NULL;
	double drop = dp ? strtod(dp, &e1) : NAN;
	unsigned long hold = hp ? strtoul(hp, &e2, 10) : 0;

	if (!w->workload || strcmp(w->workload, "sustained") || !ks || strcmp(ks, "true") ||
	    !s || !s->n)
		return;
	if (!(drop > 0 && drop < 100) || *e1 || !hold || hold > 100000 || *e2) {
		c->out->figures++;
		bad(c, RK_SUS_DROP, "the knee's rule (drop_pct, hold) is not in the row");
		return;
	}
	t = calloc(s->n + 1, sizeof(*t));
	b = calloc(s->n + 1, sizeof(*b));
	rule = (struct knee_rule){ drop / 100.0, (unsigned)hold };
	if (t && b && knee_points(c, s, t, b) == 0 && knee_find(t, b, s->n, &rule, &k) >= 0) {
		knee_fig(c, w, RK_SUS_KNEE, k.found);
		knee_fig(c, w, RK_SUS_INTERVALS, (double)s->n);
		knee_fig(c, w, RK_SUS_BURST, k.burst_rate / 1e6);
		if (k.found) {
			knee_fig(c, w, RK_SUS_SUSTAINED, k.sustained_rate / 1e6);
			knee_fig(c, w, RK_SUS_CLIFF_BYTES, round(k.cliff_bytes));
			knee_fig(c, w, RK_SUS_CLIFF_S, k.cliff_s);
			if (isfinite(s->v[RSE_TEMP_C][k.k - 1]))
				knee_fig(c, w, RK_SUS_TEMP_CLIFF, s->v[RSE_TEMP_C][k.k - 1]);
		}
		check_temps(c, w, s);
	}
	free(t);
	free(b);
}

/* Repeats: the inconsistent flag on exactly the groups whose CV passes the limit. */
static int check_repeats(struct rc_ctx *c, const struct run *run)
{
	struct run_groups gs;
	size_t i, j;
	int n;

	n = compare_group_run(run, &gs);
	if (n < 0)
		return n;
	for (i = 0; i < gs.n; i++) {
		const struct row_group *g = &gs.g[i];
		int want = g->value.n >= 2 && g->value.cv > COMPARE_CV_LIMIT;

		if (g->value.n < 2)
			continue;
		for (j = 0; j < g->nrows; j++) {
			const struct row *w = g->rows[j];
			int have = (w->flags & ROW_INCONSISTENT) != 0;

			c->out->figures++;
			snprintf(c->who, sizeof(c->who), "%s %s repeat %u", w->workload, w->phase,
				 w->repeat);
			if (have != want)
				bad(c, RK_ROW_FLAGS, "inconsistent %s, but the %u repeats' CV is "
				    "%.1f%% (the limit is %.0f%%)", have ? "set" : "missing",
				    g->value.n, g->value.cv * 100, COMPARE_CV_LIMIT * 100);
		}
	}
	c->who[0] = '\0';
	compare_groups_free(&gs);
	return 0;
}

int result_check_run(const struct run *run, struct result_check *out, result_check_fn fn,
		     void *arg)
{
	struct rc_ctx c = { out, fn, arg, "" };
	size_t i;

	for (i = 0; i < run->nrows; i++) {
		const struct row *w = run->rows[i];

		snprintf(c.who, sizeof(c.who), RK_RUN_ROWS "[%zu] %s %s", i, w->workload,
			 w->phase);
		if (w->flags & ROW_IMPORTED)
			continue;	/* another tool's figures: nothing to re-derive */
		if (w->nranks)
			check_ranks(&c, w);
		else
			check_rate(&c, w);
		check_cpu(&c, w);
		check_lat(&c, &w->lat);
		check_sys_flags(&c, w);
		check_knee(&c, w);
	}
	c.who[0] = '\0';
	return check_repeats(&c, run);
}

/* The digest member against the canonical form of the document read back. */
static int check_digest(const char *text, size_t len, struct result_check *out,
			result_check_fn fn, void *arg, char *err, size_t errlen)
{
	char want[RESULT_DIGEST_LEN];
	json_error_t jerr;
	const json_t *d;
	json_t *root;
	int rc;

	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		snprintf(err, errlen, "malformed JSON at line %d column %d: %s", jerr.line,
			 jerr.column, jerr.text);
		return -EINVAL;
	}
	rc = result_canon_digest(root, want);
	if (rc < 0) {
		json_decref(root);
		snprintf(err, errlen, "%s", rc == -EINVAL ? "not an iobattery result" :
			 strerror(-rc));
		return rc;
	}
	d = json_object_get(root, RK_RUN_DIGEST);
	out->figures++;
	if (!json_is_string(d)) {
		out->digest = -1;
		out->bad++;
		if (fn)
			fn(arg, RK_RUN_DIGEST, "missing: the document cannot be checked for edits");
	} else if (strcmp(json_string_value(d), want) != 0) {
		char why[200];

		out->digest = 0;
		out->bad++;
		snprintf(why, sizeof(why), "differs from the canonical form's (%s): the "
			 "document was changed after it was written", want);
		if (fn)
			fn(arg, RK_RUN_DIGEST, why);
	} else {
		out->digest = 1;
	}
	json_decref(root);
	return 0;
}

int result_check_text(const char *text, size_t len, struct result_check *out,
		      result_check_fn fn, void *arg, char *err, size_t errlen)
{
	struct run *run;
	char *s;
	int rc;

	memset(out, 0, sizeof(*out));
	if (len > RC_MAX_TEXT || memchr(text, '\0', len)) {
		snprintf(err, errlen, len > RC_MAX_TEXT ? "larger than a result can be" :
			 "malformed JSON: a NUL byte");
		return -EINVAL;
	}
	rc = check_digest(text, len, out, fn, arg, err, errlen);
	if (rc < 0)
		return rc;
	s = malloc(len + 1);
	if (!s)
		return -ENOMEM;
	memcpy(s, text, len);
	s[len] = '\0';
	run = result_json_load(s, err, errlen);
	free(s);
	if (!run)
		return -EINVAL;
	rc = result_check_run(run, out, fn, arg);
	run_free(run);
	if (rc < 0)
		return rc;
	return out->bad ? 1 : 0;
}
