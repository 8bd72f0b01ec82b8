/* ranks_int.h - what ranks.c, ranks_merge.c and ranks_row.c share: the book of phase
 * rows with their per-rank timing. Not for use outside src/runner. */
#ifndef IOB_RUNNER_RANKS_INT_H
#define IOB_RUNNER_RANKS_INT_H

#include <stddef.h>
#include <stdint.h>

struct comm_fault;
struct rank_fig;
struct row;
struct runner;

/* A row made by phase_end, with what this rank knows of its timing. */
struct rank_book_entry {
	struct row *row;		/* owned by the run; compared, never freed here */
	uint64_t start_ns;		/* the phase's t0 after this rank's release */
	uint64_t *st, *sd;		/* samples: ns from t0, count (owned) */
	unsigned ns;
	uint64_t sw_bytes, sw_ns;	/* stonewall figure, 0 none */
};

struct rank_book {
	struct rank_book_entry *e;
	size_t n, cap;
};

/* Book row (taking st and sd) in rc's book. 0 or -ENOMEM (then the caller keeps them). */
int ranks_book_row(struct runner *rc, const struct row *row, uint64_t start_ns, uint64_t *st,
		   uint64_t *sd, unsigned ns, uint64_t sw_bytes, uint64_t sw_ns);
/* The latest entry for row, or NULL (an untimed row). */
const struct rank_book_entry *ranks_book_find(const struct runner *rc, const struct row *row);
/* sig_stop_peer() and, on rank 0, one message saying which rank failed and why. */
void ranks_stop(const struct comm_fault *f);

/* Metrics of n ranks merged by unit (ranks_row.c): "s" the maximum, "bool" the maximum,
 * "%" the mean, everything else (counts, bytes, rates) the sum. */
double ranks_metric_merge(const char *unit, const double *v, unsigned n);

/* How a metric of several ranks becomes the merged row's, where its unit's rule
 * (ranks_metric_merge) would be wrong (ranks_metric.c). */
enum ranks_rule {
	RANKS_BY_UNIT = 0,	/* ranks_metric_merge */
	RANKS_MIN,		/* the smallest */
	RANKS_MAX,		/* the largest */
	RANKS_MEAN,		/* the ranks' mean */
	RANKS_WMEAN,		/* the mean weighted by the count metric n */
	RANKS_POOLED_SD,	/* the sample sd of all samples: counts n, means mean */
	RANKS_SPAN,		/* a rate over the rank's own time: all ranks' work over the
				 * merged row's time (IOR's rule, as the row's rate) */
	RANKS_HOST,		/* a host-wide counter (a device's): each host's largest, summed */
	RANKS_FIRST,		/* the lowest rank's value that is not 0 (an errno) */
};

struct ranks_metric_rule {
	const char *name;		/* the metric (stats/result_keys.h) */
	enum ranks_rule rule;
	const char *n;			/* the metric counting its samples, or NULL */
	const char *mean;		/* RANKS_POOLED_SD: the metric of their mean */
};

/* The rules, ended by a NULL name. Constant. */
extern const struct ranks_metric_rule ranks_metric_rules[];

/* Every rank's values of a row's metrics, and what the rules need besides. */
struct ranks_metric_in {
	const double *vals;		/* vals[i * n + r]: rank r's metric i, NaN when absent */
	unsigned n;			/* ranks */
	const struct rank_fig *fig;	/* fig[r]: rank r's own figures (its elapsed_ns) */
	const char *const *hosts;	/* hosts[r] or NULL: rank r's host */
	uint64_t span_ns;		/* the merged row's elapsed_ns */
};

/* Rank 0's row w: its first nm metrics get the merged values of in (row w's metric i
 * is in->vals[i * n ...]; counts and means a rule uses are found among those nm by
 * name). 0 or -ENOMEM. Pure, thread-safe for distinct rows. */
int ranks_merge_metrics(struct row *w, size_t nm, const struct ranks_metric_in *in);

/* Rank 0 gathers every rank's environment into run->ranks (fs_differs set against rank
 * 0's file system type); every rank calls it. 0, -ENOMEM or the comm error
 * (ranks_env.c). */
struct run;
int ranks_merge_envs(struct run *run);

#endif
