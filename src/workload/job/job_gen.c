/* job_gen.c - what a job's I/O loop draws for each request: the block size, the
 * direction of a mixed job, the next random block (uniform with or without fio's random
 * map, zipf, pareto, normal, zoned). Pure functions of their state and an rng. Uniform,
 * random map, normal and zoned use integer arithmetic only; zipf and pareto need one
 * exp/log or pow per draw, as in fio. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "workload/job/job.h"

bool job_rw_reads(enum job_rw rw)
{
	return rw == JOB_RW_READ || rw == JOB_RW_RANDREAD || rw == JOB_RW_RW ||
	       rw == JOB_RW_RANDRW;
}

bool job_rw_writes(enum job_rw rw)
{
	return rw == JOB_RW_WRITE || rw == JOB_RW_RANDWRITE || rw == JOB_RW_RW ||
	       rw == JOB_RW_RANDRW || rw == JOB_RW_TRIMWRITE || rw == JOB_RW_RANDTRIMWRITE;
}

bool job_rw_trims(enum job_rw rw)
{
	return rw == JOB_RW_TRIM || rw == JOB_RW_RANDTRIM || rw == JOB_RW_TRIMWRITE ||
	       rw == JOB_RW_RANDTRIMWRITE;
}

bool job_rw_modifies(enum job_rw rw)
{
	return job_rw_writes(rw) || job_rw_trims(rw);
}

const char *job_rw_name(enum job_rw rw)
{
	static const char *const n[] = { "read", "write", "randread", "randwrite", "rw",
					 "randrw", "trim", "randtrim", "trimwrite",
					 "randtrimwrite" };

	return (unsigned)rw < sizeof(n) / sizeof(n[0]) ? n[rw] : "?";
}

bool job_rw_random(enum job_rw rw)
{
	return rw == JOB_RW_RANDREAD || rw == JOB_RW_RANDWRITE || rw == JOB_RW_RANDRW ||
	       rw == JOB_RW_RANDTRIM || rw == JOB_RW_RANDTRIMWRITE;
}

/* high 64 bits of a * b: r scaled to [0, b) */
static inline uint64_t jg_scale(uint64_t r, uint64_t b)
{
	return (uint64_t)(((unsigned __int128)r * b) >> 64);
}

uint64_t job_bs_pick(const struct job_bs *b, uint64_t r)
{
	uint64_t len;

	if (b->min == b->max)
		return b->min;
	if (!b->nsplit) {
		/* fio: min + max * r/2^64, then down to a multiple of min, capped at max */
		len = b->min + jg_scale(r, b->max);
	} else {
		unsigned p = (unsigned)jg_scale(r, 100), cum = 0, i;

		len = b->split[b->nsplit - 1].bs;
		for (i = 0; i < b->nsplit; i++) {
			cum += b->split[i].perc;
			if (p < cum) {
				len = b->split[i].bs;
				break;
			}
		}
	}
	len -= len % b->min;
	return len > b->max ? b->max : len;
}

uint64_t job_bs_next(const struct job_bs *b, struct rng *r, uint64_t room)
{
	uint64_t len, best;
	unsigned i;

	if (b->min > room)
		return 0;
	if (b->max <= room)
		return job_bs_pick(b, rng_next(r));
	for (i = 0; i < 64; i++) {
		len = job_bs_pick(b, rng_next(r));
		if (len <= room)
			return len;
	}
	if (!b->nsplit)
		return room - room % b->min;
	best = b->min;
	for (i = 0; i < b->nsplit; i++) {
		len = b->split[i].bs - b->split[i].bs % b->min;
		if (len <= room && len > best)
			best = len;
	}
	return best;
}

enum job_ddir job_ddir_next(const struct job_def *d, struct rng *r)
{
	switch (d->rw) {
	case JOB_RW_READ:
	case JOB_RW_RANDREAD:
		return JOB_READ;
	case JOB_RW_WRITE:
	case JOB_RW_RANDWRITE:
		return JOB_WRITE;
	case JOB_RW_TRIM:
	case JOB_RW_RANDTRIM:
	case JOB_RW_TRIMWRITE:
	case JOB_RW_RANDTRIMWRITE:
		return JOB_TRIM;
	default:
		return 1 + rng_below(r, 100) <= d->rwmix[JOB_READ] ? JOB_READ : JOB_WRITE;
	}
}

