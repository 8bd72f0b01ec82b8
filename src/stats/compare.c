/* compare.c - Student's t, per-figure summaries, Welch's test, Fieller's ratio interval,
 * and grouping a run's rows into repeats of one figure. See compare.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/compare.h"
#include "stats/figkey.h"
#include "stats/result.h"

/* ---- Student's t ------------------------------------------------------------------- */

/* Continued fraction of the incomplete beta function, evaluated by the modified Lentz
 * method. Converges quickly for x < (a + 1) / (a + b + 2); the caller uses the symmetry
 * I_x(a,b) = 1 - I_{1-x}(b,a) otherwise. */
static double ibeta_cf(double x, double a, double b)
{
	const double tiny = 1e-300, eps = 1e-15;
	double c = 1.0, d, h, num, step;
	int m;

	d = 1.0 - (a + b) * x / (a + 1.0);
	if (fabs(d) < tiny)
		d = tiny;
	d = 1.0 / d;
	h = d;
	for (m = 1; m <= 500; m++) {
		/* even term d_{2m} */
		num = m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m));
		d = 1.0 + num * d;
		c = 1.0 + num / c;
		d = fabs(d) < tiny ? 1.0 / tiny : 1.0 / d;
		if (fabs(c) < tiny)
			c = tiny;
		h *= d * c;
		/* odd term d_{2m+1} */
		num = -(a + m) * (a + b + m) * x / ((a + 2.0 * m) * (a + 2.0 * m + 1.0));
		d = 1.0 + num * d;
		c = 1.0 + num / c;
		d = fabs(d) < tiny ? 1.0 / tiny : 1.0 / d;
		if (fabs(c) < tiny)
			c = tiny;
		step = d * c;
		h *= step;
		if (fabs(step - 1.0) < eps)
			break;
	}
	return h;
}

double stats_ibeta(double x, double a, double b)
{
	double lfront;

	if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1))
		return NAN;
	if (x == 0 || x == 1)
		return x;
	/* x^a (1-x)^b / (a B(a,b)) times the continued fraction */
	lfront = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	if (x < (a + 1.0) / (a + b + 2.0))
		return exp(lfront) * ibeta_cf(x, a, b) / a;
	return 1.0 - exp(lfront) * ibeta_cf(1.0 - x, b, a) / b;
}

/* P(T <= t) = 1 - I_{df/(df+t^2)}(df/2, 1/2) / 2 for t >= 0, symmetric for t < 0. */
double stats_t_cdf(double t, double df)
{
	double tail;

	if (!(df > 0) || isnan(t))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1.0 : 0.0;
	tail = 0.5 * stats_ibeta(df / (df + t * t), df / 2.0, 0.5);
	return t >= 0 ? 1.0 - tail : tail;
}

double stats_t_quantile(double p, double df)
{
	double lo = 0, hi = 1, mid, target;
	int i, neg;

	if (!(df > 0) || !(p > 0) || !(p < 1))
		return NAN;
	if (p == 0.5)
		return 0;
	neg = p < 0.5;
	target = neg ? 1.0 - p : p;
	/* bracket, then bisect: the CDF is monotonic, so this cannot fail to converge */
	while (stats_t_cdf(hi, df) < target && hi < 1e300)
		hi *= 2;
	for (i = 0; i < 400 && hi - lo > 1e-13 * hi; i++) {
		mid = 0.5 * (lo + hi);
		if (stats_t_cdf(mid, df) < target)
			lo = mid;
		else
			hi = mid;
	}
	mid = 0.5 * (lo + hi);
	return neg ? -mid : mid;
}

double stats_t95(double df)
{
	return stats_t_quantile(0.975, df);
}

/* ---- summaries and tests ------------------------------------------------------------ */

void stats_describe(const double *x, size_t n, struct fig_stats *out)
{
	double mean = 0, m2 = 0, delta;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (n == 0)
		return;
	/* Welford: numerically stable for close values (repeats usually are) */
	for (i = 0; i < n; i++) {
		delta = x[i] - mean;
		mean += delta / (double)(i + 1);
		m2 += delta * (x[i] - mean);
	}
	out->n = (unsigned)n;
	out->mean = mean;
	out->lo = out->hi = mean;
	if (n < 2)
		return;
	out->sd = sqrt(m2 / (double)(n - 1));
	out->cv = mean != 0 ? out->sd / fabs(mean) : 0;
	out->half = stats_t95((double)(n - 1)) * out->sd / sqrt((double)n);
	out->lo = mean - out->half;
	out->hi = mean + out->half;
}

