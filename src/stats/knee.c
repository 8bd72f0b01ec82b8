/* knee.c - the knee detector (knee.h). The rule, as
 * docs/methodology.md states it: intervals i = 1..n with rates r_i (bytes over time of
 * each); a knee interval k splits them into before (1..k-1, at least KNEE_MIN_BEFORE),
 * the knee itself (k, where the fall happened part-way) and after (k+1..n, at least
 * hold). The burst rate is the bytes over the time before, the sustained rate those
 * after. A k qualifies when sustained <= (1 - drop) x burst and the series is a step
 * there: with the middle m = (burst + sustained) / 2, at most KNEE_SPIKE_SHARE of the
 * intervals before fall below m and at most that share of those after rise above it
 * (the rate fell and stayed down). Of the k that qualify, the knee is the one whose step (the
 * two means) fits the rates with the least squared error. Inside interval k the cliff
 * is where the burst rate, then the sustained rate, would write the interval's bytes
 * (place_cliff). */
#include <errno.h>
#include <math.h>

#include "stats/knee.h"

static double rate_between(const uint64_t *t, const uint64_t *b, size_t i, size_t j)
{
	return t[j] > t[i] ? (double)(b[j] - b[i]) / ((double)(t[j] - t[i]) / 1e9) : 0;
}

static double rate_of(const uint64_t *t, const uint64_t *b, size_t i)
{
	return rate_between(t, b, i - 1, i);
}

/* Squared error of the step (burst before k, sustained after k) over the rates. */
static double step_sse(const uint64_t *t, const uint64_t *b, size_t n, size_t k, double hi,
		       double lo)
{
	double s = 0, d;
	size_t i;

	for (i = 1; i <= n; i++) {
		if (i == k)
			continue;
		d = rate_of(t, b, i) - (i < k ? hi : lo);
		s += d * d;
	}
	return s;
}

/* 1 when knee interval k qualifies; burst and sustained rates into *hi, *lo. */
static int qualifies(const uint64_t *t, const uint64_t *b, size_t n, size_t k,
		     const struct knee_rule *rule, double *hi, double *lo)
{
	size_t i, low_before = 0, high_after = 0;
	double mid, r;

	*hi = rate_between(t, b, 0, k - 1);
	*lo = rate_between(t, b, k, n);
	if (!(*hi > 0) || *lo > (1 - rule->drop) * *hi)
		return 0;
	/* a step: the intervals before stay above the middle, those after below it */
	mid = (*hi + *lo) / 2;
	for (i = 1; i <= n; i++) {
		if (i == k)
			continue;
		r = rate_of(t, b, i);
		if (i < k)
			low_before += r < mid;
		else
			high_after += r > mid;
	}
	return (double)low_before <= KNEE_SPIKE_SHARE * (double)(k - 1) &&
	       (double)high_after <= KNEE_SPIKE_SHARE * (double)(n - k);
}

/* Where in interval k the rate fell: the burst rate for x seconds, then the sustained
 * rate for the rest, write the interval's bytes. The bytes before the cliff are the
 * interval's less what the sustained rate wrote after it: the burst rate times x where x
 * falls inside the interval, all of them where the interval ran at the burst rate or
 * faster (x clamped to its end), none where it ran at the sustained rate or slower. */
static void place_cliff(const uint64_t *t, const uint64_t *b, size_t k, struct knee *o)
{
	double d = (double)(t[k] - t[k - 1]) / 1e9, got = (double)(b[k] - b[k - 1]);
	double x = o->burst_rate > o->sustained_rate ?
		   (got - o->sustained_rate * d) / (o->burst_rate - o->sustained_rate) : 0;
	double before;

	x = x < 0 ? 0 : x > d ? d : x;
	before = got - o->sustained_rate * (d - x);
	before = before < 0 ? 0 : before > got ? got : before;
	o->cliff_s = (double)(t[k - 1] - t[0]) / 1e9 + x;
	o->cliff_bytes = (double)(b[k - 1] - b[0]) + before;
}

int knee_find(const uint64_t *t_ns, const uint64_t *bytes, size_t n,
	      const struct knee_rule *rule, struct knee *out)
{
	double hi, lo, sse;
	size_t k;

	if (!t_ns || !bytes || !rule || !out || !(rule->drop > 0 && rule->drop < 1) ||
	    rule->hold < 1)
		return -EINVAL;
	for (k = 1; k <= n; k++)
		if (t_ns[k] < t_ns[k - 1] || bytes[k] < bytes[k - 1])
			return -EINVAL;
	out->found = 0;
	out->k = 0;
	out->burst_rate = n ? rate_between(t_ns, bytes, 0, n) : 0;
	out->sustained_rate = NAN;
	out->cliff_bytes = NAN;
	out->cliff_s = NAN;
	out->sse = INFINITY;
	for (k = KNEE_MIN_BEFORE + 1; k + rule->hold <= n; k++) {
		if (!qualifies(t_ns, bytes, n, k, rule, &hi, &lo))
			continue;
		sse = step_sse(t_ns, bytes, n, k, hi, lo);
		if (out->found && sse >= out->sse)
			continue;
		out->found = 1;
		out->k = k;
		out->burst_rate = hi;
		out->sustained_rate = lo;
		out->sse = sse;
	}
	if (out->found)
		place_cliff(t_ns, bytes, out->k, out);
	return out->found;
}