uint64_t job_rand_blocks(const struct job_bs *b, uint64_t span)
{
	if (!b->ba)
		return 0;
	if (b->min > b->ba) {
		if (span < b->min - b->ba)
			return 0;
		span -= b->min - b->ba;
	}
	return span / b->ba;
}

/* ---- a keyed permutation of [0, n) ----
 * Three rounds of (x + k) * m, then x ^= x >> shift, on the smallest power of two
 * holding n: each step is a bijection modulo 2^bits (m is odd, the xorshift is
 * invertible), so their composition is a permutation P. Walking the cycle of P from x
 * until it falls below n gives a permutation of [0, n); fewer than two steps are
 * expected since 2^bits < 2n. */

void job_perm_init(struct job_perm *p, uint64_t n, struct rng *r)
{
	unsigned bits = 0, i;

	memset(p, 0, sizeof(*p));
	p->n = n;
	while (bits < 64 && (1ull << bits) < n)
		bits++;
	p->mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
	p->shift = bits > 1 ? (bits + 1) / 2 : 1;
	for (i = 0; i < 3; i++) {
		p->k[i] = rng_next(r) & p->mask;
		p->m[i] = (rng_next(r) | 1u) & p->mask;
		if (!p->m[i])
			p->m[i] = 1;
	}
}

uint64_t job_perm_apply(const struct job_perm *p, uint64_t x)
{
	unsigned i;

	if (p->n <= 1)
		return 0;
	do {
		for (i = 0; i < 3; i++) {
			x = ((x + p->k[i]) * p->m[i]) & p->mask;
			x ^= x >> p->shift;
		}
	} while (x >= p->n);
	return x;
}

/* ---- zipf by rejection-inversion (Hoermann and Derflinger, "Rejection-inversion to
 * generate variates from monotone discrete distributions", 1996): invert the integral
 * H of h(x) = x^-theta over cells of width 1 around each rank, and accept a draw when it
 * falls under the rank's own mass; exact, O(1) per draw, any theta > 0. */

static double jg_log1p_over(double t)	/* log(1 + t) / t, also near 0 */
{
	return fabs(t) > 1e-8 ? log1p(t) / t : 1 - t * (0.5 - t * (1.0 / 3 - 0.25 * t));
}

static double jg_expm1_over(double t)	/* (e^t - 1) / t, also near 0 */
{
	return fabs(t) > 1e-8 ? expm1(t) / t : 1 + t * 0.5 * (1 + t / 3 * (1 + 0.25 * t));
}

static double jg_h(double th, double x)
{
	return exp(-th * log(x));
}

static double jg_H(double th, double x)	/* (x^(1-th) - 1) / (1-th) */
{
	double lx = log(x);

	return jg_expm1_over((1 - th) * lx) * lx;
}

static double jg_Hinv(double th, double y)
{
	return exp(jg_log1p_over((1 - th) * y) * y);
}

static double jg_unit(struct rng *r)	/* [0, 1), 53 bits */
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

static uint64_t jg_zipf(const struct job_offgen *g, struct rng *r)
{
	for (;;) {
		double u = g->h_n + jg_unit(r) * (g->h_x1 - g->h_n);
		double x = jg_Hinv(g->theta, u);
		/* x may be huge, infinite or NaN at extreme thetas: compare before the cast */
		uint64_t k = !(x >= 1) ? 1 : x + 0.5 >= (double)g->n ? g->n : (uint64_t)(x + 0.5);

		if (k > g->n)
			k = g->n;
		if ((double)k - x <= g->s ||
		    u >= jg_H(g->theta, (double)k + 0.5) - jg_h(g->theta, (double)k))
			return k - 1;
	}
}

/* fio's normal: the mean of 12 uniform draws over [0, n] (Irwin-Hall, sd n/12), moved
 * by a uniform deviation of width dev% of n, halved until it stays inside. */
static uint64_t jg_normal(const struct job_offgen *g, struct rng *r)
{
	unsigned __int128 sum = 0;
	int64_t dev, v;
	unsigned i;

	for (i = 0; i < 12; i++)
		sum += rng_below(r, g->n == UINT64_MAX ? g->n : g->n + 1);
	v = (int64_t)((sum + 11) / 12);
	if (g->stddev) {
		dev = (int64_t)rng_below(r, g->stddev) - (int64_t)(g->stddev / 2);
		while (dev && (v + dev < 0 || (uint64_t)(v + dev) >= g->n))
			dev /= 2;
		v += dev;
	}
	return (uint64_t)v >= g->n ? g->n - 1 : (uint64_t)v;
}

