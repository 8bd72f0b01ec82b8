/* bonnie.h - the Bonnie++ battery: configuration, option parsing, the twelve phases and
 * the Bonnie++ 2.00a CSV line.
 *
 * The phases run in Bonnie++'s order and append one row each to the run (workload
 * "bonnie"): putc, put_block, rewrite, getc, get_block, seeks (the I/O block), then
 * seq_create, seq_stat, seq_del, ran_create, ran_stat, ran_del (the file block).
 * Phase names are the column names of Bonnie++'s CSV header, so a row maps to a column.
 * Pure parts (option parsing, the CSV line) touch no file and are thread-safe. */
#ifndef IOB_WORKLOAD_BONNIE_H
#define IOB_WORKLOAD_BONNIE_H

#include <stddef.h>
#include <stdint.h>

struct run;
struct row;
struct runner;

#define BONNIE_VERSION		"2.00a"		/* the Bonnie++ we follow */
#define BONNIE_CSV_VERSION	"1.98"		/* its CSV format_version */
#define BONNIE_DEF_CHUNK	8192u
#define BONNIE_DEF_SEEKS	8192u
#define BONNIE_DEF_SEEKERS	5u
#define BONNIE_DEF_FILES	16u		/* -n, in units of 1024 */
#define BONNIE_FILE_UNIT	1024u
#define BONNIE_MAX_FILES_UNITS	1024u		/* --min-time grows -n up to this */
#define BONNIE_MAX_FILE_MB	1024u		/* data set split into files of <= 1 GiB */
#define BONNIE_DEF_CHAR_MB	3u		/* per-char size when -f is not given (2.00a) */

enum bonnie_char_method {
	BONNIE_CHAR_SYSCALL = 0,	/* one read(2)/write(2) per byte (Bonnie++ 1.9x, 2.0x) */
	BONNIE_CHAR_PUTC = 1,		/* stdio putc/getc (Bonnie++ 1.03) */
};

/* The twelve tests, in Bonnie++'s order. */
enum bonnie_test {
	BT_PUTC, BT_PUT_BLOCK, BT_REWRITE, BT_GETC, BT_GET_BLOCK, BT_SEEKS,
	BT_SEQ_CREATE, BT_SEQ_STAT, BT_SEQ_DEL, BT_RAN_CREATE, BT_RAN_STAT, BT_RAN_DEL,
	BT_COUNT
};

/* Phase (row) name of a test: "putc" ... "ran_del". */
const char *bonnie_test_name(enum bonnie_test t);
/* The test whose phase name is name, or -1. */
int bonnie_test_of(const char *name);

struct bonnie_cfg {
	const char *dir;		/* -d, default "." */
	uint64_t size_mb;		/* -s size in MiB; 0 skips the I/O tests */
	int size_set;
	uint32_t chunk;			/* -s :chunk, bytes, power of two 256..1M */
	uint32_t seeks;			/* -s ::seeks */
	uint32_t seekers;		/* -s :::seekers */
	uint32_t nfiles;		/* -n number, units of 1024; 0 skips the file tests */
	int32_t max_size;		/* -n :max; -1 hard links, -2 symlinks */
	int32_t min_size;		/* -n ::min */
	uint32_t ndirs;			/* -n :::dirs (0 and 1: no subdirectories) */
	uint32_t file_chunk;		/* -n ::::chunk */
	const char *machine;		/* -m, default: host name */
	uint64_t ram_mb;		/* -r; 0 = no checks */
	int ram_set;
	unsigned repeats;		/* -x */
	const char *user, *group;	/* -u, -g: accepted (we never change identity) */
	int quiet;			/* -q: CSV on stdout, the table on stderr */
	int skip_char;			/* -f without a size: no per-char tests */
	uint64_t char_mb;		/* -fN: per-char test size in MiB */
	int fsync_each;			/* -b: fsync after every write */
	int direct;			/* -D: O_DIRECT for the block phases */
	unsigned copies;		/* -c concurrency */
	uint64_t seed;			/* -z */
	int seed_set;
	const char *randfile;		/* -Z: accepted; our data come from our own PRNG */
	int char_method;		/* enum bonnie_char_method */
	double min_time;		/* --min-time seconds for the file phases; 0 = off */
	int drop_cache;			/* --drop-cache */
	int no_space_check;		/* --no-space-check (tests of ENOSPC) */
	/* common output options */
	const char *format;		/* --format, NULL: text */
	const char *output_dir;
	const char *label;
	const char *engine;
	int long_quiet;			/* --quiet: no progress */
	int no_store;			/* --no-store: do not save the run in the store */
	int help;
};

