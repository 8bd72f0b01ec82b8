/* verdict_out.h - the verdict for a database server as text (text_verdict.c), what the
 * battery's text, `iobattery report` and `iobattery compare` print first. Reads only
 * the results model (stats/verdict.h). */
#ifndef IOB_OUTPUT_VERDICT_OUT_H
#define IOB_OUTPUT_VERDICT_OUT_H

#include <stddef.h>
#include <stdio.h>

struct run;

/* Several configurations (the file systems of a battery run, or several runs): the
 * sentence, the command that would decide, per aspect the leader, its lead, the 95%
 * interval and the test, and each configuration's figure. One battery configuration:
 * each aspect beside its reference points and what limits it. Nothing otherwise.
 * Lines of at most 100 columns. 0, -ENOMEM or -EIO. */
int out_text_verdict(FILE *f, struct run *const *runs, const char *const *names, size_t n);

#endif
