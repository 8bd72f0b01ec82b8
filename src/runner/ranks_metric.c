/* ranks_metric.c - a merged row's metrics from every rank's values (mpirun), without any
 * communication (ranks_merge.c gathers the values; t_ranks injects them). Most metrics
 * merge by their unit (ranks_metric_merge); the table below names those that need
 * another rule: the extremes and moments of a latency summary, rates over a rank's own
 * time, counters of a device that every rank on a host sees whole, an errno. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runner/ranks.h"
#include "runner/ranks_int.h"
#include "stats/result.h"
#include "stats/result_keys.h"

/* Metrics whose rule is not their unit's. A rule with a count (n) leaves out the ranks
 * whose count is 0 (a summary of nothing holds zeros, not figures). */
const struct ranks_metric_rule ranks_metric_rules[] = {
	{ RK_JOB_SLAT_MIN_NS, RANKS_MIN, RK_JOB_SLAT_N, NULL },
	{ RK_JOB_SLAT_MAX_NS, RANKS_MAX, RK_JOB_SLAT_N, NULL },
	{ RK_JOB_SLAT_MEAN_NS, RANKS_WMEAN, RK_JOB_SLAT_N, NULL },
	{ RK_JOB_SLAT_SD_NS, RANKS_POOLED_SD, RK_JOB_SLAT_N, RK_JOB_SLAT_MEAN_NS },
	{ RK_JOB_LAT_MIN_NS, RANKS_MIN, RK_JOB_LAT_N, NULL },
	{ RK_JOB_LAT_MAX_NS, RANKS_MAX, RK_JOB_LAT_N, NULL },
	{ RK_JOB_LAT_MEAN_NS, RANKS_WMEAN, RK_JOB_LAT_N, NULL },
	{ RK_JOB_LAT_SD_NS, RANKS_POOLED_SD, RK_JOB_LAT_N, RK_JOB_LAT_MEAN_NS },
	{ RK_JOB_BW_BYTES, RANKS_SPAN, NULL, NULL },
	{ RK_JOB_IOPS, RANKS_SPAN, NULL, NULL },
	{ RK_JOB_BW_SAMPLES, RANKS_MAX, NULL, NULL },
	{ RK_JOB_IOPS_SAMPLES, RANKS_MAX, NULL, NULL },
	{ RK_JOB_ERRNO, RANKS_FIRST, NULL, NULL },
	{ RK_JOB_FIRST_DONE_S, RANKS_MIN, NULL, NULL },
	{ RK_JOB_DEV_READ_BYTES, RANKS_HOST, NULL, NULL },
	{ RK_JOB_DEV_WRITE_BYTES, RANKS_HOST, NULL, NULL },
	{ RK_JOB_READ_IOS, RANKS_HOST, NULL, NULL },
	{ RK_JOB_WRITE_IOS, RANKS_HOST, NULL, NULL },
	{ RK_JOB_READ_MERGES, RANKS_HOST, NULL, NULL },
	{ RK_JOB_WRITE_MERGES, RANKS_HOST, NULL, NULL },
	{ RK_JOB_READ_TICKS, RANKS_HOST, NULL, NULL },
	{ RK_JOB_WRITE_TICKS, RANKS_HOST, NULL, NULL },
	{ RK_JOB_IN_QUEUE, RANKS_HOST, NULL, NULL },
	{ RK_FSYNC_USECS_PER_OP, RANKS_MEAN, NULL, NULL },
	{ RK_FSYNC_FLOOR_US, RANKS_MEAN, NULL, NULL },
	{ RK_FSYNC_DEVICE_FLUSHES, RANKS_HOST, NULL, NULL },
	{ RK_FSYNC_DEVICE_WRITES, RANKS_HOST, NULL, NULL },
	{ RK_IOZ_MIN_RATE, RANKS_MIN, NULL, NULL },
	{ RK_IOZ_MAX_RATE, RANKS_MAX, NULL, NULL },
	{ RK_IOZ_AVG_RATE, RANKS_MEAN, NULL, NULL },
	{ RK_IOZ_MIN_XFER, RANKS_MIN, NULL, NULL },
	{ RK_CP_MEMCPY_BANDWIDTH, RANKS_MEAN, NULL, NULL },
	/* --verify: the first bad block of each class is the lowest offset of any rank
	 * that found one (each rank's own in the row's ranks), not a sum of offsets */
	{ RK_VERIFY_FIRST_CORRUPTED, RANKS_MIN, RK_VERIFY_CORRUPTED, NULL },
	{ RK_VERIFY_FIRST_MISDIRECTED, RANKS_MIN, RK_VERIFY_MISDIRECTED, NULL },
	{ RK_VERIFY_FIRST_STALE, RANKS_MIN, RK_VERIFY_STALE, NULL },
	{ RK_VERIFY_FIRST_OTHER_RUN, RANKS_MIN, RK_VERIFY_OTHER_RUN, NULL },
	{ RK_VERIFY_FIRST_ZEROED, RANKS_MIN, RK_VERIFY_ZEROED, NULL },
	{ RK_VERIFY_FIRST_NO_HEADER, RANKS_MIN, RK_VERIFY_NO_HEADER, NULL },
	{ RK_VERIFY_FIRST_TORN, RANKS_MIN, RK_VERIFY_TORN, NULL },
	{ RK_VERIFY_FIRST_MISSING, RANKS_MIN, RK_VERIFY_MISSING, NULL },
	{ NULL, RANKS_BY_UNIT, NULL, NULL },
};

