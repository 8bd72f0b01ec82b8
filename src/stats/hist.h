/* hist.h - log-linear latency histogram in nanoseconds.
 *
 * Values below 64 ns get a bucket each. Above, every power of two [2^k, 2^(k+1)) is split
 * into 64 equal sub-buckets, so a bucket is at most 1/64 of its lower bound wide; reporting
 * the bucket's midpoint puts any percentile within 1/128 (0.78%) of a value in that
 * bucket. Groups run up to 2^44 ns (about 4.9 hours); larger values land in the last bucket
 * (max_ns stays exact). 2,496 buckets of 8 bytes: 20 KiB per histogram.
 *
 * Buckets add: merging threads, repeats or ranks is adding arrays, and percentiles are
 * taken only after merging. count, sum, sum of squares, min and max are exact integers,
 * so the mean and standard deviation are exact too; hist_add uses no floating point and
 * is meant for the I/O loop. Not thread-safe: one histogram per worker. */
#ifndef IOB_STATS_HIST_H
#define IOB_STATS_HIST_H

#include <stdint.h>

#define HIST_SUB_BITS	6
#define HIST_SUB	(1u << HIST_SUB_BITS)		/* 64 */
#define HIST_MAX_BITS	44				/* values < 2^44 ns are binned exactly */
#define HIST_NBUCKETS	((HIST_MAX_BITS - HIST_SUB_BITS + 1) * HIST_SUB)	/* 2496 */

struct hist {
	uint64_t n;
	uint64_t sum;			/* ns; overflows after 584 years of latency */
	unsigned __int128 sumsq;	/* ns^2 */
	uint64_t min, max;		/* min is UINT64_MAX while n == 0 */
	uint64_t b[HIST_NBUCKETS];
};

/* Bucket index of a value: identity below 64; above, the group is the position of the
 * leading bit and the sub-bucket the next 6 bits. */
static inline unsigned hist_index(uint64_t v)
{
	unsigned msb, shift;

	if (v < HIST_SUB)
		return (unsigned)v;
	msb = 63u - (unsigned)__builtin_clzll(v);
	if (msb >= HIST_MAX_BITS)
		return HIST_NBUCKETS - 1;
	shift = msb - HIST_SUB_BITS;
	return (msb - HIST_SUB_BITS + 1) * HIST_SUB + (unsigned)((v >> shift) & (HIST_SUB - 1));
}

static inline void hist_add(struct hist *h, uint64_t ns)
{
	h->n++;
	h->sum += ns;
	h->sumsq += (unsigned __int128)ns * ns;
	if (ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
	h->b[hist_index(ns)]++;
}

/* hist_add for a histogram that another thread reads while it grows (a sampler taking
 * interval readings of a worker's): the same arithmetic, with relaxed atomic stores of
 * n, max and the bucket so that the reader sees whole values. On x86-64 and arm64 these
 * are the same instructions as plain stores; only the one thread that adds may write. */
static inline void hist_add_shared(struct hist *h, uint64_t ns)
{
	unsigned i = hist_index(ns);

	__atomic_store_n(&h->n, h->n + 1, __ATOMIC_RELAXED);
	h->sum += ns;
	h->sumsq += (unsigned __int128)ns * ns;
	if (ns < h->min)
		h->min = ns;
	if (ns > h->max)
		__atomic_store_n(&h->max, ns, __ATOMIC_RELAXED);
	__atomic_store_n(&h->b[i], h->b[i] + 1, __ATOMIC_RELAXED);
}

/* Empty histogram. */
void hist_init(struct hist *h);
/* dst += src. */
void hist_merge(struct hist *dst, const struct hist *src);
/* Lower bound and width (ns) of bucket i. */
uint64_t hist_bucket_low(unsigned i);
uint64_t hist_bucket_width(unsigned i);
/* The value at percentile p (0 < p <= 100): the midpoint of the bucket holding the
 * ceil(p/100 * n)-th smallest sample, clamped to [min, max]. 0 when empty. */
uint64_t hist_percentile(const struct hist *h, double p);
/* Exact mean and population standard deviation in ns (0 when empty). */
double hist_mean(const struct hist *h);
double hist_stddev(const struct hist *h);

#endif
