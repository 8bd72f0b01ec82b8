/* summary.h - Welford's running mean and variance for figures (one sample per run or
 * repeat, e.g. MB/s of each repeat); mergeable (Chan et al.'s parallel formula).
 * Uses floating point: not for the I/O loop (latencies go to struct hist). */
#ifndef IOB_STATS_SUMMARY_H
#define IOB_STATS_SUMMARY_H

#include <stdint.h>

struct summary {
	uint64_t n;
	double mean;
	double m2;		/* sum of squared deviations from the mean */
	double min, max;
};

void summary_init(struct summary *s);
void summary_add(struct summary *s, double x);
/* dst = summary of the union of both sample sets. */
void summary_merge(struct summary *dst, const struct summary *src);
/* Sample variance (n-1 denominator), 0 when n < 2. */
double summary_var(const struct summary *s);
double summary_sd(const struct summary *s);
/* Coefficient of variation sd/mean, 0 when mean == 0 or n < 2. */
double summary_cv(const struct summary *s);

#endif
