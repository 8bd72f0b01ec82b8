/* common_opts.h - the options every measuring command shares (--format, --output-dir,
 * --quiet, --label, --engine, --repeat, the multi-rank and sampling options): their
 * struct and option table, which the driver (cmd/workload_cmd.c) parses for every
 * workload and the parsers of another tool's letters (bonnie, iozone) fill themselves.
 * Pure data and parsing; the driver's functions over them are cmd/common.h. */
#ifndef IOB_WORKLOAD_COMMON_OPTS_H
#define IOB_WORKLOAD_COMMON_OPTS_H

#include <stddef.h>

#include "core/opt.h"

struct common_opts {
	const char *format;		/* comma list of formatter names; default "text" */
	const char *output_dir;		/* write iobattery-results.EXT files there */
	int quiet;			/* no progress, no text on stdout when writing files */
	const char *label;		/* free text stored with the run */
	const char *units;		/* --units decimal|binary: the text's byte rates */
	const char *engine;		/* engine name; default "psync" */
	unsigned repeat;		/* --repeat N: run the phases N times (default 1) */
	int no_store;			/* --no-store: do not save the run in the results store */
	/* several ranks (mpirun): cmd/ranks_cmd.c takes these from argv before the
	 * workload's own parser sees it */
	double stonewall;		/* --stonewall SECONDS; 0 none */
	int wearout;			/* --wearout */
	int shared_file;		/* --shared-file */
	int shared_dir;			/* --shared-dir */
	/* the samplers (cmd/sample_opts.h checks them) */
	const char *interval;		/* --interval DURATION: series interval ("1s") */
	const char *sample_interval;	/* --sample-interval DURATION: wait states ("100ms") */
	int no_sample;			/* --no-sample */
	int no_devlat;			/* --no-device-latency */
	int watch;			/* --watch: the live view */
	const char *series;		/* --series FILE: the series as a long CSV table */
};

/* Options table for struct common_opts (add as one opt_group with base = &co). */
extern const struct opt common_opt_table[];

/* What the parsers of another tool's letters (bonnie_opts, iozone_opts) take as long
 * options themselves, into the common options co and the workload context x's verify
 * settings; c is their cfg, whose members of these names are alike. A macro because the
 * two cfg structs differ in everything else. */
#define COMMON_TAKE_LONG_OPTS(co, x, c) do {			\
		if ((c)->format)				\
			(co)->format = (c)->format;		\
		(co)->output_dir = (c)->output_dir;		\
		(co)->label = (c)->label;			\
		if ((c)->engine)				\
			(co)->engine = (c)->engine;		\
		(co)->quiet = (c)->long_quiet;			\
		(co)->no_store = (c)->no_store;			\
		(co)->repeat = (c)->repeats;			\
		(x)->verify.on = (c)->verify;			\
		(x)->verify.after_drop = (c)->verify_after_drop; \
		(x)->verify.journal = (c)->verify_journal;	\
		(x)->verify.report_to = (c)->report_to;		\
	} while (0)

/* common_write flags */
#define COMMON_OWN_REPEATS	1u	/* the text already summarises the repeats (Bonnie++'s
					 * table): no repeats block after it */

/* Bonnie's own parser: take the sampling options (--interval, --sample-interval,
 * --series, --no-sample, --no-device-latency, --watch) out of argv (argc shrinks), into
 * co. 0, or -EINVAL with a message in err (a missing value). Pure. */
int common_take_sample_opts(struct common_opts *co, int *argc, char **argv, char *err,
			    size_t len);

#endif