/* Defaults as Bonnie++ 2.00a's (size stays unset: 2 x RAM is decided later). */
void bonnie_cfg_init(struct bonnie_cfg *c);

/* Parse Bonnie++'s letters (-d -s -n -m -r -x -u -g -q -f[N] -b -D -c -z -Z -p -y) and
 * our long options into c. Returns 0, or -EINVAL after writing one clear message into
 * err (errlen bytes; without the "iobattery: " prefix). Pure. */
int bonnie_parse_args(struct bonnie_cfg *c, int argc, char **argv, char *err, size_t errlen);

/* Parse "size[:chunk[:seeks[:seekers]]]" / "number[:max[:min[:dirs[:chunk]]]]" into c.
 * 0 or -EINVAL with err filled. Pure; exposed for the unit tests. */
int bonnie_parse_size(struct bonnie_cfg *c, const char *s, char *err, size_t errlen);
int bonnie_parse_files(struct bonnie_cfg *c, const char *s, char *err, size_t errlen);

/* Checks that need no file system: sizes, chunks, counts. 0 or -EINVAL with err. */
int bonnie_check(const struct bonnie_cfg *c, char *err, size_t errlen);

/* Bytes the data set and the small files may occupy at most. */
uint64_t bonnie_space_needed(const struct bonnie_cfg *c);

/* The figures of one Bonnie++ run, as the CSV line and the table show them. */
struct bonnie_fig {
	int present;			/* the test ran (else the CSV field is empty) */
	int shortrun;			/* ran under 500 ms: Bonnie++ would print "+++++" */
	double rate;			/* K/sec, seeks/sec or files/sec */
	double cpu_pct;			/* (user+sys)/elapsed*100 of this process */
	uint64_t max_lat_ns;		/* 0: unknown */
};
struct bonnie_line {
	const char *name;		/* machine name */
	unsigned concurrency;
	uint64_t seed;
	uint64_t size_mb;		/* 0: no I/O tests */
	uint32_t chunk, seeks, seekers;
	uint32_t nfiles;		/* 0: no file tests */
	int32_t max_size, min_size;
	uint32_t ndirs, file_chunk;
	int plus_for_short;		/* 1: print "+++++" for short phases, as Bonnie++ */
	struct bonnie_fig f[BT_COUNT];
};

/* Write the Bonnie++ 2.00a CSV line (format_version 1.98, with "\n") into buf.
 * Returns the length, or -ENOSPC when len is too small. Pure. */
int bonnie_csv_format(const struct bonnie_line *l, char *buf, size_t len);
/* Bonnie++'s latency text: "812us", "161ms", "120s"; "" for 0. Returns buf. */
char *bonnie_fmt_lat(char *buf, size_t len, uint64_t ns);
/* Size label: "64M", "1G", "64M:4k::1000" as Bonnie++'s table shows it. Returns buf. */
char *bonnie_fmt_size_label(char *buf, size_t len, const struct bonnie_line *l);
/* Files label: "16", "1:2000:100/3", "1:link". Returns buf. */
char *bonnie_fmt_files_label(char *buf, size_t len, const struct bonnie_line *l);
/* Rate in the table's 5 columns: "3798k", "98.3m", " 2.5g". Returns buf. */
char *bonnie_fmt_kps(char *buf, size_t len, double kps);

/* Fill l from the rows of repeat `repeat` of run (workload "bonnie"); the run's options
 * give the parameters. Returns the number of tests found. Not thread-safe (reads run). */
int bonnie_line_from_run(struct bonnie_line *l, const struct run *run, unsigned repeat);

/* Run the battery once with c inside dir (a scratch directory of the caller's, made with
 * scratch_create). Appends one row per phase to rc->run. Returns 0, -EINTR when a stop
 * signal ended it, or the first -errno of a failed phase (its row says why). */
int bonnie_run(struct runner *rc, const struct bonnie_cfg *c, const char *dir);

/* The I/O block and the file block (bonnie_io.c, bonnie_files.c). Same returns. */
int bonnie_io_tests(struct runner *rc, const struct bonnie_cfg *c, const char *dir);
int bonnie_file_tests(struct runner *rc, const struct bonnie_cfg *c, const char *dir);

/* Record c as the run's effective options ("size_mb", "chunk", ...). 0 or -ENOMEM. */
int bonnie_record_options(struct run *run, const struct bonnie_cfg *c);

#endif
