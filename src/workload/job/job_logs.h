/* job_logs.h - fio's per-request logs: write_bw_log, write_lat_log, write_iops_log,
 * write_hist_log, with log_avg_msec, log_hist_msec and per_job_logs, in fio's file names
 * and lines, so that fio's own readers (fio2gnuplot, fio_generate_plots,
 * fiologparser_hist.py) read them.
 *
 * Names (fio 3.33's): STEM_bw.N.log, STEM_iops.N.log, STEM_lat.N.log, STEM_clat.N.log,
 * STEM_slat.N.log, STEM_clat_hist.N.log, where STEM is the option's value (the job's name
 * when given bare) and N the thread's number in the run (1..threads, in job file order);
 * per_job_logs=0 drops ".N" and every thread of that stem writes the one file, thread
 * after thread; under mpirun ".rRANK" comes before ".log". Relative names are taken
 * from the current directory, as fio's.
 * Lines: "TIME, VALUE, DIR, BS, PRIO" (ms since the thread's start after ramp_time; the
 * value in KiB/s for bw, I/Os a second for iops, ns for the latencies; 0 read, 1 write,
 * 2 trim; the block size; fio's priority column). log_offset=1 puts the request's offset
 * in the file before PRIO ("TIME, VALUE, DIR, BS, OFFSET, PRIO"). PRIO is the I/O
 * priority the request was issued with, as fio 3.33 writes it: without log_prio 1 for
 * the real-time class and 0 otherwise, with log_prio=1 the whole ioprio value in hex
 * ("0x4003"): the request's own (cmdprio*, libaio and io_uring), else the thread's
 * (prio, prioclass; 0 when neither is given).
 * Without log_avg_msec a line per request (bw from its completion latency, iops 1); with
 * it a line per direction seen in each window, its mean over the window, BS, OFFSET and
 * PRIO 0 (as fio's averaged lines). The histogram log: every log_hist_msec
 * (none when 0, as fio) a line per direction seen, "TIME, DIR, BS, " then the counts of
 * fio's 1,856 latency bins in that window (output/fio_fmt.h maps ours onto them).
 *
 * Safety: logs are outputs the user named; like every output, an existing file is never
 * overwritten (job_logs_check refuses it before any I/O), and a file is created only
 * once, new (O_EXCL), and appended to only by the run that made it. A thread keeps its
 * lines in memory (fio does too) and the main thread writes them after the step, so the
 * I/O loop pays one predictable branch per request when no log is asked for.
 * Logs are written for the first repeat (--repeat) only, and not for --wearout's round. */
#ifndef IOB_WORKLOAD_JOB_LOGS_H
#define IOB_WORKLOAD_JOB_LOGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct job_def;
struct job_optdef;
struct job_plan;

/* A job's log options (part of struct job_def; strings owned by it). */
struct job_logcfg {
	char *bw, *lat, *iops, *hist;	/* the stems; "" = the job's name; NULL: off */
	uint64_t avg_ms;		/* log_avg_msec, 0: a line per request */
	uint64_t hist_ms;		/* log_hist_msec, 0: no histogram lines */
	bool shared;			/* per_job_logs=0 */
	bool offset;			/* log_offset: the offset column */
	bool prio;			/* log_prio: the priority column as a full ioprio */
};

void job_logcfg_clear(struct job_logcfg *c);
/* dst = src with its own strings. 0 or -ENOMEM (dst then holds no strings). */
int job_logcfg_copy(struct job_logcfg *dst, const struct job_logcfg *src);
/* Whether the job asks for any log. */
bool job_logcfg_on(const struct job_logcfg *c);

/* The option of that name or alias among the log and steady-state options (job_opts.c
 * asks here after its own table), or NULL. */
const struct job_optdef *job_logs_opt_find(const char *name);

/* Before any I/O: every log file the plan would write is named and none exists yet.
 * 0 or -EINVAL with "job: ..." in err. */
int job_logs_check(const struct job_plan *p, char *err, size_t errlen);

/* A thread's logs, in memory. */
struct job_tlog;

/* For thread number tno (0-based) of a job with logs: *out NULL when it asks for none.
 * 0 or -ENOMEM. */
int job_tlog_new(const struct job_def *d, struct job_tlog **out);
void job_tlog_free(struct job_tlog *l);
/* A request's figures for the logs. */
struct job_tlog_req {
	unsigned dir;		/* 0..2 */
	uint64_t t;		/* completed, ns after the log's origin */
	uint64_t clat, slat;	/* slat UINT64_MAX: none (a synchronous engine) */
	uint64_t lat;		/* total latency */
	uint64_t bytes, bs;	/* moved, and the block size */
	uint64_t off;		/* offset in the file */
	unsigned prio;		/* its own I/O priority (cmdprio), 0: the thread's */
};

/* One request completed. No allocation beyond the memory streams'. */
void job_tlog_io(struct job_tlog *l, const struct job_tlog_req *q);
/* The thread is done at t: the last (partial) windows are written. */
void job_tlog_end(struct job_tlog *l, uint64_t t);

/* After a step: the logs of threads [first, first + n) into their files (thread order).
 * Frees them. 0 or -errno after a message on stderr naming the file. */
int job_logs_write(struct job_plan *p, unsigned first, unsigned n);

#endif
