/* result_keys.c - the key tables of the result schema and their lookup. See
 * result_keys.h for how to add a figure; docs/results-schema.md says the same as these
 * tables in prose, and t_result_keys keeps the two in step. */
#include <string.h>

#include "stats/result.h"
#include "stats/result_keys.h"

#define N_(a)	(sizeof(a) / sizeof((a)[0]))

/* A fixed field of the document. */
#define FIELD(n, u, m)			{ n, u, RK_FIELD, RK_CMP_NONE, NULL, 0, m }
/* A param (kinds may add RK_OPTION), with its comparability and compare's words. */
#define PARAM(n, u, k, c, why, m)	{ n, u, RK_PARAM | (k), c, why, 0, m }
#define PARAM_R(n, u, k, c, why, r, m)	{ n, u, RK_PARAM | (k), c, why, r, m }
#define METRIC(n, u, m)			{ n, u, RK_METRIC, RK_CMP_NONE, NULL, 0, m }
#define OPTION(n, u, m)			{ n, u, RK_OPTION, RK_CMP_NONE, NULL, 0, m }

/* The workload tables list the params that decide comparability with a reason first, in
 * the order compare reports them (method, then O_DIRECT, block size, sizes, counts,
 * flags, data, engine). */

static const struct result_key dd_keys[] = {
	PARAM(RK_DD_DIRECT, "bool", 0, RK_CMP_DEFINES, "buffered vs O_DIRECT",
	      "true when iflag= or oflag= asked for O_DIRECT"),
	PARAM(RK_DD_BS, "B", 0, RK_CMP_DEFINES, "different block sizes",
	      "the block size, when ibs and obs are equal"),
	PARAM(RK_DD_IBS, "B", 0, RK_CMP_VALUE, "different input block sizes",
	      "bytes per read"),
	PARAM(RK_DD_OBS, "B", 0, RK_CMP_VALUE, "different output block sizes",
	      "bytes per write"),
	PARAM_R(RK_DD_SIZE, "B", 0, RK_CMP_DEFINES, "different sizes", RK_ROLE_DATA_SIZE,
		"count x ibs: the bytes the run was asked to move"),
	PARAM(RK_DD_COUNT, "", 0, RK_CMP_VALUE, "different counts",
	      "count=: input blocks to copy (absent when reading to the end)"),
	PARAM(RK_DD_CONV, "", 0, RK_CMP_VALUE, "different conv flags",
	      "conv= words: fdatasync, fsync, notrunc"),
	PARAM(RK_DD_OFLAG, "", 0, RK_CMP_VALUE, "different output flags",
	      "oflag= words besides direct: dsync, sync"),
	PARAM(RK_DD_DATA, "", 0, RK_CMP_VALUE, "different data written",
	      "where the bytes came from: file, zero or random"),
	PARAM(RK_DD_ENGINE, "", 0, RK_CMP_VALUE, "different I/O engines",
	      "the I/O engine (psync, null ...)"),
	METRIC(RK_DD_RECORDS_IN_FULL, "records", "full input blocks, dd's N of N+M records in"),
	METRIC(RK_DD_RECORDS_IN_PARTIAL, "records", "short input blocks, dd's M of N+M records in"),
	METRIC(RK_DD_RECORDS_OUT_FULL, "records", "full output blocks, dd's N of N+M records out"),
	METRIC(RK_DD_RECORDS_OUT_PARTIAL, "records",
	       "short output blocks, dd's M of N+M records out"),
	METRIC(RK_DD_BYTES_IN, "B", "bytes read from the input"),
};

static const struct result_key cp_keys[] = {
	PARAM(RK_CP_METHOD, "", 0, RK_CMP_DEFINES, "measured differently: method",
	      "how the copy was made: rw, copy_file_range or sendfile"),
	PARAM_R(RK_CP_SIZE, "B", 0, RK_CMP_DEFINES, "different sizes", RK_ROLE_DATA_SIZE,
		"bytes copied"),
	PARAM(RK_CP_ENGINE, "", 0, RK_CMP_VALUE, "different I/O engines",
	      "the I/O engine (psync, null ...)"),
	PARAM(RK_CP_METHOD_ASKED, "", 0, RK_CMP_NONE, NULL,
	      "the --method asked for (auto falls back to rw)"),
	PARAM(RK_CP_BUFFER, "B", 0, RK_CMP_VALUE, NULL, "bytes per call of the rw method"),
	METRIC(RK_CP_MEMCPY_BANDWIDTH, "MB/s",
	       "memory copy speed measured for the too-fast check of copy_file_range"),
};

static const struct result_key bonnie_keys[] = {
	PARAM(RK_BONNIE_CHAR_METHOD, "", RK_OPTION, RK_CMP_DEFINES,
	      "measured differently: per-character method",
	      "per-character phases: putc (stdio, Bonnie++ 1.0x) or syscall (one per byte)"),
	PARAM(RK_BONNIE_DIRECT, "bool", RK_OPTION, RK_CMP_DEFINES, "buffered vs O_DIRECT",
	      "1 when -D opened the block phases with O_DIRECT"),
	PARAM(RK_BONNIE_CHUNK, "B", RK_OPTION, RK_CMP_DEFINES, "different chunk sizes",
	      "-s :chunk, bytes per block call"),
	PARAM_R(RK_BONNIE_SIZE_MB, "MiB", RK_OPTION, RK_CMP_DEFINES, "different sizes",
		RK_ROLE_DATA_SIZE, "-s size of the I/O data set"),
	PARAM(RK_BONNIE_CHAR_MB, "MiB", RK_OPTION, RK_CMP_VALUE, NULL,
	      "bytes the per-character phases move (0: skipped)"),
	PARAM(RK_BONNIE_SEEKS, "seeks", RK_OPTION, RK_CMP_VALUE, NULL, "-s ::seeks per seeker"),
	PARAM(RK_BONNIE_SEEKERS, "", RK_OPTION, RK_CMP_VALUE, NULL, "-s :::seekers in parallel"),
	PARAM(RK_BONNIE_COPIES, "", 0, RK_CMP_VALUE, NULL, "-c concurrent copies of each test"),
	PARAM(RK_BONNIE_FSYNC_EACH, "bool", RK_OPTION, RK_CMP_VALUE, NULL,
	      "1 when -b fsynced after every write"),
	PARAM(RK_BONNIE_FILES, "1024 files", RK_OPTION, RK_CMP_VALUE, NULL,
	      "-n number of small files, in units of 1024"),
	PARAM(RK_BONNIE_MAX_SIZE, "B", RK_OPTION, RK_CMP_VALUE, NULL,
	      "-n :max file size; -1 hard links, -2 symlinks"),
	PARAM(RK_BONNIE_MIN_SIZE, "B", RK_OPTION, RK_CMP_VALUE, NULL, "-n ::min file size"),
	PARAM(RK_BONNIE_DIRS, "", RK_OPTION, RK_CMP_VALUE, NULL,
	      "-n :::dirs directories the files are spread over"),
	PARAM(RK_BONNIE_FILE_CHUNK, "B", RK_OPTION, RK_CMP_VALUE, NULL,
	      "-n ::::chunk bytes per write of a file"),
	PARAM(RK_BONNIE_MIN_TIME, "s", RK_OPTION, RK_CMP_VALUE, NULL,
	      "--min-time the file phases were grown to last"),
	OPTION(RK_BONNIE_DIRECTORY, "", "-d directory tested"),
	OPTION(RK_BONNIE_MACHINE, "", "-m machine name for the table and the CSV line"),
	OPTION(RK_BONNIE_CONCURRENCY, "", "-c concurrency, as the CSV line has it"),
	OPTION(RK_BONNIE_SEED, "", "-z seed of the random seeks and file names"),
	OPTION(RK_BONNIE_RAM_MB, "MiB", "-r RAM size the data set was checked against"),
	OPTION(RK_BONNIE_REPEATS, "", "-x number of runs"),
	OPTION(RK_BONNIE_DROP_CACHE, "bool", "1 when --drop-cache dropped files before reads"),
	OPTION(RK_BONNIE_QUIET, "bool", "1 when -q put the CSV alone on standard output"),
	METRIC(RK_BONNIE_COPY_RATE, RK_UNIT_RATE,
	       "with -c, the rate of copy N alone, in the row's rate_unit"),
};

