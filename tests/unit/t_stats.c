/* t_stats.c - Student's t, summaries, Welch's test, Fieller's ratio, repeat groups and
 * the comparison of two runs, against known values. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "stats/compare.h"
#include "stats/result.h"

/* Two-sided 95% critical values t_{0.975,df} from published tables (10 digits). */
static void t_t_quantiles(void)
{
	static const struct { double df, t; } tab[] = {
		{ 1, 12.7062047362 }, { 2, 4.3026527297 }, { 3, 3.1824463053 },
		{ 4, 2.7764451052 }, { 5, 2.5705818356 }, { 6, 2.4469118511 },
		{ 7, 2.3646242516 }, { 8, 2.3060041352 }, { 9, 2.2621571628 },
		{ 10, 2.2281388520 }, { 15, 2.1314495456 }, { 20, 2.0859634473 },
		{ 30, 2.0422724563 }, { 60, 2.0002978220 }, { 120, 1.9799304050 },
	};
	size_t i;

	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		CHECK_NEAR(stats_t95(tab[i].df), tab[i].t, 1e-8);
	/* other quantiles: t_{0.995,10}, t_{0.95,5}, symmetry, the normal limit */
	CHECK_NEAR(stats_t_quantile(0.995, 10), 3.1692726726, 1e-8);
	CHECK_NEAR(stats_t_quantile(0.95, 5), 2.0150483727, 1e-8);
	CHECK_NEAR(stats_t_quantile(0.025, 4), -2.7764451052, 1e-8);
	CHECK_NEAR(stats_t95(1e7), 1.9599639845, 1e-6);
	CHECK(stats_t_quantile(0.5, 3) == 0);
	CHECK(isnan(stats_t_quantile(1.0, 3)));
	CHECK(isnan(stats_t_quantile(0.9, 0)));
}

static void t_t_cdf(void)
{
	CHECK_NEAR(stats_t_cdf(0, 7), 0.5, 1e-15);
	CHECK_NEAR(stats_t_cdf(2.2281388520, 10), 0.975, 1e-9);
	CHECK_NEAR(stats_t_cdf(-12.7062047362, 1), 0.025, 1e-9);
	/* df = 1 is Cauchy: F(t) = 1/2 + atan(t)/pi */
	CHECK_NEAR(stats_t_cdf(0.7, 1), 0.5 + atan(0.7) / (4 * atan(1.0)), 1e-12);
	/* df = 2 has a closed form: F(t) = 1/2 + t / (2 sqrt(2 + t^2)) */
	CHECK_NEAR(stats_t_cdf(1.3, 2), 0.5 + 1.3 / (2 * sqrt(2 + 1.3 * 1.3)), 1e-12);
	/* incomplete beta identities */
	CHECK_NEAR(stats_ibeta(0.3, 1, 1), 0.3, 1e-14);
	CHECK_NEAR(stats_ibeta(0.3, 2.5, 1), pow(0.3, 2.5), 1e-13);
	CHECK_NEAR(stats_ibeta(0.5, 4.5, 4.5), 0.5, 1e-13);
	CHECK(isnan(stats_ibeta(1.5, 1, 1)));
}

/* {10, 12, 14}: mean 12, sd 2, half-width t_{0.975,2} * 2 / sqrt(3) by hand. */
static void t_describe(void)
{
	static const double x[] = { 10, 12, 14 };
	struct fig_stats s;

	stats_describe(x, 3, &s);
	CHECK_EQ_U64(s.n, 3);
	CHECK_NEAR(s.mean, 12, 1e-12);
	CHECK_NEAR(s.sd, 2, 1e-12);
	CHECK_NEAR(s.cv, 2.0 / 12, 1e-12);
	CHECK_NEAR(s.half, 4.968275423500662, 1e-8);
	CHECK_NEAR(s.lo, 12 - 4.968275423500662, 1e-8);
	stats_describe(x, 1, &s);
	CHECK(s.n == 1 && s.mean == 10 && s.sd == 0 && s.half == 0);
	stats_describe(x, 0, &s);
	CHECK(s.n == 0);
}

/* R's t.test(extra ~ group, data = sleep): t = -1.8608, df = 17.776, p = 0.07939. */
static void t_welch(void)
{
	static const double g1[] = { 0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0 };
	static const double g2[] = { 1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4 };
	struct fig_stats a, b;
	struct welch w;

	stats_describe(g1, 10, &a);
	stats_describe(g2, 10, &b);
	CHECK(stats_welch(&a, &b, &w) == 0);
	CHECK_NEAR(w.t, 1.8608, 1e-4);
	CHECK_NEAR(w.df, 17.776, 1e-3);
	CHECK_NEAR(w.p, 0.07939, 1e-5);
	CHECK(stats_welch(&b, &a, &w) == 0);
	CHECK_NEAR(w.t, -1.8608, 1e-4);
	stats_describe(g1, 1, &a);
	CHECK(stats_welch(&a, &b, &w) == -EDOM);
}

