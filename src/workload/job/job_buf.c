/* job_buf.c - what a job writes, as fio's buffer options make it: random data filled
 * once (fio's default), lightly changed before each write (scramble_buffers, on by
 * default), new random data on each write (refill_buffers), zeros (zero_buffers), a
 * repeated pattern (buffer_pattern), blocks of which N% compresses away
 * (buffer_compress_percentage, per buffer_compress_chunk) and writes of which N% repeat
 * an earlier block (dedupe_percentage, from any earlier block or, with
 * dedupe_mode=working_set, from a set of dedupe_working_set_percentage of them).
 * The fill is chosen once per thread (job_buf_setup); the loop calls it per write. */
#include <string.h>

#include "core/clock.h"
#include "workload/job/job_buf.h"

/* The pattern (or zeros) repeated over len bytes of p, from phase `at` of the pattern. */
static void jb_pattern(const struct job_xopts *x, unsigned char *p, size_t len)
{
	size_t i;

	if (!x->npattern) {
		memset(p, 0, len);
		return;
	}
	for (i = 0; i < len; i++)
		p[i] = x->pattern[i % x->npattern];
}

/* scramble_buffers: every 512 bytes, 8 bytes of the buffer become the offset mixed with
 * the clock, so that no two writes carry the same block (fio's reason: defeat
 * deduplication cheaply). */
static void jb_scramble(struct job_buf *b, unsigned char *p, size_t len, uint64_t off)
{
	uint64_t v = off ^ (clock_ns() * 0x9e3779b97f4a7c15ull);
	size_t i;

	for (i = 0; i + 8 <= len; i += 512) {
		v += 0x632be59bd9b4e019ull;
		memcpy(p + i, &v, 8);
	}
	(void)b;
}

/* One block of data from seed: random, with the compressible share of each chunk made
 * of the pattern (zeros without one). */
static void jb_block(struct job_buf *b, unsigned char *p, size_t len, uint64_t seed)
{
	const struct job_xopts *x = b->x;
	size_t chunk = x->compress_chunk ? x->compress_chunk : len, o;
	struct rng r;

	rng_seed(&r, seed);
	if (!x->compress_pct) {
		rng_fill(&r, p, len);
		return;
	}
	for (o = 0; o < len; o += chunk) {
		size_t n = len - o < chunk ? len - o : chunk;
		size_t rnd = n * (100 - x->compress_pct) / 100;

		rng_fill(&r, p + o, rnd);
		jb_pattern(x, p + o + rnd, n - rnd);
	}
}

/* refill, compress or dedupe: a block per write; dedupe_percentage of them repeat the
 * block of an earlier seed. */
static void jb_refill(struct job_buf *b, unsigned char *p, size_t len, uint64_t off)
{
	uint64_t seed;

	(void)off;
	if (b->x->dedupe_pct && b->uniq && rng_below(&b->r, 100) < b->x->dedupe_pct) {
		uint64_t pool = b->uniq;

		if (b->x->dedupe_ws && b->ws < pool)
			pool = b->ws;
		seed = b->key + 1 + rng_below(&b->r, pool);
	} else {
		seed = b->key + ++b->uniq;
	}
	jb_block(b, p, len, seed);
}

void job_buf_setup(struct job_buf *b, const struct job_def *d, uint64_t seed,
		   unsigned char *buf, size_t len)
{
	const struct job_xopts *x = &d->xo;

	memset(b, 0, sizeof(*b));
	b->x = x;
	rng_seed(&b->r, seed ^ 0xb0ffe5ull);
	b->key = rng_next(&b->r);
	b->ws = d->size / (d->bs[JOB_WRITE].min ? d->bs[JOB_WRITE].min : 4096) *
		x->dedupe_ws_pct / 100;
	if (!b->ws)
		b->ws = 1;
	if (x->zero_buffers || (x->npattern && !x->compress_pct && !x->dedupe_pct)) {
		jb_pattern(x, buf, len);	/* fixed data: nothing per write */
		return;
	}
	rng_fill(&b->r, buf, len);
	if (x->refill_buffers || x->compress_pct || x->dedupe_pct)
		b->fill = jb_refill;
	else if (x->scramble_buffers)
		b->fill = jb_scramble;
}

const char *job_buf_mode(const struct job_def *d)
{
	const struct job_xopts *x = &d->xo;

	if (x->zero_buffers)
		return "zeros";
	if (x->npattern && !x->compress_pct && !x->dedupe_pct)
		return "pattern";
	if (x->compress_pct || x->dedupe_pct)
		return "compress/dedupe";
	if (x->refill_buffers)
		return "refill";
	return x->scramble_buffers ? "scramble" : "fixed";
}