static const struct result_key postmark_keys[] = {
	PARAM(RK_PM_DIRECT, "bool", RK_OPTION, RK_CMP_DEFINES, "buffered vs O_DIRECT",
	      "set direct: files read and written with O_DIRECT"),
	PARAM(RK_PM_SIZE_LOW, "B", RK_OPTION, RK_CMP_VALUE, NULL, "set size: smallest file"),
	PARAM(RK_PM_SIZE_HIGH, "B", RK_OPTION, RK_CMP_VALUE, NULL, "set size: largest file"),
	PARAM(RK_PM_NUMBER, "files", RK_OPTION, RK_CMP_VALUE, NULL,
	      "set number: files in the initial pool"),
	PARAM(RK_PM_TRANSACTIONS, "transactions", RK_OPTION, RK_CMP_VALUE, NULL,
	      "set transactions: transactions asked for"),
	PARAM(RK_PM_SEED, "", RK_OPTION, RK_CMP_VALUE, NULL, "set seed: the random seed"),
	PARAM(RK_PM_SUBDIRECTORIES, "", RK_OPTION, RK_CMP_VALUE, NULL,
	      "set subdirectories: directories per location"),
	PARAM(RK_PM_READ_BLOCK, "B", RK_OPTION, RK_CMP_VALUE, NULL, "set read: bytes per read"),
	PARAM(RK_PM_WRITE_BLOCK, "B", RK_OPTION, RK_CMP_VALUE, NULL,
	      "set write: bytes per write"),
	PARAM(RK_PM_BUFFERING, "bool", RK_OPTION, RK_CMP_VALUE, NULL,
	      "set buffering: stdio buffered I/O"),
	PARAM(RK_PM_BIAS_READ, "", RK_OPTION, RK_CMP_VALUE, NULL,
	      "set bias read: chance in ten of a read rather than an append; -1 neither"),
	PARAM(RK_PM_BIAS_CREATE, "", RK_OPTION, RK_CMP_VALUE, NULL,
	      "set bias create: chance in ten of a create rather than a delete; -1 neither"),
	PARAM(RK_PM_REPORT, "", RK_OPTION, RK_CMP_NONE, NULL,
	      "set report: verbose or terse, how the text looks"),
	PARAM(RK_PM_FSYNC, "bool", RK_OPTION, RK_CMP_VALUE, NULL,
	      "set fsync: every written file fsynced before closing"),
	PARAM(RK_PM_LOCATION_WEIGHTS, "", RK_OPTION, RK_CMP_VALUE, NULL,
	      "set location weights, comma-separated"),
	PARAM(RK_PM_LOCATIONS, "", RK_OPTION, RK_CMP_VALUE, NULL, "number of locations"),
	PARAM(RK_PM_LATENCY_OF, "", 0, RK_CMP_VALUE, NULL,
	      "what one latency sample of a per-operation row times"),
	METRIC(RK_PM_FILES_CREATED, "files", "files created, pool and transactions"),
	METRIC(RK_PM_FILES_CREATED_ALONE, "files", "files created for the initial pool"),
	METRIC(RK_PM_FILES_CREATED_MIXED, "files", "files created by transactions"),
	METRIC(RK_PM_FILES_READ, "files", "files read by transactions"),
	METRIC(RK_PM_FILES_APPENDED, "files", "files appended to by transactions"),
	METRIC(RK_PM_FILES_DELETED, "files", "files deleted, transactions and final deletion"),
	METRIC(RK_PM_FILES_DELETED_ALONE, "files", "files deleted at the end"),
	METRIC(RK_PM_FILES_DELETED_MIXED, "files", "files deleted by transactions"),
	METRIC(RK_PM_TRANSACTIONS, "transactions", "transactions done"),
	METRIC(RK_PM_TRANSACTIONS_REQUESTED, "transactions", "transactions asked for"),
	METRIC(RK_PM_BYTES_READ, "B", "bytes read"),
	METRIC(RK_PM_BYTES_WRITTEN, "B", "bytes written (creates and appends)"),
	METRIC(RK_PM_BYTES_WRITTEN_DURABLE, "B", "bytes written and fsynced (set fsync true)"),
	METRIC(RK_PM_BYTES_WRITTEN_BUFFERED, "B", "bytes written and never fsynced"),
	METRIC(RK_PM_TIME_TOTAL_S, "s", "the whole run"),
	METRIC(RK_PM_TIME_CREATE_S, "s", "creating the initial pool"),
	METRIC(RK_PM_TIME_TRANSACTIONS_S, "s", "the transactions"),
	METRIC(RK_PM_TIME_DELETE_S, "s", "the final deletion"),
	METRIC(RK_PM_TRANSACTIONS_PER_S, "1/s", "transactions over their time"),
	METRIC(RK_PM_CREATED_PER_S, "files/s", "files created over the total time"),
	METRIC(RK_PM_CREATED_ALONE_PER_S, "files/s", "pool files over the pool's time"),
	METRIC(RK_PM_CREATED_MIXED_PER_S, "files/s", "files created over the transactions' time"),
	METRIC(RK_PM_READ_PER_S, "files/s", "files read over the transactions' time"),
	METRIC(RK_PM_APPENDED_PER_S, "files/s", "files appended over the transactions' time"),
	METRIC(RK_PM_DELETED_PER_S, "files/s", "files deleted over the total time"),
	METRIC(RK_PM_DELETED_ALONE_PER_S, "files/s",
	       "files deleted at the end over the deletion's time"),
	METRIC(RK_PM_DELETED_MIXED_PER_S, "files/s",
	       "files deleted over the transactions' time"),
	METRIC(RK_PM_READ_MIB_PER_S, "MiB/s", "bytes read over the total time"),
	METRIC(RK_PM_WRITTEN_MIB_PER_S, "MiB/s", "bytes written over the total time"),
	METRIC(RK_PM_OUT_OF_FILES, "bool", "1 when deletes emptied the pool during transactions"),
	METRIC(RK_PM_DIRECT_FALLBACKS, "transfers",
	       "set direct: transfers not aligned for O_DIRECT, done through the page cache"),
};

static const struct result_key db_keys[] = {
	PARAM(RK_DB_COUNT, "", 0, RK_CMP_VALUE, "different counts",
	      "rows the statement touched, as its command tag counts them"),
	PARAM(RK_DB_ENGINE, "", RK_OPTION, RK_CMP_VALUE, "different I/O engines",
	      "the database engine: sqlite or postgresql"),
	PARAM(RK_DB_SCRIPT, "", RK_OPTION, RK_CMP_VALUE, NULL,
	      "the script run: seed (the seeds' script) or the -f file"),
	PARAM(RK_DB_ROWS, "rows", RK_OPTION, RK_CMP_VALUE, NULL,
	      "-n rows the build phase inserts"),
	PARAM(RK_DB_SQL, "", 0, RK_CMP_VALUE, NULL, "the statement's text"),
	PARAM(RK_DB_TAG, "", 0, RK_CMP_VALUE, NULL,
	      "the command tag psql prints (INSERT 0 500000)"),
	PARAM(RK_DB_LINE, "", 0, RK_CMP_VALUE, NULL, "the statement's first line in the script"),
	PARAM(RK_DB_STATEMENTS, "", 0, RK_CMP_VALUE, NULL, "statements the script ran"),
	METRIC(RK_DB_DEVICE_BYTES_WRITTEN, "B",
	       "bytes the block device under the database wrote meanwhile (the phases' "
	       "device figures)"),
	METRIC(RK_DB_DB_SIZE, "B", "the database's size on disk after the step"),
	METRIC(RK_DB_DB_PEAK_SIZE, "B", "the largest size the database reached"),
	OPTION(RK_DB_NO_BUILD, "bool", "--no-build: the build phase was skipped"),
	OPTION(RK_DB_JOURNAL_MODE, "", "SQLite PRAGMA journal_mode"),
	OPTION(RK_DB_SYNCHRONOUS, "", "SQLite PRAGMA synchronous"),
	OPTION(RK_DB_PAGE_SIZE, "B", "SQLite PRAGMA page_size"),
	OPTION(RK_DB_CACHE_SIZE, "", "SQLite PRAGMA cache_size: pages, or -KiB"),
	OPTION(RK_DB_SQLITE_VERSION, "", "the SQLite library's version"),
	OPTION(RK_DB_PG_SERVER_VERSION, "", "the PostgreSQL server's version"),
	OPTION(RK_DB_PG_DATA_DIRECTORY, "", "the PostgreSQL server's data directory"),
	OPTION(RK_DB_DB_DEVICE, "", "the block device holding the database"),
};

