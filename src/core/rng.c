/* rng.c - xoshiro256** (Blackman and Vigna) seeded by splitmix64, written from the
 * published description of both generators. */
#include <string.h>

#include "core/rng.h"

static inline uint64_t rng_rotl(uint64_t x, unsigned k)
{
	return (x << k) | (x >> (64u - k));
}

/* splitmix64: add the golden-ratio increment, then mix with two multiply-xorshifts. */
static uint64_t rng_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed)
{
	uint64_t x = seed;
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = rng_splitmix64(&x);
	/* The all-zero state is the one fixed point; splitmix64 cannot produce four zero
	 * words in a row, but guard anyway. */
	if (!(r->s[0] | r->s[1] | r->s[2] | r->s[3]))
		r->s[0] = 1;
}

uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t out = rng_rotl(s[1] * 5u, 7) * 9u;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rng_rotl(s[3], 45);
	return out;
}

/* Lemire's multiply-shift with rejection: the high 64 bits of x * bound are uniform in
 * [0, bound) once draws whose low half falls below 2^64 mod bound are thrown away. */
uint64_t rng_below(struct rng *r, uint64_t bound)
{
	unsigned __int128 m;
	uint64_t lo, thresh;

	if (bound <= 1)
		return 0;
	m = (unsigned __int128)rng_next(r) * bound;
	lo = (uint64_t)m;
	if (lo < bound) {
		thresh = (0 - bound) % bound;
		while (lo < thresh) {
			m = (unsigned __int128)rng_next(r) * bound;
			lo = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

void rng_fill(struct rng *r, void *buf, size_t len)
{
	unsigned char *p = buf;
	uint64_t v;

	while (len >= 8) {
		v = rng_next(r);
		memcpy(p, &v, 8);
		p += 8;
		len -= 8;
	}
	if (len) {
		v = rng_next(r);
		memcpy(p, &v, len);
	}
}
