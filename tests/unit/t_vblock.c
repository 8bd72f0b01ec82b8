/* t_vblock.c - the verified block format: the documented bytes, the CRC found by
 * linearity equal to a CRC over the block, and every class the checker names, each from
 * the damage that makes it, with the first bad byte. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "core/crc32c.h"
#include "core/le.h"
#include "core/rng.h"
#include "verify/vblock.h"

#define RUN_ID 0x0123456789abcdefull

static struct vblock_ctx *mkctx(uint64_t run, uint32_t len, unsigned shift, unsigned data)
{
	struct vblock_geom g = { run, len, (uint8_t)shift, (uint8_t)data, 0, NULL, 0 };
	struct vblock_ctx *c = NULL;

	CHECK(vblock_ctx_new(&c, &g) == 0);
	return c;
}

static enum vblock_class judge(const struct vblock_ctx *c, const void *b, size_t len,
			       uint64_t off, uint64_t min_gen, uint32_t flags,
			       struct vblock_result *r)
{
	struct vblock_expect e = { off, min_gen, 7, flags };

	return vblock_check(c, b, len, &e, r);
}

/* CRC32C of a block with bytes 56..63 read as zero, computed the slow way. */
static uint32_t slow_crc(const unsigned char *b, size_t len)
{
	static const unsigned char z[8];
	uint32_t c = crc32c_sw(0, b, 56);

	return crc32c_sw(crc32c_sw(c, z, 8), b + 64, len - 64);
}

/* Every field at the offset docs/methodology.md gives. */
static void t_format(void)
{
	struct vblock_ctx *c = mkctx(RUN_ID, 8192, 12, VBLOCK_DATA_RANDOM);
	unsigned char b[8192], w[8];
	struct rng r;
	uint64_t v = 0;
	int i;

	if (!c)
		return;
	vblock_fill(c, b, sizeof(b), 7, 0x10000, 3);
	CHECK(!memcmp(b, "iobV", 4));
	CHECK_EQ_U64(le_get16(b + 4), 1);
	CHECK_EQ_U64(le_get16(b + 6), 64);
	CHECK_EQ_U64(le_get32(b + 8), 8192);
	CHECK_EQ_U64(b[12], 12);
	CHECK_EQ_U64(b[13], 0);
	CHECK_EQ_U64(le_get16(b + 14), 0);
	CHECK_EQ_U64(le_get64(b + 16), RUN_ID);
	CHECK_EQ_U64(le_get64(b + 24), 0x10000);
	CHECK_EQ_U64(le_get64(b + 32), 3);
	CHECK_EQ_U64(le_get32(b + 40), 7);
	for (i = 44; i < 56; i++)
		CHECK_EQ_U64(b[i], 0);
	CHECK_EQ_U64(le_get32(b + 56), slow_crc(b, sizeof(b)));
	CHECK_EQ_U64(le_get32(b + 60), crc32c_sw(0, b, 60));
	/* the stamp of unit 1 */
	CHECK_EQ_U64(le_get64(b + 4096), RUN_ID);
	CHECK_EQ_U64(le_get64(b + 4096 + 8), 0x10000 + 4096);
	CHECK_EQ_U64(le_get64(b + 4096 + 16), 3);
	CHECK_EQ_U64(le_get32(b + 4096 + 24), 7);
	CHECK_EQ_U64(le_get32(b + 4096 + 28), crc32c_sw(0, b + 4096, 28));
	/* payload: output k of the generator seeded with the run id, little-endian, at
	 * byte 8k: outputs 8 (byte 64) and 516 (byte 4128, just after the stamp) */
	rng_seed(&r, RUN_ID);
	for (i = 0; i <= 516; i++) {
		v = rng_next(&r);
		if (i == 8) {
			le_put64(w, v);
			CHECK(!memcmp(b + 64, w, 8));
		}
	}
	le_put64(w, v);
	CHECK(!memcmp(b + 4128, w, 8));
	vblock_ctx_free(c);
}

/* The CRC by linearity equals a CRC over the bytes, for lengths around unit boundaries
 * and stamp sizes, every unit size and both data modes; and such blocks check clean. */