static const struct result_key fsync_keys[] = {
	PARAM(RK_FSYNC_METHOD, "", 0, RK_CMP_DEFINES, "measured differently: sync method",
	      "the sync method: open_datasync, fdatasync, fsync, fsync_writethrough, "
	      "open_sync, fsync_other_fd, none, durability"),
	PARAM(RK_FSYNC_DIRECT, "bool", 0, RK_CMP_DEFINES, "buffered vs O_DIRECT",
	      "true when the file was opened with O_DIRECT"),
	PARAM(RK_FSYNC_WRITE_SIZE, "B", 0, RK_CMP_DEFINES, "different write sizes",
	      "bytes per write"),
	PARAM(RK_FSYNC_WRITES_PER_OP, "", 0, RK_CMP_DEFINES, "different writes per sync",
	      "writes per op (per sync)"),
	PARAM(RK_FSYNC_TEST, "", 0, RK_CMP_VALUE, NULL,
	      "pg_test_fsync's section: one_write, two_writes, open_sync_sizes, fd_sync, "
	      "non_sync; crash_test; durability"),
	PARAM(RK_FSYNC_SECS_PER_TEST, "s", 0, RK_CMP_NONE, NULL, "-s: seconds per test"),
	PARAM(RK_FSYNC_LABEL, "", 0, RK_CMP_NONE, NULL, "pg_test_fsync's label of the line"),
	PARAM(RK_FSYNC_NA, "", 0, RK_CMP_NONE, NULL,
	      "n/a (the system lacks the method) or n/a* (the file system refuses O_DIRECT)"),
	PARAM(RK_FSYNC_PLATFORM_DIRECT, "bool", 0, RK_CMP_NONE, NULL,
	      "true when this build has O_DIRECT for open_datasync and open_sync"),
	PARAM(RK_FSYNC_BLOCKS, "blocks", 0, RK_CMP_VALUE, NULL,
	      "the crash test's region: blocks rewritten in turn"),
	PARAM(RK_FSYNC_DEVICE, "", 0, RK_CMP_NONE, NULL,
	      "the device that holds the data (below partitions, dm and loop devices)"),
	PARAM(RK_FSYNC_DEVICE_MODEL, "", 0, RK_CMP_NONE, NULL, "its vendor and model"),
	PARAM(RK_FSYNC_WRITE_CACHE, "", 0, RK_CMP_NONE, NULL,
	      "its queue/write_cache: write back, write through or unknown"),
	PARAM(RK_FSYNC_FUA, "bool", 0, RK_CMP_NONE, NULL, "its queue/fua: honours FUA writes"),
	PARAM(RK_FSYNC_ROTATIONAL, "bool", 0, RK_CMP_NONE, NULL, "its queue/rotational"),
	PARAM(RK_FSYNC_RPM, "rpm", 0, RK_CMP_NONE, NULL, "its rotation speed, when rotating"),
	PARAM(RK_FSYNC_RPM_SOURCE, "", 0, RK_CMP_NONE, NULL,
	      "where the speed came from: --rpm, vpd, model or assumed"),
	PARAM(RK_FSYNC_FLOOR_WHY, "", 0, RK_CMP_NONE, NULL,
	      "what the floor of a durable op is on this device"),
	PARAM(RK_FSYNC_BEST_METHOD, "", 0, RK_CMP_NONE, NULL,
	      "the fastest durable method for one write per sync"),
	PARAM(RK_FSYNC_WAL_SYNC_METHOD, "", 0, RK_CMP_NONE, NULL,
	      "PostgreSQL's wal_sync_method for it"),
	PARAM(RK_FSYNC_SQLITE_SYNCHRONOUS, "", 0, RK_CMP_NONE, NULL,
	      "the SQLite synchronous level the figures suggest"),
	PARAM(RK_FSYNC_IMPLAUSIBLE, "", 0, RK_CMP_NONE, NULL,
	      "the methods flagged flush_implausible, comma-separated"),
	METRIC(RK_FSYNC_USECS_PER_OP, "us", "elapsed / ops, pg_test_fsync's usecs/op"),
	METRIC(RK_FSYNC_DEVICE_FLUSHES, "flushes",
	       "flush requests the device completed meanwhile (diskstats)"),
	METRIC(RK_FSYNC_DEVICE_WRITES, "writes",
	       "write requests the device completed meanwhile (diskstats)"),
	METRIC(RK_FSYNC_FLOOR_US, "us", "the least a durable op can take on this device"),
};


static const struct result_key iozone_keys[] = {
	PARAM(RK_IOZ_DIRECT, "bool", RK_OPTION, RK_CMP_DEFINES, "buffered vs O_DIRECT",
	      "1 when -I opened the file with O_DIRECT (the stdio tests never are)"),
	PARAM_R(RK_IOZ_FILE_KB, "KiB", RK_OPTION, RK_CMP_DEFINES, "different file sizes",
		RK_ROLE_DATA_SIZE, "the file size of the cell (-s, -n .. -g), iozone's kB"),
	PARAM(RK_IOZ_RECLEN_KB, "KiB", RK_OPTION, RK_CMP_DEFINES, "different record sizes",
	      "the record size of the cell (-r, -y .. -q): bytes per call"),
	PARAM(RK_IOZ_WORKERS, "", RK_OPTION, RK_CMP_DEFINES, "different worker counts",
	      "-t workers, each on its own file (1: iozone's table mode)"),
	PARAM(RK_IOZ_ENGINE, "", RK_OPTION, RK_CMP_VALUE, "different I/O engines",
	      "the I/O engine (psync, null ...)"),
	PARAM(RK_IOZ_DEPTH, "", RK_OPTION, RK_CMP_VALUE, "different queue depths",
	      "requests in flight per worker (-k/-H N; 1 without)"),
	PARAM(RK_IOZ_FSYNC_TIMED, "bool", RK_OPTION, RK_CMP_VALUE, "fsync timed vs not",
	      "1 when -e put the fsync (fflush and fsync for stdio) inside the timing"),
	PARAM(RK_IOZ_CLOSE_TIMED, "bool", RK_OPTION, RK_CMP_VALUE, "close timed vs not",
	      "1 when -c put the close inside the timing"),
	PARAM(RK_IOZ_OSYNC, "bool", RK_OPTION, RK_CMP_VALUE, "O_SYNC vs not",
	      "1 when -o opened the writers with O_SYNC"),
	PARAM(RK_IOZ_STONEWALL, "bool", RK_OPTION, RK_CMP_VALUE, "stonewalling vs not",
	      "throughput mode: 1 when workers stop counting as the first one finishes"),
	PARAM(RK_IOZ_STRIDE, "records", RK_OPTION, RK_CMP_VALUE, "different strides",
	      "stride read: -j, the distance between reads in records"),
	PARAM(RK_IOZ_MIX_READ_PCT, "%", RK_OPTION, RK_CMP_VALUE, NULL,
	      "random mix: -+p share of the workers that read (0: every other one)"),
	METRIC(RK_IOZ_RAM_SPEED, "bool", "1 when the file fit in the page cache and the rate "
	       "was above the device's measured limit: RAM, not the device"),
	METRIC(RK_IOZ_PARENT_RATE, "kB/s", "throughput mode: counted kB over the time until "
	       "the first worker finished (-x: the last), iozone's Parent sees"),
	METRIC(RK_IOZ_MIN_RATE, "kB/s", "throughput mode: the slowest worker's own rate"),
	METRIC(RK_IOZ_MAX_RATE, "kB/s", "throughput mode: the fastest worker's own rate"),
	METRIC(RK_IOZ_AVG_RATE, "kB/s", "throughput mode: the workers' rates' mean"),
	METRIC(RK_IOZ_MIN_XFER, "KiB", "throughput mode: the fewest kB a worker counted"),
	METRIC(RK_IOZ_STONEWALLED, "workers",
	       "throughput mode: workers that stopped counting when another finished"),
	METRIC(RK_IOZ_WORKER_RATE, "kB/s", "throughput mode: worker N's own rate"),
	METRIC(RK_IOZ_WORKER_XFER, "KiB", "throughput mode: the kB worker N counted"),
	OPTION(RK_IOZ_AUTO, "bool", "1 for the automatic grid (-a, -A, or a range -n -g -y -q)"),
	OPTION(RK_IOZ_TESTS, "", "the -i numbers run, comma-separated"),
	OPTION(RK_IOZ_NO_RETEST, "bool", "1 when -+n skipped the re- passes"),
	OPTION(RK_IOZ_NO_CROSSOVER, "bool", "1 when -z kept the small records on big files"),
	OPTION(RK_IOZ_MULTIPLIER, "", "-+x factor between sizes of the grid (default 2)"),
	OPTION(RK_IOZ_FILE, "", "-f or -F file names, inside the scratch directories"),
	OPTION(RK_IOZ_EXCEL, "bool", "1 when -R asked for the report blocks"),
	OPTION(RK_IOZ_XLSX, "", "-b spreadsheet written"),
	OPTION(RK_IOZ_CACHE_KB, "KiB", "-S processor cache size, as iozone prints it"),
	OPTION(RK_IOZ_LINE_BYTES, "B", "-L processor cache line size, as iozone prints it"),
	OPTION(RK_IOZ_KEEP, "bool", "1 when -w kept the files"),
	OPTION(RK_IOZ_THREADS, "bool", "1 when -T was given (workers are threads either way)"),
	OPTION(RK_IOZ_DELAY_US, "us", "-d delay of worker i: i times this after the start"),
	OPTION(RK_IOZ_DROP_CACHE, "bool", "1 when --drop-cache dropped the file before reads"),
	OPTION(RK_IOZ_VERIFY, "bool", "1 when --verify (or one of its options) stamped every "
	       "record written through the engine and read each cell's files back"),
	OPTION(RK_IOZ_EXTENDED, "bool", "1 when -E or -i 9/10 added the pwrite/pread columns"),
	OPTION(RK_IOZ_PAGE_CACHE_BYTES, "B",
	       "what the page cache can hold: RAM, or a smaller cgroup memory limit"),
	OPTION(RK_IOZ_DEVICE_READ, "B/s", "the device's read rate measured alone (O_DIRECT)"),
	OPTION(RK_IOZ_DEVICE_WRITE, "B/s", "the device's write rate measured alone (O_DIRECT)"),
	OPTION(RK_IOZ_PROBE_BYTES, "B", "bytes the device probe wrote and read"),
	OPTION(RK_IOZ_PROBE, "", "how the device limits were found: o_direct, or why not"),
};

