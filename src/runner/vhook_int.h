/* vhook_int.h - what vhook.c (the request path) and vhook_check.c (options and the
 * verification phase) share. Not for workloads: they use vhook.h. */
#ifndef IOB_RUNNER_VHOOK_INT_H
#define IOB_RUNNER_VHOOK_INT_H

#include <pthread.h>
#include <stdint.h>

#include "core/vjournal.h"
#include "core/vnet.h"
#include "runner/vhook.h"

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
};

/* An open descriptor of a named file. */
struct vh_fd {
	int fd;
	int append;			/* O_APPEND: WRITE goes to the end */
	int dsync;			/* O_DSYNC or O_SYNC: a completed write is durable */
	struct vh_file *f;
};

struct vhook {
	const struct vhook_cfg *cfg;
	struct runner *rc;		/* its rows are marked at the end */
	const char *workload;		/* set by vhook_verify */
	struct vblock_ctx *ctx;
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
/* vhook_check.c: mark every row of this repeat of h's workload as measured with stamped
 * blocks (RK_VERIFY). */
void vhook_mark_rows(struct vhook *h);

#endif
