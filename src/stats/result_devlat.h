/* result_devlat.h - the block-layer latency of a phase in the results model: the row's
 * "device_latency" object. For the devices behind the target (observe/devlat.h says which)
 * and the phase's window, per request class (read, write, FUA write, flush, discard,
 * other), the device time (issue to completion) and the queue time (insert to issue) of
 * the requests that completed, each as a count, an exact mean, percentiles and maximum
 * and the log-linear histogram of stats/hist.h; and, for the check against the outside,
 * the same devices' completed requests and their mean time (await) by /proc/diskstats
 * over the same window. The runner fills it (runner/phase_sample.c); JSON, the store, the
 * text's `device:` line and the report read it. docs/results-schema.md,
 * "device_latency", and docs/methodology.md, "Block-layer latency".
 * Ownership: a row owns its devlat (freed by run_free); not thread-safe. */
#ifndef IOB_STATS_RESULT_DEVLAT_H
#define IOB_STATS_RESULT_DEVLAT_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "stats/hist.h"

struct row;

enum rdl_op {
	RDL_READ, RDL_WRITE, RDL_WRITE_FUA, RDL_FLUSH, RDL_DISCARD, RDL_OTHER,
	RDL_NOPS
};

/* One time (device or queue) of one class. */
struct rdl_part {
	uint64_t n;			/* requests; 0: the rest is 0 and hist NULL */
	double mean_ns;			/* exact: the sum over n */
	uint64_t p50_ns, p99_ns, max_ns;
	struct hist *hist;		/* owned; NULL when n is 0 (or not loaded) */
};

struct rdl_op_figs {
	struct rdl_part dev, queue;
};

struct row_devlat {
	char *reason;			/* why there are no figures (not root, no BTF ...);
					 * NULL when measured */
	char *devices;			/* "vda" or "nvme0n1,nvme1n1": the devices counted */
	uint64_t requests;		/* completions counted: the classes', unissued and
					 * unstamped */
	uint64_t unissued;		/* seen inserted, completed without being issued */
	uint64_t unstamped;		/* completed, never seen inserted or issued: an
					 * fsync's empty flush request (the block layer
					 * answers it with a flush request of its own), or
					 * one issued before the program was attached */
	double diskstats_requests;	/* the same devices' completed requests by
					 * /proc/diskstats over the window; NaN unknown */
	double diskstats_await_ms;	/* their mean time by /proc/diskstats; NaN */
	double window_ns;		/* the window's length */
	double program_ns;		/* CPU time the program itself ran in the window, as
					 * the kernel counts it with kernel.bpf_stats_enabled
					 * set; NaN otherwise */
	struct rdl_op_figs op[RDL_NOPS];
};

/* "read", "write", "write_fua", "flush", "discard", "other". */
const char *rdl_op_name(enum rdl_op op);

/* An empty object (counts 0, diskstats figures NaN); NULL on ENOMEM. */
struct row_devlat *row_devlat_new(void);
void row_devlat_free(struct row_devlat *d);
/* Set p's summary from h (taking it; NULL or empty: n 0) and the exact sum and maximum
 * of its values (sum_ns, max_ns; 0: from the histogram). */
void rdl_part_set(struct rdl_part *p, struct hist *h, uint64_t sum_ns, uint64_t max_ns);
/* Device time and queue time of all classes together into *dev and *queue (requests,
 * mean, percentiles of the merged histograms; hists NULL). */
void rdl_total(const struct row_devlat *d, struct rdl_part *dev, struct rdl_part *queue);

/* JSON (jansson): the object for d (null when d is NULL); NULL on ENOMEM. */
json_t *rdl_to_json(const struct row_devlat *d);
/* Read o (absent or null: *out NULL); no_hist: the histograms are checked but not kept
 * (RESULT_LOAD_NO_HIST: compare and the report read the percentiles only). 0, or
 * -EINVAL/-ENOMEM with the member at fault in err. */
int rdl_from_json(const json_t *o, int no_hist, struct row_devlat **out, char *err,
		  size_t len);

#endif
