/* verify.h - checking a whole file written with verified blocks (vblock.h): walk it,
 * judge every block, count them per class. What `iobattery verify FILE...` and every
 * write workload's verification phase call.
 *
 * The walk needs no geometry from the caller: the first valid header (at offset 0, or
 * the first one found on a 512-byte boundary within VERIFY_SCAN_MAX bytes) gives the run
 * id, file id, block length, unit and data mode. From there each block's length is its
 * own header's when that header is valid and in place, else the last length seen, so
 * files of one block size and files written sequentially in blocks of several sizes both
 * walk right; after a damaged header in a file of mixed sizes the walk may lose step and
 * report the rest as no-header. A last block shorter than the others is fine; a valid
 * header whose block runs past the end of the file makes that block missing.
 *
 * Which generation each block must hold (struct verify_opts.gen_rule):
 *   VERIFY_GEN_AUTO	UNIFORM if the first header has VBLOCK_F_PASS, else ANY
 *   VERIFY_GEN_ANY	every generation is fine (stale is never said)
 *   VERIFY_GEN_UNIFORM	every block must hold the newest generation found in the file
 *   VERIFY_GEN_MIN	every block must hold opts.min_gen or newer
 * A journal (vjournal.h) replaces the rule: a block must hold at least its newest
 * acknowledged generation, a newer or torn-newer one is in flight (accepted), and an
 * acknowledged block past the end of the file is missing.
 *
 * Thread-safe for distinct summaries; reads with pread only (the file offset is not
 * moved). A SIGINT/SIGTERM (fs/scratch.h) ends the walk with -EINTR. */
#ifndef IOB_VERIFY_VERIFY_H
#define IOB_VERIFY_VERIFY_H

#include <stdint.h>

#include "verify/vblock.h"
#include "verify/vjournal.h"

#define VERIFY_SCAN_MAX (64ull << 20)	/* how far to look for a first valid header */
#define VERIFY_NONE UINT64_MAX		/* no offset (summary fields) */

enum verify_gen_rule {
	VERIFY_GEN_AUTO = 0,
	VERIFY_GEN_ANY,
	VERIFY_GEN_UNIFORM,
	VERIFY_GEN_MIN,
};

struct verify_opts {
	enum verify_gen_rule gen_rule;
	uint64_t min_gen;		/* VERIFY_GEN_MIN */
	uint64_t run_id;		/* 0: the first header's (or the journal's) */
	int64_t file_id;		/* -1: the first header's */
	const char *journal_path;	/* verify_file: check against this journal; NULL none */
	/* blocks of VBLOCK_DATA_PATTERN: the writer's pattern (NULL: compared with zeros) */
	const unsigned char *pattern;
	uint32_t npattern;
};

struct verify_summary {
	/* the file */
	uint64_t size;			/* bytes */
	uint64_t run_id;		/* of the first valid header used */
	uint32_t file_id;
	uint32_t block_len;		/* of the first valid header */
	uint8_t unit_shift, data;
	uint16_t flags;
	enum verify_gen_rule gen_rule;	/* the rule applied (AUTO resolved) */
	int journal;			/* 1: judged against a journal */
	uint64_t journal_records;	/* valid records read */
	uint64_t journal_damaged;	/* records skipped */
	/* the blocks */
	uint64_t blocks;		/* judged, missing ones included */
	uint64_t bad;			/* blocks in failing classes */
	uint64_t count[VBLOCK_NCLASS];
	uint64_t first[VBLOCK_NCLASS];	/* file offset of the first block of each class */
	uint64_t first_byte[VBLOCK_NCLASS];	/* file offset of that block's first bad byte;
						 * VERIFY_NONE where it cannot be told */
	uint64_t gen_min, gen_max;	/* generations of the blocks judged ok (0 0: none) */
	const char *crc_path;		/* crc32c_path(): the checksum path that ran */
	const char *err_path;		/* verify_file: the path an error return is about */
};

/* Walk the file on fd (a regular file or a block device, open for reading) and fill
 * *out. j: a loaded journal to judge against, or NULL. Returns 0 when every block is fine,
 * 1 when some are bad (*out says which), -EINVAL when fd holds no block written with
 * verification (nothing valid within VERIFY_SCAN_MAX, an empty file, not a file) or the
 * options contradict the journal's run id, -ENOMEM, -EINTR on a signal, or -errno of a
 * read. */
int verify_fd(int fd, const struct verify_opts *o, const struct vjournal_map *j,
	      struct verify_summary *out);

/* verify_fd on path, with the journal at o->journal_path if given. Returns as verify_fd,
 * plus -EBADMSG when the journal file holds no journal, and -errno when either file
 * cannot be opened (-ENXIO: a FIFO, socket or device, refused at once, never waited on;
 * -EISDIR: a directory); out->err_path then names the file concerned (path or the
 * journal's). */
int verify_file(const char *path, const struct verify_opts *o, struct verify_summary *out);

#endif
