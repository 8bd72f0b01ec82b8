/* battery_out.h - the battery's own text (text_battery.c) and its part of the HTML report
 * (html_battery.c). Both read only the results model. */
#ifndef IOB_OUTPUT_BATTERY_OUT_H
#define IOB_OUTPUT_BATTERY_OUT_H

#include <stdio.h>

struct run;

/* The battery's text: per configuration (file system) a table of the figures it kept,
 * the repeats block with --repeat, then the figures left out and the steps skipped with
 * their reasons (once, not per repeat), and with several configurations the one-screen
 * comparison summary. 0 or -EIO. */
int out_battery_text(FILE *f, const struct run *run);

#endif
