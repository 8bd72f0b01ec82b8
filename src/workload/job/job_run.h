/* job_run.h - running a parsed job list (job.h): the plan (threads, their files, the
 * stonewall steps, the report units), the checks that keep it inside what it may touch,
 * laying out, the I/O loop, the one merge of thread figures into report units, and the
 * rows of the results model.
 *
 * Shape of a run (job_run.c):
 *   job_prepare       (job_prepare.c) the three steps below in one call, for `iobattery
 *                     job` and the battery's job step alike:
 *   job_plan_build    jobs x numjobs -> threads; files (one per name, laid out once);
 *                     steps (a job with stonewall waits for all before it); report units
 *                     (a thread, or a whole group with group_reporting). No I/O.
 *     engines         each thread's engine (in this build, probed) and its options;
 *   job_plan_check    (workload/job/job_check.h) what may be touched (the scratch directory, a
 *                     named new file, an existing file read-only unless --overwrite, a
 *                     device only with --destroy-data-on) and the free space; nothing
 *                     is created.
 *   job_layout        creates and fills the files with real data, untimed.
 *   per step: a runner phase; job_thread_run on each thread (job_io.c), released
 *                     together; then job_merge per report unit and job_rows_*.
 * A thread's figures (struct job_stats) are flat sums, extremes and histograms: job_merge
 * adds one into another, which is all that merging threads into a unit (or, later, ranks
 * into a world) takes.
 *
 * Thread-safety: the plan is built and checked on the main thread; during a step each
 * thread writes only its own struct job_thread; the shared step state is one atomic. */
#ifndef IOB_WORKLOAD_JOB_RUN_H
#define IOB_WORKLOAD_JOB_RUN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "observe/diskstats.h"
#include "engine/engine.h"
#include "stats/hist.h"
#include "workload/job/job.h"

struct ioctx;
struct runner;
struct vhook;
struct worker;
struct row;
struct scratch;

#define JOB_SYNC	3	/* the index after JOB_TRIM: fsync/fdatasync requests */
#define JOB_NDIR	4
#define JOB_DEPTH_BKT	7	/* fio's IO depths buckets: 1 2 4 8 16 32 >=64 */
#define JOB_SAMPLE_NS	500000000ull	/* fio's bw_avg_msec default: a sample per 500 ms */
#define JOB_SAMPLES_MAX	1024	/* per thread; then the interval doubles */

/* min, max, count, sum and sum of squares of latencies without buckets (slat, lat). */
struct job_lsum {
	uint64_t n, sum, min, max;
	unsigned __int128 sumsq;
};

static inline void job_lsum_add(struct job_lsum *s, uint64_t v)
{
	s->n++;
	s->sum += v;
	s->sumsq += (unsigned __int128)v * v;
	if (v < s->min)
		s->min = v;
	if (v > s->max)
		s->max = v;
}

/* Cumulative counts at the end of each sample interval (bytes and I/Os per direction). */
struct job_sample {
	uint64_t bytes[JOB_DDIRS], ios[JOB_DDIRS];
};

/* The figures of one thread, or of a report unit after job_merge. Times are clock_ns. */
struct job_stats {
	unsigned nthreads;
	uint64_t ios[JOB_NDIR], bytes[JOB_NDIR], short_ios[JOB_DDIRS];
	struct hist clat[JOB_NDIR];	/* issue to completion; JOB_SYNC: the sync call */
	struct job_lsum slat[JOB_DDIRS];	/* filled to submitted (asynchronous engines) */
	struct job_lsum lat[JOB_DDIRS];	/* filled to completion (asynchronous engines) */
	struct hist *lat_h;		/* [JOB_DDIRS]: filled to completion, with
					 * lat_percentiles=1 on an asynchronous engine
					 * only (NULL otherwise); freed by job_stats_free */
	uint64_t t_start, t_stop;	/* first I/O (after ramp_time), last completion or
					 * closing fsync; earliest and latest when merged */
	uint64_t t_last_write;		/* completion of the last write; latest */
	uint64_t t_durable;		/* end_fsync / fsync_on_close returned; latest, 0 none */
	uint64_t rt_sum_ns, rt_min_ns, rt_max_ns;	/* per-thread runtimes */
	uint64_t usr_ns, sys_ns, ctx, majf, minf;	/* the threads' own rusage */
	uint64_t depth[JOB_DEPTH_BKT];	/* I/Os by requests in flight at their submit */
	uint64_t submit[JOB_DEPTH_BKT];	/* submit calls by requests submitted: 0, 1-4, ...*/
	uint64_t complete[JOB_DEPTH_BKT];	/* reaps by requests completed */
	uint64_t first_done_bytes;	/* bytes done when the step's first thread finished */
	bool sync_only_engine;		/* requests completed inside submit (psync, mmap,
					 * null, libaio on a buffered file) */
	uint64_t errs[JOB_DDIRS];	/* I/O errors continue_on_error passed over */
	int first_err;			/* the first of them, -errno (0: none) */
	int err;			/* first -errno */
	int err_op;			/* its engine op (-1: setup), offset and length */
	uint64_t err_off, err_len;
	char errtxt[240];		/* what failed in setup, "" otherwise */
	uint64_t samp_ns;		/* sample interval */
	unsigned nsamp;
	struct job_sample *samp;	/* owned by a thread's stats; a merged unit's own copy */
};