int stats_welch(const struct fig_stats *a, const struct fig_stats *b, struct welch *out)
{
	double va, vb, se2;

	if (a->n < 2 || b->n < 2)
		return -EDOM;
	va = a->sd * a->sd / a->n;
	vb = b->sd * b->sd / b->n;
	se2 = va + vb;
	if (se2 <= 0) {
		out->t = a->mean == b->mean ? 0 : (b->mean > a->mean ? INFINITY : -INFINITY);
		out->df = (double)(a->n + b->n - 2);
		out->p = a->mean == b->mean ? 1.0 : 0.0;
		return 0;
	}
	out->t = (b->mean - a->mean) / sqrt(se2);
	out->df = se2 * se2 / (va * va / (a->n - 1) + vb * vb / (b->n - 1));
	/* two-sided: P(|T| >= |t|) = I_{df/(df+t^2)}(df/2, 1/2) */
	out->p = stats_ibeta(out->df / (out->df + out->t * out->t), out->df / 2.0, 0.5);
	return 0;
}

/* Fieller: the set of R with (mb - R ma)^2 <= t^2 (vb + R^2 va) is the interval between
 * the roots of R^2 (ma^2 - t^2 va) - 2 R ma mb + (mb^2 - t^2 vb) = 0, bounded only when
 * ma^2 > t^2 va (the denominator mean is significantly non-zero). */
int stats_ratio_ci(const struct fig_stats *a, const struct fig_stats *b, double *ratio,
		   double *lo, double *hi)
{
	struct welch w;
	double t, va, vb, qa, qb, qc, disc;

	if (a->mean == 0)
		return -EDOM;
	*ratio = b->mean / a->mean;
	*lo = *hi = *ratio;
	if (a->n < 2 || b->n < 2 || stats_welch(a, b, &w) < 0)
		return 0;
	va = a->sd * a->sd / a->n;
	vb = b->sd * b->sd / b->n;
	t = stats_t95(w.df > 0 ? w.df : 1);
	qa = a->mean * a->mean - t * t * va;
	qb = a->mean * b->mean;
	qc = b->mean * b->mean - t * t * vb;
	disc = qb * qb - qa * qc;
	if (qa <= 0 || disc < 0)
		return 0;
	*lo = (qb - sqrt(disc)) / qa;
	*hi = (qb + sqrt(disc)) / qa;
	return 1;
}

/* ---- groups -------------------------------------------------------------------------- */

static int unit_is_time(const char *u)
{
	return u && (!strcmp(u, "s") || !strcmp(u, "ms") || !strcmp(u, "us") ||
		     !strcmp(u, "ns"));
}

int compare_row_value(const struct row *w, double *value, int *higher_better,
		      const char **unit)
{
	if (w->flags & (ROW_FAILED | ROW_NOT_MEASURED))
		return -ENODATA;
	if (w->rate_unit && w->rate > 0) {
		*value = w->rate;
		if (higher_better)
			*higher_better = !unit_is_time(w->rate_unit);
		if (unit)
			*unit = w->rate_unit;
		return 0;
	}
	if (w->elapsed_ns > 0) {
		*value = (double)w->elapsed_ns / 1e9;
		if (higher_better)
			*higher_better = 0;
		if (unit)
			*unit = "s";
		return 0;
	}
	return -ENODATA;
}

static int kv_subset(const struct kvlist *a, const struct kvlist *b)
{
	const char *v;
	size_t i;

	for (i = 0; i < a->n; i++) {
		v = kv_get(b, a->v[i].key);
		if (!v || strcmp(v, a->v[i].value ? a->v[i].value : ""))
			return 0;
	}
	return 1;
}

