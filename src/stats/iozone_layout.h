/* iozone_layout.h - iozone's tests and matrix, in one place for everything that writes or
 * reads them: the passes (one row each: "write", "rewrite", "read", ...), the -i number
 * each belongs to, the column of iozone's auto-mode table and its width, the title of
 * the -R report block, the words of the throughput-mode lines, and a run's rows seen as
 * a matrix (pass x file size x record size) with the cache cliff found in it.
 *
 * Users: the workload names its rows from here (workload/iozone/), the text, CSV,
 * spreadsheet and HTML writers draw the matrix from iozone_matrix (output/). The layout
 * was learned by reading iozone's source (3.4x); see docs/methodology.md, "iozone".
 * Constant data and pure functions, except iozone_matrix_build which reads a run:
 * thread-safe. */
#ifndef IOB_STATS_IOZONE_LAYOUT_H
#define IOB_STATS_IOZONE_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

struct run;
struct row;

#define IOZONE_WORKLOAD		"iozone"
#define IOZONE_RATE_UNIT	"kB/s"		/* iozone's kBytes/sec: 1024 bytes a second */
#define IOZONE_NTESTS		11		/* -i 0 .. 10 */

/* The passes, in the order of the auto-mode table's columns; a pass is one row. */
enum iozone_pass {
	IOZ_WRITE, IOZ_REWRITE, IOZ_READ, IOZ_REREAD, IOZ_RANDOM_READ, IOZ_RANDOM_WRITE,
	IOZ_BKWD_READ, IOZ_RECORD_REWRITE, IOZ_STRIDE_READ, IOZ_FWRITE, IOZ_FREWRITE,
	IOZ_FREAD, IOZ_FREREAD, IOZ_PWRITE, IOZ_REPWRITE, IOZ_PREAD, IOZ_REPREAD,
	IOZ_RANDOM_MIX,
	IOZ_NPASS
};
#define IOZ_NCOLS_BASE	13	/* write .. freread: the table without -E */
#define IOZ_NCOLS_EXT	17	/* with pwrite, repwrite, pread, repread */

struct iozone_pass_info {
	const char *phase;	/* the row's phase: "write", "random_read" ... */
	int test;		/* the -i number it belongs to */
	int retest;		/* 1 for the re- pass (-+n skips it) */
	int reads;		/* 1 when it reads the file */
	int stdio;		/* 1 for fwrite/fread (stdio) */
	const char *top;	/* the table's first header row ("random", "bkwd" ...) */
	const char *head;	/* its second header row ("write", "reread" ...) */
	int head_w;		/* printf width of the header cell */
	int data_w;		/* printf width of a value, including a leading blank */
	const char *report;	/* the -R block title, "Writer report" */
	const char *sheet;	/* the spreadsheet's sheet name, "Writer" */
	const char *tput;	/* throughput mode: "initial writers" */
	int tput_w;		/* width of the worker count there (2 or 0) */
	const char *tput_tab;	/* tabs before '=' on the Children line */
	const char *ptab;	/* ... and on the Parent line */
};

/* The pass p's description; NULL out of range. */
const struct iozone_pass_info *iozone_pass(int p);
/* The pass whose phase name is name, or -1. */
int iozone_pass_of(const char *phase);
/* The passes of the throughput mode (-t) in iozone's order, terminated by -1. */
extern const int iozone_tput_order[];
/* 1 when the pass writes the file (and may leave it in the page cache dirty). */
int iozone_pass_writes(int p);

/* ---- a run as a matrix ------------------------------------------------------------------ */

/* One cell: a row's figure. */
struct iozone_cell {
	const struct row *row;	/* NULL: not measured (skipped, or not asked for) */
	double kbps;		/* the rate, kB/s */
	int marked;		/* ram_speed: it fit in the cache, the rate above the device */
};

/* The matrix of one repeat: the file sizes and record sizes that occur, ascending, and a
 * cell per (pass, file size, record size). */
struct iozone_matrix {
	unsigned repeat;
	uint64_t *file_kb;	/* nf file sizes */
	size_t nf;
	uint64_t *rec_kb;	/* nr record sizes */
	size_t nr;
	struct iozone_cell *cell;	/* IOZ_NPASS * nf * nr, see iozone_at */
	unsigned passes;	/* bit p set when pass p has a cell */
	int interrupted;	/* a row of it was incomplete or failed */
	unsigned workers;	/* throughput mode: workers per row (0: table mode) */
};

/* The cell of pass p at file size index f and record size index r. */
static inline struct iozone_cell *iozone_at(const struct iozone_matrix *m, int p, size_t f,
					    size_t r)
{
	return &m->cell[((size_t)p * m->nf + f) * m->nr + r];
}

/* Build the matrix of repeat rep from run's iozone rows into *m (freed with
 * iozone_matrix_free). Returns the number of cells found (> 0: the caller frees *m), 0
 * when the run has no iozone cell of that repeat, -ENOMEM (0 and -ENOMEM leave nothing to
 * free). The cells point into run. */
int iozone_matrix_build(const struct run *run, unsigned rep, struct iozone_matrix *m);
void iozone_matrix_free(struct iozone_matrix *m);
/* The number of repeats the run's iozone rows have (the highest repeat index + 1). */
unsigned iozone_repeats(const struct run *run);
/* 1 when the row is an iozone row. */
int iozone_is_row(const struct row *w);

/* The cache cliff: where read rates fall from RAM speed to device speed. */
struct iozone_cliff {
	int found;		/* 1: a fall by 2x or more between two consecutive file sizes */
	int pass;		/* the read pass looked at (read, else reread ...), -1: none */
	uint64_t from_kb, to_kb;	/* the file sizes around the fall (found), or the range */
	double hi_kbps, lo_kbps;	/* the best rate at each of them */
	double ratio;		/* hi / lo */
	double hi_res, lo_res;	/* their cache residency when the read began, -1: unknown */
};
/* Look for the cliff in m: per file size the best read rate over the record sizes and
 * that cell's cache residency; the cliff is the largest fall of the rate between
 * consecutive sizes when it is 2x or more, else the first step from a file read mostly
 * from the cache (>= 50% resident) to one read mostly from the device. Pure. */
void iozone_cliff_find(const struct iozone_matrix *m, struct iozone_cliff *c);
/* The cliff as one sentence into buf ("reads fall from 9.8 GB/s to 410 MB/s between
 * 8 GiB and 16 GiB: ..."); cache_bytes (0: unknown) is what the page cache can hold.
 * Returns buf. */
char *iozone_cliff_line(char *buf, size_t len, const struct iozone_cliff *c,
			uint64_t cache_bytes);

#endif