static const struct result_key job_keys[] = {
	PARAM(RK_JOB_RW, "", 0, RK_CMP_DEFINES, "different access patterns",
	      "fio's rw: read, write, randread, randwrite, rw, randrw, trim, randtrim, trimwrite "
	      "or randtrimwrite (with :N)"),
	PARAM(RK_JOB_DIRECT, "bool", 0, RK_CMP_DEFINES, "buffered vs O_DIRECT",
	      "1 when the files were opened with O_DIRECT (direct=1)"),
	PARAM(RK_JOB_BS, "B", 0, RK_CMP_DEFINES, "different block sizes",
	      "bytes per request: N, MIN-MAX for bsrange or bssplit; READ,WRITE when they differ; "
	      "the trims' for a trim job"),
	PARAM(RK_JOB_IODEPTH, "", 0, RK_CMP_DEFINES, "different queue depths",
	      "requests in flight per thread (iodepth)"),
	PARAM_R(RK_JOB_SIZE, "B", 0, RK_CMP_DEFINES, "different sizes", RK_ROLE_DATA_SIZE,
		"bytes of I/O per thread and loop (size, or the file's)"),
	PARAM(RK_JOB_NUMJOBS, "", 0, RK_CMP_VALUE, "different numbers of jobs",
	      "numjobs: threads running the job"),
	PARAM(RK_JOB_JOBS, "", 0, RK_CMP_VALUE, NULL,
	      "threads merged into the row (1, or the group with group_reporting)"),
	PARAM(RK_JOB_IOENGINE, "", 0, RK_CMP_VALUE, "different I/O engines",
	      "the I/O engine (psync, io_uring, libaio, mmap, null)"),
	PARAM(RK_JOB_SYNC, "", 0, RK_CMP_VALUE, "different sync modes",
	      "sync=: none, sync (O_SYNC) or dsync (O_DSYNC)"),
	PARAM(RK_JOB_FSYNC, "", 0, RK_CMP_VALUE, NULL,
	      "fio's fsync=: an fsync after every N writes (0: none)"),
	PARAM(RK_JOB_FDATASYNC, "", 0, RK_CMP_VALUE, NULL,
	      "fio's fdatasync=: an fdatasync after every N writes (0: none)"),
	PARAM(RK_JOB_RWMIXREAD, "%", 0, RK_CMP_VALUE, NULL, "share of reads of a mixed job"),
	PARAM(RK_JOB_DISTRIBUTION, "", 0, RK_CMP_VALUE, NULL,
	      "random_distribution as given (random, zipf:1.2 ...)"),
	PARAM(RK_JOB_RATE, "B/s", 0, RK_CMP_VALUE, NULL, "fio's rate= per direction (READ,WRITE)"),
	PARAM(RK_JOB_RATE_IOPS, "", 0, RK_CMP_VALUE, NULL,
	      "rate_iops limit per direction (READ,WRITE)"),
	PARAM(RK_JOB_RUNTIME, "s", 0, RK_CMP_VALUE, NULL, "runtime limit (0: none)"),
	PARAM(RK_JOB_TIME_BASED, "bool", 0, RK_CMP_VALUE, NULL,
	      "1 when the job ran for its runtime whatever its size"),
	PARAM(RK_JOB_JOB, "", 0, RK_CMP_NONE, NULL, "the job's name (the unit's first job)"),
	PARAM(RK_JOB_GROUPID, "", 0, RK_CMP_NONE, NULL, "fio's reporting group"),
	PARAM(RK_JOB_DESCRIPTION, "", 0, RK_CMP_NONE, NULL, "the job's description="),
	PARAM(RK_JOB_FIO_OPTIONS, "", 0, RK_CMP_NONE, NULL,
	      "the options of the job's section, NAME=VALUE per line (fio's job options)"),
	PARAM(RK_JOB_PERCENTILE_LIST, "", 0, RK_CMP_NONE, NULL,
	      "the percentiles fio's outputs list, colon-separated"),
	PARAM(RK_JOB_STEP, "", 0, RK_CMP_NONE, NULL,
	      "aggregate rows: the stonewall step (0-based)"),
	PARAM(RK_JOB_DEVICE, "", 0, RK_CMP_NONE, NULL, "disk rows: the device's kernel name"),
	METRIC(RK_JOB_BW_BYTES, "B/s", "bytes / runtime, fio's bw_bytes"),
	METRIC(RK_JOB_SHORT_IOS, "ios", "requests that moved fewer bytes than asked"),
	METRIC(RK_JOB_SLAT_N, "ios", "submission latencies measured (asynchronous engines)"),
	METRIC(RK_JOB_SLAT_MIN_NS, "ns", "fastest submission: filled until submitted"),
	METRIC(RK_JOB_SLAT_MAX_NS, "ns", "slowest submission"),
	METRIC(RK_JOB_SLAT_MEAN_NS, "ns", "mean submission latency"),
	METRIC(RK_JOB_SLAT_SD_NS, "ns", "its sample standard deviation (fio's)"),
	METRIC(RK_JOB_LAT_N, "ios", "total latencies measured"),
	METRIC(RK_JOB_LAT_MIN_NS, "ns", "fastest request: filled until completed"),
	METRIC(RK_JOB_LAT_MAX_NS, "ns", "slowest request, filled until completed"),
	METRIC(RK_JOB_LAT_MEAN_NS, "ns", "mean total latency"),
	METRIC(RK_JOB_LAT_SD_NS, "ns", "its sample standard deviation (fio's)"),
	METRIC(RK_JOB_BW_MIN, "KiB/s", "lowest bandwidth of a 500 ms interval"),
	METRIC(RK_JOB_BW_MAX, "KiB/s", "highest bandwidth of a 500 ms interval"),
	METRIC(RK_JOB_BW_MEAN, "KiB/s", "mean bandwidth of the intervals"),
	METRIC(RK_JOB_BW_DEV, "KiB/s", "sample standard deviation of the intervals' bandwidth"),
	METRIC(RK_JOB_BW_AGG, "%", "the mean interval bandwidth as a share of the group's"),
	METRIC(RK_JOB_BW_SAMPLES, "", "500 ms intervals sampled"),
	METRIC(RK_JOB_IOPS_MIN, "IO/s", "lowest IOPS of an interval"),
	METRIC(RK_JOB_IOPS_MAX, "IO/s", "highest IOPS of an interval"),
	METRIC(RK_JOB_IOPS_MEAN, "IO/s", "mean IOPS of the intervals"),
	METRIC(RK_JOB_IOPS_DEV, "IO/s", "sample standard deviation of the intervals' IOPS"),
	METRIC(RK_JOB_IOPS_SAMPLES, "", "intervals sampled"),
	METRIC(RK_JOB_USR_CPU, "%", "user CPU of the unit's threads / their runtime (fio's)"),
	METRIC(RK_JOB_SYS_CPU, "%", "system CPU of the unit's threads / their runtime"),
	METRIC(RK_JOB_CTX, "", "context switches of the unit's threads"),
	METRIC(RK_JOB_MAJF, "", "major page faults of the unit's threads"),
	METRIC(RK_JOB_MINF, "", "minor page faults of the unit's threads"),
	METRIC(RK_JOB_JOB_RUNTIME, "ms", "the threads' runtimes added up (fio's job_runtime)"),
	METRIC(RK_JOB_ERRNO, "", "the first error's errno (0: none)"),
	METRIC(RK_JOB_DEPTH, "%", "share of requests submitted with N (N to 2N-1) in flight"),
	METRIC(RK_JOB_DEPTH_GE64, "%", "share of requests submitted with 64 or more in flight"),
	METRIC(RK_JOB_SUBMIT, "%",
	       "share of submit calls that submitted up to N requests (above N/2)"),
	METRIC(RK_JOB_SUBMIT_GE64, "%", "share of submit calls that submitted more than 64"),
	METRIC(RK_JOB_COMPLETE, "%",
	       "share of reaps that completed up to N requests (above N/2)"),
	METRIC(RK_JOB_COMPLETE_GE64, "%", "share of reaps that completed more than 64"),
	METRIC(RK_JOB_THREADS, "", "aggregate rows: threads of the step"),
	METRIC(RK_JOB_IOPS, "IO/s", "aggregate rows: requests / (latest stop - earliest start)"),
	METRIC(RK_JOB_FIRST_DONE_S, "s", "from the earliest start until the first thread finished"),
	METRIC(RK_JOB_FIRST_DONE_BYTES, "B", "bytes all threads had moved by then"),
	METRIC(RK_JOB_FIRST_DONE_RATE, "MiB/s", "those bytes / that time (the stonewall figure)"),
	METRIC(RK_JOB_LAST_DONE_S, "s", "from the earliest start until the last thread finished"),
	METRIC(RK_JOB_DEV_READ_BYTES, "B", "bytes the device read during the step (diskstats)"),
	METRIC(RK_JOB_DEV_WRITE_BYTES, "B", "bytes the device wrote during the step"),
	METRIC(RK_JOB_READ_IOS, "ios", "disk rows: reads the device completed"),
	METRIC(RK_JOB_WRITE_IOS, "ios", "disk rows: writes the device completed"),
	METRIC(RK_JOB_READ_MERGES, "ios", "disk rows: reads merged"),
	METRIC(RK_JOB_WRITE_MERGES, "ios", "disk rows: writes merged"),
	METRIC(RK_JOB_READ_TICKS, "ms", "disk rows: time spent reading"),
	METRIC(RK_JOB_WRITE_TICKS, "ms", "disk rows: time spent writing"),
	METRIC(RK_JOB_IN_QUEUE, "ms", "disk rows: weighted time in queue"),
	METRIC(RK_JOB_UTIL, "%", "disk rows: share of the time with a request in flight"),
	OPTION(RK_JOB_GLOBAL_OPTIONS, "", "the last global section's options, NAME=VALUE per line"),
	OPTION(RK_JOB_SECTION, "", "--section: the sections run, comma-separated"),
	OPTION(RK_JOB_FILES, "", "the job files, comma-separated"),
	OPTION(RK_JOB_OVERWRITE, "bool", "--overwrite: existing files may be written"),
	OPTION(RK_JOB_DESTROY_DATA_ON, "", "--destroy-data-on: the device that may be written"),
	OPTION(RK_JOB_NO_LAYOUT, "bool", "--no-layout: files were created empty"),
	OPTION(RK_JOB_DIRECTORY, "", "-d: where files of jobs without directory= went"),
};

