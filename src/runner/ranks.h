/* ranks.h - phases across the ranks of a multi-rank run (mpirun; comm/comm.h).
 *
 * The runner calls these at its phase boundaries; in a world of one they do nothing.
 *
 *   phase_begin  -> ranks_phase_begin: a gate releases every rank together; the phase's
 *                   times count from this rank's release. The progress slow path is
 *                   hooked: every rank samples its count (for "first done") and sends
 *                   it to rank 0, whose line shows the aggregate rate and the ranks
 *                   that have finished. With --stonewall the workers get a deadline.
 *   phase_end    -> ranks_phase_end: rank 0 keeps drawing while the others finish; the
 *                   end gate carries the phase's error, so a rank that failed (EIO,
 *                   ENOSPC) stops every rank here: the loops see sig_stop_peer() and
 *                   unwind as after SIGINT. The row's start and samples are booked.
 *   after the run (cmd/ranks_cmd.c) -> ranks_merge: every row is merged across ranks
 *                   once the workloads have finished it (dd sets its own elapsed time
 *                   and rate after phase_end; db fills its build row after the script).
 *
 * The merge (ranks_merge.c) does for ranks what phase_end does for workers: counts are
 * summed, histograms added bucket by bucket (a reduction with MPI_SUM), flags or'ed; a
 * timed row's elapsed_ns becomes max(stop) - min(start) over the ranks and its rate the
 * work of all ranks over that span, where a rank's work is its rate x its own elapsed
 * time (so the rule holds for MB/s, K/sec, files/s and tps alike); an untimed row (one
 * built from a histogram's sum, as PostMark's per-operation rows) sums elapsed_ns and
 * takes the work over the summed time. Metrics: counts and bytes summed, seconds the
 * maximum, rates summed, flags (bool) or'ed, percentages averaged, except those with a
 * rule of their own (ranks_metric.c: extremes, weighted means, pooled deviations, rates
 * by the span, device counters once per host). The per-rank figures
 * go into row->ranks, the ranks' environments into run->ranks, and each timed row gets
 * the ranks' rate spread, elbencho's first-done figure and IOR's stonewall figures as
 * metrics (stats/result_keys.h, RK_ROW_RANK_*). See docs/methodology.md.
 *
 * Stonewalling in a workload's loop (dd does this; the job workload by rounds, below):
 *
 *	for (i = 0; i < n; i++) {
 *		...one request...
 *		if (sig_stop_requested() || worker_stonewalled(w))
 *			break;
 *	}
 *	n = ranks_stonewall(&ph, done_bytes, err) / bs;  // --wearout: the busiest rank's
 *	for (; i < n; i++) ...                           // count; continue up to it
 *
 * When --stonewall is set, ranks_stonewall must be called once per phase by every rank,
 * whatever happened in the loop (it is a gate carrying err, then a reduction), from the
 * phase's main thread.
 *
 * The job workload (src/workload/job/) stonewalls so: its threads' loop ends at the wall
 * as at their runtime (job_io.c, jw_more), and job_run.c calls ranks_stonewall after
 * each step's threads with their bytes; with --wearout a second round of the threads in
 * the same phase (job_thread_wear, no wall) issues the rest up to the busiest rank's
 * bytes, shared out evenly over the rank's threads. filename= names (and write_iolog=)
 * become NAME.RANK (job_plan.c); its scratch files are in each rank's own scratch
 * directory. With --shared-file the names stay, the scratch directory is rank 0's
 * (ranks_scratch_create), each region moves to rank r's segment, r x its length on
 * (workload/job/job_check.c), rank 0 creates the files and every rank lays out its own segment
 * (job_layout.c). With
 * numjobs > 1 the first-done samples count worker 0 only (taken as the rank's shape);
 * a job with group_reporting off makes a row per job, matched across ranks by order
 * like every other row. Its metrics that are not summed (latency extremes and moments,
 * bw_bytes, the device's counters) have their rules in ranks_metric.c. Not thread-safe:
 * everything here runs on the main thread, except the progress hook (the worker that
 * ticks progress). */
#ifndef IOB_RUNNER_RANKS_H
#define IOB_RUNNER_RANKS_H

#include <stddef.h>
#include <stdint.h>

struct hist;
struct phase;
struct row;
struct run;
struct runner;

/* The start gate of ph and the progress hook. Returns 0; a failed gate sets
 * sig_stop_peer() (the phase then ends at once, incomplete). */
