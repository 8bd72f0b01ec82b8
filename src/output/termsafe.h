/* termsafe.h - runs made safe for a terminal: every string a run holds (label, host, id,
 * command line, params, notes, errors ...) with its control characters escaped
 * (core/textsafe.h), so that a hostile result file cannot retitle or clear the terminal
 * or fake lines. The text formatter, compare and results list print through it.
 * Not thread-safe against other users of the same run. */
#ifndef IOB_OUTPUT_TERMSAFE_H
#define IOB_OUTPUT_TERMSAFE_H

struct run;

/* 1 when some string of run needs escaping, else 0. */
int termsafe_needed(const struct run *run);
/* Escape every string of run in place. 0 or -ENOMEM (the strings done so far stay
 * escaped, the others unchanged). */
int termsafe_run(struct run *run);
/* A copy of run with its strings escaped (caller frees with run_free), or NULL: when
 * nothing needs escaping (*err 0: print run itself) or out of memory (*err -ENOMEM). */
struct run *termsafe_copy(const struct run *run, int *err);

#endif
