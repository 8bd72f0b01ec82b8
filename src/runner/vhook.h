/* vhook.h - --verify for every write workload: the one place that fills and checks blocks.
 *
 * A workload run with --verify (--verify-after-drop, --verify-journal FILE, --report-to
 * ADDR:PORT) does not stamp anything itself. It makes a hook for the repeat, attaches it
 * to each ioctx that writes, names each file it opens for writing, and after its write
 * phases asks for the verification phase:
 *
 *	struct vhook *vh;
 *	vhook_start(&vh, rc, bs, VBLOCK_DATA_ZERO, VHOOK_F_PASSES);  // NULL without --verify
 *	vhook_attach(vh, &io);                        // every ioctx that writes
 *	fd = ioctx_open(&io, path, ...);
 *	vhook_file(&io, fd, path, file_id, 1);        // this fd's writes are stamped
 *	... the write phase, unchanged ...
 *	vhook_verify(vh, rc, "dd");                   // the "verify" row: every block read
 *	vhook_stop(vh);                               //   back and checked (vblock.h)
 *
 * Every call accepts a NULL hook (or an ioctx without one) and then does nothing, so the
 * calls stay in the code unconditionally.
 *
 * What the hook does in the request path (runner/ioctx.c calls it only when an ioctx has
 * one, so the path without --verify is untouched):
 *  - before a WRITE or PWRITE on a named fd: the request's buffer is swapped for one of the
 *    hook's own, holding the run's template (vblock.h), in which the blocks of
 *    [off, off + len) are stamped for (run id, file id, offset, generation); a request
 *    longer than the block length is several blocks. WRITE's offset is the fd's position
 *    (the end of the file for O_APPEND), learnt through the engine's lseek. The buffer the
 *    workload passed is not read or changed; the data written is the template (random
 *    bytes or zeros as the workload's data mode says), and the request is timed with the
 *    stamping inside it: that is what --verify costs;
 *  - after it: the workload's buffer is put back; with a journal, the blocks written are
 *    remembered until a sync covers them (or acknowledged at once on an O_DSYNC/O_SYNC
 *    descriptor);
 *  - after a completed FSYNC or FDATASYNC of a named fd: the blocks of that file written
 *    before it are recorded as acknowledged (vjournal.h) in the local journal or at the
 *    listener (--report-to). Buffered writes no sync covered are never recorded;
 *  - ioctx_close forgets the fd (the file stays known for the verification phase).
 *
 * Generations: the gen given to vhook_file for the file (a pass number: 1 for the first
 * write of a file, 2 for a rewrite), VHOOK_GEN_COUNT for a running count of the file's
 * writes (each write a newer generation, as a crash test needs), or VHOOK_GEN_CHECK for a
 * file the hook does not stamp but checks as it is (a copy of a verified file).
 *
 * Thread-safety: one hook serves every thread of a workload (its shared state is under
 * one mutex, taken once per stamped request); each ioctx has its own buffers. vhook_start,
 * vhook_verify and vhook_stop run on the main thread with no request in flight. */
#ifndef IOB_RUNNER_VHOOK_H
#define IOB_RUNNER_VHOOK_H

#include <stddef.h>
#include <stdint.h>

#include "core/opt.h"
#include "verify/vblock.h"

struct engine;
struct engine_req;
struct ioctx;
struct runner;

/* The command-line face: --verify, --verify-after-drop, --verify-journal, --report-to. */
struct vhook_cfg {
	int on;			/* --verify */
	int after_drop;		/* --verify-after-drop: drop each file from the page cache
				 * before it is read back */
	const char *journal;	/* --verify-journal FILE: record acknowledged generations */
	const char *report_to;	/* --report-to ADDR:PORT: send them to a listener */
};

/* The option table for struct vhook_cfg (an opt_group with base = the cfg). */
extern const struct opt vhook_opt_table[];

/* After parsing: any of the four options turns --verify on; the engine must transfer data
 * (e may be NULL: not checked); the journal must not exist yet and its directory must be
 * writable; the address must parse; a journal or listener records one run (repeat 1).
 * Prints why and returns -EINVAL, else 0. who names the command in messages. */
int vhook_cfg_check(struct vhook_cfg *c, const struct engine *e, unsigned repeat,
		    const char *who);

/* 1 when c asks for verification (c may be NULL). */
static inline int vhook_cfg_on(const struct vhook_cfg *c)
{
	return c && c->on;
}

#define VHOOK_GEN_CHECK	0		/* vhook_file: check, do not stamp */
#define VHOOK_GEN_COUNT	UINT64_MAX	/* vhook_file: each write a newer generation */

struct vhook;

/* vhook_start flags */
#define VHOOK_F_PASSES	1u	/* every file is written in whole passes of one generation
				 * each (VBLOCK_F_PASS in the headers: a later
				 * `iobattery verify` wants one generation in a file) */
/* a stamp every 1 << s bytes (VBLOCK_UNIT_SHIFT_MIN..MAX) instead of 4 KiB */
#define VHOOK_F_UNIT(s)	((unsigned)(s) << 8)

