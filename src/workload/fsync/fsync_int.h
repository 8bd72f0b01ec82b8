/* fsync_int.h - what the fsync workload's files share (fsync_tests.c runs the tests,
 * fsync_result.c makes the durability row and runs the crash test). */
#ifndef IOB_WORKLOAD_FSYNC_FSYNC_INT_H
#define IOB_WORKLOAD_FSYNC_FSYNC_INT_H

#include <stddef.h>
#include <stdint.h>

#include "observe/diskstats.h"
#include "observe/wcache.h"
#include "runner/ioctx.h"
#include "workload/fsync/fsync.h"

#define FS_MAX_TESTS 20

enum fs_kind {
	K_ODSYNC,		/* open_datasync: O_DSYNC (and O_DIRECT) */
	K_FDATASYNC,
	K_FSYNC,
	K_WRITETHROUGH,		/* fsync_writethrough: n/a here */
	K_OSYNC,		/* open_sync: O_SYNC (and O_DIRECT) */
	K_WFC,			/* write, fsync, close */
	K_WCF,			/* write, close, fsync on another descriptor */
	K_NOSYNC,		/* write without a sync */
};

/* One line of pg_test_fsync's output. */
struct fs_test {
	const char *section;	/* RK_FSYNC_TEST */
	char phase[32];		/* the row's phase: unique in a repeat */
	char label[40];		/* pg_test_fsync's label */
	enum fs_kind kind;
	unsigned writes;	/* per op */
	uint32_t size;		/* bytes per write */
};

struct fs_ctx {
	struct runner *rc;
	struct fsync_cfg *c;
	struct ioctx io;
	struct engine_req *rq;		/* every request, one at a time (ioctx_call) */
	unsigned char *buf;		/* random bytes: the layout and every write */
	size_t buflen;
	struct diskstats_set set;	/* the devices under the file */
	int dev;			/* the one holding the data, or -1 */
	struct wcache_facts facts;
	int failed;			/* a method failed */
};

/* 1 for the kinds that make a write durable (all but K_NOSYNC). */
int fs_durable(enum fs_kind k);
/* fsync_result.c: the durability row after the tests of this repeat, and the flags of
 * the method rows whose median sync is under the device's floor. */
void fs_durability_row(struct fs_ctx *x);
/* fsync_result.c: the crash test (--verify). 0, -EINTR, -errno. */
int fs_crash_test(struct fs_ctx *x);

#endif