/* Keys only an import writes: what the old tools printed and iobattery names otherwise. */
static const struct result_key import_keys[] = {
	OPTION(RK_IMPORT_IMPORTED_FROM, "", "FILE:LINE the run was read from"),
	OPTION(RK_IMPORT_IMPORTED_FORMAT, "",
	       "what was read: bonnie++ 1.98 csv, postmark report, dd output, time output"),
	PARAM(RK_IMPORT_FILES_SPEC, "", 0, RK_CMP_NONE, NULL,
	      "Bonnie++'s files column as printed: number[:max[:min]][/dirs]"),
	METRIC(RK_IMPORT_LATENCY_MAX, "ns", "Bonnie++'s latency: the slowest operation"),
	METRIC(RK_IMPORT_TOTAL_S, "s", "PostMark's total time"),
	METRIC(RK_IMPORT_CREATED_ALONE, "files", "PostMark's Creation alone count"),
	METRIC(RK_IMPORT_CREATED_MIXED, "files", "PostMark's created Mixed with transactions"),
	METRIC(RK_IMPORT_DELETED_ALONE, "files", "PostMark's Deletion alone count"),
	METRIC(RK_IMPORT_DELETED_MIXED, "files", "PostMark's deleted Mixed with transactions"),
	METRIC(RK_IMPORT_REAL_S, "s", "time's real (wall) seconds"),
	PARAM(RK_IMPORT_TAGS, "", 0, RK_CMP_VALUE, "different command tags (row counts)",
	      "the command tags psql printed for the script, in order, '; ' between them"),
};

static const struct result_key battery_keys[] = {
	OPTION(RK_BAT_PROBE_WRITE, "B/s", "the probe: 1 MiB writes until fdatasync returned"),
	OPTION(RK_BAT_PROBE_READ, "B/s", "the probe: 1 MiB reads, cache dropped or O_DIRECT"),
	OPTION(RK_BAT_PROBE_READ_LAT, "us", "the probe: one 4 KiB O_DIRECT read at depth 1"),
	OPTION(RK_BAT_PROBE_WRITE_LAT, "us", "the probe: one 4 KiB O_DIRECT write at depth 1"),
	OPTION(RK_BAT_PROBE_S, "s", "what the probe took"),
	OPTION(RK_BAT_PASS_BUDGET, "s", "the budget of one pass (a repeat on one file system)"),
	OPTION(RK_BAT_EXPECTED, "s", "what the plan expected the whole run to take"),
	OPTION(RK_BAT_SIZING, "", "planned (from the budget) or hand (--size)"),
	OPTION(RK_BAT_STEP, "", "the plan of step N: its name, expected time and why"),
	OPTION(RK_BAT_WALL, "s", "the whole battery's wall time"),
	OPTION(RK_BAT_STEPS, "s", "the steps' own time, every pass"),
	OPTION(RK_BAT_OVERHEAD, "s", "the rest: probe, plan, mkfs and mount, syncs, cleanup"),
	OPTION(RK_BAT_JOB_ENGINE, "", "the database pattern's engine (io_uring, libaio, psync)"),
	OPTION(RK_BAT_JOB_ENGINE_WHY, "", "why the engines before it were not taken"),
	OPTION(RK_BAT_JOB_FILE, "", "the database pattern as the fio job file it ran"),
	OPTION(RK_BAT_MEMORY, "", "the target keeps its files in memory: its figures are RAM's"),
	OPTION(RK_BAT_BUDGET, "s", "--budget: what the whole battery may take"),
	OPTION(RK_BAT_REPLAN, "", "the steps re-sized after a step measured slower rates"),
	OPTION(RK_BAT_LATE, "", "the steps not started because they could not end in the budget"),
};

