/* t_hist.c - histogram percentiles against an exact sort, merging, bucket geometry. */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "core/rng.h"
#include "stats/hist.h"

#define NS 200000

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Log-uniform over [100 ns, 100 ms]: six orders of magnitude. */
static uint64_t sample(struct rng *r)
{
	double u = (double)(rng_next(r) >> 11) / 9007199254740992.0;

	return (uint64_t)(100.0 * pow(10.0, 6.0 * u));
}

static void t_percentiles(void)
{
	static const double ps[] = { 1, 50, 90, 99, 99.9 };
	uint64_t *v = malloc(NS * sizeof(*v));
	struct hist *h = malloc(sizeof(*h));
	struct rng r;
	unsigned i;

	CHECK(v && h);
	if (!v || !h)
		return;
	hist_init(h);
	rng_seed(&r, 2024);
	for (i = 0; i < NS; i++) {
		v[i] = sample(&r);
		hist_add(h, v[i]);
	}
	qsort(v, NS, sizeof(*v), cmp_u64);
	for (i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		uint64_t rank = (uint64_t)ceil(ps[i] / 100.0 * NS);
		double exact = (double)v[rank - 1];
		double got = (double)hist_percentile(h, ps[i]);

		CHECK(fabs(got - exact) / exact < 0.01);
	}
	CHECK_EQ_U64(h->min, v[0]);
	CHECK_EQ_U64(h->max, v[NS - 1]);
	CHECK(fabs((double)hist_percentile(h, 100) - (double)v[NS - 1]) / (double)v[NS - 1] < 0.01);
	{
		double sum = 0, m, ss = 0;

		for (i = 0; i < NS; i++)
			sum += (double)v[i];
		m = sum / NS;
		for (i = 0; i < NS; i++)
			ss += ((double)v[i] - m) * ((double)v[i] - m);
		CHECK(fabs(hist_mean(h) - m) / m < 1e-12);
		CHECK(fabs(hist_stddev(h) - sqrt(ss / NS)) / sqrt(ss / NS) < 1e-9);
	}
	free(v);
	free(h);
}

static void t_small(void)
{
	struct hist h;

	hist_init(&h);
	CHECK_EQ_U64(h.min, UINT64_MAX);
	CHECK_EQ_U64(hist_percentile(&h, 50), 0);
	CHECK(hist_mean(&h) == 0 && hist_stddev(&h) == 0);
	hist_add(&h, 10);
	hist_add(&h, 20);
	hist_add(&h, 30);
	hist_add(&h, 40);
	CHECK_EQ_U64(hist_percentile(&h, 50), 20);	/* small values are exact */
	CHECK_EQ_U64(hist_percentile(&h, 75), 30);
	CHECK_EQ_U64(hist_percentile(&h, 76), 40);
	CHECK_EQ_U64(hist_percentile(&h, 0.1), 10);
	CHECK_NEAR(hist_mean(&h), 25, 1e-12);
	CHECK_NEAR(hist_stddev(&h), sqrt(125.0), 1e-9);
	/* a single large value is clamped to [min, max] */
	hist_init(&h);
	hist_add(&h, 1000001);
	CHECK_EQ_U64(hist_percentile(&h, 50), 1000001);
	/* beyond the binned range: last bucket, max exact */
	hist_add(&h, 1ull << 50);
	CHECK(hist_percentile(&h, 100) >= hist_bucket_low(HIST_NBUCKETS - 1));
	CHECK_EQ_U64(h.max, 1ull << 50);
	CHECK_EQ_U64(h.b[HIST_NBUCKETS - 1], 1);
}

static void t_merge(void)
{
	struct hist *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b)), *all = malloc(sizeof(*all));
	struct rng r;
	unsigned i;

	CHECK(a && b && all);
	if (!a || !b || !all)
		return;
	hist_init(a);
	hist_init(b);
	hist_init(all);
	rng_seed(&r, 99);
	for (i = 0; i < 50000; i++) {
		uint64_t x = sample(&r);

		hist_add((i % 3) ? a : b, x);
		hist_add(all, x);
	}
	hist_merge(a, b);
	CHECK_EQ_U64(a->n, all->n);
	CHECK_EQ_U64(a->sum, all->sum);
	CHECK(a->sumsq == all->sumsq);
	CHECK_EQ_U64(a->min, all->min);
	CHECK_EQ_U64(a->max, all->max);
	CHECK(memcmp(a->b, all->b, sizeof(a->b)) == 0);
	/* merging an empty histogram changes nothing (min stays right) */
	hist_init(b);
	hist_merge(a, b);
	CHECK_EQ_U64(a->min, all->min);
	free(a);
	free(b);
	free(all);
}

static void t_buckets(void)
{
	unsigned i;
	uint64_t v;

	CHECK_EQ_U64(hist_bucket_low(0), 0);
	for (i = 1; i < HIST_NBUCKETS; i++)
		CHECK_EQ_U64(hist_bucket_low(i), hist_bucket_low(i - 1) + hist_bucket_width(i - 1));
	CHECK_EQ_U64(hist_bucket_low(HIST_NBUCKETS - 1) + hist_bucket_width(HIST_NBUCKETS - 1),
		     1ull << HIST_MAX_BITS);
	for (i = 0; i < HIST_NBUCKETS; i++) {
		uint64_t lo = hist_bucket_low(i), w = hist_bucket_width(i);

		CHECK_EQ_U64(hist_index(lo), i);
		CHECK_EQ_U64(hist_index(lo + w - 1), i);
		if (lo >= HIST_SUB)
			CHECK(w * 64 <= lo);	/* at most 1/64 of the lower bound wide */
	}
	for (v = 1; v < (1ull << 40); v = v * 3 + 1)
		CHECK(hist_bucket_low(hist_index(v)) <= v &&
		      v < hist_bucket_low(hist_index(v)) + hist_bucket_width(hist_index(v)));
}

int main(void)
{
	RUN(t_percentiles);
	RUN(t_small);
	RUN(t_merge);
	RUN(t_buckets);
	return test_done();
}
