/* vblock.h - verified blocks: what a write workload with --verify puts in each block it
 * writes, and how a block read back is judged. The byte layout is documented in
 * docs/methodology.md, "Data verification"; in short:
 *
 *	[0, 64)			header: magic, version, lengths, unit size, data mode, flags,
 *				run id, block offset, generation, file id, block CRC, header CRC
 *	[u*U, u*U + 32), u >= 1	a stamp at the start of every unit of U bytes (4 KiB by
 *				default): run id, the unit's file offset, generation, file id, CRC
 *	everything else		payload: the run's template (random bytes from the run id,
 *				or zeros), the same at the same place in every block of the run
 *
 * The block CRC covers the whole block; the stamps let a checker tell a block that is
 * partly an older generation (torn) from one with damaged bytes (corrupted). Because the
 * payload depends on the run id only, filling a block means patching the header and the
 * stamps of a buffer that already holds the template, and its CRC follows from the
 * template's CRC and the patched bytes alone (crc32c.h, registers): the cost is a few
 * microseconds per MiB, not a pass over the block.
 *
 * A context (struct vblock_ctx) holds one run's template for one block length; it is
 * immutable after vblock_ctx_new, so one context may serve many threads. */
#ifndef IOB_VERIFY_VBLOCK_H
#define IOB_VERIFY_VBLOCK_H

#include <stddef.h>
#include <stdint.h>

#define VBLOCK_VERSION		1
#define VBLOCK_HDR_LEN		64	/* header bytes at the start of a block */
#define VBLOCK_STAMP_LEN	32	/* stamp bytes at the start of every further unit */
#define VBLOCK_MIN_LEN		VBLOCK_HDR_LEN
#define VBLOCK_MAX_LEN		(1u << 30)
#define VBLOCK_UNIT_SHIFT_MIN	9	/* units of 512 bytes ... */
#define VBLOCK_UNIT_SHIFT_MAX	16	/* ... to 64 KiB */
#define VBLOCK_UNIT_SHIFT_DEFAULT 12	/* 4 KiB: a page, the usual file system block */
#define VBLOCK_NO_BYTE		UINT64_MAX	/* "the first bad byte cannot be told" */

enum vblock_data {
	VBLOCK_DATA_RANDOM = 0,	/* template: pseudo-random bytes from the run id */
	VBLOCK_DATA_ZERO = 1,	/* template: zeros (headers and stamps still written) */
	VBLOCK_DATA_PATTERN = 2,	/* template: the writer's pattern (vblock_geom.pattern)
				 * repeated from each block's first byte; a checker that is
				 * not given it judges the CRC alike and compares a bad
				 * block's bytes with zeros */
};

/* Header flag: the writer writes the file in whole passes, generation n being pass n, so
 * every block of the file should carry the same generation (verify.h, VERIFY_GEN_AUTO). */
#define VBLOCK_F_PASS 0x1

/* What every block of one run and one length shares. */
struct vblock_geom {
	uint64_t run_id;	/* nonzero; see vblock_run_id */
	uint32_t len;		/* block length, VBLOCK_MIN_LEN..VBLOCK_MAX_LEN */
	uint8_t unit_shift;	/* log2 of the unit, VBLOCK_UNIT_SHIFT_MIN..MAX */
	uint8_t data;		/* enum vblock_data */
	uint16_t flags;		/* VBLOCK_F_* */
	/* VBLOCK_DATA_PATTERN: its bytes (read by vblock_ctx_new only, not kept); NULL,
	 * 0: zeros. Never read from or written to a header. */
	const unsigned char *pattern;
	uint32_t npattern;
};

/* A block header as read from disk. */
struct vblock_header {
	struct vblock_geom geom;
	uint64_t offset;	/* the block's file offset when it was written */
	uint64_t gen;		/* its generation */
	uint32_t file_id;	/* the writer's number for the file */
	uint32_t block_crc;
};

struct vblock_ctx;

/* A random nonzero run id (8 bytes of /dev/urandom; the clock and pid where that cannot
 * be read). Thread-safe. */
uint64_t vblock_run_id(void);

/* Make a context for geometry g: allocates and computes the template (about 1 ms per MiB)
 * and its CRC. Returns 0 and *out (free with vblock_ctx_free), -EINVAL for a geometry out
 * of range (run id 0, length, unit, data mode) or -ENOMEM. */
int vblock_ctx_new(struct vblock_ctx **out, const struct vblock_geom *g);
void vblock_ctx_free(struct vblock_ctx *c);	/* NULL is fine */
/* The context's geometry (owned by the context). */
const struct vblock_geom *vblock_ctx_geom(const struct vblock_ctx *c);