static const struct result_key row_keys[] = {
	FIELD(RK_ROW_WORKLOAD, "", "the workload the row belongs to"),
	FIELD(RK_ROW_PHASE, "", "the phase (write, read, copy, seq_create ...)"),
	FIELD(RK_ROW_REPEAT, "", "0-based repeat index"),
	FIELD(RK_ROW_PARAMS, "", "text parameters that say what the figure is comparable with"),
	FIELD(RK_ROW_BYTES, "B", "bytes transferred"),
	FIELD(RK_ROW_OPS, "", "operations (calls, files, transactions) done"),
	FIELD(RK_ROW_ELAPSED_NS, "ns", "the time the rate is computed from"),
	FIELD(RK_ROW_BUFFERED_NS, "ns", "until the last write call returned"),
	FIELD(RK_ROW_DURABLE_NS, "ns", "until the closing fsync or fdatasync returned"),
	FIELD(RK_ROW_RATE, RK_UNIT_RATE, "the figure, in rate_unit"),
	FIELD(RK_ROW_RATE_UNIT, "", "the rate's unit (MB/s, K/sec, files/s, tps ...)"),
	FIELD(RK_ROW_CPU, "", "CPU use over the phase"),
	FIELD(RK_ROW_LATENCY, "", "per-call latency"),
	FIELD(RK_ROW_CACHE_PCT, "%", "share of the file in the page cache when a read began"),
	FIELD(RK_ROW_CACHE_DROPPED, "bool", "the file was dropped from the cache first"),
	FIELD(RK_ROW_FLAGS, "", "flag names"),
	FIELD(RK_ROW_ERROR, "", "why the phase failed"),
	FIELD(RK_ROW_NOTE, "", "one sentence for humans"),
	FIELD(RK_ROW_METRICS, "", "extra named figures"),
	PARAM_R(RK_ROW_DETAIL, "", 0, RK_CMP_NONE, NULL, RK_ROLE_LABEL,
		"a short label telling the workload's rows apart in tables (dd: bs=1M)"),
	/* several ranks (mpirun): runner/ranks_row.c */
	PARAM(RK_ROW_RANK_COUNT, "ranks", 0, RK_CMP_DEFINES, "different numbers of ranks",
	      "ranks that measured the row together (mpirun); absent for one process"),
	METRIC(RK_ROW_RANK_RATE_MIN, RK_UNIT_RATE, "the slowest rank's own rate"),
	METRIC(RK_ROW_RANK_RATE_MAX, RK_UNIT_RATE, "the fastest rank's own rate"),
	METRIC(RK_ROW_RANK_RATE_MEAN, RK_UNIT_RATE, "the mean of the ranks' own rates"),
	METRIC(RK_ROW_RANK_RATE_SD, RK_UNIT_RATE,
	       "the population standard deviation of the ranks' own rates"),
	METRIC(RK_ROW_FIRST_DONE_RATE, RK_UNIT_RATE,
	       "aggregate rate until the fastest rank finished (elbencho's first done)"),
	METRIC(RK_ROW_FIRST_DONE_S, "s", "from the earliest start until the fastest rank finished"),
	METRIC(RK_ROW_LAST_DONE_S, "s",
	       "from the earliest start until the slowest rank finished (the rate's time)"),
	METRIC(RK_ROW_STONEWALL_S, "s", "--stonewall: from the earliest start until the last "
	       "rank stopped at the wall"),
	METRIC(RK_ROW_STONEWALL_RATE, RK_UNIT_RATE,
	       "--stonewall: the work done before the wall over stonewall_s"),
	METRIC(RK_ROW_STONEWALL_BYTES_MIN, "B",
	       "--stonewall: the least a rank did before the wall"),
	METRIC(RK_ROW_STONEWALL_BYTES_MAX, "B", "--stonewall: the most a rank did before the wall"),
	PARAM(RK_ROW_FS, "", 0, RK_CMP_NONE, NULL,
	      "battery --fs: the file system made for the row (ext4, xfs, btrfs)"),
	PARAM(RK_ROW_FS_CONFIG, "", 0, RK_CMP_NONE, NULL,
	      "battery --fs: the entry as typed, the configuration's name (xfs@noatime)"),
	PARAM(RK_ROW_MKFS_OPTIONS, "", 0, RK_CMP_NONE, NULL,
	      "battery --fs: the options given to mkfs (empty: none)"),
	PARAM(RK_ROW_MOUNT_OPTIONS, "", 0, RK_CMP_NONE, NULL,
	      "battery --fs: the mount options (empty: the defaults)"),
	PARAM(RK_ROW_READ_METHOD, "", 0, RK_CMP_NONE, NULL,
	      "battery: how a read of the device kept the page cache out: drop, direct or "
	      "2x_ram"),
	FIELD(RK_ROW_SYSTEM, "", "what the system did during the phase"),
	FIELD(RK_ROW_SERIES, "", "the phase interval by interval"),
	/* every write workload's --verify: its rows' param, and the verify row's figures */
	PARAM(RK_VERIFY, "bool", 0, RK_CMP_VALUE, "different data (verified blocks)",
	      "true on every row of a run with --verify: the data written were stamped blocks"),
	PARAM(RK_VERIFY_RUN_ID, "", 0, RK_CMP_NONE, NULL, "the run id in every block, in hex"),
	PARAM(RK_VERIFY_BLOCK, "B", 0, RK_CMP_NONE, NULL, "the longest block"),
	PARAM(RK_VERIFY_AFTER_DROP, "bool", 0, RK_CMP_VALUE, NULL,
	      "true when each file was dropped from the page cache before it was read back"),
	PARAM(RK_VERIFY_CRC_PATH, "", 0, RK_CMP_NONE, NULL,
	      "the CRC32C code that ran: sse4.2, armv8-crc or software"),
	PARAM(RK_VERIFY_JOURNAL, "", 0, RK_CMP_NONE, NULL,
	      "where acknowledged generations went: the journal file or the listener"),
	PARAM(RK_VERIFY_GENERATIONS, "", 0, RK_CMP_NONE, NULL,
	      "last-write: each block held to the generation of its last write (stale "
	      "found); any: some file too large to track, held to any generation of the run"),
	METRIC(RK_VERIFY_BLOCKS, "blocks", "blocks checked"),
	METRIC(RK_VERIFY_BAD_BLOCKS, "blocks", "blocks in failing classes"),
	METRIC(RK_VERIFY_FILES, "files", "files checked"),
	METRIC(RK_VERIFY_FILES_GONE, "files", "files the workload removed before the check"),
	METRIC(RK_VERIFY_ACKED, "records", "acknowledged generations recorded"),
	METRIC(RK_VERIFY_ACK_S, "s", "time spent recording them (inside the write phases)"),
	METRIC(RK_VERIFY_OK, "blocks", "blocks as written"),
	METRIC(RK_VERIFY_IN_FLIGHT, "blocks", "blocks of an unacknowledged write (accepted)"),
	METRIC(RK_VERIFY_CORRUPTED, "blocks", "blocks with bytes no write put there"),
	METRIC(RK_VERIFY_MISDIRECTED, "blocks", "blocks of this run for another place"),
	METRIC(RK_VERIFY_STALE, "blocks", "blocks of an older generation (lost write)"),
	METRIC(RK_VERIFY_OTHER_RUN, "blocks", "blocks of another run (lost write)"),
	METRIC(RK_VERIFY_ZEROED, "blocks", "zeros where a block was written"),
	METRIC(RK_VERIFY_NO_HEADER, "blocks", "bytes that are no block of this format"),
	METRIC(RK_VERIFY_TORN, "blocks", "blocks partly an older generation or zeros"),
	METRIC(RK_VERIFY_MISSING, "blocks", "blocks past the end of the file"),
	METRIC(RK_VERIFY_FIRST_CORRUPTED, "B", "file offset of the first corrupted block"),
	METRIC(RK_VERIFY_FIRST_MISDIRECTED, "B", "file offset of the first misdirected block"),
	METRIC(RK_VERIFY_FIRST_STALE, "B", "file offset of the first stale block"),
	METRIC(RK_VERIFY_FIRST_OTHER_RUN, "B", "file offset of the first other run's block"),
	METRIC(RK_VERIFY_FIRST_ZEROED, "B", "file offset of the first zeroed block"),
	METRIC(RK_VERIFY_FIRST_NO_HEADER, "B", "file offset of the first block without header"),
	METRIC(RK_VERIFY_FIRST_TORN, "B", "file offset of the first torn block"),
	METRIC(RK_VERIFY_FIRST_MISSING, "B", "file offset of the first missing block"),
};

static const struct result_key system_keys[] = {
	FIELD(RK_SYS_DEVICES_REASON, "", "why there are no device figures"),
	FIELD(RK_SYS_DEVICES, "", "the devices behind the target, the top first"),
	FIELD(RK_SYS_WL_READ, "B", "bytes the phase's threads read through system calls"),
	FIELD(RK_SYS_WL_WRITTEN, "B", "bytes the phase's threads wrote through system calls"),
	FIELD(RK_SYS_WRITE_AMP, "", "bytes the top device wrote / workload_written_bytes"),
	FIELD(RK_SYS_CPU_USER, "%", "share of all CPUs' time in user mode (nice apart)"),
	FIELD(RK_SYS_CPU_NICE, "%", "in user mode at a lowered priority"),
	FIELD(RK_SYS_CPU_SYSTEM, "%", "in the kernel (interrupts apart)"),
	FIELD(RK_SYS_CPU_IOWAIT, "%", "idle with I/O outstanding"),
	FIELD(RK_SYS_CPU_IRQ, "%", "serving hardware interrupts"),
	FIELD(RK_SYS_CPU_SOFTIRQ, "%", "serving soft interrupts"),
	FIELD(RK_SYS_CPU_STEAL, "%", "taken by the hypervisor for something else"),
	FIELD(RK_SYS_CPU_IDLE, "%", "idle without I/O outstanding"),
	FIELD(RK_SYS_DIRTY_START, "B", "Dirty of /proc/meminfo when the phase began"),
	FIELD(RK_SYS_DIRTY_END, "B", "Dirty when it ended"),
	FIELD(RK_SYS_WB_START, "B", "Writeback when the phase began"),
	FIELD(RK_SYS_WB_END, "B", "Writeback when it ended"),
	FIELD(RK_SYS_CACHED_START, "B", "Cached (the page cache) when the phase began"),
	FIELD(RK_SYS_CACHED_END, "B", "Cached when it ended"),
	FIELD(RK_SYS_WAIT_PASSES, "", "wait-state sampling passes"),
	FIELD(RK_SYS_WAIT_OBS, "", "thread observations of those passes"),
	FIELD(RK_SYS_WCHAN_HIDDEN, "bool", "wait channels could not be read"),
	FIELD(RK_SYS_WAIT, "", "where the threads were, as shares of the observations"),
	FIELD(RK_SYS_SAMPLER_CPU_S, "s", "CPU the sampler thread itself used"),
};

