/* phase_sample_int.h - what the runner's sampling files share (phase_sample.c: the
 * phases' samplers and interval bins; phase_sample_run.c: the run's device set, server
 * processes, live view; phase_sample_row.c: the row's figures). Not for other modules. */
#ifndef IOB_RUNNER_PHASE_SAMPLE_INT_H
#define IOB_RUNNER_PHASE_SAMPLE_INT_H

#include <limits.h>
#include <pthread.h>
#include <stdint.h>

#include "observe/diskstats.h"
#include "core/progress.h"
#include "observe/sampler.h"
#include "observe/taskio.h"
#include "runner/phase_sample.h"
#include "stats/hist.h"

struct runner_obs {
	struct obs_opts o;
	uint64_t base_ns;		/* the sampler's interval */
	unsigned factor;		/* base intervals in one series interval (2^k) */
	struct diskstats_set set;	/* the target's devices; only the list is used */
	char datadir[PATH_MAX];		/* a database server's data directory, "" none */
	pthread_mutex_t mu;		/* cur */
	struct phase_obs *cur;		/* the phase a live view shows */
	int want_view;			/* a live view reads: keep obs_view up to date */
};

/* One interval of the series: base records first..last. */
struct obs_bin {
	unsigned first, last, nrec;
	int64_t ops, bytes;		/* differences: a workload may set its totals late */
	uint64_t gmax;			/* exact latency maximum reached in it, 0 unknown */
	struct hist *h;			/* its latency histogram while it may be merged */
	uint64_t n, p50, p99, max;	/* the summary once h is gone */
};

struct phase_obs {
	struct runner_obs *ro;
	struct phase *ph;
	struct phase_obs *prev;		/* the phase shown before this one began */
	struct sampler *s;
	unsigned nw;
	int *tids;			/* nw: the workers' thread ids (0 unknown) */
	struct taskio *io0, *io1;	/* nw: their I/O counters at start and end */
	int pids[SAMPLER_MAX_PIDS];	/* server processes */
	unsigned npids;
	/* the tick's state, on the sampler thread */
	uint64_t *prev_ops, *prev_bytes, *prev_max;	/* nw: the workers at the last tick */
	struct hist *prev_h;		/* nw: their histograms at the last tick */
	struct hist *slice;		/* the latest base interval */
	unsigned width;			/* base records per bin now */
	struct obs_bin *bins;		/* closed bins */
	unsigned nbins, cap;
	struct obs_bin open;		/* the bin being filled */
	int failed;			/* out of memory in a tick: no series */
	int dev_read;			/* a device was read over the phase (obs_fill_row) */
	struct progress_live live;	/* for the progress line */
	pthread_mutex_t mu;		/* view */
	struct obs_view view;
};

/* phase_sample_run.c */
/* Fill pids with the server's postmaster and its children (up to max). */
unsigned obs_server_pids(const char *datadir, int *pids, unsigned max);
/* Update o->view from the sampler's record rec and the slice just taken. Sampler
 * thread. */
void obs_view_update(struct phase_obs *o, struct sampler *sp, unsigned rec,
		     const struct obs_bin *slice);

/* phase_sample_row.c */
/* row->sys and row->series from the stopped sampler and the bins. 0 or -ENOMEM. */
int obs_fill_row(struct phase_obs *o, struct row *row);
/* Set h's min and max from its lowest and highest non-empty buckets (the buckets are all
 * an interval's difference has), max exact as gmax when that bucket holds it. */
void obs_hist_bounds(struct hist *h, uint64_t gmax);
/* The latency summary of a bin from its histogram (which is then freed). */
void obs_bin_summarise(struct obs_bin *b);

#endif
