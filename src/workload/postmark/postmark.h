/* postmark.h - PostMark's small-file transaction benchmark: its command language, its
 * algorithm with the same random generator and order of draws as PostMark 1.5x (so the
 * same seed and settings give the same operation counts), and its report.
 *
 * Pieces:
 *   postmark_lang.c    the command language ("set size 500 10000", "show", "run" ...)
 *   postmark_rng.c     the Mersenne Twister with PostMark's seeding, and RND(x)
 *   postmark_algo.c    the file table and the three stages (pool, transactions, deletion)
 *   postmark_io.c      the file operations on the file system (openat/read/write/unlink)
 *   postmark.c         one run: scratch directories, runner phases, rows of the model
 *   output/text_postmark.c  PostMark's verbose and terse report from those rows
 *
 * Nothing here is thread-safe across one state; separate states are independent. */
#ifndef IOB_WORKLOAD_POSTMARK_H
#define IOB_WORKLOAD_POSTMARK_H

#include <stdint.h>
#include <stdio.h>

struct runner;
struct hist;
struct worker;

/* ---- configuration and language (postmark_lang.c) ---- */

#define PM_MAX_LOCS	64
#define PM_MAX_NUMBER	(1u << 29)	/* the table holds 2 * number slots */
#define PM_MAX_INT	0x7fffffffu	/* PostMark's values are C ints */

struct pm_loc {
	char *path;			/* owned */
	unsigned weight;		/* >= 1 */
};

struct pm_config {
	uint32_t size_low, size_high;	/* bytes, 1 <= low <= high */
	uint32_t number;		/* files in the initial pool */
	uint32_t transactions;
	uint32_t seed;
	uint32_t subdirs;		/* used only when > 1, as PostMark */
	uint32_t read_block, write_block;
	int buffered;			/* 1: stdio-like buffering (PostMark's default) */
	int bias_read, bias_create;	/* -1 .. 10 */
	int terse;			/* report format */
	int fsync;			/* fsync after each create and append */
	int direct;			/* O_DIRECT */
	struct pm_loc locs[PM_MAX_LOCS];
	unsigned nlocs;			/* 0: the current directory */
};

/* PostMark's defaults: size 500..10000, number 500, transactions 500, seed 42, read and
 * write blocks 512, no subdirectories, biases 5/5, buffered, verbose. */
void pm_config_init(struct pm_config *c);
/* Free the location strings. */
void pm_config_free(struct pm_config *c);
/* Copy src into dst (strings duplicated). 0 or -ENOMEM. */
int pm_config_copy(struct pm_config *dst, const struct pm_config *src);

/* What a command line asks the caller to do. */
enum pm_action {
	PM_ACT_NONE = 0,	/* done (a setting changed, help or show printed) */
	PM_ACT_RUN,		/* run the benchmark; *arg: optional report file or NULL */
	PM_ACT_QUIT,
	PM_ACT_LOAD,		/* read commands from the file in *arg */
};

/* Execute one command line on c. Settings change c; "show" and "help" print to out.
 * Returns an enum pm_action (>= 0) or -EINVAL with a reason in err (no trailing newline).
 * *arg receives an owned copy of the argument of run/load, or NULL (free it).
 * A blank line or a line starting with '#' is PM_ACT_NONE. */
int pm_exec(struct pm_config *c, const char *line, FILE *out, char **arg, char *err,
	    size_t errlen);
/* Print the configuration as PostMark's "show" does (plus our extra settings). */
void pm_show(const struct pm_config *c, FILE *out);
/* Record the configuration as text options ("size_low" -> "500"). 0 or -ENOMEM. */
struct kvlist;
int pm_config_record(const struct pm_config *c, struct kvlist *l);

/* ---- random generator (postmark_rng.c) ---- */

#define PM_MT_N 624

/* The Mersenne Twister MT19937 with the 1998 seeding PostMark 1.5 uses (two steps of the
 * linear congruential generator 69069x+1 per word, upper halves). */
struct pm_mt {
	uint32_t s[PM_MT_N];
	unsigned i;
};

