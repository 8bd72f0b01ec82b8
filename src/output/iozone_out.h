/* iozone_out.h - iozone's outputs beyond the text table (text_iozone.c): the tidy CSV
 * (csv_iozone.c), the .xlsx workbook (xlsx_iozone.c, with libxlsxwriter) and the report's
 * heat maps and 3-D surfaces (html_iozone.c). Each reads only the model (stats/result.h,
 * stats/iozone_layout.h). Thread-safe as long as each call has its own stream. */
#ifndef IOB_OUTPUT_IOZONE_OUT_H
#define IOB_OUTPUT_IOZONE_OUT_H

#include <stdio.h>

struct run;
struct row;
struct report;

/* 1 when every row of run is an iozone row (and there is one): csv.c then writes the
 * tidy table instead of its generic one. */
int csv_iozone_run(const struct run *run);
/* The tidy table: a header, then one line per row: test (the -i number), pass, file
 * size and record size in kB, kB/s, then repeat, workers, cache residency, ram_speed and
 * the flags. 0 or -EIO. */
int csv_iozone_begin(FILE *f, const struct run *run);
int csv_iozone_row(FILE *f, const struct run *run, const struct row *row);

/* 1 when this build writes .xlsx (libxlsxwriter was found by configure). */
int xlsx_iozone_available(void);
/* Write run as a workbook at path: one sheet per pass with iozone's -R block (record
 * sizes across, file sizes down, skipped cells empty), and an environment sheet; made
 * beside path, synced and moved to path: only where nothing is, or with replace over a
 * regular file (never over a device, directory, FIFO or symbolic link). Returns 0,
 * -ENOTSUP when not built in, -EEXIST (something is at path and not replace), -EINVAL
 * (not a regular file at path), or -errno (ENOSPC, EIO ...): nothing is left of it, a
 * file that was at path is as it was. */
int xlsx_iozone_write(const struct run *run, const char *path, int replace);

/* The text of iozone's -R report blocks for run (the Excel-style report on stdout).
 * 0 or -EIO. */
int text_iozone_excel(FILE *f, const struct run *run);

#endif