static void t_crc_fast(void)
{
	static const uint32_t lens[] = { 64, 65, 100, 511, 512, 543, 544, 545, 1000, 4095,
					 4096, 4127, 4128, 4129, 8192, 12345, 65536, 1u << 20 };
	struct vblock_result r;
	unsigned char *b = malloc(1u << 20);
	unsigned shift, data;
	size_t k;
	int bad = 0, unclean = 0;

	CHECK(b != NULL);
	if (!b)
		return;
	for (shift = VBLOCK_UNIT_SHIFT_MIN; shift <= VBLOCK_UNIT_SHIFT_MAX; shift++)
		for (data = 0; data < 2; data++)
			for (k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
				struct vblock_ctx *c = mkctx(RUN_ID + k, lens[k], shift, data);

				if (!c)
					continue;
				vblock_fill(c, b, lens[k], 7, 1ull << 40, 9);
				bad += le_get32(b + 56) != slow_crc(b, lens[k]);
				unclean += judge(c, b, lens[k], 1ull << 40, 0, 0, &r) != VBLOCK_OK;
				/* a shorter last block, from the same context */
				if (lens[k] > 100) {
					vblock_fill(c, b, lens[k] - 33, 7, 0, 1);
					bad += le_get32(b + 56) != slow_crc(b, lens[k] - 33);
					unclean += judge(c, b, lens[k] - 33, 0, 0, 0, &r) !=
						   VBLOCK_OK;
				}
				vblock_ctx_free(c);
			}
	CHECK_EQ_U64(bad, 0);
	CHECK_EQ_U64(unclean, 0);
	free(b);
}

/* A buffer prepared once and stamped many times holds each block exactly. */
static void t_stamp_reuse(void)
{
	struct vblock_ctx *c = mkctx(RUN_ID, 65536, 12, VBLOCK_DATA_RANDOM);
	unsigned char *a = malloc(65536), *b = malloc(65536);
	struct vblock_result r;
	uint64_t i;

	CHECK(a && b && c);
	if (a && b && c) {
		vblock_prepare(c, a, 65536);
		for (i = 0; i < 50; i++) {
			vblock_stamp(c, a, 65536, 7, i * 65536, i + 1);
			vblock_fill(c, b, 65536, 7, i * 65536, i + 1);
			CHECK(!memcmp(a, b, 65536));
			CHECK_EQ_U64(judge(c, a, 65536, i * 65536, 0, 0, &r), VBLOCK_OK);
			CHECK_EQ_U64(r.gen, i + 1);
		}
	}
	free(a);
	free(b);
	vblock_ctx_free(c);
}

/* VBLOCK_DATA_PATTERN: the pattern repeated from the block's first byte, but for the
 * header and the stamps; without the pattern, zeros. */
static void t_pattern(void)
{
	static const unsigned char pat[3] = { 0xaa, 0x55, 0x01 };
	struct vblock_geom g = { 1, 4096, 10, VBLOCK_DATA_PATTERN, 0, pat, 3 };
	unsigned char b[4096];
	struct vblock_ctx *c;
	size_t i;

	CHECK_EQ_U64(vblock_ctx_new(&c, &g), 0);
	vblock_prepare(c, b, sizeof(b));
	for (i = VBLOCK_HDR_LEN; i < 1024; i++)
		CHECK_EQ_U64(b[i], pat[i % 3]);
	for (i = 1024 + VBLOCK_STAMP_LEN; i < 2048; i++)
		CHECK_EQ_U64(b[i], pat[i % 3]);
	CHECK(vblock_ctx_geom(c)->pattern == NULL);
	vblock_ctx_free(c);
	g.pattern = NULL;
	g.npattern = 0;
	CHECK_EQ_U64(vblock_ctx_new(&c, &g), 0);
	vblock_prepare(c, b, sizeof(b));
	for (i = VBLOCK_HDR_LEN; i < 1024; i++)
		CHECK_EQ_U64(b[i], 0);
	vblock_ctx_free(c);
}

static void t_bad_geometry(void)
{
	static const struct vblock_geom bad[] = {
		{ 0, 4096, 12, 0, 0, NULL, 0 }, { 1, 63, 12, 0, 0, NULL, 0 },
		{ 1, VBLOCK_MAX_LEN + 1, 12, 0, 0, NULL, 0 }, { 1, 4096, 8, 0, 0, NULL, 0 },
		{ 1, 4096, 17, 0, 0, NULL, 0 }, { 1, 4096, 12, 3, 0, NULL, 0 },
		{ 1, 4096, 12, 0, 0x8, NULL, 0 },
	};
	struct vblock_ctx *c;
	size_t k;

	for (k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		CHECK_EQ_U64(vblock_ctx_new(&c, &bad[k]), (uint64_t)-EINVAL);
		CHECK(c == NULL);
	}
	CHECK(vblock_run_id() != 0);
	CHECK(vblock_run_id() != vblock_run_id());
}

