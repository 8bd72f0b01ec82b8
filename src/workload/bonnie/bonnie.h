/* bonnie.h - the Bonnie++ battery: configuration, option parsing and the twelve phases.
 * The tests' names and units and the CSV line's layout and model are in
 * stats/bonnie_layout.h (shared with the writer and the importer); the line is written
 * by output/bonnie_csv.h.
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

#include "stats/bonnie_layout.h"	/* the tests, their names, the CSV line's model */

struct run;
struct row;
struct runner;

#define BONNIE_DEF_FILES	16u		/* -n, in units of 1024 */
#define BONNIE_FILE_UNIT	1024u
#define BONNIE_MAX_FILES_UNITS	1024u		/* --min-time grows -n up to this */
#define BONNIE_MAX_FILE_MB	1024u		/* data set split into files of <= 1 GiB */
#define BONNIE_DEF_CHAR_MB	3u		/* per-char size when -f is not given (2.00a) */
#define BONNIE_MAX_SIZE_MB	(1ull << 36)	/* 64 PiB: -s times the copies stays a file
						 * offset (checked in bonnie_check) */

enum bonnie_char_method {
	BONNIE_CHAR_SYSCALL = 0,	/* one read(2)/write(2) per byte (Bonnie++ 1.9x, 2.0x) */
	BONNIE_CHAR_PUTC = 1,		/* stdio putc/getc (Bonnie++ 1.03) */
};

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
	int verify, verify_after_drop;	/* --verify, --verify-after-drop (block phases) */
	const char *verify_journal;	/* --verify-journal FILE */
	const char *report_to;		/* --report-to ADDR:PORT */
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
