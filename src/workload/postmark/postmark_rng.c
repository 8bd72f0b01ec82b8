/* postmark_rng.c - the Mersenne Twister MT19937 (Matsumoto and Nishimura, ACM TOMACS 8(1),
 * 1998), written from the published algorithm, seeded the way the 1998 reference code
 * and PostMark 1.5x seed it: every state word takes the upper 16 bits of two successive
 * steps of the congruential generator x <- 69069 x + 1 (mod 2^32). Drawing the same seed
 * here and in PostMark gives the same 32-bit sequence, so the same files, sizes and
 * transaction choices. */
#include "workload/postmark/postmark.h"

#define MT_M		397
#define MT_MATRIX	0x9908b0dfu
#define MT_UPPER	0x80000000u
#define MT_LOWER	0x7fffffffu

void pm_mt_seed(struct pm_mt *m, uint32_t seed)
{
	uint32_t x = seed;
	unsigned k;

	for (k = 0; k < PM_MT_N; k++) {
		uint32_t hi = x & 0xffff0000u;

		x = 69069u * x + 1u;
		m->s[k] = hi | ((x & 0xffff0000u) >> 16);
		x = 69069u * x + 1u;
	}
	m->i = PM_MT_N;
}

/* Regenerate all 624 words (the "twist"). */
static void mt_twist(struct pm_mt *m)
{
	unsigned k;

	for (k = 0; k < PM_MT_N; k++) {
		uint32_t y = (m->s[k] & MT_UPPER) | (m->s[(k + 1) % PM_MT_N] & MT_LOWER);
		uint32_t v = m->s[(k + MT_M) % PM_MT_N] ^ (y >> 1);

		m->s[k] = (y & 1u) ? v ^ MT_MATRIX : v;
	}
	m->i = 0;
}

uint32_t pm_mt_next(struct pm_mt *m)
{
	uint32_t y;

	if (m->i >= PM_MT_N)
		mt_twist(m);
	y = m->s[m->i++];
	/* tempering */
	y ^= y >> 11;
	y ^= (y << 7) & 0x9d2c5680u;
	y ^= (y << 15) & 0xefc60000u;
	y ^= y >> 18;
	return y;
}