/* Empty figures (min fields at their maximum). samp stays NULL. */
void job_stats_init(struct job_stats *s);
/* dst += src: sums, histograms, extremes, samples by interval index (dst->samp is grown
 * to hold src's; intervals must be equal, else the samples of src are dropped). The one
 * place where figures of several threads (later: ranks) become one. 0 or -ENOMEM. */
int job_merge(struct job_stats *dst, const struct job_stats *src);
/* s->lat_h allocated and empty (kept when there). 0 or -ENOMEM. */
int job_lat_hist_new(struct job_stats *s);
/* The ioprio value (class << 13 | level) a thread of d runs at, as fio sets it: prio
 * alone takes the best-effort class, prioclass alone level 0, prioclass=0 the
 * best-effort class; 0 when neither is given (the kernel's default, left alone). */
unsigned job_ioprio(const struct job_def *d);
/* Free what job_merge allocated in s (samp, lat_h). */
void job_stats_free(struct job_stats *s);

/* A file of the plan, laid out once whatever number of threads use it. */
struct job_file {
	char *path;		/* absolute, or relative to the current directory */
	uint64_t need;		/* bytes it must hold (offset + size of its largest user) */
	uint64_t have;		/* its size before the run (existing files) */
	bool exists;		/* there before the run */
	bool device;		/* a block device (--destroy-data-on) */
	bool in_scratch;	/* created in the scratch directory */
	bool formatted;		/* named by filename_format: threads giving the same name
				 * share it */
	bool made_by_job;	/* ioengine=filecreate or a dir engine makes it: not laid
				 * out */
	bool unlink;		/* a job using it has unlink=1: removed at the end when
				 * the run made it (job_layout_release) */
	bool written;		/* some job writes or trims it */
	bool trimmed;		/* some job trims it */
	int trim_kind;		/* ENGINE_DISCARD_* found by job_plan_check, 0 unknown */
	char trim_fs[32];	/* the file system of a punched file ("" unknown) */
	bool read;		/* some job reads it */
	bool io;		/* a thread with a real engine uses it (not only null) */
	int cleanup_slot;	/* registered for removal (a named new file), or -1 */
	uint32_t vbs;		/* --verify: the length of every block written to it (its
				 * writers' bs); 0: not stamped, not checked */
	bool shared;		/* --shared-file under mpirun: every rank uses it, each in
				 * its own segment; rank 0 creates it (job_layout) */
	uint64_t lo;		/* shared: where this rank's regions start (it lays out
				 * [lo, need); rank 0 from have) */
	uint64_t total;		/* shared: the bytes all ranks' segments reach */
};

/* A thread's region of one file. */
struct job_tfile {
	unsigned file;		/* index in plan->files */
	uint64_t off, len;	/* [off, off + len) */
};

