/* t_rng.c - reproducibility, bounds and rough uniformity of the PRNG. */
#include <string.h>

#include "test.h"
#include "core/rng.h"

static void t_same_seed(void)
{
	struct rng a, b, c;
	int i, differ = 0;

	rng_seed(&a, 42);
	rng_seed(&b, 42);
	rng_seed(&c, 43);
	for (i = 0; i < 1000; i++) {
		uint64_t x = rng_next(&a), y = rng_next(&b), z = rng_next(&c);

		CHECK_EQ_U64(x, y);
		differ += x != z;
	}
	CHECK(differ > 990);
}

static void t_below(void)
{
	static const uint64_t bounds[] = { 1, 2, 3, 7, 1000, 1ull << 33, (1ull << 63) + 5,
					   UINT64_MAX };
	struct rng r;
	unsigned i, j;

	rng_seed(&r, 1);
	for (i = 0; i < sizeof(bounds) / sizeof(bounds[0]); i++)
		for (j = 0; j < 10000; j++)
			CHECK(rng_below(&r, bounds[i]) < bounds[i]);
}

static void t_uniform(void)
{
	enum { K = 10, N = 1000000 };
	unsigned long cnt[K] = { 0 };
	unsigned char buf[4099];
	unsigned long bytes[256] = { 0 };
	struct rng r;
	double chi = 0, e = (double)N / K;
	unsigned i;

	rng_seed(&r, 7);
	for (i = 0; i < N; i++)
		cnt[rng_below(&r, K)]++;
	for (i = 0; i < K; i++)
		chi += (cnt[i] - e) * (cnt[i] - e) / e;
	CHECK(chi < 40);	/* 9 degrees of freedom: 40 is far beyond p = 1e-5 */

	/* rng_fill: every byte value shows up about equally, odd tails are filled */
	memset(buf, 0, sizeof(buf));
	for (i = 0; i < 64; i++) {
		unsigned j;

		rng_fill(&r, buf, sizeof(buf));
		for (j = 0; j < sizeof(buf); j++)
			bytes[buf[j]]++;
	}
	chi = 0;
	e = 64.0 * sizeof(buf) / 256;
	for (i = 0; i < 256; i++)
		chi += (bytes[i] - e) * (bytes[i] - e) / e;
	CHECK(chi < 400);	/* 255 degrees of freedom */
}

int main(void)
{
	RUN(t_same_seed);
	RUN(t_below);
	RUN(t_uniform);
	return test_done();
}
