/* t_crc32c.c - CRC32C against published vectors (RFC 3720 appendix B.4 and the usual
 * check value), hardware and software paths equal on every length and misaligned starts,
 * chaining, and the register shift against a CRC over real zero bytes. */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "config.h"
#include "core/crc32c.h"
#include "core/rng.h"

/* Every path this build and CPU can run: the software one, the hardware one if any, and
 * the dispatching crc32c(). */
static crc32c_fn paths[3];
static int npaths;

static void setup_paths(void)
{
	paths[npaths++] = crc32c_sw;
	paths[npaths++] = crc32c;
	if (crc32c_hw())
		paths[npaths++] = crc32c_hw();
}

static void t_vectors(void)
{
	/* RFC 3720 B.4: an iSCSI SCSI Read (10) command PDU */
	static const unsigned char pdu[48] = {
		0x01, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00,
		0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x18, 0x28, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	};
	unsigned char zero[32], ones[32], inc[32], dec[32];
	int i;

	for (i = 0; i < 32; i++) {
		zero[i] = 0;
		ones[i] = 0xff;
		inc[i] = (unsigned char)i;
		dec[i] = (unsigned char)(31 - i);
	}
	for (i = 0; i < npaths; i++) {
		CHECK_EQ_U64(paths[i](0, "123456789", 9), 0xe3069283u);
		CHECK_EQ_U64(paths[i](0, zero, 32), 0x8a9136aau);
		CHECK_EQ_U64(paths[i](0, ones, 32), 0x62a8ab43u);
		CHECK_EQ_U64(paths[i](0, inc, 32), 0x46dd794eu);
		CHECK_EQ_U64(paths[i](0, dec, 32), 0x113fdb5cu);
		CHECK_EQ_U64(paths[i](0, pdu, 48), 0xd9963a56u);
		CHECK_EQ_U64(paths[i](0, "", 0), 0);
		CHECK_EQ_U64(paths[i](0x12345678, "", 0), 0x12345678);
	}
}

/* Every length 0..4096 at every start 0..7, then lengths around the three-stream pieces
 * (768 and 6144 bytes) and a large one; each path must equal a byte-at-a-time reference
 * (the software path fed one byte per call). */
static void t_paths_equal(void)
{
	static const size_t extra[] = { 767, 768, 769, 1535, 1536, 6143, 6144, 6145, 6912,
					12288, 12289, 18431, 65536 + 13, 1u << 20 };
	size_t big = (1u << 20) + 64, len, k;
	unsigned char *buf = malloc(big);
	struct rng r;
	unsigned off;
	int i, bad = 0;

	CHECK(buf != NULL);
	if (!buf)
		return;
	rng_seed(&r, 99);
	rng_fill(&r, buf, big);
	for (off = 0; off < 8; off++)
		for (len = 0; len <= 4096; len++) {
			uint32_t want = crc32c_sw(0, buf + off, len);

			for (i = 1; i < npaths; i++)
				bad += paths[i](0, buf + off, len) != want;
		}
	CHECK_EQ_U64(bad, 0);
	for (k = 0; k < sizeof(extra) / sizeof(extra[0]); k++)
		for (off = 0; off < 8; off += 3) {
			uint32_t want = 0;
			size_t j;

			for (j = 0; j < extra[k]; j++)
				want = crc32c_sw(want, buf + off + j, 1);
			for (i = 0; i < npaths; i++)
				CHECK_EQ_U64(paths[i](0, buf + off, extra[k]), want);
		}
	free(buf);
}

static void t_chaining(void)
{
	unsigned char buf[10000];
	struct rng r;
	size_t cut;
	int i;

	rng_seed(&r, 5);
	rng_fill(&r, buf, sizeof(buf));
	for (i = 0; i < npaths; i++) {
		uint32_t whole = paths[i](0, buf, sizeof(buf));

		for (cut = 0; cut <= sizeof(buf); cut += 997)
			CHECK_EQ_U64(paths[i](paths[i](0, buf, cut), buf + cut, sizeof(buf) - cut),
				     whole);
	}
}

/* R(reg, n zeros) = ~crc32c(~reg, zeros, n): the table shift must give the same. */
static void t_shift(void)
{
	static const uint64_t ns[] = { 0, 1, 2, 3, 7, 8, 31, 32, 64, 255, 256, 4032, 4064,
				       4096, 65535, 100000 };
	static unsigned char zeros[100000];
	struct crc32c_shift s;
	struct rng r;
	size_t k;
	int j;

	rng_seed(&r, 11);
	for (k = 0; k < sizeof(ns) / sizeof(ns[0]); k++) {
		crc32c_shift_init(&s, ns[k]);
		for (j = 0; j < 20; j++) {
			uint32_t reg = (uint32_t)rng_next(&r);

			CHECK_EQ_U64(crc32c_shift(&s, reg), ~crc32c_sw(~reg, zeros, ns[k]));
		}
		CHECK_EQ_U64(crc32c_shift(&s, 0), 0);
	}
}

/* The path named is the one that runs: on an x86-64 build with the SSE4.2 path and a
 * CPU that has it, crc32c() must not fall back to software. */
static void t_path_name(void)
{
	const char *p = crc32c_path();

	CHECK(!strcmp(p, "sse4.2") || !strcmp(p, "armv8-crc") || !strcmp(p, "software"));
	CHECK((crc32c_hw() == NULL) == !strcmp(p, "software"));
#ifdef HAVE_CRC32C_SSE42
	__builtin_cpu_init();
	if (__builtin_cpu_supports("sse4.2"))
		CHECK(!strcmp(p, "sse4.2"));
#endif
	printf("crc32c path: %s\n", p);
}

int main(void)
{
	setup_paths();
	RUN(t_vectors);
	RUN(t_paths_equal);
	RUN(t_chaining);
	RUN(t_shift);
	RUN(t_path_name);
	return test_done();
}