static void t_header_parse(void)
{
	struct vblock_ctx *c = mkctx(RUN_ID, 4096, 12, VBLOCK_DATA_ZERO);
	struct vblock_header h;
	unsigned char b[4096];

	if (!c)
		return;
	vblock_fill(c, b, sizeof(b), 7, 8192, 2);
	CHECK(vblock_header_parse(b, sizeof(b), &h) == 0);
	CHECK_EQ_U64(h.geom.run_id, RUN_ID);
	CHECK_EQ_U64(h.geom.len, 4096);
	CHECK_EQ_U64(h.geom.data, VBLOCK_DATA_ZERO);
	CHECK_EQ_U64(h.offset, 8192);
	CHECK_EQ_U64(h.gen, 2);
	CHECK_EQ_U64(h.file_id, 7);
	CHECK(vblock_header_parse(b, 63, &h) == -EINVAL);
	b[5] ^= 1;	/* version */
	CHECK(vblock_header_parse(b, sizeof(b), &h) == -EINVAL);
	b[5] ^= 1;
	b[61] ^= 0x40;	/* header CRC */
	CHECK(vblock_header_parse(b, sizeof(b), &h) == -EINVAL);
	vblock_ctx_free(c);
}

/* Each damage named by its class, at the first bad byte, in both data modes. */
static void t_classes(void)
{
	enum { L = 65536 };
	static const size_t flips[] = { 30, 57, 62, 64, 4096 + 9, 4096 + 40, 5000, L - 1 };
	unsigned char *a = malloc(L), *o = malloc(L);
	struct vblock_ctx *c, *other;
	struct vblock_result r;
	unsigned data;
	size_t k;

	CHECK(a && o);
	for (data = 0; a && o && data < 2; data++) {
		c = mkctx(RUN_ID, L, 12, data);
		other = mkctx(RUN_ID + 1, L, 12, data);
		if (!c || !other)
			break;
		/* overwritten bytes: corrupted, at that byte */
		for (k = 0; k < sizeof(flips) / sizeof(flips[0]); k++) {
			vblock_fill(c, a, L, 7, 3 * L, 2);
			a[flips[k]] ^= 0x5a;
			CHECK_EQ_U64(judge(c, a, L, 3 * L, 0, 0, &r), VBLOCK_CORRUPTED);
			CHECK_EQ_U64(r.bad_byte, flips[k]);
		}
		/* a block copied to another offset, or written for another file */
		vblock_fill(c, a, L, 7, 3 * L, 2);
		CHECK_EQ_U64(judge(c, a, L, 5 * L, 0, 0, &r), VBLOCK_MISDIRECTED);
		CHECK_EQ_U64(r.hdr.offset, 3 * L);
		vblock_fill(c, a, L, 8, 3 * L, 2);
		CHECK_EQ_U64(judge(c, a, L, 3 * L, 0, 0, &r), VBLOCK_MISDIRECTED);
		CHECK_EQ_U64(judge(c, a, L, 3 * L, 0, VBLOCK_EXP_ANY_FILE, &r), VBLOCK_OK);
		/* an older generation: stale when a newer one is expected */
		vblock_fill(c, a, L, 7, 3 * L, 2);
		CHECK_EQ_U64(judge(c, a, L, 3 * L, 3, 0, &r), VBLOCK_STALE);
		CHECK_EQ_U64(r.gen, 2);
		CHECK_EQ_U64(judge(c, a, L, 3 * L, 2, 0, &r), VBLOCK_OK);
		/* another run's block; zeros; foreign bytes */
		vblock_fill(other, a, L, 7, 3 * L, 2);
		CHECK_EQ_U64(judge(c, a, L, 3 * L, 0, 0, &r), VBLOCK_OTHER_RUN);
		CHECK_EQ_U64(r.hdr.geom.run_id, RUN_ID + 1);
		memset(a, 0, L);
		CHECK_EQ_U64(judge(c, a, L, 3 * L, 0, 0, &r), VBLOCK_ZEROED);
		memset(a, 'x', L);
		CHECK_EQ_U64(judge(c, a, L, 3 * L, 0, 0, &r), VBLOCK_NO_HEADER);
		/* half a block from an older generation: torn, the old half named */
		vblock_fill(c, a, L, 7, 3 * L, 2);
		vblock_fill(c, o, L, 7, 3 * L, 1);
		memcpy(a + L / 2, o + L / 2, L / 2);
		CHECK_EQ_U64(judge(c, a, L, 3 * L, 0, 0, &r), VBLOCK_TORN);
		CHECK_EQ_U64(r.bad_byte, L / 2);
		CHECK_EQ_U64(r.gen_lo, 1);
		CHECK_EQ_U64(r.gen_hi, 2);
		/* the other way round: old header, new rest */
		vblock_fill(c, a, L, 7, 3 * L, 1);
		vblock_fill(c, o, L, 7, 3 * L, 2);
		memcpy(a + 4096, o + 4096, L - 4096);
		CHECK_EQ_U64(judge(c, a, L, 3 * L, 0, 0, &r), VBLOCK_TORN);
		CHECK_EQ_U64(r.bad_byte, 0);
		/* the tail never landed: zeros after the header's units */
		vblock_fill(c, a, L, 7, 3 * L, 2);
		memset(a + 3 * 4096, 0, L - 3 * 4096);
		CHECK_EQ_U64(judge(c, a, L, 3 * L, 0, 0, &r), VBLOCK_TORN);
		CHECK_EQ_U64(r.bad_byte, 3 * 4096);
		/* the header's unit never landed, the rest did */
		vblock_fill(c, a, L, 7, 3 * L, 2);
		memset(a, 0, 4096);
		CHECK_EQ_U64(judge(c, a, L, 3 * L, 0, 0, &r), VBLOCK_TORN);
		CHECK_EQ_U64(r.bad_byte, 0);
		CHECK_EQ_U64(r.gen, 2);
		/* a unit of another block inside this one: corrupted at its stamp's offset */
		vblock_fill(c, a, L, 7, 3 * L, 2);
		vblock_fill(c, o, L, 7, 4 * L, 2);
		memcpy(a + 8192, o + 8192, 4096);
		CHECK_EQ_U64(judge(c, a, L, 3 * L, 0, 0, &r), VBLOCK_CORRUPTED);
		CHECK_EQ_U64(r.bad_byte, 8192 + 8 + 2);	/* offset field: 3L vs 4L, byte 2 */
		vblock_ctx_free(c);
		vblock_ctx_free(other);
	}
	free(a);
	free(o);
}

