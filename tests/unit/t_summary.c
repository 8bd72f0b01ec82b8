/* t_summary.c - Welford's mean/variance against the two-pass formula; merging. */
#include "test.h"
#include "core/rng.h"
#include "stats/summary.h"

#define N 10001

static double xs[N];

static void fill(void)
{
	struct rng r;
	unsigned i;

	rng_seed(&r, 5);
	for (i = 0; i < N; i++)	/* large offset, small spread: the naive formula fails */
		xs[i] = 1e9 + (double)rng_below(&r, 1000000) / 1000.0;
}

static void two_pass(unsigned from, unsigned to, double *mean, double *var)
{
	double s = 0, ss = 0;
	unsigned i;

	for (i = from; i < to; i++)
		s += xs[i];
	*mean = s / (to - from);
	for (i = from; i < to; i++)
		ss += (xs[i] - *mean) * (xs[i] - *mean);
	*var = ss / (to - from - 1);
}

static void t_welford(void)
{
	struct summary s;
	double m, v;
	unsigned i;

	summary_init(&s);
	CHECK(summary_var(&s) == 0 && summary_cv(&s) == 0);
	summary_add(&s, 3);
	CHECK(summary_var(&s) == 0 && s.mean == 3 && s.min == 3 && s.max == 3);
	summary_init(&s);
	for (i = 0; i < N; i++)
		summary_add(&s, xs[i]);
	two_pass(0, N, &m, &v);
	CHECK_EQ_U64(s.n, N);
	CHECK(fabs(s.mean - m) / m < 1e-12);
	CHECK(fabs(summary_var(&s) - v) / v < 1e-6);
	CHECK(fabs(summary_sd(&s) - sqrt(v)) / sqrt(v) < 1e-6);
	CHECK(fabs(summary_cv(&s) - sqrt(v) / m) < 1e-12);
	summary_init(&s);
	summary_add(&s, 2);
	summary_add(&s, 4);
	summary_add(&s, 4);
	summary_add(&s, 4);
	summary_add(&s, 5);
	summary_add(&s, 5);
	summary_add(&s, 7);
	summary_add(&s, 9);
	CHECK_NEAR(s.mean, 5, 1e-12);
	CHECK_NEAR(summary_var(&s), 32.0 / 7, 1e-12);
	CHECK(s.min == 2 && s.max == 9);
}

static void t_merge(void)
{
	static const unsigned cuts[] = { 1, 2, 100, 5000, N - 1 };
	struct summary a, b, all, e;
	unsigned c, i;

	summary_init(&all);
	for (i = 0; i < N; i++)
		summary_add(&all, xs[i]);
	for (c = 0; c < sizeof(cuts) / sizeof(cuts[0]); c++) {
		summary_init(&a);
		summary_init(&b);
		for (i = 0; i < N; i++)
			summary_add(i < cuts[c] ? &a : &b, xs[i]);
		summary_merge(&a, &b);
		CHECK_EQ_U64(a.n, all.n);
		CHECK(fabs(a.mean - all.mean) / all.mean < 1e-12);
		CHECK(fabs(summary_var(&a) - summary_var(&all)) / summary_var(&all) < 1e-6);
		CHECK(a.min == all.min && a.max == all.max);
	}
	/* merging with empty, either way */
	summary_init(&e);
	a = all;
	summary_merge(&a, &e);
	CHECK(a.n == all.n && a.mean == all.mean && a.m2 == all.m2);
	summary_merge(&e, &all);
	CHECK(e.n == all.n && e.mean == all.mean && e.min == all.min);
}

int main(void)
{
	fill();
	RUN(t_welford);
	RUN(t_merge);
	return test_done();
}
