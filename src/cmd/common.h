/* common.h - what every measuring subcommand shares: the common options (--format,
 * --output-dir, --quiet, --label, --engine), filling a run's metadata and writing its
 * outputs through the formatters. Functions return 0 or -errno and never exit. */
#ifndef IOB_CMD_COMMON_H
#define IOB_CMD_COMMON_H

#include "core/opt.h"

struct run;
struct engine;

struct common_opts {
	const char *format;		/* comma list of formatter names; default "text" */
	const char *output_dir;		/* write iobattery-results.EXT files there */
	int quiet;			/* no progress, no text on stdout when writing files */
	const char *label;		/* free text stored with the run */
	const char *engine;		/* engine name; default "psync" */
	unsigned repeat;		/* --repeat N: run the phases N times (default 1) */
	int no_store;			/* --no-store: do not save the run in the results store */
	/* several ranks (mpirun): cmd/ranks_cmd.c takes these from argv before the
	 * workload's own parser sees it */
	double stonewall;		/* --stonewall SECONDS; 0 none */
	int wearout;			/* --wearout */
	int shared_file;		/* --shared-file */
	int shared_dir;			/* --shared-dir */
	/* the samplers (cmd/sample_opts.h) */
	const char *interval;		/* --interval DURATION: series interval ("1s") */
	const char *sample_interval;	/* --sample-interval DURATION: wait states ("100ms") */
	int no_sample;			/* --no-sample */
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

void common_init(struct common_opts *co);
/* Check formats, output directory and engine; print one clear message on error.
 * Returns 0 or -EINVAL. *eng receives the engine (may be NULL if not wanted). */
int common_validate(const struct common_opts *co, const struct engine **eng);
/* Fill the run's metadata: command line, label, effective options from the groups, and
 * the environment of target (a path that exists). 0 or -ENOMEM. */
int common_prepare_run(struct run *run, const struct common_opts *co, int argc, char **argv,
		       const struct opt_group *g, int ng, const char *target);
/* Before writing: mark the run incomplete when a stop signal came and, with --repeat > 1,
 * flag the figures whose repeats vary by more than 10% inconsistent (the one place that
 * applies compare_flag_inconsistent). Not thread-safe (writes run). */
void common_mark(struct run *run, const struct common_opts *co);
/* common_write flags */
#define COMMON_OWN_REPEATS	1u	/* the text already summarises the repeats (Bonnie++'s
					 * table): no repeats block after it */
/* Write the run in each requested format: to stdout, or with --output-dir to
 * DIR/iobattery-results.EXT (text still goes to stdout unless --quiet). With --repeat > 1
 * the text on stdout ends with the repeats block (mean, sd, CV, 95% CI) unless flags has
 * COMMON_OWN_REPEATS. Returns 0 or -errno after printing the reason. */
int common_write(struct run *run, const struct common_opts *co, unsigned flags);
/* Unless --no-store, save the run in the results store; a failure there is reported and
 * does not change the result. */
void common_store(const struct run *run, const struct common_opts *co);
/* common_mark, common_write (flags 0) and common_store in that order. Returns what
 * common_write returned. */
int common_emit(struct run *run, const struct common_opts *co);
/* Exit status for a finished run: 130 when interrupted, 1 when a row failed, else 0. */
int common_exit_status(const struct run *run);

#endif
