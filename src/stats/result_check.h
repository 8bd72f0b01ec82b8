/* result_check.h - a result that checks itself (iobattery verify --result): the digest
 * over the canonical JSON (stats/result_canon.h) and every summary figure re-derived from
 * the raw data the result carries: rates from bytes, operations and times, CPU shares
 * from CPU seconds, latency percentiles and bounds from the histogram, the inconsistent
 * flag from the repeats, a multi-rank row's totals from its ranks, the system flags from
 * the system figures. docs/methodology.md ("Self-checking results") lists the rules.
 * Thread-safe: no shared state. */
#ifndef IOB_STATS_RESULT_CHECK_H
#define IOB_STATS_RESULT_CHECK_H

#include <stddef.h>

struct run;

/* Called once per figure that does not follow: figure names it ("digest",
 * "rows[2] dd write: rate"), why says what was expected. */
typedef void (*result_check_fn)(void *arg, const char *figure, const char *why);

struct result_check {
	unsigned figures;		/* figures re-derived */
	unsigned bad;			/* of which did not follow (the digest counts too) */
	int digest;			/* 1 matched, 0 differs, -1 missing */
};

/* Check the result document text (len bytes; need not be NUL-terminated). Returns 0
 * when every figure follows and the digest matches, 1 when some do not (each reported
 * through fn), -EINVAL when text is not a result (the reason in err, errlen bytes),
 * -ENOMEM. Hostile input is refused or reported, never trusted. */
int result_check_text(const char *text, size_t len, struct result_check *out,
		      result_check_fn fn, void *arg, char *err, size_t errlen);
/* The figure rules alone, on a loaded run; adds to out (zero it first). 0 or -ENOMEM. */
int result_check_run(const struct run *run, struct result_check *out, result_check_fn fn,
		     void *arg);

#endif
