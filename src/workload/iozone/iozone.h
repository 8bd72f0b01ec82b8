/* iozone.h - iozone's test matrix: configuration from iozone's letters, the grid of
 * (file size, record size) cells, and the run that makes one row per pass of a cell
 * (workload "iozone"; the passes, columns and report titles are in
 * stats/iozone_layout.h).
 *
 * Table mode (no -t): for every cell, in iozone's order, the selected tests run one after
 * the other on one file, each pass timed on its own as iozone times it (docs/methodology.md,
 * "iozone"). Throughput mode (-t N): one cell, every pass run by N workers on N files at
 * once, released together, with stonewalling. Pure parts (parsing, the grid, the access
 * orders) touch no file and are thread-safe. */
#ifndef IOB_WORKLOAD_IOZONE_H
#define IOB_WORKLOAD_IOZONE_H

#include <stddef.h>
#include <stdint.h>

#include "stats/iozone_layout.h"

struct run;
struct runner;

#define IOZ_MAX_LIST		64		/* -s / -r given several times */
#define IOZ_MAX_WORKERS		256		/* -t, iozone's MAXSTREAMS */
#define IOZ_MAX_CELLS		1024
#define IOZ_MAX_REC_KB		(16u * 1024)	/* 16 MiB, iozone's MAXBUFFERSIZE */
#define IOZ_MAX_FILE_KB		(1ull << 40)	/* 1 PiB: a file size (-s, -n, -g) */
#define IOZ_MAX_DEPTH		1024u
#define IOZ_DEF_STRIDE		17u		/* -j: iozone's STRIDE */
#define IOZ_AUTO_MIN_KB		64u		/* -a: file sizes 64 KiB .. 512 MiB */
#define IOZ_AUTO_MAX_KB		(512u * 1024)
#define IOZ_AUTO_MIN_REC_KB	4u		/* -a: records 4 KiB .. 16 MiB */
#define IOZ_CROSSOVER_KB	(16u * 1024)	/* files above this start at ... */
#define IOZ_LARGE_REC_KB	64u		/* ... 64 KiB records unless -z */
#define IOZ_DEF_FILE_KB		512u		/* no -a, no -s */
#define IOZ_DEF_REC_KB		4u
#define IOZ_TPUT_DEF_FILE_KB	512u		/* -t without -s */

struct iozone_cfg {
	int autom;			/* -a (also -A, and -n -g -y -q imply it) */
	int auto2;			/* -A: -az -i 0 -i 1 */
	uint64_t sizes_kb[IOZ_MAX_LIST];	/* -s, in order given */
	unsigned nsizes;
	uint64_t recs_kb[IOZ_MAX_LIST];	/* -r */
	unsigned nrecs;
	uint64_t min_kb, max_kb;	/* -n, -g */
	int n_set, g_set;
	uint64_t min_rec_kb, max_rec_kb;	/* -y, -q */
	int y_set, q_set;
	unsigned multiplier;		/* -+x, default 2 */
	unsigned tests;			/* -i bits (1u << N); 0: iozone's default set */
	int direct;			/* -I */
	int fsync_timed;		/* -e */
	int close_timed;		/* -c */
	int osync;			/* -o */
	int keep;			/* -w */
	int nocross;			/* -z */
	int no_retest;			/* -+n */
	int extended;			/* -E */
	const char *file;		/* -f */
	const char *files[IOZ_MAX_WORKERS];	/* -F */
	unsigned nfiles;
	unsigned workers;		/* -t N; 0: table mode */
	int threads;			/* -T */
	int no_stonewall;		/* -x */
	int excel;			/* -R (also -b) */
	const char *xlsx;		/* -b */
	int xlsx_force;			/* --force: -b may replace a regular file */
	unsigned cache_kb;		/* -S */
	unsigned line_bytes;		/* -L */
	unsigned stride;		/* -j */
	unsigned depth;			/* -k / -H: requests in flight; 0: one at a time */
	int async_copy;			/* -H rather than -k */
	unsigned delay_us;		/* -d */
	unsigned mix_read_pct;		/* -+p; 0: every other worker reads */
	/* iobattery's long options */
	const char *format;
	const char *output_dir;
	const char *label;
	const char *engine;
	unsigned repeats;
	int long_quiet;
	int no_store;
	int no_space_check;
	int no_probe;			/* --no-device-probe */
	int drop_cache;			/* --drop-cache */
	int verify;			/* --verify (also implied by the three below) */
	int verify_after_drop;		/* --verify-after-drop */
	const char *verify_journal;	/* --verify-journal FILE */
	const char *report_to;		/* --report-to ADDR:PORT */
	int help;
};

