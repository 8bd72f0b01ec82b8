/* bonnie_layout.h - Bonnie++'s figures and CSV line, in one place for everything that
 * writes or reads them: the twelve tests (phase names, rate units, blocks), the field
 * positions of the three CSV generations (1.03, 1.9x, 1.98 as 2.00a writes it), the
 * latency and size spellings of the line, and the line as a model (struct bonnie_line)
 * filled from a run's rows.
 *
 * Users: the workload names its rows and units from here (workload/bonnie/), the writer
 * builds the CSV line and the table from it (output/bonnie_csv.c, text_bonnie.c), and the
 * importer reads the old tools' lines with the same positions (import/import_bonnie.c).
 * The field layout was learned by running Bonnie++ and reading what its bon_csv2txt
 * expects; see docs/methodology-bonnie.md. Constant data and pure functions, except
 * bonnie_line_from_run which reads a run: thread-safe. */
#ifndef IOB_STATS_BONNIE_LAYOUT_H
#define IOB_STATS_BONNIE_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

struct run;

#define BONNIE_VERSION		"2.00a"		/* the Bonnie++ we follow */
#define BONNIE_CSV_VERSION	"1.98"		/* its CSV format_version */
#define BONNIE_DEF_CHUNK	8192u		/* every version's default chunk */
#define BONNIE_DEF_SEEKS	8192u
#define BONNIE_DEF_SEEKERS	5u

/* The twelve tests, in Bonnie++'s order (the order of the CSV's figure pairs). */
enum bonnie_test {
	BT_PUTC, BT_PUT_BLOCK, BT_REWRITE, BT_GETC, BT_GET_BLOCK, BT_SEEKS,
	BT_SEQ_CREATE, BT_SEQ_STAT, BT_SEQ_DEL, BT_RAN_CREATE, BT_RAN_STAT, BT_RAN_DEL,
	BT_COUNT
};
#define BT_IO_FIRST	BT_PUTC		/* the I/O block: BT_PUTC..BT_SEEKS */
#define BT_FILE_FIRST	BT_SEQ_CREATE	/* the file block: BT_SEQ_CREATE..BT_RAN_DEL */

/* Phase (row) name of a test, as Bonnie++'s CSV header names its column: "putc" ...
 * "ran_del"; "?" out of range. */
const char *bonnie_test_name(enum bonnie_test t);
/* The test whose phase name is name, or -1. */
int bonnie_test_of(const char *name);
/* The unit of a test's rate: "K/sec" (KiB/s) for the data tests, "seeks/s", "files/s". */
const char *bonnie_test_unit(enum bonnie_test t);
/* 1 for the per-character tests (putc, getc), else 0. */
int bonnie_test_is_char(enum bonnie_test t);
/* 1 for the file tests (seq_create .. ran_del), else 0. */
int bonnie_test_is_file(enum bonnie_test t);

/* ---- the CSV generations --------------------------------------------------------------- */

enum bonnie_csv_gen {
	BONNIE_CSV_103,		/* name,size,12 I/O fields,files,12 file fields (27) */
	BONNIE_CSV_19X,		/* fmt,version,name,concurrency,seed,size,chunk,12 I/O,files,
				 * max,min,dirs,file_chunk,12 file,6+6 latencies (48) */
	BONNIE_CSV_198,		/* as 1.9x with seeks,seekers after chunk (50) */
	BONNIE_CSV_NGEN
};

/* Where each field of a generation's line is (0-based); -1 when it has none. */
struct bonnie_csv_layout {
	const char *format;		/* "bonnie++ 1.98 csv": the import's format name */
	unsigned nfields;		/* fields the generation writes */
	unsigned min_fields;		/* without the latency columns */
	int fmt, version;		/* format_version, bonnie_version */
	int name, conc, seed, size, chunk, seeks, seekers;
	int io;				/* the first of six (rate, %CPU) I/O pairs */
	int files, max_size, min_size, dirs, file_chunk;
	int filepairs;			/* the first of six (rate, %CPU) file pairs */
	int iolat, filelat;		/* the first of six latencies each */
	int char_syscall;		/* per-char is a system call per byte (1.9x and later) */
};

/* The layout of generation g (BONNIE_CSV_103 .. BONNIE_CSV_198); NULL out of range. */
const struct bonnie_csv_layout *bonnie_csv_layout(enum bonnie_csv_gen g);

/* Latency as the line spells it: "812us", "161ms", "120s" (Bonnie++ truncates and
 * switches unit above 99.999999 s and 0.099999 s); "" for 0. Returns buf. */
char *bonnie_fmt_lat(char *buf, size_t len, uint64_t ns);
/* Read a latency ("33802us", "161ms", "1s", "250ns") into *ns. 0, or -EINVAL. */
int bonnie_parse_lat(const char *s, double *ns);
/* A data-set size in MiB as the line spells it: "64M", or "1G" for whole GiB. Returns buf. */
char *bonnie_fmt_size_mb(char *buf, size_t len, uint64_t mb);
/* Read a size field "1G", "300M", "64M:4k": bytes into *size, the chunk (bytes; 0 when
 * not given) into *chunk. A bare size is MiB and a bare chunk bytes, as -s takes them.
 * 0, or -EINVAL. */
int bonnie_parse_size_field(const char *s, uint64_t *size, uint64_t *chunk);
/* Digits with an optional binary suffix (k, m, g, t; either case); a bare number is
 * multiplied by unit. *rest points after what was read. 0, -EINVAL, or -ERANGE when
 * the value times its unit passes 2^64 (checked). */
int bonnie_parse_num_suffix(const char *s, uint64_t unit, uint64_t *out, const char **rest);

/* ---- the line as a model ---------------------------------------------------------------- */

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

/* Fill l from the rows of repeat `repeat` of run (workload "bonnie"): the figures from
 * each test's row, the block parameters from the rows' params (so that a quick battery,
 * whose run options are not Bonnie's, still has them), name, concurrency and seed from
 * the run's options. l->name points into run. Returns the number of tests found.
 * Not thread-safe against writers of run. */
int bonnie_line_from_run(struct bonnie_line *l, const struct run *run, unsigned repeat);

#endif
