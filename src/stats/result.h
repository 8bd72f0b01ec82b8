/* result.h - the results model. Everything the tool prints or stores is read from here.
 *
 * A run (one invocation, or one imported record) holds its environment, its effective
 * options and a list of rows; a row is one figure-producing phase (dd's "write", Bonnie's
 * "block output", a PostMark run, one SQL statement ...). Workload-specific figures that
 * have no field of their own go into row metrics (name, value, unit) and params (text).
 * Ownership: a run owns its rows, a row owns its strings, lists and histogram; free the
 * lot with run_free(). Not thread-safe: build rows from one thread.
 * JSON (stats/result_json.h) is the serialised form; docs/results-schema.md describes it,
 * and every key a row or run carries is declared in stats/result_keys.h. */
#ifndef IOB_STATS_RESULT_H
#define IOB_STATS_RESULT_H

#include <stddef.h>
#include <stdint.h>
#include "core/kv.h"
#include "stats/hist.h"

#define RESULT_SCHEMA_VERSION 1

struct row_sys;
struct row_series;


/* A named number with a unit ("files_created" 200107 "files"). */
struct metric {
	char *name;
	char *unit;
	double value;
};

enum row_flag {
	ROW_SHORT		= 1u << 0,	/* ran under 500 ms: timing error may show */
	ROW_CACHE_INFLATED	= 1u << 1,	/* read largely from page cache, not the device */
	ROW_INCOMPLETE		= 1u << 2,	/* interrupted: figures cover part of the work */
	ROW_FAILED		= 1u << 3,	/* the phase failed; see error */
	ROW_NOT_MEASURED	= 1u << 4,	/* imported "+++++" or skipped: no figure */
	ROW_TOO_FAST		= 1u << 5,	/* faster than memory copies (reflink/offload) */
	ROW_INCONSISTENT	= 1u << 6,	/* repeats' coefficient of variation over 10% */
	ROW_IMPORTED		= 1u << 7,	/* read from a legacy output, not measured here */
	ROW_FLUSH_IMPLAUSIBLE	= 1u << 8,	/* a durable sync finished faster than the device
						 * can make data durable (observe/wcache.h) */
	ROW_STEAL		= 1u << 9,	/* the hypervisor took over 5% of the CPU */
	ROW_DEVICE_IDLE		= 1u << 10,	/* a disk rate the device did not deliver */
	ROW_WRITEBACK_PENDING	= 1u << 11,	/* a buffered write left over 10% dirty */
};

#define ROW_SHORT_NS	500000000ull	/* below this a phase is flagged short */

struct row_cpu {
	int valid;
	double user_s, sys_s;		/* this process, getrusage (all threads) */
	double proc_pct;		/* (user+sys)/elapsed*100, Bonnie++'s %CPU (may pass 100) */
	double sys_busy_pct;		/* whole system busy share, all CPUs, 0..100 (/proc/stat) */
	double sys_busy_s;		/* whole system busy CPU seconds over the phase */
	double cpu_ns_per_op;		/* (user+sys)/ops in ns, 0 when ops == 0 */
	double wall_s;			/* the window proc_pct is taken over; 0 unknown
					 * (then elapsed_ns) */
	uint64_t ops;			/* the operations cpu_ns_per_op is per; 0 unknown
					 * (then the row's ops) */
};

struct row_lat {
	int valid;
	uint64_t n;
	double mean_ns, sd_ns;
	uint64_t min_ns, p50_ns, p90_ns, p99_ns, p999_ns, max_ns;
	struct hist *hist;		/* merged histogram or NULL (imports); owned */
};

/* One rank's own figures in a row measured by several ranks (mpirun; runner/ranks.h).
 * Times are ns from the earliest start of any rank in the row, so the row's elapsed_ns
 * is max(stop_ns) - min(start_ns) (IOR's rule) for a timed phase. */
struct row_rank {
	unsigned rank;
	int present;			/* 0: the rank has no such row (it stopped earlier) */
	uint64_t start_ns, stop_ns;
	uint64_t bytes, ops, elapsed_ns;
	double rate;			/* in the row's rate_unit, over its own elapsed_ns */
	uint64_t stonewall_bytes;	/* --stonewall: bytes done when it stopped; 0 n/a */
	unsigned flags;			/* enum row_flag of its own row */
};

