/* rng.h - small fast PRNG (xoshiro256** family, written from the published
 * description) for data buffers and random offsets. One state per thread; not locked. */
#ifndef IOB_CORE_RNG_H
#define IOB_CORE_RNG_H

#include <stddef.h>
#include <stdint.h>

struct rng {
	uint64_t s[4];
};

/* Seed the generator (splitmix64 expansion of seed). */
void rng_seed(struct rng *r, uint64_t seed);
/* Next 64 random bits. */
uint64_t rng_next(struct rng *r);
/* Uniform integer in [0, bound) (bound > 0), without modulo bias. */
uint64_t rng_below(struct rng *r, uint64_t bound);
/* Fill buf with len random bytes. */
void rng_fill(struct rng *r, void *buf, size_t len);

#endif