struct job_thread {
	const struct job_def *d;
	unsigned job;			/* index in the job list */
	unsigned clone;			/* 0 .. numjobs-1 */
	unsigned unit;			/* report unit */
	unsigned step;
	unsigned nfiles;
	struct job_tfile *files;
	uint64_t size;			/* bytes of I/O per loop (sum of the regions) */
	uint64_t seed;
	const struct engine *e;
	struct engine_opts eo;
	struct job_stats st;
	uint64_t log_t0;		/* write_iolog: clock_ns its times count from (the first
					 * round's start, after ramp_time); --wearout's round
					 * goes on from it */
	struct jt_resume *resume;	/* --wearout: where the first round stopped, or NULL */
	_Atomic uint64_t *first_done;	/* the step's: clock_ns of the first thread done */
	_Atomic int *exit_all;		/* its group's in the step: a thread with exitall
					 * stopped it (NULL: no job of the step has
					 * exitall and no earlier step ended the run) */
	_Atomic int *exit_groups;	/* the step's flags, one per group of the plan
					 * (exit_what=stonewall and all set them all) */
	unsigned exit_ngroups;
	_Atomic int *exit_later;	/* plan->exit_later (exit_what=all) */
	const struct job_file *pfiles;	/* plan->files */
	struct vhook *vh;		/* plan->vh: --verify's hook, or NULL */
	struct job_tlog *tlog;		/* fio's logs of this run, until the step ends */
	bool logs_done;			/* written once (the first repeat) */
	struct job_ssrun *ss;		/* steadystate: its samples and verdict, or NULL */
};

/* Where a thread's first round stopped, so that --wearout's round goes on from there (a
 * sequential job's next offsets, what each file's pass has issued, the file turn, the
 * random generator), as IOR's wear-out continues its ranks' transfers. A random map is
 * not kept: the round begins a new one. */
struct jt_resume {
	struct rng rng;
	unsigned cur, nf;
	uint64_t (*pos)[JOB_DDIRS];	/* per file */
	uint64_t *issued;
	bool *done;
};

/* A report unit: the threads fio reports as one block. */
struct job_unit {
	unsigned first_thread;		/* its first thread (its job names the unit) */
	unsigned nthreads;
	unsigned group;			/* fio's groupid */
	unsigned step;
	struct job_stats st;		/* merged after the step */
	double cache_pct;		/* residency of its files at the step's start, -1 n/a */
	bool merged;
};

struct job_step {
	unsigned first, n;		/* threads [first, first + n) */
};

struct job_plan {
	const struct job_list *jobs;
	unsigned nthreads, nunits, nsteps, nfiles, ngroups;
	struct job_thread *threads;
	struct job_unit *units;
	struct job_step *steps;
	struct job_file *files;
	char *scratch_parent;		/* the jobs' directory= (or -d) for the scratch
					 * directory; NULL: the current directory */
	bool need_scratch;
	struct vhook *vh;		/* --verify: the hook of the whole measurement (every
					 * repeat), made before the layout; NULL without */
	char **logs;			/* fio's log files this run made (job_logs.c) */
	unsigned nlogs;
	_Atomic int exit_later;		/* exitall with exit_what=all: the steps after
					 * this one's run no I/O (fio: not started) */
};

/* Safety switches from iobattery's own options. */
struct job_safety {
	const char *dir;		/* -d: a job's directory when it sets none (NULL: .) */
	bool overwrite;			/* an existing regular file may be written */
	const char *destroy_dev;	/* the one block device that may be written */
	bool no_layout;			/* create files empty (reads then refused) */
	bool no_space_check;
	bool shared_file;		/* --shared-file with several ranks: one file per name
					 * for all ranks, rank r's region r x its length further
					 * on (IOR's segmented layout) */
	bool names_only;		/* the files are names that nothing opens (the null
					 * engine's measure, job_null.c): the scratch parent
					 * is not checked */
};

/* Threads, units, steps and file names of the jobs of sections sect[0..nsect-1] (all
 * when nsect is 0; jobs must outlive the plan); files in the scratch directory get their
 * paths later (job_plan_place). A job's files go to its directory= or else sf->dir, and
 * a relative filename= is taken from there. Touches nothing. 0, -EINVAL (message into
 * err naming the job file, section and line) or -ENOMEM. */
int job_plan_build(struct job_plan *p, const struct job_list *jobs, const char *const *sect,
		   unsigned nsect, const struct job_safety *sf, char *err, size_t errlen);
/* The job pipeline up to the layout: job_plan_build, then each thread's engine (t->e:
 * refused when absent from this build or unable to run here) with the job's engine
 * options applied (t->eo), the files a real engine uses marked (io), then
 * job_plan_check. Touches nothing. 0, -EINVAL (one message into err, naming the job file,
 * section and line) or -ENOMEM; on failure p holds what was built, for job_plan_free. */
int job_prepare(struct job_plan *p, const struct job_list *jobs, const char *const *sect,
		unsigned nsect, const struct job_safety *sf, char *err, size_t errlen);