static const struct result_key device_keys[] = {
	FIELD(RK_DEV_NAME, "", "kernel name of the device"),
	FIELD(RK_DEV_ROLE, "", "top, disk, member or backing"),
	FIELD(RK_DEV_RD_BYTES, "B", "bytes the device read"),
	FIELD(RK_DEV_WR_BYTES, "B", "bytes the device wrote"),
	FIELD(RK_DEV_R_S, "1/s", "reads completed per second"),
	FIELD(RK_DEV_W_S, "1/s", "writes completed per second"),
	FIELD(RK_DEV_RKB_S, "kB/s", "kB (1024 bytes) read per second"),
	FIELD(RK_DEV_WKB_S, "kB/s", "kB written per second"),
	FIELD(RK_DEV_RRQM_S, "1/s", "read requests merged per second"),
	FIELD(RK_DEV_WRQM_S, "1/s", "write requests merged per second"),
	FIELD(RK_DEV_R_AWAIT, "ms", "mean time of a read, queue and service"),
	FIELD(RK_DEV_W_AWAIT, "ms", "mean time of a write, queue and service"),
	FIELD(RK_DEV_AQU_SZ, "", "mean number of requests in flight"),
	FIELD(RK_DEV_RAREQ_SZ, "kB", "mean read size"),
	FIELD(RK_DEV_WAREQ_SZ, "kB", "mean write size"),
	FIELD(RK_DEV_UTIL, "%", "share of the time with a request in flight"),
	FIELD(RK_DEV_D_S, "1/s", "discards per second"),
	FIELD(RK_DEV_DKB_S, "kB/s", "kB discarded per second"),
	FIELD(RK_DEV_D_AWAIT, "ms", "mean time of a discard"),
	FIELD(RK_DEV_F_S, "1/s", "flushes per second"),
	FIELD(RK_DEV_F_AWAIT, "ms", "mean time of a flush"),
};

static const struct result_key wait_keys[] = {
	FIELD(RK_WAIT_STATE, "", "the thread state letter (R, S, D ...)"),
	FIELD(RK_WAIT_WCHAN, "", "the kernel function it slept in"),
	FIELD(RK_WAIT_SYSCALL, "", "the system call it was in"),
	FIELD(RK_WAIT_COUNT, "", "observations"),
	FIELD(RK_WAIT_SHARE, "%", "count over all observations of the phase"),
};

static const struct result_key series_keys[] = {
	FIELD(RK_SER_INTERVAL_NS, "ns", "the length of an interval (the last may be shorter)"),
	FIELD(RK_SER_T_NS, "ns", "end of each interval, from the phase's start"),
	FIELD(RK_SER_OPS, "", "operations completed in each interval"),
	FIELD(RK_SER_BYTES, "B", "bytes of those"),
	FIELD(RK_SER_P50, "ns", "their median latency"),
	FIELD(RK_SER_P99, "ns", "their 99th percentile"),
	FIELD(RK_SER_MAX, "ns", "the slowest of them"),
	FIELD(RK_SER_CPU_USR, "%", "user and nice share of all CPUs' time"),
	FIELD(RK_SER_CPU_SYS, "%", "system, irq and softirq share"),
	FIELD(RK_SER_CPU_IOWAIT, "%", "iowait share"),
	FIELD(RK_SER_CPU_STEAL, "%", "steal share"),
	FIELD(RK_SER_CPU_IDLE, "%", "idle share"),
	FIELD(RK_SER_DIRTY, "B", "Dirty at the end of each interval"),
	FIELD(RK_SER_WB, "B", "Writeback at the end of each interval"),
	FIELD(RK_SER_DEVICES, "", "per device, its figures in each interval"),
};

static const struct result_key series_device_keys[] = {
	FIELD(RK_DEV_NAME, "", "kernel name of the device"),
	FIELD(RK_DEV_UTIL, "%", "share of each interval with a request in flight"),
	FIELD(RK_DEV_AQU_SZ, "", "mean number of requests in flight"),
	FIELD(RK_DEV_R_S, "1/s", "reads completed per second"),
	FIELD(RK_DEV_W_S, "1/s", "writes completed per second"),
	FIELD(RK_DEV_RKB_S, "kB/s", "kB read per second"),
	FIELD(RK_DEV_WKB_S, "kB/s", "kB written per second"),
	FIELD(RK_DEV_R_AWAIT, "ms", "mean time of a read"),
	FIELD(RK_DEV_W_AWAIT, "ms", "mean time of a write"),
};

static const struct result_key run_keys[] = {
	FIELD(RK_RUN_SCHEMA_VERSION, "", "the version of the document's layout"),
	FIELD(RK_RUN_TOOL, "", "always iobattery"),
	FIELD(RK_RUN_ID, "", "unique id of the run"),
	FIELD(RK_RUN_LABEL, "", "the user's --label"),
	FIELD(RK_RUN_WORKLOAD, "", "the subcommand"),
	FIELD(RK_RUN_COMMAND_LINE, "", "the command as typed"),
	FIELD(RK_RUN_STATUS, "", "the exit status the run ended with"),
	FIELD(RK_RUN_INCOMPLETE, "bool", "the run was interrupted"),
	FIELD(RK_RUN_IMPORTED, "bool", "the run was read from another tool's output"),
	FIELD(RK_RUN_ERROR, "", "why the run failed"),
	FIELD(RK_RUN_OPTIONS, "", "the effective options"),
	FIELD(RK_RUN_ENV, "", "the environment"),
	FIELD(RK_RUN_ROWS, "rows", "one object per measured phase"),
};

static const struct result_key env_keys[] = {
	FIELD(RK_ENV_TOOL_VERSION, "", "iobattery version that measured"),
	FIELD(RK_ENV_DATE, "", "start of the run, ISO 8601 UTC"),
	FIELD(RK_ENV_HOST, "", "host name"),
	FIELD(RK_ENV_OS, "", "kernel name and distribution"),
	FIELD(RK_ENV_KERNEL, "", "kernel release"),
	FIELD(RK_ENV_ARCH, "", "machine"),
	FIELD(RK_ENV_CPU_MODEL, "", "CPU model name"),
	FIELD(RK_ENV_NCPU, "", "online CPUs"),
	FIELD(RK_ENV_RAM_BYTES, "B", "physical memory"),
	FIELD(RK_ENV_TARGET, "", "the directory or file measured"),
	FIELD(RK_ENV_FS_TYPE, "", "file system type of the target's mount"),
	FIELD(RK_ENV_MOUNT_OPTS, "", "that mount's options"),
	FIELD(RK_ENV_MOUNT_POINT, "", "where that file system is mounted"),
	FIELD(RK_ENV_DEVICE, "", "the whole block device behind it"),
	FIELD(RK_ENV_DEVICE_MODEL, "", "vendor and model of the device"),
	FIELD(RK_ENV_ROTATIONAL, "bool", "the kernel's rotational flag"),
	FIELD(RK_ENV_SCHEDULER, "", "the active I/O scheduler"),
	FIELD(RK_ENV_VIRTUALIZED, "bool", "a hypervisor was detected"),
};

static const struct result_key cpu_keys[] = {
	FIELD(RK_CPU_USER_S, "s", "user CPU seconds of the process"),
	FIELD(RK_CPU_SYS_S, "s", "system CPU seconds of the process"),
	FIELD(RK_CPU_PROC_PCT, "%", "(user + sys) / elapsed x 100, as Bonnie++'s %CPU"),
	FIELD(RK_CPU_SYS_BUSY_PCT, "%", "share of all CPUs that was busy"),
	FIELD(RK_CPU_SYS_BUSY_S, "s", "the same as CPU seconds"),
	FIELD(RK_CPU_NS_PER_OP, "ns", "(user + sys) / ops"),
};

static const struct result_key latency_keys[] = {
	FIELD(RK_LAT_N, "", "number of timed calls"),
	FIELD(RK_LAT_MEAN_NS, "ns", "exact mean"),
	FIELD(RK_LAT_SD_NS, "ns", "population standard deviation"),
	FIELD(RK_LAT_MIN_NS, "ns", "exact minimum"),
	FIELD(RK_LAT_P50_NS, "ns", "median, from the histogram"),
	FIELD(RK_LAT_P90_NS, "ns", "90th percentile"),
	FIELD(RK_LAT_P99_NS, "ns", "99th percentile"),
	FIELD(RK_LAT_P999_NS, "ns", "99.9th percentile"),
	FIELD(RK_LAT_MAX_NS, "ns", "exact maximum"),
	FIELD(RK_LAT_HISTOGRAM, "", "the non-zero buckets as [index, count] pairs"),
};

static const struct result_key metric_keys[] = {
	FIELD(RK_METRIC_NAME, "", "the metric's key"),
	FIELD(RK_METRIC_VALUE, "", "its value, in unit"),
	FIELD(RK_METRIC_UNIT, "", "its unit"),
};