void pm_mt_seed(struct pm_mt *m, uint32_t seed);
uint32_t pm_mt_next(struct pm_mt *m);
/* PostMark's RND(x): a draw modulo x when x > 0, else 0 without drawing. */
static inline uint32_t pm_rnd(struct pm_mt *m, uint32_t x)
{
	return x ? pm_mt_next(m) % x : 0;
}

/* ---- the algorithm (postmark_algo.c) ---- */

enum pm_op { PM_OP_CREATE, PM_OP_READ, PM_OP_APPEND, PM_OP_DELETE, PM_OP_N };

/* One slot of the file table: 16 bytes; the name is derived ("s<sub>/<id>"). */
struct pm_file {
	uint32_t size;			/* 0: free slot */
	uint32_t id;			/* creation number, the file's name */
	uint32_t sub;			/* subdirectory */
	uint32_t loc;			/* location index */
};

struct pm_state;

/* File operations; each returns 0 or -errno. Chosen once per run. */
struct pm_io {
	int (*create)(void *ctx, const struct pm_file *f, const char *src);
	int (*read)(void *ctx, const struct pm_file *f);
	int (*append)(void *ctx, const struct pm_file *f, const char *src, uint32_t len);
	int (*remove)(void *ctx, const struct pm_file *f);
};

struct pm_counts {
	uint64_t created, created_alone;
	uint64_t deleted, deleted_alone;
	uint64_t read, appended;
	uint64_t bytes_read, bytes_written;
	uint64_t bytes_appended;		/* part of bytes_written */
	uint64_t transactions;		/* completed */
	int out_of_files;		/* the pool ran dry before the last transaction */
};

struct pm_state {
	const struct pm_config *cfg;
	const struct pm_io *io;
	void *io_ctx;
	struct pm_mt mt;
	struct pm_file *tab;		/* 2 * number slots */
	uint32_t ntab, next;		/* next: PostMark's "last allocated" cursor */
	uint64_t *used, *full;		/* occupancy bitmaps (postmark_algo.c) */
	uint32_t nfull;			/* words of full[] */
	char *source;			/* 2 * size_high bytes of printable junk */
	uint32_t *loc_index;		/* weighted location index, weight_sum entries */
	uint32_t weight_sum;
	struct pm_counts c;
	struct worker *op_w[PM_OP_N];	/* per operation type, timed by the runner; owned */
	struct worker *stage_w;		/* the current stage's phase worker; not owned */
	int err;			/* first -errno */
	enum pm_op err_op;
	FILE *dots;			/* PostMark's progress text, or NULL */
};

/* Set up a state: seed the generator, draw the data source (as PostMark does, this comes
 * first), allocate the table and the histograms. The state keeps pointers to cfg and io.
 * Returns 0 or -ENOMEM. */
int pm_state_init(struct pm_state *st, const struct pm_config *cfg, const struct pm_io *io,
		  void *io_ctx);
void pm_state_free(struct pm_state *st);
/* The three stages. Each stops early on an error (st->err) and, except the deletion, on
 * a stop signal. pm_transactions returns the number completed. */
void pm_create_pool(struct pm_state *st);
uint64_t pm_transactions(struct pm_state *st);
/* Delete every file left; runs to the end even after a signal or an error. */
void pm_delete_all(struct pm_state *st);
/* The file name of f relative to its location: "123" or "s4/123". Returns the length. */
int pm_file_name(const struct pm_file *f, int subdirs, char *buf, size_t len);

/* I/O operations that touch nothing (tests, and the overhead figure). */
extern const struct pm_io pm_io_dry;

/* ---- one run on the file system (postmark.c, postmark_io.c) ---- */

/* Run the benchmark with cfg (validated by the language) and append its rows to rc->run:
 * "create_alone", "transactions", "delete_alone", "total" (phases with CPU), then one row
 * per operation type "create", "read", "append", "delete" (latency over the whole run).
 * Files live in a scratch directory made inside each location. dots: where PostMark's
 * "Creating files...Done" lines go (NULL for none).
 * Returns 0, -EINTR when a stop signal came, or -errno when the run failed (the total row
 * says why; everything created was removed). */
int postmark_run(struct runner *rc, const struct pm_config *cfg, FILE *dots);

#endif
