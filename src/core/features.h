/* features.h - what this build has (configure's HAVE_* macros), listed in one place
 * (features.c) for `iobattery --version` and for tests that skip what the binary lacks.
 * Constant data: thread-safe. */
#ifndef IOB_CORE_FEATURES_H
#define IOB_CORE_FEATURES_H

#include <stdio.h>

struct feature {
	const char *name;		/* "io_uring", "libpq", "diskstats" ... */
	int on;				/* 1 built in, 0 not */
	const char *what;		/* one line */
};

/* The table, ended by a NULL name. Static. */
const struct feature *features_table(void);
/* 1 built in, 0 not, -1 no such feature. */
int features_have(const char *name);
/* What --version prints: "iobattery VERSION", a "built with: a b c" line, a "built
 * without: d e" line, then one line per feature with its meaning. 0 or -1 (write error). */
int features_print(FILE *f);

#endif