/* The members a multi-rank run adds (only then), and its options. */
static const struct result_key ranks_keys[] = {
	FIELD(RK_RUN_RANKS, "", "top level and each row: one object per rank (mpirun)"),
	OPTION(RK_OPT_STONEWALL, "s", "--stonewall: every rank's phase stopped after this"),
	OPTION(RK_OPT_WEAROUT, "bool", "--wearout: then every rank did as much as the busiest"),
	OPTION(RK_OPT_SHARED_FILE, "bool", "--shared-file: one file, a segment per rank"),
	OPTION(RK_OPT_SHARED_DIR, "bool", "--shared-dir: one directory for every rank's files"),
};

static const struct result_key rank_keys[] = {
	FIELD(RK_RANK_RANK, "", "the rank's number, 0 first"),
	FIELD(RK_RANK_ENV, "", "its environment, as the top level's env"),
	FIELD(RK_RANK_FS_DIFFERS, "bool", "its target's file system type is not rank 0's"),
};

static const struct result_key row_rank_keys[] = {
	FIELD(RK_RR_RANK, "", "the rank's number"),
	FIELD(RK_RR_PRESENT, "bool", "false: the rank has no such row (it stopped earlier)"),
	FIELD(RK_RR_START_NS, "ns", "its start, from the earliest start of any rank"),
	FIELD(RK_RR_STOP_NS, "ns", "its stop, on the same scale"),
	FIELD(RK_RR_BYTES, "B", "its bytes"),
	FIELD(RK_RR_OPS, "", "its operations"),
	FIELD(RK_RR_ELAPSED_NS, "ns", "its own time"),
	FIELD(RK_RR_RATE, RK_UNIT_RATE, "its own rate, over its own time"),
	FIELD(RK_RR_STONEWALL_BYTES, "B", "--stonewall: its bytes when the wall came"),
	FIELD(RK_RR_FLAGS, "", "its own row's flags"),
};

#define TABLE(v, n, wl, k)	static const struct result_key_table v = { n, wl, k, N_(k) }
TABLE(dd_table, "dd", "dd", dd_keys);
TABLE(cp_table, "cp", "cp", cp_keys);
TABLE(bonnie_table, "bonnie", "bonnie", bonnie_keys);
TABLE(postmark_table, "postmark", "postmark", postmark_keys);
TABLE(db_table, "db", "db", db_keys);
TABLE(fsync_table, "fsync", "fsync", fsync_keys);
TABLE(iozone_table, "iozone", "iozone", iozone_keys);
TABLE(job_table, "job", "job", job_keys);
TABLE(import_table, "import", NULL, import_keys);
TABLE(row_table, "row", NULL, row_keys);
TABLE(battery_table, "battery", "battery", battery_keys);
TABLE(run_table, "run", NULL, run_keys);
TABLE(env_table, "env", NULL, env_keys);
TABLE(cpu_table, "cpu", NULL, cpu_keys);
TABLE(latency_table, "latency", NULL, latency_keys);
TABLE(metric_table, "metric", NULL, metric_keys);
TABLE(ranks_table, "ranks", NULL, ranks_keys);
TABLE(rank_table, "rank", NULL, rank_keys);
TABLE(row_rank_table, "row_rank", NULL, row_rank_keys);
TABLE(system_table, "system", NULL, system_keys);
TABLE(device_table, "device", NULL, device_keys);
TABLE(wait_table, "wait", NULL, wait_keys);
TABLE(series_table, "series", NULL, series_keys);
TABLE(series_device_table, "series_device", NULL, series_device_keys);

/* The shared tables a workload's rows see after their own, in this order. */
#define N_SHARED 2

const struct result_key_table *const result_key_tables[] = {
	&dd_table, &cp_table, &bonnie_table, &postmark_table, &db_table, &fsync_table,
	&iozone_table, &job_table, &battery_table,
	&import_table, &row_table,		/* shared: every workload's rows */
	&run_table, &env_table, &cpu_table, &latency_table, &metric_table,
	&ranks_table, &rank_table, &row_rank_table,
	&system_table, &device_table, &wait_table, &series_table, &series_device_table,
	NULL,
};

const struct result_key_table *result_key_table(const char *name)
{
	size_t i;

	for (i = 0; name && result_key_tables[i]; i++)
		if (!strcmp(result_key_tables[i]->name, name))
			return result_key_tables[i];
	return NULL;
}

size_t result_key_scope(const char *workload, const struct result_key_table **t, size_t max)
{
	const struct result_key_table *own = NULL;
	size_t i, n = 0, shared = 0;

	for (i = 0; workload && result_key_tables[i]; i++)
		if (result_key_tables[i]->workload &&
		    !strcmp(result_key_tables[i]->workload, workload))
			own = result_key_tables[i];
	if (own && n < max)
		t[n++] = own;
	for (i = 0; result_key_tables[i] && n < max; i++) {
		const struct result_key_table *k = result_key_tables[i];

		if (!own)
			t[n++] = k;		/* a workload we do not know: every table */
		else if (!k->workload && shared++ < N_SHARED)
			t[n++] = k;
	}
	return n;
}

int result_key_matches(const struct result_key *k, const char *name)
{
	const char *p = strchr(k->name, 'N');
	size_t pre, digits;

	if (!p)
		return !strcmp(k->name, name);
	pre = (size_t)(p - k->name);
	if (strncmp(k->name, name, pre))
		return 0;
	name += pre;
	digits = strspn(name, "0123456789");
	if (!digits || name[0] == '0')
		return 0;
	return !strcmp(p + 1, name + digits);
}

const struct result_key *result_key_find(const char *workload, unsigned kind,
					 const char *name)
{
	const struct result_key_table *t[16];
	size_t n = result_key_scope(workload, t, 16), i, j;

	for (i = 0; name && i < n; i++)
		for (j = 0; j < t[i]->n; j++)
			if ((t[i]->keys[j].kind & kind) && result_key_matches(&t[i]->keys[j], name))
				return &t[i]->keys[j];
	return NULL;
}

const char *result_key_role_param(const struct row *w, unsigned role,
				  const struct result_key **key)
{
	const struct result_key_table *t[16];
	size_t n = result_key_scope(w->workload, t, 16), i, j;
	const struct result_key *k;
	const char *v;

	for (i = 0; i < n; i++)
		for (j = 0; j < t[i]->n; j++) {
			k = &t[i]->keys[j];
			if (!(k->kind & RK_PARAM) || !(k->roles & role) ||
			    result_key_find(w->workload, RK_PARAM, k->name) != k)
				continue;
			v = kv_get(&w->params, k->name);
			if (v) {
				if (key)
					*key = k;
				return v;
			}
		}
	return NULL;
}

double result_key_unit_bytes(const char *unit)
{
	if (!unit)
		return 0;
	if (!strcmp(unit, "B"))
		return 1;
	if (!strcmp(unit, "KiB"))
		return 1024.0;
	if (!strcmp(unit, "MiB"))
		return 1048576.0;
	if (!strcmp(unit, "GiB"))
		return 1073741824.0;
	return 0;
}

int result_note_states_cache(const struct row *w)
{
	return w->note && strstr(w->note, RK_NOTE_CACHE_MARK) != NULL;
}

/* ---- flags ---------------------------------------------------------------------------- */

/* Row flag names, in bit order (enum row_flag), and what they mean. */
static const struct {
	const char *name, *meaning;
} flag_names[] = {
	{ "short", "the phase ran under 0.5 s; timer resolution and start-up may show" },
	{ "cache_inflated", "the read came largely from the page cache, not the device" },
	{ "incomplete", "interrupted; the figures cover the part that ran" },
	{ "failed", "the phase failed; see error" },
	{ "not_measured",
	  "no figure (imported +++++, skipped, or left out by the battery: its note says why)" },
	{ "too_fast", "finished faster than memory can copy: not a disk rate" },
	{ "inconsistent", "repeats' coefficient of variation over 10%" },
	{ "imported", "read from a legacy output, not measured here" },
	{ "flush_implausible", "a durable sync finished faster than the device can make data "
			       "durable: a volatile cache (or a layer above it) acknowledged it" },
	{ "steal", "the hypervisor took over 5% of the CPU time: the figure depends on the host" },
	{ "device_idle", "a disk rate while the device moved under 10% of the bytes: "
	  "the page cache answered" },
	{ "writeback_pending", "a buffered write ended with over 10% of its bytes still dirty" },
};

const char *result_flag_name(unsigned flag)
{
	for (unsigned i = 0; i < N_(flag_names); i++)
		if (flag == 1u << i)
			return flag_names[i].name;
	return NULL;
}

unsigned result_flag_of(const char *name)
{
	for (unsigned i = 0; name && i < N_(flag_names); i++)
		if (!strcmp(flag_names[i].name, name))
			return 1u << i;
	return 0;
}

const char *result_flag_meaning(unsigned flag)
{
	for (unsigned i = 0; i < N_(flag_names); i++)
		if (flag == 1u << i)
			return flag_names[i].meaning;
	return NULL;
}
