/* text_renderers.h - the per-workload text renderers that text.c's table lists. Each
 * lives in its own file (src/output/text_WORKLOAD.c). To add one: declare its functions
 * here, write them, and add one line to text_renderers[] in text.c. A renderer prints
 * its own block for a row and usually ends with out_text_extras(). */
#ifndef IOB_OUTPUT_TEXT_RENDERERS_H
#define IOB_OUTPUT_TEXT_RENDERERS_H

#include <stdio.h>

struct run;
struct row;

/* Declarations of renderers go here, e.g.:
 * int text_dd_head(FILE *f, const struct run *run);
 * int text_dd_row(FILE *f, const struct run *run, const struct row *row);
 */

/* text_dd.c: dd's closing lines and time's real/user/sys, then the extras. */
int text_dd_row(FILE *f, const struct run *run, const struct row *row);
/* text_dd.c: cp's line with the method, time's lines, then the extras. */
int text_cp_row(FILE *f, const struct run *run, const struct row *row);
/* text_bonnie.c: Bonnie++'s two-block table once a repeat's rows are all there, our
 * extras per phase, the CSV line, and mean/CI over three or more repeats. */
int text_bonnie_row(FILE *f, const struct run *run, const struct row *row);
/* text_postmark.c: PostMark's verbose or terse report (at the "total" row of each
 * run), then latency per operation type, CPU and durability; other postmark rows print
 * nothing of their own. */
int text_postmark_row(FILE *f, const struct run *run, const struct row *row);
/* text_db.c: the db workload: a head naming the engine and its settings, then per
 * statement psql's command tag and wall time, the build phase, the script total. */
int text_db_head(FILE *f, const struct run *run);
int text_db_row(FILE *f, const struct run *run, const struct row *row);
/* text_iozone.c: iozone's banner and auto-mode table (a line per cell, at its last
 * pass), or the throughput mode's Children/Parent lines per pass; after the last iozone
 * row the -R blocks (when asked), the RAM-speed legend and the cache cliff. */
int text_iozone_row(FILE *f, const struct run *run, const struct row *row);

/* text_verify.c: the "verify" row of any write workload run with --verify: blocks read
 * back, what each class counts and where the first bad block of each is, then the
 * extras. */
int text_verify_row(FILE *f, const struct run *run, const struct row *row);
/* text_fsync.c: pg_test_fsync's layout (its head, section titles, one line per method,
 * its footnote), then iobattery's lines after the last method: percentiles, CPU per op,
 * device flushes, the write-cache verdict and the recommendation. */
int text_fsync_head(FILE *f, const struct run *run);
int text_fsync_row(FILE *f, const struct run *run, const struct row *row);
/* text_ranks.c: after everything, for a run of several ranks (mpirun): each merged row's
 * aggregate, spread and first done, and the ranks' table. Nothing for one process. */
int out_text_ranks(FILE *f, const struct run *run);
/* text_job.c: fio's human summary of the job workload (per job or group, the group
 * lines, disk stats) and iobattery's own lines, all at the last job row of a repeat. */
int text_job_row(FILE *f, const struct run *run, const struct row *row);

/* Text renderers per workload. The text formatter prints a row with the renderer whose
 * workload matches, or with the generic one. Add a line to the table in text.c. */
struct out_text_renderer {
	const char *workload;
	/* Called once before the first row of this workload (may be NULL). */
	int (*head)(FILE *f, const struct run *run);
	int (*row)(FILE *f, const struct run *run, const struct row *row);
	/* 1: row also gets this workload's --verify rows (phase "verify"), which otherwise
	 * all look the same (text_verify.c) */
	int own_verify;
};
/* The generic block: rate, times, CPU, latency percentiles, cache, flags, note. */
int out_text_generic_row(FILE *f, const struct run *run, const struct row *row);
/* The extras block every renderer ends with (buffered/durable, CPU, latency, cache),
 * each line wrapped at 80 columns. */
int out_text_extras(FILE *f, const struct row *row);
/* One of iobattery's own lines (len bytes, no newline) and its newline, wrapped at 80
 * columns at spaces: the lines it continues on start under the text after its "label: "
 * (or one column in from its own indent). A word longer than a line is written whole. */
void out_text_wrap_line(FILE *f, const char *line, size_t len);

#endif
