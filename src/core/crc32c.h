/* crc32c.h - CRC32C (Castagnoli, reflected polynomial 0x82f63b78), as iSCSI, ext4, btrfs
 * and NVMe use it: initial value and final xor 0xffffffff, so crc32c(0, "123456789", 9)
 * is 0xe3069283.
 *
 * Three paths compute the same value: the x86-64 SSE4.2 crc32 instruction, the ARMv8 CRC
 * extension (both with three interleaved streams), and a table-driven software path
 * (slicing by 8). The hardware path is compiled in only where configure found a compiler
 * that can emit it (HAVE_CRC32C_SSE42, HAVE_CRC32C_ARMV8) and chosen at program start if
 * the CPU has it. Every function here is thread-safe: the tables and the choice are made
 * once, before main, and only read afterwards.
 *
 * Registers: crc32c(c, buf, n) == ~R(~c, buf, n), where R is the CRC register update
 * without the inversions. R is linear over GF(2): R(a ^ b, x ^ y) == R(a, x) ^ R(b, y) for
 * inputs of equal length, and R(r, zeros of n bytes) is r multiplied by x^(8n) modulo the
 * polynomial, which crc32c_shift_* computes from a table instead of reading n bytes. That
 * is how vblock.c finds the CRC of a large block after patching a few bytes of it. */
#ifndef IOB_CORE_CRC32C_H
#define IOB_CORE_CRC32C_H

#include <stddef.h>
#include <stdint.h>

typedef uint32_t (*crc32c_fn)(uint32_t crc, const void *buf, size_t len);

/* CRC32C of len bytes at buf, continuing from crc (0 to start; the value returned by an
 * earlier call to continue across buffers). Uses the fastest path this CPU has. */
uint32_t crc32c(uint32_t crc, const void *buf, size_t len);

/* The same on the software path, whatever the CPU has. */
uint32_t crc32c_sw(uint32_t crc, const void *buf, size_t len);

/* The hardware path's function, or NULL where this build or this CPU has none. */
crc32c_fn crc32c_hw(void);

/* Name of the path crc32c() takes: "sse4.2", "armv8-crc" or "software". Static string. */
const char *crc32c_path(void);

/* Multiplication of a CRC register by x^(8n) mod P, i.e. R(reg, n zero bytes), as four
 * table look-ups. 4 KiB; fill once with crc32c_shift_init, then read-only. */
struct crc32c_shift {
	uint32_t t[4][256];
};

/* Prepare s to advance a register over nbytes zero bytes. Cost: about 40 32x32 bit
 * matrix products (a few microseconds), whatever nbytes is. */
void crc32c_shift_init(struct crc32c_shift *s, uint64_t nbytes);

/* R(reg, nbytes zero bytes) for the nbytes s was prepared with. */
static inline uint32_t crc32c_shift(const struct crc32c_shift *s, uint32_t reg)
{
	return s->t[0][reg & 0xff] ^ s->t[1][(reg >> 8) & 0xff] ^ s->t[2][(reg >> 16) & 0xff] ^
	       s->t[3][reg >> 24];
}

#endif
