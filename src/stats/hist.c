/* hist.c - the log-linear latency histogram: bucket geometry, merging, percentiles.
 * See hist.h for the layout and docs/methodology.md for the error bound. */
#include <math.h>
#include <string.h>

#include "stats/hist.h"

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	unsigned i;

	if (src->n == 0)
		return;
	dst->n += src->n;
	dst->sum += src->sum;
	dst->sumsq += src->sumsq;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	for (i = 0; i < HIST_NBUCKETS; i++)
		dst->b[i] += src->b[i];
}

/* Buckets 0..63 hold one value each. Bucket i >= 64 is in group g = i/64 (g >= 1) and
 * sub-bucket j = i%64; group g covers [2^(g+5), 2^(g+6)) in 64 steps of 2^(g-1). This is
 * the inverse of hist_index(). The last bucket also takes everything above 2^44. */
uint64_t hist_bucket_low(unsigned i)
{
	unsigned g, j;

	if (i < HIST_SUB)
		return i;
	g = i / HIST_SUB;
	j = i % HIST_SUB;
	return ((uint64_t)(HIST_SUB + j)) << (g - 1);
}

uint64_t hist_bucket_width(unsigned i)
{
	if (i < HIST_SUB)
		return 1;
	return (uint64_t)1 << (i / HIST_SUB - 1);
}

uint64_t hist_percentile(const struct hist *h, double p)
{
	uint64_t rank, seen = 0, mid;
	double want;
	unsigned i;

	if (h->n == 0)
		return 0;
	if (p > 100)
		p = 100;
	want = ceil(p / 100.0 * (double)h->n);
	rank = want < 1 ? 1 : (uint64_t)want;
	if (rank > h->n)
		rank = h->n;
	for (i = 0; i < HIST_NBUCKETS; i++) {
		seen += h->b[i];
		if (seen >= rank)
			break;
	}
	if (i >= HIST_NBUCKETS)
		return h->max;
	/* Midpoint of the bucket; width 1 buckets hold exactly their value. */
	mid = hist_bucket_low(i) + hist_bucket_width(i) / 2;
	if (mid < h->min)
		mid = h->min;
	if (mid > h->max)
		mid = h->max;
	return mid;
}

double hist_mean(const struct hist *h)
{
	if (h->n == 0)
		return 0;
	return (double)h->sum / (double)h->n;
}

/* Population variance from exact integer sums: (n*sumsq - sum^2) / n^2, with the
 * numerator formed in 128-bit integers so no cancellation happens. */
double hist_stddev(const struct hist *h)
{
	unsigned __int128 s2, nsq;
	long double num;

	if (h->n < 2)
		return 0;
	s2 = (unsigned __int128)h->sum * h->sum;
	nsq = h->sumsq * h->n;	/* may wrap for extreme inputs; fall back below */
	if (nsq / h->n == h->sumsq && nsq >= s2) {
		num = (long double)(nsq - s2);
		return (double)sqrtl(num) / (double)h->n;
	}
	{
		long double mean = (long double)h->sum / h->n;
		long double var = (long double)h->sumsq / h->n - mean * mean;

		return var > 0 ? (double)sqrtl(var) : 0;
	}
}
