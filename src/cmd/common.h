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
};

/* Options table for struct common_opts (add as one opt_group with base = &co). */
extern const struct opt common_opt_table[];

void common_init(struct common_opts *co);
/* Check formats, output directory and engine; print one clear message on error.
 * Returns 0 or -EINVAL. *eng receives the engine (may be NULL if not wanted). */
int common_validate(const struct common_opts *co, const struct engine **eng);
/* Fill the run's metadata: command line, label, effective options from the groups, and
 * the environment of target (a path that exists). 0 or -ENOMEM. */
int common_prepare_run(struct run *run, const struct common_opts *co, int argc, char **argv,
		       const struct opt_group *g, int ng, const char *target);
/* Write the run in each requested format: to stdout, or with --output-dir to
 * DIR/iobattery-results.EXT (text still goes to stdout unless --quiet). With --repeat > 1
 * figures whose repeats vary by more than 10% are flagged inconsistent first and the
 * text on stdout ends with the repeats block (mean, sd, CV, 95% CI). Then, unless
 * --no-store, the run is saved in the results store (a failure there is reported and
 * does not change the result). Returns 0 or -errno after printing the reason. */
int common_emit(struct run *run, const struct common_opts *co);
/* Exit status for a finished run: 130 when interrupted, 1 when a row failed, else 0. */
int common_exit_status(const struct run *run);

#endif