static const struct ranks_metric_rule *rule_of(const char *name)
{
	const struct ranks_metric_rule *k;

	for (k = ranks_metric_rules; k->name; k++)
		if (!strcmp(k->name, name))
			return k;
	return NULL;
}

/* The index of metric name among w's first nm, or -1. */
static long index_of(const struct row *w, size_t nm, const char *name)
{
	size_t i;

	for (i = 0; name && i < nm; i++)
		if (!strcmp(w->metrics[i].name, name))
			return (long)i;
	return -1;
}

/* Whether rank r counts: its value is a number and its count (when the rule has one)
 * is above 0. */
static int counts(const double *v, const double *cnt, unsigned r)
{
	return isfinite(v[r]) && (!cnt || (isfinite(cnt[r]) && cnt[r] > 0));
}

static double extreme(const double *v, const double *cnt, unsigned n, int max)
{
	double acc = NAN;
	unsigned r;

	for (r = 0; r < n; r++)
		if (counts(v, cnt, r) && (isnan(acc) || (max ? v[r] > acc : v[r] < acc)))
			acc = v[r];
	/* every rank's count 0: its summary's zeros stand */
	for (r = 0; isnan(acc) && r < n; r++)
		if (isfinite(v[r]))
			acc = v[r];
	return acc;
}

static double wmean(const double *v, const double *cnt, unsigned n)
{
	double s = 0, k = 0;
	unsigned r;

	for (r = 0; r < n; r++) {
		if (!counts(v, cnt, r))
			continue;
		s += (cnt ? cnt[r] : 1) * v[r];
		k += cnt ? cnt[r] : 1;
	}
	return k > 0 ? s / k : extreme(v, cnt, n, 0);
}

/* The sample sd of the union of the ranks' samples: the sum of squared deviations from
 * the common mean is, per rank, (n - 1) sd^2 + n (mean - common mean)^2. */
static double pooled_sd(const double *sd, const double *cnt, const double *mean, unsigned n)
{
	double m, ss = 0, k = 0;
	unsigned r;

	if (!cnt || !mean)
		return wmean(sd, cnt, n);
	m = wmean(mean, cnt, n);
	for (r = 0; r < n; r++) {
		if (!counts(sd, cnt, r) || !isfinite(mean[r]))
			continue;
		ss += (cnt[r] - 1) * sd[r] * sd[r] + cnt[r] * (mean[r] - m) * (mean[r] - m);
		k += cnt[r];
	}
	return k > 1 ? sqrt(ss / (k - 1)) : k > 0 ? 0 : extreme(sd, cnt, n, 0);
}

