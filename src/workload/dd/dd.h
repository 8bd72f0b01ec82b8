/* dd.h - the dd workload: streaming write, read or file-to-file copy with dd's semantics
 * (records of ibs in, obs out, count, seek, skip, conv, oflag, iflag). */
#ifndef IOB_WORKLOAD_DD_H
#define IOB_WORKLOAD_DD_H

#include <stdint.h>

struct runner;

#define DD_CONV_FDATASYNC	(1u << 0)
#define DD_CONV_FSYNC		(1u << 1)
#define DD_CONV_NOTRUNC		(1u << 2)

#define DD_FLAG_DIRECT		(1u << 0)
#define DD_FLAG_DSYNC		(1u << 1)
#define DD_FLAG_SYNC		(1u << 2)

enum dd_src {
	DD_SRC_FILE,		/* read if= */
	DD_SRC_ZERO,		/* generated zeros (if=/dev/zero is not read, see methodology) */
	DD_SRC_RANDOM,		/* generated pseudo-random bytes (--data random, /dev/urandom) */
};

enum dd_dst {
	DD_DST_FILE,		/* write of= */
	DD_DST_NULL,		/* discard (of=/dev/null): the read test */
};

/* A validated dd job. Paths point into argv or static storage. */
struct dd_job {
	const char *in, *out;	/* in is NULL for generated data */
	enum dd_src src;
	enum dd_dst dst;
	uint64_t ibs, obs;
	uint64_t count;		/* input records; UINT64_MAX = until end of input */
	uint64_t seek, skip;	/* output / input records to skip */
	unsigned conv, iflag, oflag;
	int drop_cache;		/* drop the input file's pages before reading */
	int out_exists;		/* of= exists now: open it without O_CREAT|O_EXCL */
	int out_ours;		/* ... but it is ours from an earlier repeat: remove on failure */
	int keep_output;	/* keep of= after success (dd does); else remove at end */
	uint64_t seed;		/* for DD_SRC_RANDOM */
	/* several ranks (mpirun): workload/dd/dd_cmd.c gives each rank its own of=NAME.RANK and
	 * if=NAME.RANK, or with --shared-file one file and a segment of it */
	int shared;		/* --shared-file: rank 0 creates of=, the others open it */
	uint64_t seg_off;	/* bytes before this rank's segment (added to seek/skip) */
};

/* Run the job: one row (phase "write", "read" or "copy") appended to rc->run, with dd's
 * record counts as metrics. On a failed or interrupted write the output file is removed
 * (unless it existed before). Returns 0, -errno on failure (the row says why), -EINTR when
 * stopped by a signal. Never exits. */
int dd_run(struct runner *rc, const struct dd_job *job);

#endif
