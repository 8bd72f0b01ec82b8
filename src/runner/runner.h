/* runner.h - phases, workers and the one timing scheme.
 *
 * A workload runs each phase through this API; every request goes through an ioctx
 * (runner/ioctx.h), which times and counts it in the phase's worker:
 *
 *	struct ioctx io;                       // one per worker thread, may outlive phases
 *	struct phase ph;
 *	ioctx_init(&io, rc->eng, 1);
 *	phase_begin(&ph, rc, "write", 1, "B", expected_bytes);   // CPU sample, clock
 *	ioctx_bind(&io, &ph.w[0]);
 *	worker_start(&ph.w[0]);
 *	r = ioctx_get(&io); ...fill r...; while (...) ioctx_do_chain(&io, r);
 *	struct row *row = phase_end(&ph, "dd");   // merges workers: bytes, ops, time, CPU,
 *	row->rate = ...;                         // latency percentiles, flags
 *	ioctx_exit(&io);
 *
 * With several workers, runner_parallel() runs a function on n threads released together
 * (the phase clock starts when all are ready); each binds its own ioctx to its worker.
 * Anything timed that is not a request (an open, an unlink, a PostMark transaction, an
 * SQL statement) is timed with op_begin()/op_end() into the same worker histogram.
 * A phase's CPU figures are sampled by phase_begin/phase_end, never by a workload, and
 * so are what the system did meanwhile (devices, CPU split, wait states, the interval
 * series: runner/phase_sample.h) when rc->obs is set. */
#ifndef IOB_RUNNER_RUNNER_H
#define IOB_RUNNER_RUNNER_H

#include <stdint.h>
#include "core/clock.h"
#include "observe/cpu.h"
#include "core/progress.h"
#include "fs/scratch.h"
#include "engine/engine.h"
#include "runner/ioctx.h"
#include "stats/hist.h"

struct run;
struct row;
struct vhook_cfg;
struct runner_obs;
struct phase_obs;

/* What every workload runs with. Built by the subcommand from its options. */
struct runner {
	struct run *run;		/* rows are appended here */
	const struct engine *eng;
	int progress;			/* want progress lines (not --quiet) */
	unsigned repeat;		/* current repeat index, copied into each row */
	/* several ranks (mpirun; runner/ranks.h) */
	uint64_t stonewall_ns;		/* --stonewall: stop every rank's phase after this */
	int wearout;			/* --wearout: then finish as much as the busiest */
	int shared_file;		/* --shared-file: one file, a segment per rank */
	int shared_dir;			/* --shared-dir: one directory for every rank */
	struct rank_book *book;		/* the rows' per-rank timing; NULL alone */
	int solo;			/* its phases are this rank's alone: no gates, no
					 * booking (the battery's probe on rank 0) */
	const struct progress_total *total;	/* the battery's overall progress, or NULL */
	const struct vhook_cfg *verify;	/* --verify and friends (runner/vhook.h); NULL off */
	struct runner_obs *obs;		/* the phases' samplers (runner/phase_sample.h); NULL
					 * samples nothing */
};

struct phase {
	struct runner *rc;
	const char *name;
	unsigned nw;
	struct worker *w;		/* nw workers, allocated by phase_begin */
	struct cpu_sample c0, c1;
	uint64_t t0, t1;		/* phase start and end (clock_ns) */
	struct progress prog;
	struct phase_rank *pr;		/* multi-rank state (runner/ranks.h); NULL alone */
	struct phase_obs *obs;		/* its sampling; NULL none (phase_sample.c) */
};

/* Start a phase: allocate nw workers, sample CPU and clock, set up progress (expected
 * units: bytes when unit is "B"). Returns 0 or -ENOMEM. */
int phase_begin(struct phase *ph, struct runner *rc, const char *name, unsigned nw,
		const char *unit, uint64_t expected);
/* Restart the phase clock and CPU sample (e.g. after setup work inside the phase). */
void phase_restart(struct phase *ph);
/* End the phase: stop the clock, sample CPU, merge workers into a new row of the run
 * (bytes, ops, elapsed_ns = t1 - t0, cpu, latency percentiles, ROW_SHORT, ROW_INCOMPLETE
 * when a stop signal came, ROW_FAILED + error text from the first worker error). Frees the
 * workers. Returns the row (owned by the run) or NULL on ENOMEM. The caller then sets
 * rate, params, durable time and notes. */
struct row *phase_end(struct phase *ph, const char *workload);
/* Free the workers without making a row (setup failed). */
void phase_abort(struct phase *ph);
/* Leave out of the phase's time and CPU what happened between samples a and b (taken
 * inside it): a --verify phase run in the middle of a workload's enclosing phase. */
void phase_exclude(struct phase *ph, const struct cpu_sample *a, const struct cpu_sample *b);

/* Start a worker's clock: call right before its first request. */
static inline void worker_start(struct worker *w)
{
	w->t_first = w->t_last = clock_ns();
}

/* 1 once w passed the --stonewall deadline (checked against its latest completion). */
static inline int worker_stonewalled(const struct worker *w)
{
	return w->stop_ns && w->t_last >= w->stop_ns;
}

/* Note a result without timing it: count bytes and remember the first error. */
static inline void worker_account(struct worker *w, int64_t res)
{
	if (res > 0)
		__atomic_store_n(&w->bytes, w->bytes + (uint64_t)res, __ATOMIC_RELAXED);
	else if (res < 0 && !w->err)
		w->err = (int)res;
}

/* Time any operation that is not an engine request (open, unlink, stat, an SQL statement):
 * call op_begin before and op_end after; counts one op. */
static inline uint64_t op_begin(void)
{
	return clock_ns();
}
static inline void op_end(struct worker *w, uint64_t t0, int64_t res)
{
	uint64_t t1 = clock_ns();

	worker_record(w, t1 - t0, res, t1);
}

/* Run fn(arg, i, w_i) on n threads (i = 0..n-1, w_i = &ph->w[i]), released together by a
 * barrier; the phase clock is restarted when all threads are ready. Returns 0 or the first
 * nonzero return of fn, or -errno if threads cannot be created (n == 1 runs inline). */
int runner_parallel(struct phase *ph, int (*fn)(void *arg, unsigned i, struct worker *w),
		    void *arg);

#endif
