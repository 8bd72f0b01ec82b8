/* job_ss.h - fio's steady state: steadystate (ss), steadystate_duration (ss_dur),
 * steadystate_ramp_time (ss_ramp). After ss_ramp a thread takes, once a second, its I/Os
 * and bytes of that second; over the last ss_dur seconds it judges the criterion:
 *   iops, bw             every second within LIMIT of the window's mean (LIMIT% of it);
 *   iops_slope, bw_slope the least-squares slope of the window (per second) within LIMIT
 *                        (LIMIT% of the mean) of zero;
 *   lat, lat_slope       (fio 3.42) the same over each second's mean completion latency;
 * and the thread stops as soon as it holds ("attained"), as fio's job does. A unit of
 * several threads (group_reporting, numjobs) holds their summed seconds, judged again,
 * and is attained when every thread was. Its figures go on the unit's rows (the ss_*
 * keys, docs/results-schema.md) and into fio JSON's "steadystate" object.
 * Thread-safety: a job_ssrun belongs to its thread until the step ends. */
#ifndef IOB_WORKLOAD_JOB_SS_H
#define IOB_WORKLOAD_JOB_SS_H

#include <stdbool.h>
#include <stdint.h>

struct job_def;
struct job_optdef;
struct job_plan;
struct job_unit;
struct runner;

enum job_ss_kind {
	JOB_SS_NONE,
	JOB_SS_IOPS,
	JOB_SS_IOPS_SLOPE,
	JOB_SS_BW,
	JOB_SS_BW_SLOPE,
	JOB_SS_LAT,		/* fio 3.42: the seconds' mean completion latency */
	JOB_SS_LAT_SLOPE,
};

/* A job's steady-state options (part of struct job_def). */
struct job_sscfg {
	enum job_ss_kind kind;
	bool pct;		/* LIMIT is a percentage of the mean */
	double limit;
	uint64_t dur_us;	/* ss_dur; 0: off */
	uint64_t ramp_us;	/* ss_ramp */
};

/* steadystate, ss_dur, ss_ramp by fio's names and aliases, or NULL. */
const struct job_optdef *job_ss_opt_find(const char *name);
/* Whether the job judges steady state (a criterion and a duration). */
bool job_ss_on(const struct job_sscfg *c);
/* fio's spelling of the criterion, "iops:50.000000%" (as fio's JSON "ss"). */
void job_ss_spec(const struct job_sscfg *c, char *buf, size_t len);

/* A thread's collection. */
struct job_ssrun;

/* For a thread starting at t0 (clock_ns): *out NULL when the job judges nothing.
 * 0 or -ENOMEM. */
int job_ss_new(const struct job_def *d, uint64_t t0, struct job_ssrun **out);
void job_ss_free(struct job_ssrun *s);
/* When the next second ends (clock_ns): the I/O loop calls job_ss_tick at or after it. */
uint64_t job_ss_next(const struct job_ssrun *s);
/* At t, with the thread's total bytes, I/Os, and sum and count of completion latencies
 * so far: the seconds that ended, judged. Returns true when steady state is attained
 * (the thread then stops). */
bool job_ss_tick(struct job_ssrun *s, uint64_t t, uint64_t bytes, uint64_t ios,
		 uint64_t lsum, uint64_t ln);

/* The ss_* keys on the last nrows rows of rc's run (the unit's, just made), from its
 * threads' collections. 0 or -ENOMEM. */
int job_ss_rows(struct runner *rc, const struct job_plan *p, const struct job_unit *u,
		int nrows);

#endif