/* A rate over each rank's own time: the work (rate x own time) of all ranks over the
 * merged row's time, as the row's rate. */
static double span_rate(const double *v, const struct rank_fig *fig, unsigned n,
			uint64_t span_ns)
{
	double work = 0, sum = 0;
	unsigned r, k = 0;

	for (r = 0; r < n; r++) {
		if (!isfinite(v[r]))
			continue;
		work += v[r] * (double)fig[r].elapsed_ns;
		sum += v[r];
		k++;
	}
	if (!k)
		return NAN;
	return span_ns ? work / (double)span_ns : sum;
}

static int same_host(const char *const *hosts, unsigned a, unsigned b)
{
	return hosts && hosts[a] && hosts[b] && !strcmp(hosts[a], hosts[b]);
}

/* Each host's largest value (its ranks see the same device), summed over the hosts. */
static double per_host(const double *v, const char *const *hosts, unsigned n)
{
	double acc = 0, mx;
	unsigned r, q, k = 0;

	for (r = 0; r < n; r++) {
		for (q = 0; q < r && !same_host(hosts, q, r); q++)
			;
		if (q < r)
			continue;	/* that host is counted already */
		for (mx = NAN, q = r; q < n; q++)
			if ((q == r || same_host(hosts, q, r)) && isfinite(v[q]) &&
			    (isnan(mx) || v[q] > mx))
				mx = v[q];
		if (isfinite(mx)) {
			acc += mx;
			k++;
		}
	}
	return k ? acc : NAN;
}

static double first_set(const double *v, unsigned n)
{
	unsigned r;

	for (r = 0; r < n; r++)
		if (isfinite(v[r]) && v[r] != 0)
			return v[r];
	return extreme(v, NULL, n, 0);
}

static double merge_by(const struct ranks_metric_rule *k, const double *v, const double *cnt,
		       const double *mean, const struct ranks_metric_in *in)
{
	switch (k->rule) {
	case RANKS_MIN:
		return extreme(v, cnt, in->n, 0);
	case RANKS_MAX:
		return extreme(v, cnt, in->n, 1);
	case RANKS_MEAN:
		return wmean(v, NULL, in->n);
	case RANKS_WMEAN:
		return wmean(v, cnt, in->n);
	case RANKS_POOLED_SD:
		return pooled_sd(v, cnt, mean, in->n);
	case RANKS_SPAN:
		return span_rate(v, in->fig, in->n, in->span_ns);
	case RANKS_HOST:
		return per_host(v, in->hosts, in->n);
	case RANKS_FIRST:
		return first_set(v, in->n);
	case RANKS_BY_UNIT:
		break;
	}
	return NAN;
}

int ranks_merge_metrics(struct row *w, size_t nm, const struct ranks_metric_in *in)
{
	double *out = calloc(nm + 1, sizeof(*out));
	const struct ranks_metric_rule *k;
	const double *cnt, *mean;
	size_t i;
	long c, m;

	if (!out)
		return -ENOMEM;
	for (i = 0; i < nm; i++) {
		const double *v = in->vals + i * in->n;

		k = rule_of(w->metrics[i].name);
		if (!k) {
			out[i] = ranks_metric_merge(w->metrics[i].unit, v, in->n);
			continue;
		}
		c = index_of(w, nm, k->n);
		m = index_of(w, nm, k->mean);
		cnt = c >= 0 ? in->vals + (size_t)c * in->n : NULL;
		mean = m >= 0 ? in->vals + (size_t)m * in->n : NULL;
		out[i] = merge_by(k, v, cnt, mean, in);
	}
	for (i = 0; i < nm; i++)
		w->metrics[i].value = out[i];
	free(out);
	return 0;
}
