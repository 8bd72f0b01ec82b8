/* runner.h - phases, workers and the timed I/O call.
 *
 * A workload runs its phases through this API:
 *
 *	struct phase ph;
 *	phase_begin(&ph, rc, "write", nworkers, expected_bytes);   // CPU sample, clocks
 *	...each worker w = &ph.w[i]: worker_start(w); loop { io_timed_chain(...) } ...
 *	struct row *row = phase_end(&ph);   // merges workers, fills bytes/ops/times/CPU/latency
 *	row->rate = ...; kv_set(&row->params, ...);
 *
 * The engine issues the I/O; the runner's inline helpers time every request and count it,
 * so engines never touch statistics. runner_parallel() runs a function on n threads that
 * start together behind a barrier (the phase's clock starts when all are ready). */
#ifndef IOB_RUNNER_RUNNER_H
#define IOB_RUNNER_RUNNER_H

#include <stdint.h>
#include "core/clock.h"
#include "core/cpu.h"
#include "core/progress.h"
#include "core/scratch.h"
#include "engine/engine.h"
#include "stats/hist.h"

struct run;
struct row;

/* What every workload runs with. Built by the subcommand from its options. */
struct runner {
	struct run *run;		/* rows are appended here */
	const struct engine *eng;
	int progress;			/* want progress lines (not --quiet) */
	unsigned repeat;		/* current repeat index, copied into each row */
	uint64_t size_hint;		/* quick battery: bytes per data file (0: default) */
};

/* One worker's counters: written by one thread only. */
struct worker {
	uint64_t bytes, ops;
	uint64_t t_first;		/* clock_ns when the worker started */
	uint64_t t_last;		/* clock_ns at the end of its latest request */
	int err;			/* first -errno met, 0 if none */
	struct progress *prog;		/* only worker 0 draws; NULL for others */
	struct hist lat;
};

struct phase {
	struct runner *rc;
	const char *name;
	unsigned nw;
	struct worker *w;		/* nw workers, allocated by phase_begin */
	struct cpu_sample c0, c1;
	uint64_t t0, t1;		/* phase start and end (clock_ns) */
	struct progress prog;
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

/* Start a worker's clock: call right before its first request. */
static inline void worker_start(struct worker *w)
{
	w->t_first = w->t_last = clock_ns();
}

/* Note a result: count bytes and remember the first error. */
static inline void worker_account(struct worker *w, int64_t res)
{
	if (res > 0)
		w->bytes += (uint64_t)res;
	else if (res < 0 && !w->err)
		w->err = (int)res;
}

/* Issue one request and time it from just before submit to just after it returned.
 * Sync engines only. Returns req->res. */
static inline int64_t io_timed(const struct engine *e, void *ectx, struct worker *w,
			       struct engine_req *req)
{
	uint64_t t0 = clock_ns(), t1;

	e->submit(ectx, req, 1);
	t1 = clock_ns();
	hist_add(&w->lat, t1 - t0);
	w->ops++;
	w->t_last = t1;
	worker_account(w, req->res);
	if (w->prog)
		progress_tick(w->prog, w->bytes, t1);
	return req->res;
}

/* For tight streaming loops: one clock read per request. The latency of a request runs
 * from the end of the previous one (or worker_start) to its own end, so it includes the
 * loop's own few nanoseconds of bookkeeping; that halves the timing cost (see
 * docs/methodology.md, "timing overhead"). Sync engines only. Returns req->res. */
static inline int64_t io_timed_chain(const struct engine *e, void *ectx, struct worker *w,
				     struct engine_req *req)
{
	uint64_t t1;

	e->submit(ectx, req, 1);
	t1 = clock_ns();
	hist_add(&w->lat, t1 - w->t_last);
	w->ops++;
	w->t_last = t1;
	worker_account(w, req->res);
	if (w->prog)
		progress_tick(w->prog, w->bytes, t1);
	return req->res;
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

	hist_add(&w->lat, t1 - t0);
	w->ops++;
	w->t_last = t1;
	worker_account(w, res);
	if (w->prog)
		progress_tick(w->prog, w->bytes, t1);
}

/* Run fn(arg, i, w_i) on n threads (i = 0..n-1, w_i = &ph->w[i]), released together by a
 * barrier; the phase clock is restarted when all threads are ready. Returns 0 or the first
 * nonzero return of fn, or -errno if threads cannot be created (n == 1 runs inline). */
int runner_parallel(struct phase *ph, int (*fn)(void *arg, unsigned i, struct worker *w),
		    void *arg);

#endif
