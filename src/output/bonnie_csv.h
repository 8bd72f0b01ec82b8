/* bonnie_csv.h - the Bonnie++ 2.00a CSV line (format_version 1.98) and the small text
 * pieces Bonnie++'s table is made of, written from a struct bonnie_line (the layout and
 * the line's model are stats/bonnie_layout.h, which the importer shares). Pure
 * functions: thread-safe. */
#ifndef IOB_OUTPUT_BONNIE_CSV_H
#define IOB_OUTPUT_BONNIE_CSV_H

#include <stddef.h>

#include "stats/bonnie_layout.h"

/* Write the Bonnie++ 2.00a CSV line (format_version 1.98, with "\n") into buf.
 * Returns the length, or -ENOSPC when len is too small. */
int bonnie_csv_format(const struct bonnie_line *l, char *buf, size_t len);
/* Size label: "64M", "1G", "64M:4k::1000" as Bonnie++'s table shows it. Returns buf. */
char *bonnie_fmt_size_label(char *buf, size_t len, const struct bonnie_line *l);
/* Files label: "16", "1:2000:100/3", "1:link". Returns buf. */
char *bonnie_fmt_files_label(char *buf, size_t len, const struct bonnie_line *l);
/* Rate in the table's 5 columns: "3798k", "98.3m", " 2.5g". Returns buf. */
char *bonnie_fmt_kps(char *buf, size_t len, double kps);

#endif
