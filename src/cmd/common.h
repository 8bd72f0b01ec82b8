/* common.h - what every measuring subcommand shares: the common options (--format,
 * --output-dir, --quiet, --label, --engine), filling a run's metadata and writing its
 * outputs through the formatters. Functions return 0 or -errno and never exit. */
#ifndef IOB_CMD_COMMON_H
#define IOB_CMD_COMMON_H

#include "core/opt.h"
#include "workload/common_opts.h"

struct run;
struct engine;
struct workload_ctx;

void common_init(struct common_opts *co);
/* --units: decimal (MB/s, also for NULL) or binary (MiB/s) byte rates in the text's
 * tables (out_text_set_units). 0, or -EINVAL after a message. */
int common_units(const char *units);
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
void common_mark(struct run *run, const struct common_opts *co, struct workload_ctx *x);
/* ceilings.c: the run's ceilings into its environment (once) and each row's, with the
 * flags over_ceiling and tool_bound (common_mark calls it; the tool's own limit runs the
 * null engine briefly per settings: through the workload's own loop where x, the
 * measurement's workload, has a tool_limit hook; x may be NULL). Nothing for an
 * imported run. */
void ceilings_apply_run(struct run *run, struct workload_ctx *x);
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
