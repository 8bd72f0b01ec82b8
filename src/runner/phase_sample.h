/* phase_sample.h - the runner's samplers: what the system did during each phase.
 *
 * A run that samples (the default; --no-sample turns it off) holds one struct runner_obs
 * in struct runner: the options, the device set of the run's target (found once), the
 * processes of a database server to watch, and the phase a live view shows. Each phase
 * then gets, from phase_begin/phase_restart to phase_end (runner.c calls the phase_obs_
 * functions below; workloads never do), a sampler thread (observe/sampler.h) and a per-
 * interval series of the workers' own figures. phase_end puts both into the row:
 * row->sys (devices, write amplification, CPU split, page-cache gauges, wait states) and
 * row->series (stats/result_sys.h).
 *
 * The interval figures of the workers cost the I/O loop nothing it did not do already:
 * a worker's counters and histogram are written with relaxed atomic stores
 * (worker_record in ioctx.h; the same instructions as plain stores on x86-64 and arm64)
 * and the sampler thread reads them at each interval's end, differencing them against
 * its own copy of the previous reading. Nothing in the loop checks a clock or a flag
 * for the samplers (docs/methodology.md, section 15, "Intervals").
 *
 * Intervals: the series interval I (default 1 s) is reached from a base of I / 2^k (the
 * smallest such >= 100 ms, or I itself when I < 200 ms): the sampler records every base
 * interval and adjacent intervals are merged in pairs whenever there are 20, until they
 * are I long. A phase of 10 I or more therefore has at least 10 intervals of I; a
 * shorter one has 10 to 20 shorter ones (down to the base). Merging is exact: counters
 * are differenced, latency histograms added.
 *
 * Thread-safety: runner_obs_* functions but runner_obs_view are for the main thread;
 * runner_obs_view may be called from any thread (a live view) while phases run. */
#ifndef IOB_RUNNER_PHASE_SAMPLE_H
#define IOB_RUNNER_PHASE_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "observe/diskstats.h"
#include "observe/waitstate.h"

struct phase;
struct row;
struct runner;
struct runner_obs;

#define OBS_MIN_BASE_NS		100000000ull	/* intervals are not split below 100 ms */
#define OBS_MERGE_AT		20		/* intervals merged in pairs when this many */

struct obs_opts {
	uint64_t interval_ns;		/* the series interval; 0: 1 s */
	uint64_t wait_ns;		/* a wait-state pass every ...; 0: 100 ms */
	int quiet;			/* do not say what cannot be sampled */
	uint64_t min_base_ns;		/* shortest base interval; 0: OBS_MIN_BASE_NS (tests
					 * shorten it to see merges in a short phase) */
	int no_devlat;			/* no block-layer latency (observe/devlat.h) */
};

/* The sampling of one run, for target (a path that exists; NULL: no device figures).
 * Finds the device set once and says, once, what cannot be read (/proc/diskstats,
 * /proc/stat, wait channels) unless quiet. Returns 0 and *out, or -ENOMEM. */
int runner_obs_new(const struct obs_opts *o, const char *target, struct runner_obs **out);
/* NULL is fine. No phase may be running. */
void runner_obs_free(struct runner_obs *ro);

/* Take the devices behind path for the phases from now on (a database's data directory
 * on this machine), or none with the reason why when path is NULL. For the db workload;
 * nothing when rc samples nothing. 0 or -errno (the set is then empty). */
int runner_obs_target(struct runner *rc, const char *path, const char *why_none);
/* Watch the processes of the PostgreSQL server whose data directory is datadir (the
 * postmaster from datadir/postmaster.pid and its children, found again at each phase's
 * start) beside the workers. 0, or -errno when postmaster.pid cannot be read. */
int runner_obs_server(struct runner *rc, const char *datadir);

/* What a live view shows: the latest interval of the phase running now. */
#define OBS_VIEW_DEVS	4
#define OBS_VIEW_WAITS	6
struct obs_view {
	int active;			/* 0: no phase is running */
	char workload[32], phase[48];
	uint64_t elapsed_ns;		/* since the phase started */
	uint64_t seq;			/* grows with every interval seen */
	double interval_s;		/* the latest interval's length */
	double ops_s, bytes_s;		/* in it */
	uint64_t p50_ns, p99_ns, max_ns;	/* its latency; 0 when none completed */
	uint64_t ops, bytes;		/* since the phase started */
	unsigned ndev;
	char devices_reason[192];	/* when ndev is 0 */
	struct {
		char name[DISKSTATS_NAME_LEN];
		double util, aqu, r_s, w_s, rkb_s, wkb_s, r_await, w_await;
	} dev[OBS_VIEW_DEVS];
	int cpu_ok;
	double usr, sys, iowait, steal, idle;	/* % */
	int mem_ok;
	uint64_t dirty, writeback;	/* bytes */
	unsigned nwait;			/* top states since the phase started */
	int wchan_hidden;
	struct {
		char state;
		char wchan[WAITSTATE_NAME_LEN], syscall[WAITSTATE_NAME_LEN];
		double share;
	} wait[OBS_VIEW_WAITS];
};
/* Copy what a live view shows into v. Thread-safe. */
void runner_obs_view(struct runner_obs *ro, struct obs_view *v);

/* ---- for runner.c only ---- */
/* After the workers are allocated and progress is set up: prepare the phase's sampling
 * (the calling thread is worker 0's until phase_obs_thread says otherwise). */
void phase_obs_begin(struct phase *ph);
/* The phase clock (re)started: start the sampler from now. */
void phase_obs_restart(struct phase *ph);
/* On worker thread i of runner_parallel: before it checks in, and when it is done. */
void phase_obs_thread(struct phase *ph, unsigned i);
void phase_obs_thread_done(struct phase *ph, unsigned i);
/* Stop the sampler and fill row->sys and row->series; row NULL: just stop and free. */
void phase_obs_end(struct phase *ph, struct row *row);

#endif