int ranks_phase_begin(struct phase *ph);
/* The end gate of ph (err: the phase's first error, 0 if none) and the row's booking
 * (row may be NULL: phase_abort). Frees ph's rank state. */
void ranks_phase_end(struct phase *ph, struct row *row, int err);
/* A stonewalled phase's loop ended with done bytes (or units) on this rank and error err
 * (0 if none): books done as the stonewall figure and returns, with --wearout, the
 * largest done of any rank (continue up to it), else done. A failed gate stops every
 * rank (sig_stop_peer) and returns done. */
uint64_t ranks_stonewall(struct phase *ph, uint64_t done, int err);

/* A gate of every rank at a step of a workload's own between phases (its plan, a
 * decision): err is this rank's status (0 or -errno), what its words (may be NULL).
 * Returns 0 when every rank came with 0, else the failing rank's status, every rank then
 * stopping (sig_stop_peer; rank 0 says which rank failed). In a world of one: err. */
int ranks_gate(int err, const char *what);
/* ranks_gate, then, when it opened, len bytes of buf from rank 0 to every rank (plain
 * data: no pointers). Returns 0, the gate's status, or the broadcast's (-ECANCELED,
 * -EPIPE). In a world of one: err, buf untouched. */
int ranks_share(void *buf, size_t len, int err, const char *what);

/* Merge the rows of rc->run across the ranks (every rank calls it after the last phase,
 * after a final gate that opened). On rank 0 the rows then hold the merged figures and
 * their per-rank tables; the other ranks' rows are left as they were. Returns 0,
 * -ENOMEM or the comm error (-EPIPE, -ECANCELED). */
int ranks_merge(struct runner *rc);
/* Free rc's booking (after the run). */
void ranks_book_free(struct runner *rc);

/* A scratch directory under parent: this rank's own, or with shared (--shared-dir) and
 * several ranks the one rank 0 makes, which the others use without removing it (every
 * rank must call it then: it is a gate and a broadcast). 0 or -errno; a rank that cannot
 * see the shared directory gets -ENOENT. */
struct scratch;
int ranks_scratch_create(const char *parent, int shared, struct scratch **out);
/* Its counterpart (a gate first when shared: every rank is done in the directory). */
int ranks_scratch_destroy(struct scratch *sc, int shared);

/* Per-rank figures of a row, for the merge and its unit test (ranks_merge.c). */
struct rank_fig {
	uint32_t present, timed, has_lat, cpu_valid;
	uint64_t start_ns;		/* from this rank's release at the phase's start gate */
	uint64_t elapsed_ns, bytes, ops, buffered_ns, durable_ns;
	double rate;
	uint32_t flags, cache_dropped;
	double cache_pct;
	double user_s, sys_s, sys_busy_pct, sys_busy_s;
	uint64_t sw_bytes;		/* stonewall: done when the wall came; 0 none */
	uint64_t sw_ns;			/* and when, from the start */
	uint64_t lat_n, lat_sum, lat_min, lat_max, lat_sq_lo, lat_sq_hi;
	double first_frac;		/* share of its work done at the first rank's stop */
	char error[160];
};

/* The merge of n ranks' figures fig[0..n-1] into row (rank 0's row, whose rate_unit and
 * params are kept): counts, times by IOR's rule, rates, per-rank table, rate spread,
 * slow-rank note and first-done metrics. h: the summed histogram (owned by the row
 * afterwards) or NULL; hosts[r]: rank r's host for the notes (may be NULL). 0 or
 * -ENOMEM. Pure: no communication (t_ranks tests it on injected figures). */
int ranks_merge_row(struct row *row, const struct rank_fig *fig, unsigned n, struct hist *h,
		    const char *const *hosts);
/* A rank's exact latency sums (count, sum, sum of squares as two words, min, max) into f. */
void ranks_fig_lat(struct rank_fig *f, const struct hist *h);
/* The merged histogram on rank 0: buckets summed over the ranks (HIST_NBUCKETS, the
 * reduction's result) and the exact sums of fig[0..n-1]. NULL on ENOMEM; caller frees. */
struct hist *ranks_hist_merge(const uint64_t *buckets, const struct rank_fig *fig, unsigned n);
/* Fraction of a rank's work done at time t (ns from its start) from its samples
 * (t_i, done_i), n of them, increasing; linear between samples, linear from (0,0) and up
 * to (stop, total) outside them. 0..1. */
double ranks_done_at(const uint64_t *t, const uint64_t *done, unsigned n, uint64_t stop,
		     uint64_t total, uint64_t at);

#endif
