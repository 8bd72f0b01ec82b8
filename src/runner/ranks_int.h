/* ranks_int.h - what ranks.c, ranks_merge.c and ranks_row.c share: the book of phase
 * rows with their per-rank timing. Not for use outside src/runner. */
#ifndef IOB_RUNNER_RANKS_INT_H
#define IOB_RUNNER_RANKS_INT_H

#include <stddef.h>
#include <stdint.h>

struct comm_fault;
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

/* Rank 0 gathers every rank's environment into run->ranks (fs_differs set against rank
 * 0's file system type); every rank calls it. 0, -ENOMEM or the comm error
 * (ranks_env.c). */
struct run;
int ranks_merge_envs(struct run *run);

#endif