/* With an acknowledged generation (journal): newer whole or torn over it is in flight,
 * older or partly older fails, zeros pass only where nothing was acknowledged. */
static void t_inflight(void)
{
	enum { L = 16384 };
	struct vblock_ctx *c = mkctx(RUN_ID, L, 12, VBLOCK_DATA_RANDOM);
	unsigned char a[L], o[L];
	struct vblock_result r;
	const uint32_t F = VBLOCK_EXP_INFLIGHT;

	if (!c)
		return;
	vblock_fill(c, a, L, 7, 0, 3);
	CHECK_EQ_U64(judge(c, a, L, 0, 3, F, &r), VBLOCK_OK);
	CHECK_EQ_U64(judge(c, a, L, 0, 2, F, &r), VBLOCK_INFLIGHT);
	CHECK_EQ_U64(judge(c, a, L, 0, 0, F, &r), VBLOCK_INFLIGHT);
	CHECK_EQ_U64(judge(c, a, L, 0, 4, F, &r), VBLOCK_STALE);
	vblock_fill(c, o, L, 7, 0, 2);
	memcpy(a + 8192, o + 8192, 8192);	/* 3 over 2 */
	CHECK_EQ_U64(judge(c, a, L, 0, 2, F, &r), VBLOCK_INFLIGHT);
	CHECK_EQ_U64(judge(c, a, L, 0, 3, F, &r), VBLOCK_TORN);
	CHECK_EQ_U64(judge(c, a, L, 0, 2, 0, &r), VBLOCK_TORN);
	memset(a, 0, L);
	CHECK_EQ_U64(judge(c, a, L, 0, 0, F, &r), VBLOCK_INFLIGHT);
	CHECK_EQ_U64(judge(c, a, L, 0, 1, F, &r), VBLOCK_ZEROED);
	vblock_fill(c, a, L, 7, 0, 1);
	memset(a + 4096, 0, L - 4096);	/* first write, partly landed */
	CHECK_EQ_U64(judge(c, a, L, 0, 0, F, &r), VBLOCK_INFLIGHT);
	CHECK_EQ_U64(judge(c, a, L, 0, 1, F, &r), VBLOCK_TORN);
	a[100] ^= 1;	/* damage is never in flight */
	CHECK_EQ_U64(judge(c, a, L, 0, 0, F, &r), VBLOCK_CORRUPTED);
	vblock_ctx_free(c);
}

static void t_names(void)
{
	int k, bad = 0;

	for (k = 0; k < VBLOCK_NCLASS; k++) {
		CHECK(strcmp(vblock_class_name((enum vblock_class)k), "unknown") != 0);
		bad += vblock_class_bad((enum vblock_class)k);
	}
	CHECK_EQ_U64(bad, VBLOCK_NCLASS - 2);
	CHECK(!strcmp(vblock_class_name(VBLOCK_TORN), "torn"));
	CHECK(!vblock_class_bad(VBLOCK_INFLIGHT));
}

int main(void)
{
	RUN(t_format);
	RUN(t_crc_fast);
	RUN(t_stamp_reuse);
	RUN(t_pattern);
	RUN(t_bad_geometry);
	RUN(t_header_parse);
	RUN(t_classes);
	RUN(t_inflight);
	RUN(t_names);
	return test_done();
}
