/* sample_opts.h - the common sampling options (--interval, --sample-interval,
 * --no-sample, --watch, --series) of every measuring command: their checks, the run's
 * samplers (runner/phase_sample.h) and live view (cmd/watch.h) started and stopped
 * around the phases, and the series CSV. Functions return 0 or -errno and never exit;
 * not thread-safe (main thread). */
#ifndef IOB_CMD_SAMPLE_OPTS_H
#define IOB_CMD_SAMPLE_OPTS_H

#include <stddef.h>
#include <stdint.h>

struct common_opts;
struct run;
struct runner;

#define SAMPLE_MIN_INTERVAL_NS	10000000ull		/* --interval: 10 ms .. */
#define SAMPLE_MAX_INTERVAL_NS	600000000000ull		/* .. 10 min */
#define SAMPLE_MIN_WAIT_NS	1000000ull		/* --sample-interval: 1 ms .. */
#define SAMPLE_MAX_WAIT_NS	60000000000ull		/* .. 1 min */

/* A duration: a number with ns, us, ms, s, m or h (none: seconds), e.g. "1s", "250ms",
 * "0.5s". 0, or -EINVAL (not a duration, or over 24 h). Pure. */
int sample_parse_duration(const char *s, uint64_t *ns);
/* The sampling options of co: each within its range, --watch possible here, --series
 * with csv among the formats. Prints one message and returns -EINVAL on a bad one. */
int sample_opts_check(const struct common_opts *co);
/* For a workload whose phases last a known time (e.g. a runtime): an interval longer
 * than that phase gives no series; -EINVAL after a message, else 0. */
int sample_check_phase_length(const struct common_opts *co, uint64_t phase_ns);

/* Before the phases: the run's samplers for target (none with --no-sample) into
 * rc->obs, and the live view with --watch. 0, or -errno after a message. */
int sample_run_start(const struct common_opts *co, const char *target, struct runner *rc);
/* After the phases: close the live view and free the samplers. */
void sample_run_stop(struct runner *rc);

/* With --series: the interval series of every row of run as a long CSV table to FILE
 * (through a temporary file and a rename). 0 or -errno after a message. */
int sample_write_series(const struct run *run, const struct common_opts *co);

#endif
