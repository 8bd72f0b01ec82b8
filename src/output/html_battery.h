/* html_battery.h - the report's comparison of battery configurations (html_battery.c). */
#ifndef IOB_OUTPUT_HTML_BATTERY_H
#define IOB_OUTPUT_HTML_BATTERY_H

#include <stddef.h>
#include <stdio.h>

struct run;

/* When runs[0..n-1] hold two battery configurations or more (the file systems of a
 * battery run, or several battery runs), or baseline is given: the summary, the grouped
 * table per workload with shades, ranks and deltas against baseline (NULL: the first
 * configuration), and what each figure measured. Writes nothing otherwise. Returns 0,
 * -ENOENT when baseline names no configuration (nothing written), -ENOMEM or -EIO. */
int html_battery_section(FILE *f, struct run *const *runs, const char *const *names,
			 size_t n, const char *baseline);

#endif