static void t_ratio(void)
{
	static const double xa[] = { 100, 104, 96, 101, 99 };
	static const double xb[] = { 120, 118, 125, 121, 116 };
	static const double same[] = { 50, 50, 50 };
	struct fig_stats a, b, c;
	struct welch w;
	double r, lo, hi, t, va, vb;

	stats_describe(xa, 5, &a);
	stats_describe(xb, 5, &b);
	CHECK(stats_ratio_ci(&a, &b, &r, &lo, &hi) == 1);
	CHECK_NEAR(r, b.mean / a.mean, 1e-12);
	CHECK(lo < r && r < hi);
	/* the bounds solve (mb - R ma)^2 = t^2 (vb + R^2 va) */
	CHECK(stats_welch(&a, &b, &w) == 0);
	t = stats_t95(w.df);
	va = a.sd * a.sd / a.n;
	vb = b.sd * b.sd / b.n;
	CHECK_NEAR(pow(b.mean - lo * a.mean, 2), t * t * (vb + lo * lo * va), 1e-6);
	CHECK_NEAR(pow(b.mean - hi * a.mean, 2), t * t * (vb + hi * hi * va), 1e-6);
	/* zero variance: the interval is the point */
	stats_describe(same, 3, &c);
	CHECK(stats_ratio_ci(&c, &c, &r, &lo, &hi) == 1);
	CHECK(r == 1 && lo == 1 && hi == 1);
	/* a single run on one side: point estimate only */
	stats_describe(xa, 1, &c);
	CHECK(stats_ratio_ci(&c, &b, &r, &lo, &hi) == 0);
	CHECK_NEAR(r, b.mean / 100, 1e-12);
}

static struct row *add(struct run *run, const char *phase, unsigned rep, double rate,
		       const char *bs)
{
	struct row *w = run_add_row(run, "dd", phase);

	w->repeat = rep;
	w->rate = rate;
	str_set(&w->rate_unit, "MB/s");
	w->elapsed_ns = 1000000000;
	kv_set(&w->params, "bs", "%s", bs);
	return w;
}

static void t_groups(void)
{
	struct run *run = run_new("dd");
	struct run_groups gs;

	add(run, "write", 0, 100, "1024");
	add(run, "read", 0, 300, "1024");
	add(run, "write", 1, 140, "1024");
	add(run, "read", 1, 302, "1024");
	add(run, "write", 2, 120, "1024");
	add(run, "read", 2, 298, "1024");
	CHECK(compare_group_run(run, &gs) == 2);
	CHECK_EQ_U64(gs.g[0].value.n, 3);
	CHECK_NEAR(gs.g[0].value.mean, 120, 1e-9);
	CHECK(gs.g[0].higher_better == 1);
	compare_groups_free(&gs);
	compare_flag_inconsistent(run);
	CHECK(run->rows[0]->flags & ROW_INCONSISTENT);	/* CV 16.7% */
	CHECK(!(run->rows[1]->flags & ROW_INCONSISTENT));	/* CV 0.7% */
	run_free(run);
}

static void t_compare(void)
{
	struct run *a = run_new("dd"), *b = run_new("dd");
	struct run_groups ga, gb;
	struct cmp_result r;
	struct row *w;
	unsigned i;

	for (i = 0; i < 3; i++) {
		add(a, "write", i, 100 + i, "1024");
		add(b, "write", i, 130 + i, "1024");
		add(a, "read", i, 300 + i, "4096");
		add(b, "read", i, 300 + i, "1048576");
		w = add(a, "reread", i, 900, "4096");
		w = add(b, "reread", i, 200, "4096");
		w->flags |= ROW_CACHE_INFLATED;
		(void)w;
	}
	CHECK(compare_group_run(a, &ga) == 3);
	CHECK(compare_group_run(b, &gb) == 3);
	CHECK(compare_groups(&ga, &gb, &r) == 0);
	CHECK_EQ_U64(r.n, 3);
	CHECK_EQ_U64(r.compared, 1);
	CHECK_EQ_U64(r.refused, 2);
	CHECK(!r.l[0].refusal && r.l[0].winner == CMP_B && r.l[0].significant);
	CHECK_NEAR(r.l[0].delta_pct, 30.0 / 101 * 100, 1e-9);
	CHECK(r.l[0].have_ci && r.l[0].lo_pct < r.l[0].delta_pct);
	CHECK(r.l[1].refusal && strstr(r.l[1].refusal, "different block sizes"));
	CHECK(r.l[2].refusal && strstr(r.l[2].refusal, "cache-inflated"));
	CHECK_EQ_U64(r.b_better_sig, 1);
	compare_result_free(&r);
	compare_groups_free(&ga);
	compare_groups_free(&gb);
	run_free(a);
	run_free(b);
}

int main(void)
{
	RUN(t_t_quantiles);
	RUN(t_t_cdf);
	RUN(t_describe);
	RUN(t_welch);
	RUN(t_ratio);
	RUN(t_groups);
	RUN(t_compare);
	return test_done();
}
