/* vhook_int.h - what vhook.c (the request path) and vhook_check.c (options and the
 * verification phase) share. Not for workloads: they use vhook.h. */
#ifndef IOB_RUNNER_VHOOK_INT_H
#define IOB_RUNNER_VHOOK_INT_H

#include <pthread.h>
#include <stdint.h>

#include "verify/vjournal.h"
#include "verify/vnet.h"
#include "runner/vhook.h"

/* A tracked block (vhook_track): the generation of its newest write that completed with
 * no other write of it in flight when it was issued (0: none known), and the writes of
 * it in flight now. */
struct vh_blk {
	uint64_t gen;
	uint32_t busy;
};

/* A file the workload named: known until the hook stops. */
struct vh_file {
	char *path;
	uint32_t file_id;
	uint64_t gen;			/* a pass number, VHOOK_GEN_COUNT or VHOOK_GEN_CHECK */
	uint64_t count;			/* VHOOK_GEN_COUNT: writes so far */
	uint64_t stamped;		/* blocks stamped */
	uint64_t tail_off, tail_len;	/* the block that ends furthest: a short write
					 * continuing it is merged with it */
	struct vjournal_rec *pend;	/* written, no sync yet (with a journal only) */
	size_t npend, cap;
	uint32_t grid;			/* vhook_track: every block's length (0: none) */
	int track_lost;			/* tracking was asked for and given up */
	uint64_t nblk;
	struct vh_blk *blk;		/* nblk blocks of grid bytes, or NULL */
};

/* An open descriptor of a named file. */
struct vh_fd {
	int fd;
	int append;			/* O_APPEND: WRITE goes to the end */
	int dsync;			/* O_DSYNC or O_SYNC: a completed write is durable */
	struct vh_file *f;
};

#define VHOOK_PATTERN_MAX	4096

struct vhook {
	const struct vhook_cfg *cfg;
	struct runner *rc;		/* its rows are marked at the end */
	const char *workload;		/* set by vhook_verify */
	struct vblock_ctx *ctx;
	unsigned char pattern[VHOOK_PATTERN_MAX];	/* VBLOCK_DATA_PATTERN's bytes */
	uint32_t npattern;
	uint32_t block;			/* the template's (the longest block's) length */
	uint64_t run_id;
	pthread_mutex_t mu;		/* everything below */
	struct vh_file **files;		/* in the order named */
	size_t nfiles, fcap;
	struct vh_fd *fds;
	size_t nfds, dcap;
	struct vjournal *journal;	/* --verify-journal */
	struct vnet_client *net;	/* --report-to */
	int sink_err;			/* the first failure to record an acknowledgement */
	uint64_t acked;			/* records acknowledged */
	uint64_t ack_ns;		/* time spent recording them */
	uint64_t tracked;		/* blocks of every file's table (VHOOK_TRACK_MAX) */
};

/* One request slot's state while a stamped write is in flight. */
struct vh_slot {
	unsigned char *buf;		/* prepared blocks of the template */
	size_t cap;
	void *saved;			/* the workload's buffer */
	struct vh_file *f;		/* NULL: the request was not stamped */
	uint64_t off, gen;
	size_t len;
	uint64_t tail_len;		/* the region's last piece */
	int dsync;
	int dirty;			/* a piece off the block grid: prepare again first */
	int trk;			/* counted in the file's table (vhook_track) */
	int clean;			/* no other write of its blocks was in flight */
};

struct vhook_io {
	struct vhook *h;
	unsigned nslot;			/* the pool's depth + 1 (the control request) */
	struct vh_slot *slot;
};

/* vhook_check.c: open the journal or connect to the listener the options name (nothing
 * without either); close it. 0 or -errno after printing why. */
int vhook_sink_open(struct vhook *h);
int vhook_sink_close(struct vhook *h);
/* vhook_track.c: a write of [start, start + n) of f is issued (mutex held): s->trk and
 * s->clean say whether the table counted it and whether it was alone on its blocks. A
 * write off the file's grid ends the tracking of f. */
void vhook_track_issue(struct vhook *h, struct vh_file *f, struct vh_slot *s, uint64_t start,
		       uint64_t n);
/* The write of s ended (mutex held): done, the bytes it wrote of region. */
void vhook_track_done(struct vh_file *f, struct vh_slot *s, uint64_t region, int64_t done);
/* The write of s, [start, start + n), was not issued after all (mutex held). */
void vhook_track_undo(struct vh_file *f, struct vh_slot *s, uint64_t start, uint64_t n);
/* The table of f as the newest generation of each block, sorted by offset, for the
 * check (verify/verify.h takes it as a journal). 0 or -ENOMEM. */
int vhook_track_map(const struct vhook *h, const struct vh_file *f, struct vjournal_map *m);
void vhook_track_free(struct vh_file *f);

/* vhook_check.c: mark every row of this repeat of h's workload as measured with stamped
 * blocks (RK_VERIFY). */
void vhook_mark_rows(struct vhook *h);

#endif
