/* sha256.h - SHA-256 (FIPS 180-4), for the digest a result file carries
 * (stats/result_canon.h). sha256_hex("abc") is
 * ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad.
 * Thread-safe: the state is the caller's; the constants are read-only. */
#ifndef IOB_CORE_SHA256_H
#define IOB_CORE_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_LEN	32
#define SHA256_HEX_LEN	(2 * SHA256_LEN + 1)	/* 64 hex digits and a NUL */

struct sha256 {
	uint32_t h[8];
	uint64_t len;			/* bytes fed so far */
	unsigned char buf[64];		/* a block not yet full */
	unsigned nbuf;
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
/* The digest of everything fed since sha256_init; s is spent afterwards. */
void sha256_final(struct sha256 *s, unsigned char out[SHA256_LEN]);
/* The digest of len bytes as 64 lowercase hex digits and a NUL in out; returns out. */
char *sha256_hex(const void *data, size_t len, char out[SHA256_HEX_LEN]);

#endif
