/* html_int.h - what the report's files share: the driver (html.c), its sections
 * (html_summary.c, html_tables.c, html_sections.c, html_iozone.c, html_series.c,
 * html_ranks.c, html_battery.c) and the helpers they all use (html_util.c); not for
 * other modules. */
#ifndef IOB_OUTPUT_HTML_INT_H
#define IOB_OUTPUT_HTML_INT_H

#include <stddef.h>
#include <stdio.h>

#include "stats/flags.h"

struct run;
struct row;
struct row_group;
struct run_groups;

/* The report being written: the runs, their repeat groups, and the columns (one per
 * figure: workload, phase and detail) across all runs. */
struct report {
	struct run *const *runs;
	const char *const *names;
	size_t n;
	struct run_groups *groups;	/* one per run */
	const struct row **cols;	/* a representative row per column */
	size_t ncols;
	const struct row_group **cells;	/* [run * ncols + col]: html_cell */
};

/* Run i's group for column col, or NULL. */
const struct row_group *html_cell(const struct report *r, size_t run, size_t col);
void html_col_name(FILE *f, const struct row *w);
void html_run_name(FILE *f, const struct report *r, size_t i);
void html_run_name_buf(char *buf, size_t len, const struct report *r, size_t i);
/* html_devlat.c: per run and figure with block-layer figures, the device and queue time
 * per request class beside the tool's own latency; nothing when no row has them. */
void html_devlat_section(FILE *f, const struct report *r);

/* The report's words for row flags: stats/flags.h's one table, in legend order. */
#define html_flag_words flag_table

/* Flag words (escaped, with a title) for a cell; the main flag as a short mark. */
void html_flags(FILE *f, unsigned flags);
const char *html_flag_mark(unsigned flags);

/* html_verdict.c: the answer for a database server (stats/verdict.h), first in the
 * report; the fsync test's write-cache findings and the steps skipped. 0 or -errno. */
int html_verdict_section(FILE *f, const struct report *r);
/* html_summary.c: per run what ran, what can be trusted and the flags that apply, in
 * sentences; with two runs or more, each against A in one sentence. */
void html_summary_section(FILE *f, const struct report *r);
/* html_tables.c: the results tables (one run: its figures as rows; several: the seeds'
 * grouped table, runs as rows, figures in column groups that fit the page). */
void html_table_section(FILE *f, const struct report *r);
/* The group's latency percentiles p50 p90 p99 p99.9 max in ns (from the merged
 * histograms of its repeats when each has one): 1, or 0 when it has none. */
int html_group_lat(const struct row_group *g, double ns[5]);
/* The data-set size of run's rows of workload wl ("1.00 GiB"), or "" when they have
 * none or not all the same (a battery's dd rows of 258 MiB and 1.34 GiB). */
void html_run_size(char *buf, size_t len, const struct run *run, const char *wl);
void html_latency_section(FILE *f, const struct report *r);
void html_delta_section(FILE *f, const struct report *r);
void html_env_section(FILE *f, const struct report *r);
void html_notes_section(FILE *f, const struct report *r);
/* html_iozone.c: iozone's matrices (heat maps, 3-D surfaces, the cache cliff); its rows
 * stay out of the generic table, charts and notes (html_iozone_row is 1 for them). */
void html_iozone_section(FILE *f, const struct report *r);
int html_iozone_row(const struct row *w);
/* html_series.c: the time-series charts of every phase that has a series. */
void html_series_section(FILE *f, const struct report *r);

/* html_ranks.c: per run of several ranks (mpirun), tables by host and by rank and a chart
 * per merged row of the ranks' own rates; nothing when no run has ranks. */
void html_ranks_section(FILE *f, const struct report *r);

#endif