static int str_eq(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

int compare_same_figure(const struct row *a, const struct row *b)
{
	return str_eq(a->workload, b->workload) && str_eq(a->phase, b->phase) &&
	       kv_subset(&a->params, &b->params) && kv_subset(&b->params, &a->params);
}

/* Fill a group's statistics from its rows. Returns 0 or -ENOMEM. */
static int group_finish(struct row_group *g)
{
	double *v, *c, x;
	size_t i, nv = 0, nc = 0;
	int hb = 1;
	const char *unit = NULL;

	v = calloc(g->nrows, sizeof(*v));
	c = calloc(g->nrows, sizeof(*c));
	if (!v || !c) {
		free(v);
		free(c);
		return -ENOMEM;
	}
	g->higher_better = 1;
	for (i = 0; i < g->nrows; i++) {
		const struct row *w = g->rows[i];

		g->flags |= w->flags;
		if (compare_row_value(w, &x, &hb, &unit) == 0) {
			if (nv == 0) {
				g->higher_better = hb;
				g->unit = unit;
			}
			v[nv++] = x;
		}
		if (w->cpu.valid && !(w->flags & (ROW_FAILED | ROW_NOT_MEASURED)))
			c[nc++] = w->cpu.proc_pct;
	}
	if (!g->unit)
		g->unit = g->first->rate_unit;
	stats_describe(v, nv, &g->value);
	stats_describe(c, nc, &g->cpu);
	if (g->value.n >= 2 && g->value.cv > COMPARE_CV_LIMIT)
		g->flags |= ROW_INCONSISTENT;
	free(v);
	free(c);
	return 0;
}

void compare_groups_free(struct run_groups *gs)
{
	size_t i;

	for (i = 0; i < gs->n; i++)
		free(gs->g[i].rows);
	free(gs->g);
	gs->g = NULL;
	gs->n = 0;
}

/* Group the rows by figure key (stats/figkey.h): sorted, then each run of equal keys is
 * one group, the groups in the order of their first row. O(n log n) in the rows. */
int compare_group_run(const struct run *run, struct run_groups *out)
{
	struct figkey_index x = { 0 };
	char **key = calloc(run->nrows + 1, sizeof(*key));
	size_t *first = calloc(run->nrows + 1, sizeof(*first));
	size_t *gof = calloc(run->nrows + 1, sizeof(*gof));	/* group of each row */
	size_t i, j, k, ng = 0;
	int rc = -ENOMEM;

	out->g = NULL;
	out->n = 0;
	if (!key || !first || !gof)
		goto done;
	for (i = 0; i < run->nrows; i++)
		if (!(key[i] = figkey_row(run->rows[i])))
			goto done;
	if (figkey_index_build(&x, key, run->nrows) < 0)
		goto done;
	/* each run of equal keys: its lowest row number says where the group goes */
	for (i = 0; i < run->nrows; i = j) {
		for (j = i + 1; j < run->nrows && !strcmp(key[x.ord[j]], key[x.ord[i]]); j++)
			;
		first[ng++] = x.ord[i];
	}
	/* the groups in run order: mark each group's first row, then number them */
	out->g = calloc(ng + 1, sizeof(*out->g));
	if (!out->g)
		goto done;
	for (i = 0; i < run->nrows; i++)
		gof[i] = SIZE_MAX;
	for (k = 0; k < ng; k++)
		gof[first[k]] = 0;
	for (i = 0, k = 0; i < run->nrows; i++)
		if (gof[i] == 0)
			gof[i] = k++ + 1;	/* 1-based while marking */
	for (i = 0; i < run->nrows; i = j) {
		size_t gi = gof[x.ord[i]] - 1;
		struct row_group *g = &out->g[gi];

		for (j = i + 1; j < run->nrows && !strcmp(key[x.ord[j]], key[x.ord[i]]); j++)
			;
		g->rows = malloc((j - i) * sizeof(*g->rows));
		if (!g->rows)
			goto done;
		/* ord keeps row order among equal keys: the group's rows in run order */
		for (k = i; k < j; k++) {
			const struct row *w = run->rows[x.ord[k]];

			g->rows[g->nrows++] = w;
			if (!g->first || w->repeat < g->first->repeat)
				g->first = w;
		}
	}
	out->n = ng;
	for (k = 0; k < ng; k++)
		if (group_finish(&out->g[k]) < 0)
			goto done;
	rc = (int)ng;
done:
	if (rc < 0)
		compare_groups_free(out);
	figkey_index_free(&x);
	for (i = 0; key && i < run->nrows; i++)
		free(key[i]);
	free(key);
	free(first);
	free(gof);
	return rc;
}

void compare_flag_inconsistent(struct run *run)
{
	struct run_groups gs;
	size_t i, j;

	if (compare_group_run(run, &gs) < 0)
		return;
	for (i = 0; i < gs.n; i++) {
		if (gs.g[i].value.n < 2 || gs.g[i].value.cv <= COMPARE_CV_LIMIT)
			continue;
		/* the group's pointers are the run's own rows (const only in the group) */
		for (j = 0; j < gs.g[i].nrows; j++)
			((struct row *)gs.g[i].rows[j])->flags |= ROW_INCONSISTENT;
	}
	compare_groups_free(&gs);
}

char *compare_params_str(const struct row *w, char *buf, size_t len)
{
	size_t i, off = 0;
	int n;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < w->params.n && off < len; i++) {
		n = snprintf(buf + off, len - off, "%s%s=%s", i ? " " : "", w->params.v[i].key,
			     w->params.v[i].value ? w->params.v[i].value : "");
		if (n < 0)
			break;
		off += (size_t)n;
	}
	return buf;
}