/* "job: 'x.fio' line 3, section [a]: " + the text into err (d NULL: "job: " + text).
 * Returns -EINVAL. */
int job_plan_err(const struct job_def *d, char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Give the scratch files their paths inside dir ("NAME.CLONE.FILE" as fio names them).
 * 0 or -ENOMEM / -ENAMETOOLONG. */
int job_plan_place(struct job_plan *p, const char *dir);
void job_plan_free(struct job_plan *p);
/* The bytes the layout writes (for the free-space check and the progress line). */
uint64_t job_plan_layout_bytes(const struct job_plan *p);

/* Create and fill the files with random data (not timed), fdatasync them; a named new
 * file is registered for removal until job_layout_keep. With p->vh, each file with vbs
 * (an existing one too) is written whole in blocks the hook stamps. Every call goes
 * through a psync ioctx. 0 or -errno with the message in err. */
int job_layout(struct job_plan *p, const struct job_safety *sf, char *err, size_t errlen);
/* Drop the page cache of the files threads [first, first+n) use (fio's invalidate=1). */
void job_invalidate(struct job_plan *p, unsigned first, unsigned n);
/* Residency of a unit's files over its threads' regions now (-1 when unknown). */
double job_unit_residency(const struct job_plan *p, const struct job_unit *u);
/* Remove the named new files (after an interrupted run), or keep them (forget the
 * cleanup registration) after a finished one. */
void job_layout_release(struct job_plan *p, bool keep);

/* One thread's whole job: setup (engine, files, buffers), startdelay, the I/O loop, the
 * closing fsyncs; figures into t->st and the runner's worker w. 0 or -errno (t->st.err
 * says what failed). Runs on its own thread. */
int job_thread_run(struct job_thread *t, struct worker *w);
/* --wearout (runner/ranks.h): after job_thread_run stopped at the wall, the thread's
 * round up to budget more bytes issued, on the same worker (its clock goes on), with no
 * wall, runtime or loops; its requests are appended to the first round's request log
 * (write_iolog, on its clock); it goes on where the first round stopped (struct
 * jt_resume: a sequential job at its next offsets, not again from the start); its
 * figures are added to t->st (the samples stay the first round's). 0 or -errno. Runs on
 * its own thread. */
int job_thread_wear(struct job_thread *t, struct worker *w, uint64_t budget);
/* Free what the first round kept for --wearout (t->resume); t->resume becomes NULL. */
void job_thread_resume_free(struct job_thread *t);

/* Rows for a unit (one per direction it does: read, write, trim, and "sync" when it made
 * syncs), appended
 * to rc->run. dev: the step's device figures (NULL when none), agg: the step's aggregate
 * row (its whole-system CPU share is the unit's too). Returns the rows made or -ENOMEM. */
int job_rows_unit(struct runner *rc, const struct job_plan *p, const struct job_unit *u,
		  const struct diskstats_figures *dev, const struct row *agg);
/* The step's aggregate row (made by phase_end) from all its threads' figures: elapsed =
 * latest stop - earliest start, MiB/s, and the first-finished figures (first_done: when
 * the step's first thread finished, clock_ns). 0 or -ENOMEM. */
int job_rows_aggregate(struct row *row, const struct job_plan *p, unsigned step,
		       const struct job_stats *all, uint64_t first_done);
/* One "disk" row per device of set: fio's disk stats between snapshots a and b.
 * 0 or -ENOMEM. */
int job_rows_disks(struct runner *rc, const struct diskstats_set *set,
		   const struct diskstats_snap *a, const struct diskstats_snap *b);
/* The options of the list's last global section, NAME=VALUE per line (fio's "global
 * options"); malloc'd, NULL when there is none. */
char *job_rows_global_options(const struct job_list *l);

/* ---- job_iolog.c: fio's write_iolog ---- */

/* Create path (it must not exist) and write the header and the "open" lines for
 * files[0..n-1]; with append (--wearout's round) open the existing path for appending
 * and write only the "open" lines. NULL with *err = -errno on failure. The FILE belongs
 * to the caller's thread. */
FILE *job_iolog_open(const char *path, const char *const *files, unsigned n, bool append,
		     int *err);
/* One request: ms since the log's origin (job_thread.log_t0), its file, direction,
 * offset and length. */
void job_iolog_io(FILE *f, uint64_t ms, const char *file, unsigned dir, uint64_t off,
		  uint64_t len);
/* The closing lines; fclose. 0 or -errno (a write error included). */
int job_iolog_close(FILE *f, const char *const *files, unsigned n);

/* ---- job_verify.c: --verify (runner/vhook.h) ----
 * Every file a job writes is laid out in blocks of its writers' bs, each stamped through
 * the hook, and every timed write is one such block (fixed bs, on the grid from offset
 * 0), each a newer generation of its file (VHOOK_GEN_COUNT) with the hook tracking the
 * generation of each block's last write; a verify row after each repeat's steps reads
 * every file back. Reads in the steps are not checked (no CRC pass in a timed read). */

/* Whether --verify can hold the plan (after job_plan_check: the regions are final) and
 * the block length of each file written (files[].vbs). Refused, each naming the job
 * and the file: no job writes; ioengine=null; bsrange or bssplit for writes; bs below
 * 64 bytes or above 1 GiB; blockalign or rw=write:N off the grid; a region or a file
 * that is not whole blocks; one file written at two sizes; a block device; an existing
 * file longer than the jobs reach; --no-layout; verify= on a job that only reads.
 * 0 or -EINVAL with the message in err. */
int job_verify_plan(struct job_plan *p, const struct job_safety *sf, char *err,
		    size_t errlen);
/* Whether a job of the plan asked for fio's verify= (which turns --verify on). */
bool job_verify_asked(const struct job_plan *p);
/* Make p->vh when rc->verify asks for it (the template: the longest files[].vbs, random
 * bytes as the layout's). Before job_layout. 0 or -errno after the message. */
int job_verify_start(struct runner *rc, struct job_plan *p);
/* io just opened fd for writing on f, the plan's file number idx: with a hook (vh) and a
 * file that is stamped (f->vbs), attach the hook to io, name the file, track its blocks.
 * 0 (nothing to do too) or -errno. Thread-safe (the hook is). */
int job_verify_open(struct vhook *vh, struct ioctx *io, const struct job_file *f,
		    unsigned idx, int fd);
/* The verify row after a repeat's steps (its job params: the files and block sizes).
 * 0 (bad blocks fail the row: exit 1), -EINTR, or -errno (the row says why). */
int job_verify_run(struct runner *rc, struct job_plan *p);
/* Stop and free p->vh. 0 or -errno of closing the journal. */
int job_verify_stop(struct job_plan *p);

/* ---- job_null.c: the tool's own limit of a row (workload.h's tool_limit) ---- */

#define JOB_NULL_US	100000u	/* each measure runs for 100 ms (runner/toolceil.h's) */

/* The last measure, of one step, kept for the other rows of its units (read, write,
 * sync) and the other repeats. Zeroed means empty; job_null_free releases it. */
struct job_null_kept {
	bool have;
	unsigned step;			/* the step of the plan it was made for */
	struct job_list l;		/* its jobs: copies whose strings are the plan's */
	struct job_plan np;		/* its plan: the step's units in the same order */
	struct run *run;		/* its rows (NULL: the measure failed) */
};

/* The tool's own limit for row w of a run made from plan p: the jobs of w's step run
 * again through the job's own loop (job_thread_run) with the null engine for
 * JOB_NULL_US, no output, no store, no file touched: the same rw, block sizes, mix,
 * distribution, numjobs, buffers and bookkeeping, without what only waits (rate,
 * rate_iops, thinktime, startdelay, ramp_time) or writes elsewhere (fio's logs,
 * steadystate, --verify); then the figures of w's unit's row of the same direction.
 * Its requests per second and CPU time per request into *ops_s and *cpu_ns, the
 * settings in words. 1 when measured, 0 when w is no row of a unit of p (aggregate,
 * disk, verify, steadystate rows), its job is a metadata engine (filecreate, falloc
 * ...), several ranks ran, or the measure failed. k keeps the measure for the rows of
 * the same step. Main thread; p must be the plan the run was made from. */
int job_null_limit(const struct job_plan *p, const struct row *w, struct job_null_kept *k,
		   double *ops_s, double *cpu_ns, char *words, size_t len);
void job_null_free(struct job_null_kept *k);

/* ---- job_run.c ---- */

/* Run every step of p (laid out already): per step a runner phase, its threads
 * released together, then the rows. Stops after a step when a stop signal came.
 * Returns 0, -EINTR, or the first -errno of a thread (its rows say why). */
int job_run_steps(struct runner *rc, struct job_plan *p);

#endif