/* One cell of the grid. */
struct iozone_cellsz {
	uint64_t file_kb, rec_kb;
};

/* Defaults (iozone's): stride 17, multiplier 2, cache 1024 KiB, line 32 bytes, repeats 1. */
void iozone_cfg_init(struct iozone_cfg *c);

/* Parse iozone's letters (bundled "-aRz", values joined "-i0" or apart "-i 0", "-+n",
 * "-F f1 f2 ...") and iobattery's long options into c (argv[0] is the command name).
 * Checks each value as it is read (sizes, -i 0..10, -t 1..256) and then the whole
 * (iozone_check). Returns 0, or -EINVAL after writing one clear message into err
 * (errlen bytes, without the "iobattery: " prefix). Pure: touches no file, no global
 * state; the entry point of the parser's fuzz harness. The strings in c point into argv. */
int iozone_parse_args(struct iozone_cfg *c, int argc, char **argv, char *err, size_t errlen);

/* Checks across options: the grid has a cell, records are not above files, the tests
 * have the file they read, throughput-mode limits, --verify has a test whose writes it
 * can stamp. 0 or -EINVAL with err. Pure. */
int iozone_check(const struct iozone_cfg *c, char *err, size_t errlen);

/* The cells of c's grid in iozone's order (file sizes ascending, then record sizes) into
 * out[0..max-1]. Returns the number of cells (which may exceed max: only max are
 * stored). Pure. */
size_t iozone_grid(const struct iozone_cfg *c, struct iozone_cellsz *out, size_t max);

/* The passes c runs for one cell, in running order, into out (IOZ_NPASS entries at most),
 * terminated by -1. Returns the count. Pure. */
int iozone_passes(const struct iozone_cfg *c, int *out);

/* The -i tests c runs as a bit set (iozone's default when none was given). Pure. */
unsigned iozone_tests(const struct iozone_cfg *c);

/* Access orders, in records, for n records. Pure.
 * stride read: iozone's rule (read a record, skip stride - 1, wrap to the next start at
 * the end of the file); random: each record once, in a shuffled order from seed. */
void iozone_stride_order(uint64_t n, uint64_t stride, uint64_t *out);
void iozone_random_order(uint64_t n, uint64_t seed, uint64_t *out);

/* The largest file a worker writes and the bytes the whole run needs on the file system
 * (the largest file times the workers). Pure. */
uint64_t iozone_space_needed(const struct iozone_cfg *c);

/* Run the matrix once (one repeat) with c; files go into dirs[i] (scratch directories of
 * the caller's: one per worker in throughput mode, else dirs[0]) named names[i].
 * Appends one row per pass of each cell to rc->run. Returns 0, -EINTR when a stop signal
 * ended it, or the first -errno of a failed pass (its row says why, and the path of the
 * file whose call failed goes into failed[flen], which the caller owns; the file is
 * removed). */
int iozone_run(struct runner *rc, const struct iozone_cfg *c, const char *const *dirs,
	       const char *const *names, char *failed, size_t flen);

/* Measure the device alone (O_DIRECT write then read of a probe file in dir) and record
 * the page cache's size and the limits in run's options. Never fails the run: a probe
 * that cannot be made is recorded as such. Returns 0 or -ENOMEM. */
int iozone_probe(struct runner *rc, const struct iozone_cfg *c, const char *dir);

/* After the last repeat: mark the cells that measured RAM (ram_speed metric, read cells
 * also ROW_CACHE_INFLATED) from the options iozone_probe recorded. */
void iozone_mark(struct run *run);

/* Record c as the run's effective options. 0 or -ENOMEM. */
int iozone_record_options(struct run *run, const struct iozone_cfg *c);

#endif
