/* fsync.h - the fsync workload: which sync method makes a database commit durable
 * fastest on this file system, answered as pg_test_fsync answers it and with what it
 * does not say.
 *
 * The tests, in pg_test_fsync's order and with its semantics (docs/methodology.md,
 * "Sync methods"): a file of 16 MiB of random bytes laid out and fsynced first; then,
 * each for secs seconds, writes of block bytes at offsets 0 (and block) through each
 * sync method (open_datasync and open_sync with O_DSYNC/O_SYNC and O_DIRECT,
 * fdatasync, fsync, fsync_writethrough), one and two writes per sync; open_sync with 16
 * KiB written as 1, 2, 4, 8 or 16 writes (for the default 8 KiB block); fsync on the
 * descriptor that wrote against another one; writes without a sync. One row each: ops
 * (syncs, the unit pg_test_fsync counts), the time, ops/s = ops / time exactly, the
 * latency of every op, CPU per op, the device's flushes and writes meanwhile. A method
 * the system lacks is a not-measured row saying why ("n/a"; "n/a*" when the file system
 * refuses O_DIRECT). Then one "durability" row: the device's write-cache facts, the
 * flush_implausible verdict, the fastest durable method and what it means for
 * PostgreSQL and SQLite.
 *
 * With --verify (and --verify-journal or --report-to) the crash test runs instead: a
 * region of stamped blocks rewritten with ever newer generations through one method,
 * every acknowledged write recorded (runner/vhook.h), for the power-cut procedure.
 * --listen is the other machine's side of it.
 *
 * Every I/O goes through the runner (runner/ioctx.h). Not thread-safe: one test at a
 * time on the main thread. */
#ifndef IOB_WORKLOAD_FSYNC_FSYNC_H
#define IOB_WORKLOAD_FSYNC_FSYNC_H

#include <limits.h>
#include <stdint.h>

#include "observe/diskstats.h"

struct runner;
struct row;
struct run;
struct scratch;

#define FSYNC_DEFAULT_SECS	5
#define FSYNC_DEFAULT_BLOCK	8192u	/* XLOG_BLCKSZ, PostgreSQL's WAL page */
#define FSYNC_PREFILL		(16u << 20)	/* one WAL segment */
#define FSYNC_MAX_BLOCK		(1u << 20)

/* How the crash test syncs each write. */
enum fsync_method {
	FSYNC_M_OPEN_DATASYNC,
	FSYNC_M_FDATASYNC,
	FSYNC_M_FSYNC,
	FSYNC_M_OPEN_SYNC,
	FSYNC_M_COUNT
};

/* A validated configuration (workload/fsync/fsync_cmd.c fills it). */
struct fsync_cfg {
	const char *filename;		/* -f as given, or NULL */
	unsigned secs;			/* -s: seconds per test, >= 1 */
	uint64_t block;			/* --block: bytes per write (4 KiB multiple) */
	const char *method_name;	/* --method: the crash test's */
	enum fsync_method method;
	uint64_t blocks;		/* --blocks: the crash test's region in blocks */
	unsigned rpm;			/* --rpm: the disk's speed when known better; 0 */
	const char *listen;		/* --listen ADDR:PORT */
	uint64_t listen_max;		/* --listen-max: the journal's cap (0: 1 GiB) */
	int no_space_check;		/* --no-space-check */
	int crash;			/* --verify given: the crash test instead */
	/* decided by validation / setup */
	char dir[PATH_MAX];		/* where the file goes: the user's directory */
	char path[PATH_MAX];		/* the test file */
	int new_file;			/* -f named a new file: made there, removed at the end
					 * (kept after a crash test) */
	struct scratch *scratch;	/* otherwise a scratch directory in dir */
	int cleanup;			/* the new file's cleanup slot, or -1 */
};

/* Several ranks, on rank 0 once their rows are merged: each durability row's figure,
 * method and settings again from the merged method rows (they were rank 0's own). Not
 * thread-safe (the run). */
void fsync_durability_merged(struct run *run);

/* The method called name ("fdatasync"), or -1. */
int fsync_method_parse(const char *name);
const char *fsync_method_name(enum fsync_method m);

/* One repeat of the tests (or of the crash test): rows appended to rc->run. Returns 0,
 * -EINTR on a stop signal, or -errno when the test file cannot be laid out (the run then
 * fails); a method that fails on its own is a failed row and the tests go on, and the
 * result is then -EIO so that the run exits 1. */
int fsync_run(struct runner *rc, struct fsync_cfg *c);

/* fsync_dev.c: the counters of set's device idx now (differenced around a test for its
 * flushes and writes). Returns 0, or -errno (no device statistics). An isolated helper
 * until the phase samplers carry the device figures. */
int fsync_dev_counters(struct diskstats_set *set, int idx, struct diskstats_counters *c);

#endif
