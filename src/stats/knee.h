/* knee.h - the knee of a sustained write: where the rate fell and stayed down
 * (docs/methodology.md, "Sustained writes"). Pure: no I/O, no clock; the sustained
 * workload feeds it the cumulative bytes at the end of each interval, verify --result
 * the series a result holds (result_check.c), the unit test crafted series.
 * Thread-safe: no shared state. */
#ifndef IOB_STATS_KNEE_H
#define IOB_STATS_KNEE_H

#include <stddef.h>
#include <stdint.h>

#define KNEE_MIN_BEFORE	2	/* intervals before the knee interval, at least */
#define KNEE_SPIKE_SHARE 0.10	/* intervals on either side that may cross the middle */

struct knee_rule {
	double drop;			/* the sustained rate is at most (1 - drop) x the
					 * burst rate: 0.3 = a fall of 30% or more */
	unsigned hold;			/* intervals after the knee interval, at least */
};

struct knee {
	int found;			/* 1: a knee; 0: none (the figures below then cover
					 * the whole series as burst) */
	size_t k;			/* the knee interval (1-based: from point k-1 to k) */
	double burst_rate;		/* B/s from point 0 to point k-1 */
	double sustained_rate;		/* B/s from point k to the last */
	double cliff_bytes;		/* bytes written when the rate fell (in interval k) */
	double cliff_s;			/* seconds from point 0 to then */
	double sse;			/* the step fit's squared error (for tests) */
};

/* Find the knee in n+1 points (t_ns[0], bytes[0] the start; then each interval's end;
 * both non-decreasing). Returns 1 and fills *out when a knee satisfies rule, 0 when none
 * (out then holds the whole series' rate as burst_rate), -EINVAL on bad arguments. */
int knee_find(const uint64_t *t_ns, const uint64_t *bytes, size_t n,
	      const struct knee_rule *rule, struct knee *out);

#endif
