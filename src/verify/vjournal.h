/* vjournal.h - the journal of acknowledged generations (--verify-journal FILE).
 *
 * A writer that syncs (fsync, fdatasync, or a completed O_DSYNC/O_SYNC write) appends, after
 * each sync has returned, one record per block the sync made durable: (file id, offset,
 * generation, length). Each append is fdatasync'd before the call returns, so a record on
 * disk always states a fact: that block generation was durable before the record was
 * written. After a crash or power cut the checker (verify.h) fails a block whose
 * generation is older than its newest record (acknowledged, then lost) and accepts
 * anything at or after it (a later write in flight, landed whole, in part or not at all).
 * Writes that no sync covered are never recorded, so never claimed as durable.
 *
 * File format (little-endian; docs/methodology.md, "Data verification"): a 32-byte
 * header, then 32-byte records, each with a sequence number and a CRC32C seeded with the
 * run id. A record that fails its CRC or sequence (a torn last append, damage) is skipped
 * and counted, never trusted. The journal belongs on another file system than the one
 * under test. */
#ifndef IOB_VERIFY_VJOURNAL_H
#define IOB_VERIFY_VJOURNAL_H

#include <stddef.h>
#include <stdint.h>

#define VJOURNAL_HDR_LEN 32
#define VJOURNAL_REC_LEN 32

struct vjournal_rec {
	uint64_t offset;	/* the block's file offset */
	uint64_t gen;		/* the generation the sync made durable */
	uint32_t file_id;	/* the block header's file id */
	uint32_t len;		/* the block's length */
};

/* Writer. Not thread-safe: one writer per journal (the caller serialises acks). */
struct vjournal;

/* Start a journal on fd (opened for writing, empty): writes the header at offset 0 and
 * syncs it. The caller keeps fd and closes it after vjournal_close. Returns 0 and *out,
 * -ENOMEM, or -errno of the write or sync. */
int vjournal_create_fd(struct vjournal **out, int fd, uint64_t run_id);

/* Create the file path (it must not exist: O_EXCL, mode 0644), start a journal in it,
 * and sync its directory so the new name survives a crash too. The journal owns the
 * descriptor. Returns 0 and *out, or -errno (-EEXIST when the file exists). */
int vjournal_create(struct vjournal **out, const char *path, uint64_t run_id);

/* Append n records in one write and fdatasync them; returns 0 once they are durable, or
 * -errno (the journal then refuses further appends with -EIO). n == 0 does nothing. */
int vjournal_ack(struct vjournal *j, const struct vjournal_rec *recs, size_t n);

/* Free the journal; closes the descriptor if vjournal_create opened it. Returns 0 or the
 * -errno of close. NULL is fine. */
int vjournal_close(struct vjournal *j);

/* Reader: the newest acknowledged generation of every block, sorted by (file id, offset). */
struct vjournal_map {
	uint64_t run_id;
	struct vjournal_rec *recs;	/* owned; one per block */
	size_t n;
	uint64_t records;	/* valid records read */
	uint64_t damaged;	/* records skipped: bad CRC or sequence, or a torn tail */
};

/* Read the journal on fd from offset 0 into *m (free with vjournal_map_free). Returns 0,
 * -EBADMSG when fd holds no journal header, -ENOMEM, or -errno of a read. */
int vjournal_load(int fd, struct vjournal_map *m);

/* The newest acknowledged record for (file_id, offset), or NULL. O(log n); thread-safe. */
const struct vjournal_rec *vjournal_find(const struct vjournal_map *m, uint32_t file_id,
					 uint64_t offset);

/* The first record of file_id at or after offset (the map's order), or NULL. */
const struct vjournal_rec *vjournal_next(const struct vjournal_map *m, uint32_t file_id,
					 uint64_t offset);

void vjournal_map_free(struct vjournal_map *m);

#endif
