/* crc32c.c - CRC32C on three paths (software slicing by 8, SSE4.2, ARMv8 CRC) and the
 * table-driven register shift. Written from the definition of the CRC: a reflected shift
 * register that divides the message by the polynomial 0x1edc6f41 (0x82f63b78 reflected).
 *
 * The hardware paths: the crc32 instruction has a latency of about three cycles and a
 * throughput of one per cycle, so one stream of dependent instructions runs at a third of
 * what the unit can do. Each piece of 3 x L bytes is therefore split into three streams of
 * L bytes computed side by side (the second and third from a zero register) and joined:
 *	R(r, A B C) = shift_L(shift_L(R(r, A)) ^ R(0, B)) ^ R(0, C)
 * which holds because R is linear and R(x, zeros) is the shift (see crc32c.h). */
#include <string.h>

#include "config.h"
#include "core/crc32c.h"
#include "core/le.h"

#ifdef HAVE_CRC32C_SSE42
#include <nmmintrin.h>
#endif
#ifdef HAVE_CRC32C_ARMV8
#include <arm_acle.h>
#include <sys/auxv.h>
#ifndef HWCAP_CRC32
#define HWCAP_CRC32 (1ul << 7)	/* the Linux arm64 ABI value */
#endif
#endif

#define CRC32C_POLY 0x82f63b78u	/* reflected Castagnoli polynomial */
#define CRC_LONG 2048		/* bytes per stream, long pieces (6 KiB a piece) */
#define CRC_SHORT 256		/* bytes per stream, short pieces (768 bytes a piece) */

static uint32_t crc_tab[8][256];	/* slicing-by-8 tables, built before main */
static struct crc32c_shift crc_shift_long, crc_shift_short;
static crc32c_fn crc_best = crc32c_sw;
static crc32c_fn crc_hw_fn;
static const char *crc_best_name = "software";

uint32_t crc32c_sw(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint32_t r = ~crc, hi;

	while (len >= 8) {
		r ^= le_get32(p);
		hi = le_get32(p + 4);
		r = crc_tab[7][r & 0xff] ^ crc_tab[6][(r >> 8) & 0xff] ^
		    crc_tab[5][(r >> 16) & 0xff] ^ crc_tab[4][r >> 24] ^
		    crc_tab[3][hi & 0xff] ^ crc_tab[2][(hi >> 8) & 0xff] ^
		    crc_tab[1][(hi >> 16) & 0xff] ^ crc_tab[0][hi >> 24];
		p += 8;
		len -= 8;
	}
	while (len--)
		r = (r >> 8) ^ crc_tab[0][(r ^ *p++) & 0xff];
	return ~r;
}

#ifdef HAVE_CRC32C_SSE42
__attribute__((target("sse4.2")))
static uint32_t crc32c_sse42(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	unsigned long long a = ~crc, b, c;
	size_t i;

	while (len >= 3 * CRC_LONG) {
		for (b = c = 0, i = 0; i < CRC_LONG; i += 8) {
			a = _mm_crc32_u64(a, le_get64(p + i));
			b = _mm_crc32_u64(b, le_get64(p + CRC_LONG + i));
			c = _mm_crc32_u64(c, le_get64(p + 2 * CRC_LONG + i));
		}
		a = crc32c_shift(&crc_shift_long,
				 crc32c_shift(&crc_shift_long, (uint32_t)a) ^ (uint32_t)b) ^
		    (uint32_t)c;
		p += 3 * CRC_LONG;
		len -= 3 * CRC_LONG;
	}
	while (len >= 3 * CRC_SHORT) {
		for (b = c = 0, i = 0; i < CRC_SHORT; i += 8) {
			a = _mm_crc32_u64(a, le_get64(p + i));
			b = _mm_crc32_u64(b, le_get64(p + CRC_SHORT + i));
			c = _mm_crc32_u64(c, le_get64(p + 2 * CRC_SHORT + i));
		}
		a = crc32c_shift(&crc_shift_short,
				 crc32c_shift(&crc_shift_short, (uint32_t)a) ^ (uint32_t)b) ^
		    (uint32_t)c;
		p += 3 * CRC_SHORT;
		len -= 3 * CRC_SHORT;
	}
	for (; len >= 8; p += 8, len -= 8)
		a = _mm_crc32_u64(a, le_get64(p));
	if (len >= 4) {
		a = _mm_crc32_u32((uint32_t)a, le_get32(p));
		p += 4;
		len -= 4;
	}
	while (len--)
		a = _mm_crc32_u8((uint32_t)a, *p++);
	return ~(uint32_t)a;
}
#endif