/* Make the hook of one repeat when rc->verify asks for it (else *out = NULL, 0): a run id,
 * the template of block_len bytes (the longest block, at least 128; longer requests
 * become several blocks) in data mode data, the journal or the listener's connection.
 * Writes shorter than VBLOCK_MIN_LEN (64) bytes are only possible where they continue a
 * block (see vhook.c); otherwise they fail with -EINVAL, so a workload refuses such sizes
 * with --verify up front. Returns 0 or -errno after printing why. The caller owns *out
 * (vhook_stop). */
int vhook_start(struct vhook **out, struct runner *rc, uint32_t block_len,
		enum vblock_data data, unsigned flags);
/* vhook_start with VBLOCK_DATA_PATTERN: every block's payload is pat (n bytes, 1 to 4096,
 * copied) repeated from the block's first byte, and the check compares with it. */
int vhook_start_pattern(struct vhook **out, struct runner *rc, uint32_t block_len,
			const unsigned char *pat, size_t n, unsigned flags);

/* Attach h to io (NULL h: nothing). io's buffers are freed by ioctx_exit. 0 or -ENOMEM. */
int vhook_attach(struct vhook *h, struct ioctx *io);

/* Name an fd of io just opened for writing: its writes are stamped as file file_id (the
 * workload's number for it, unique in the repeat) with generation gen (see above), and
 * the file at path (as the workload opens it, from the current directory) is checked by
 * vhook_verify. Calling it again for the same file_id (a reopen) keeps the file and sets
 * its generation. Returns 0, or -errno (-ENOMEM; -EBADF for an fd the hook cannot track).
 * No-op (0) when io has no hook. */
int vhook_file(struct ioctx *io, int fd, const char *path, uint32_t file_id, uint64_t gen);

/* Hold every block of the file file_id (named on io by vhook_file) to the generation of
 * its last write, so that the verification phase can tell a write the storage lost
 * (stale) in a file that is overwritten in place: the hook keeps, per block of grid bytes
 * over [0, size), the generation of the newest write that completed with no other write
 * of that block in flight when it was issued (vhook_track.c says why), and the check
 * fails a block that holds an older one and accepts a newer one, whole or torn over it
 * (it overlapped: counted in flight). For files written with VHOOK_GEN_COUNT, whose
 * blocks are otherwise held to any generation of the run. The workload's rule: every
 * write of the file is whole blocks of grid bytes at multiples of grid, one request one
 * block unless grid is the hook's block length (a longer request is then several); a
 * write that breaks it ends the tracking of that file (any generation again). grid must
 * lie in [VBLOCK_MIN_LEN, the hook's block length]. Returns 1 when the file is tracked
 * (again: a thread reopening it), 0 when it is not (no hook on io; size not whole
 * blocks; a second grid; the tables of the hook's files would pass VHOOK_TRACK_MAX
 * blocks), -EINVAL (a grid out of range, a file_id not named), -ENOMEM. Thread-safe. */
#define VHOOK_TRACK_MAX	(1ull << 22)	/* blocks over all files: 16 bytes each */
int vhook_track(struct ioctx *io, uint32_t file_id, uint32_t grid, uint64_t size);

/* The verification phase: a row (workload, "verify") of its own, timed apart from the
 * writes, that reads every file named (after dropping it from the page cache with
 * --verify-after-drop) and checks every block (verify/verify.h): bytes, blocks, the count of
 * each class and the first offset of each bad one. Files the workload removed meanwhile
 * are skipped and counted. Bad blocks fail the row (ROW_FAILED; the error names each class
 * with its count and first offset), and the message is printed. Returns 0 when every block
 * is fine, 1 when some are bad, -EINTR on a stop signal, or -errno (a file that cannot be
 * read, ENOMEM: the row says why). Nothing for a NULL hook (0). */
int vhook_verify(struct vhook *h, struct runner *rc, const char *workload);

/* Close the journal or connection and free the hook. 0 or the -errno of closing the
 * journal (nothing is lost: every record was synced when it was appended). NULL: 0. */
int vhook_stop(struct vhook *h);

/* The run id stamped in every block (0 for NULL). */
uint64_t vhook_run_id(const struct vhook *h);
/* The template's length: the longest block; a longer request is several (0 for NULL). */
uint32_t vhook_block(const struct vhook *h);

/* --- called by runner/ioctx.c only ------------------------------------------------- */

/* Before r is submitted: stamp a write of a named fd into the ioctx's buffer for r's slot.
 * Returns 0, or -errno to fail the request without submitting it (r->res is set). */
int vhook_before(struct ioctx *io, struct engine_req *r);
/* After r completed: restore the workload's buffer, note or acknowledge what it wrote or
 * synced. */
void vhook_after(struct ioctx *io, struct engine_req *r);
/* fd is being closed. */
void vhook_forget_fd(struct ioctx *io, int fd);
/* Take the hook off io and free io's buffers (ioctx_exit does it; so does a workload
 * before it attaches another hook to the same ioctx: vhook_attach keeps one that is
 * there). io without a hook: nothing. */
void vhook_detach(struct ioctx *io);

#endif