/* Copy the template's first len bytes (len <= the context's length) into buf. Once per
 * buffer: vblock_stamp only rewrites headers and stamps, so a buffer prepared once and
 * written from (not read into) can be stamped again and again. */
void vblock_prepare(const struct vblock_ctx *c, void *buf, size_t len);

/* Turn a prepared buffer of len bytes (VBLOCK_MIN_LEN <= len <= the context's length)
 * into the block (file_id, offset, gen) of the context's run: writes the header and the
 * stamps, and the block CRC. At the context's own length the CRC costs a few table
 * look-ups per unit; a shorter block (the last of a file) gets a CRC over its bytes. */
void vblock_stamp(const struct vblock_ctx *c, void *buf, size_t len, uint32_t file_id,
		  uint64_t offset, uint64_t gen);

/* vblock_prepare then vblock_stamp: for a buffer whose bytes are unknown. */
void vblock_fill(const struct vblock_ctx *c, void *buf, size_t len, uint32_t file_id,
		 uint64_t offset, uint64_t gen);

/* Parse and validate the header at buf (len bytes available, at least VBLOCK_HDR_LEN):
 * magic, version, header length, header CRC, and every field in range. Returns 0 and *h,
 * or -EINVAL when it is not a valid header. Says nothing about the rest of the block. */
int vblock_header_parse(const void *buf, size_t len, struct vblock_header *h);

enum vblock_class {
	VBLOCK_OK,		/* the block as written */
	VBLOCK_INFLIGHT,	/* accepted: an unacknowledged write, landed whole, in part or
				 * not at all (only with VBLOCK_EXP_INFLIGHT) */
	VBLOCK_CORRUPTED,	/* bytes that no write of this block put there (CRC mismatch) */
	VBLOCK_MISDIRECTED,	/* a valid block of this run for another offset or file */
	VBLOCK_STALE,		/* lost write: a valid block of an older generation */
	VBLOCK_OTHER_RUN,	/* lost write: a valid block of another run */
	VBLOCK_ZEROED,		/* lost write: zeros where the block was written */
	VBLOCK_NO_HEADER,	/* lost write: bytes that are no block of this format */
	VBLOCK_TORN,		/* header valid, part of the block an older generation or zeros */
	VBLOCK_MISSING,		/* the file ends before the block does, or an acknowledged
				 * block lies past its end (verify.c) */
	VBLOCK_NCLASS
};

/* "ok", "in-flight", "corrupted", "misdirected", "stale", "other-run", "zeroed",
 * "no-header", "torn", "missing". Static strings. */
const char *vblock_class_name(enum vblock_class cls);
/* 1 when the class fails a check (everything but ok and in-flight), else 0. */
int vblock_class_bad(enum vblock_class cls);

/* What the checker expects of the block it reads. */
#define VBLOCK_EXP_ANY_FILE	0x1	/* accept any file id */
#define VBLOCK_EXP_INFLIGHT	0x2	/* min_gen is the acknowledged generation: newer
					 * generations, whole or torn over it, are in flight */
struct vblock_expect {
	uint64_t offset;	/* the file offset the block was read from */
	uint64_t min_gen;	/* older generations are stale; 0 accepts every one */
	uint32_t file_id;
	uint32_t flags;		/* VBLOCK_EXP_* */
};

struct vblock_result {
	enum vblock_class cls;
	uint64_t bad_byte;	/* offset in the block of the first byte that is not what the
				 * write put there (for torn: the first byte of the older
				 * part); 0 for classes where the whole block is wrong;
				 * VBLOCK_NO_BYTE where it cannot be told or for ok */
	uint64_t gen;		/* the block's generation: its header's, or its stamps' when the
				 * header is gone; 0 when nothing of the block is left */
	uint64_t gen_lo, gen_hi;	/* lowest and highest generation among its units */
	int have_header;	/* a valid header was found (the hdr field below is set) */
	struct vblock_header hdr;
};

/* Judge the len bytes at buf, read from e->offset, against the context's run: see enum
 * vblock_class; the order of the tests and the torn rule are in docs/methodology.md.
 * len <= the context's length (a shorter block is the last of a file); a block is
 * judged against the template's first len bytes. Returns r->cls; fills *r. A clean block
 * costs one CRC pass and a look at each stamp's fields; the unit-by-unit analysis runs
 * only when either disagrees.
 * Thread-safe for distinct r. */
enum vblock_class vblock_check(const struct vblock_ctx *c, const void *buf, size_t len,
			       const struct vblock_expect *e, struct vblock_result *r);

#endif