struct row {
	char *workload;			/* "dd", "cp", "bonnie", "postmark", "db" ... */
	char *phase;			/* "write", "read", "copy", "seq_create" ... */
	unsigned repeat;		/* 0-based repeat index */
	struct kvlist params;		/* what defines comparability: bs, method, direct ...
					 * (each key's comparability: result_keys.h) */
	uint64_t bytes, ops;
	uint64_t elapsed_ns;		/* the time the rate is computed from */
	uint64_t buffered_ns;		/* until the last write returned; 0 = not applicable */
	uint64_t durable_ns;		/* until fsync/fdatasync returned; 0 = not applicable */
	double rate;			/* in rate_unit; computed by the workload from the above */
	char *rate_unit;		/* "MB/s" (10^6 B/s), "K/sec" (KiB/s), "files/s", "tps" */
	struct row_cpu cpu;
	struct row_lat lat;
	double cache_pct;		/* resident share at start of a read, 0..100; <0 n/a */
	int cache_dropped;		/* 1 when the tool dropped the file from cache first */
	unsigned flags;			/* enum row_flag */
	char *error;			/* why it failed; NULL when fine */
	char *note;			/* one human sentence (e.g. the cache verdict) */
	struct metric *metrics;
	size_t nmetrics;
	struct row_rank *ranks;		/* per rank, in rank order; NULL for one process */
	size_t nranks;
	struct row_sys *sys;		/* what the system did (stats/result_sys.h); NULL none */
	struct row_series *series;	/* the phase per interval; NULL none */
};

/* The environment a run was measured in. Strings may be NULL (unknown). */
struct env {
	char *tool_version;
	char *date;			/* ISO 8601 UTC, start of run */
	char *host;
	char *os, *kernel, *arch;
	char *cpu_model;
	unsigned ncpu;
	uint64_t ram_bytes;
	char *target;			/* the directory or file measured */
	char *fs_type, *mount_opts, *mount_point;
	char *device;			/* block device behind the target ("vda") */
	char *device_model;
	int rotational;			/* 1, 0 or -1 unknown */
	char *scheduler;
	int virtualized;		/* 1, 0, -1 unknown */
};

/* Where one rank of a multi-rank run ran. */
struct run_rank {
	unsigned rank;
	struct env env;			/* its own host, target, file system, device ... */
	int fs_differs;			/* its target's file system type is not rank 0's */
};

enum run_flag {
	RUN_INCOMPLETE	= 1u << 0,
	RUN_IMPORTED	= 1u << 1,
};

struct run {
	int schema_version;
	char *id;			/* unique: host-date-pid; the store may assign its own */
	char *label;
	char *workload;			/* subcommand */
	char *command_line;
	struct kvlist options;		/* effective options, after defaults */
	struct env env;
	struct row **rows;
	size_t nrows, cap;
	int status;			/* exit status the run ended with */
	unsigned flags;			/* enum run_flag */
	char *error;
	struct run_rank *ranks;		/* every rank of an mpirun run; NULL for one process */
	size_t nranks;
};

/* New empty run for workload; NULL on ENOMEM. Fills schema_version and id. */
struct run *run_new(const char *workload);
void run_free(struct run *r);
/* Append a zeroed row (cache_pct = -1) owned by the run; NULL on ENOMEM.
 * Row pointers stay valid until run_free. */
struct row *run_add_row(struct run *r, const char *workload, const char *phase);
/* Free row i and move the rows after it up one place (a composite workload dropping
 * rows its part made that it does not report). Other rows' pointers stay valid. */
void run_remove_row(struct run *r, size_t i);
/* Join argv into r->command_line, quoting arguments that need it. 0 or -ENOMEM. */
int run_set_cmdline(struct run *r, int argc, char **argv);

/* Free the strings of an environment (not e itself) and zero it. */
void env_free(struct env *e);

/* Add a metric to a row. 0 or -ENOMEM. */
int row_add_metric(struct row *w, const char *name, double value, const char *unit);
const struct metric *row_metric(const struct row *w, const char *name);
/* Set the latency summary from a histogram, taking ownership of h (freed with the row). */
void row_set_lat(struct row *w, struct hist *h);

#endif
