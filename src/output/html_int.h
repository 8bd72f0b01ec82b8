/* html_int.h - what the report's files share (html.c, html_sections.c); not for other
 * modules. */
#ifndef IOB_OUTPUT_HTML_INT_H
#define IOB_OUTPUT_HTML_INT_H

#include <stddef.h>
#include <stdio.h>

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
};

/* Run i's group for column col, or NULL. */
const struct row_group *html_cell(const struct report *r, size_t run, size_t col);
void html_col_name(FILE *f, const struct row *w);
void html_run_name(FILE *f, const struct report *r, size_t i);
void html_run_name_buf(char *buf, size_t len, const struct report *r, size_t i);
/* Flag words (escaped, with a title) for a cell; the main flag as a short mark. */
void html_flags(FILE *f, unsigned flags);
const char *html_flag_mark(unsigned flags);

void html_table_section(FILE *f, const struct report *r);
void html_latency_section(FILE *f, const struct report *r);
void html_delta_section(FILE *f, const struct report *r);
void html_env_section(FILE *f, const struct report *r);
void html_notes_section(FILE *f, const struct report *r);
/* html_series.c: the time-series charts of every phase that has a series. */
void html_series_section(FILE *f, const struct report *r);

#endif