int job_offgen_init(struct job_offgen *g, const struct job_def *d, enum job_ddir dir,
		    uint64_t n, struct rng *r)
{
	const struct job_dist *ds = &d->dist;
	unsigned i, acc = 0, start = 0;

	if (!n)
		return -EINVAL;
	memset(g, 0, sizeof(*g));
	g->n = n;
	g->kind = ds->kind;
	job_perm_init(&g->perm, n, r);
	g->scatter = ds->center < 0;
	if (!g->scatter)
		g->shift = (uint64_t)(ds->center * (double)n) % n;
	switch (ds->kind) {
	case JOB_DIST_RANDOM:
		g->map = !d->norandommap;
		break;
	case JOB_DIST_ZIPF:
		g->theta = ds->param;
		g->h_x1 = jg_H(g->theta, 1.5) - 1.0;
		g->h_n = jg_H(g->theta, (double)n + 0.5);
		g->s = 2 - jg_Hinv(g->theta, jg_H(g->theta, 2.5) - jg_h(g->theta, 2));
		break;
	case JOB_DIST_PARETO:
		g->pareto_pow = log(ds->param) / log(1.0 - ds->param);
		break;
	case JOB_DIST_NORMAL:
		g->stddev = (uint64_t)ceil((double)n * ds->param / 100.0);
		if (g->stddev > n / 2)
			g->stddev = n / 2;
		/* the bell peaks at n/2: a center moves the peak there */
		if (!g->scatter)
			g->shift = (g->shift + n - n / 2) % n;
		break;
	case JOB_DIST_ZONED:
		g->nzones = ds->nzones[dir];
		if (!g->nzones)
			g->kind = JOB_DIST_RANDOM;	/* no zones for this direction */
		for (i = 0; i < g->nzones; i++) {
			const struct job_zone *z = &ds->zones[dir][i];
			uint64_t lo = (uint64_t)((unsigned __int128)n * start / 100);
			uint64_t hi = (uint64_t)((unsigned __int128)n * (start + z->size) / 100);

			acc += z->access;
			start += z->size;
			g->zone_acc[i] = acc;
			if (lo >= n)
				lo = n - 1;
			g->zone_lo[i] = lo;
			g->zone_len[i] = hi > lo ? hi - lo : 1;
		}
		break;
	}
	return 0;
}

uint64_t job_offgen_rank(struct job_offgen *g, struct rng *r)
{
	switch (g->kind) {
	case JOB_DIST_ZIPF:
		return jg_zipf(g, r);
	case JOB_DIST_PARETO: {
		double v = (double)(g->n - 1) * pow(jg_unit(r), g->pareto_pow);

		/* pareto:1e-17 makes the power infinite: never cast what does not fit */
		if (!(v >= 0))
			return 0;
		return v >= (double)(g->n - 1) ? g->n - 1 : (uint64_t)v;
	}
	case JOB_DIST_NORMAL:
		return jg_normal(g, r);
	default:
		return job_offgen_next(g, r);
	}
}

uint64_t job_offgen_next(struct job_offgen *g, struct rng *r)
{
	uint64_t k;
	unsigned i, v;

	switch (g->kind) {
	case JOB_DIST_RANDOM:
		if (!g->map)
			return rng_below(r, g->n);
		if (g->pos == g->n) {	/* a pass is complete: a new order */
			g->pos = 0;
			g->pass++;
			job_perm_init(&g->perm, g->n, r);
		}
		return job_perm_apply(&g->perm, g->pos++);
	case JOB_DIST_ZONED:
		v = (unsigned)rng_below(r, 100);
		for (i = 0; i + 1 < g->nzones && v >= g->zone_acc[i]; i++)
			;
		return g->zone_lo[i] + rng_below(r, g->zone_len[i]);
	default:
		k = job_offgen_rank(g, r);
		return g->scatter ? job_perm_apply(&g->perm, k) : (k + g->shift) % g->n;
	}
}