#ifdef HAVE_CRC32C_ARMV8
__attribute__((target(IOB_ARM_CRC_TARGET)))
static uint32_t crc32c_armv8(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint32_t a = ~crc, b, c;
	size_t i;

	while (len >= 3 * CRC_LONG) {
		for (b = c = 0, i = 0; i < CRC_LONG; i += 8) {
			a = IOB_ARM_CRC32CD(a, le_get64(p + i));
			b = IOB_ARM_CRC32CD(b, le_get64(p + CRC_LONG + i));
			c = IOB_ARM_CRC32CD(c, le_get64(p + 2 * CRC_LONG + i));
		}
		a = crc32c_shift(&crc_shift_long, crc32c_shift(&crc_shift_long, a) ^ b) ^ c;
		p += 3 * CRC_LONG;
		len -= 3 * CRC_LONG;
	}
	while (len >= 3 * CRC_SHORT) {
		for (b = c = 0, i = 0; i < CRC_SHORT; i += 8) {
			a = IOB_ARM_CRC32CD(a, le_get64(p + i));
			b = IOB_ARM_CRC32CD(b, le_get64(p + CRC_SHORT + i));
			c = IOB_ARM_CRC32CD(c, le_get64(p + 2 * CRC_SHORT + i));
		}
		a = crc32c_shift(&crc_shift_short, crc32c_shift(&crc_shift_short, a) ^ b) ^ c;
		p += 3 * CRC_SHORT;
		len -= 3 * CRC_SHORT;
	}
	for (; len >= 8; p += 8, len -= 8)
		a = IOB_ARM_CRC32CD(a, le_get64(p));
	if (len >= 4) {
		a = IOB_ARM_CRC32CW(a, le_get32(p));
		p += 4;
		len -= 4;
	}
	while (len--)
		a = IOB_ARM_CRC32CB(a, *p++);
	return ~a;
}
#endif

uint32_t crc32c(uint32_t crc, const void *buf, size_t len)
{
	return crc_best(crc, buf, len);
}

crc32c_fn crc32c_hw(void)
{
	return crc_hw_fn;
}

const char *crc32c_path(void)
{
	return crc_best_name;
}

/* GF(2) 32x32 matrices as 32 columns: m[i] is the image of bit i. */
static uint32_t gf2_apply(const uint32_t *m, uint32_t v)
{
	uint32_t r = 0;
	int i;

	for (i = 0; v; i++, v >>= 1)
		if (v & 1)
			r ^= m[i];
	return r;
}

/* dst = a after b (dst may not alias a or b). */
static void gf2_mul(uint32_t *dst, const uint32_t *a, const uint32_t *b)
{
	int i;

	for (i = 0; i < 32; i++)
		dst[i] = gf2_apply(a, b[i]);
}

/* The shift by n zero bytes is the one-bit step of the register, (r >> 1) ^ (r & 1 ? P : 0),
 * raised to the power 8n: square and multiply over the bits of n. */
void crc32c_shift_init(struct crc32c_shift *s, uint64_t nbytes)
{
	uint32_t base[32], acc[32], tmp[32];
	int i, j, b;

	base[0] = CRC32C_POLY;
	for (i = 1; i < 32; i++)
		base[i] = 1u << (i - 1);
	for (i = 0; i < 3; i++) {	/* one bit -> one byte: the eighth power */
		gf2_mul(tmp, base, base);
		memcpy(base, tmp, sizeof(base));
	}
	for (i = 0; i < 32; i++)
		acc[i] = 1u << i;
	while (nbytes) {
		if (nbytes & 1) {
			gf2_mul(tmp, base, acc);
			memcpy(acc, tmp, sizeof(acc));
		}
		nbytes >>= 1;
		if (nbytes) {
			gf2_mul(tmp, base, base);
			memcpy(base, tmp, sizeof(base));
		}
	}
	/* Table j maps byte j of the register: each entry is the XOR of the columns of its
	 * set bits, built from the entry with the lowest set bit cleared. */
	for (j = 0; j < 4; j++) {
		s->t[j][0] = 0;
		for (b = 1; b < 256; b++)
			s->t[j][b] = s->t[j][b & (b - 1)] ^ acc[8 * j + __builtin_ctz((unsigned)b)];
	}
}

__attribute__((constructor)) static void crc32c_init(void)
{
	uint32_t c;
	int i, k;

	for (i = 0; i < 256; i++) {
		c = (uint32_t)i;
		for (k = 0; k < 8; k++)
			c = (c & 1) ? (c >> 1) ^ CRC32C_POLY : c >> 1;
		crc_tab[0][i] = c;
	}
	for (k = 1; k < 8; k++)
		for (i = 0; i < 256; i++)
			crc_tab[k][i] = (crc_tab[k - 1][i] >> 8) ^
					crc_tab[0][crc_tab[k - 1][i] & 0xff];
	crc32c_shift_init(&crc_shift_long, CRC_LONG);
	crc32c_shift_init(&crc_shift_short, CRC_SHORT);
#ifdef HAVE_CRC32C_SSE42
	/* a constructor runs before the CPU model is set up for __builtin_cpu_supports */
	__builtin_cpu_init();
	if (__builtin_cpu_supports("sse4.2")) {
		crc_hw_fn = crc32c_sse42;
		crc_best_name = "sse4.2";
	}
#endif
#ifdef HAVE_CRC32C_ARMV8
	if (getauxval(AT_HWCAP) & HWCAP_CRC32) {
		crc_hw_fn = crc32c_armv8;
		crc_best_name = "armv8-crc";
	}
#endif
	if (crc_hw_fn)
		crc_best = crc_hw_fn;
}
