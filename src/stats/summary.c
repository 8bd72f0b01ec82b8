/* summary.c - Welford's online mean/variance and Chan et al.'s pairwise merge. */
#include <math.h>

#include "stats/summary.h"

void summary_init(struct summary *s)
{
	s->n = 0;
	s->mean = 0;
	s->m2 = 0;
	s->min = 0;
	s->max = 0;
}

void summary_add(struct summary *s, double x)
{
	double d;

	s->n++;
	if (s->n == 1) {
		s->min = x;
		s->max = x;
	} else {
		if (x < s->min)
			s->min = x;
		if (x > s->max)
			s->max = x;
	}
	d = x - s->mean;
	s->mean += d / (double)s->n;
	s->m2 += d * (x - s->mean);
}

void summary_merge(struct summary *dst, const struct summary *src)
{
	double na, nb, n, d;

	if (src->n == 0)
		return;
	if (dst->n == 0) {
		*dst = *src;
		return;
	}
	na = (double)dst->n;
	nb = (double)src->n;
	n = na + nb;
	d = src->mean - dst->mean;
	dst->mean += d * nb / n;
	dst->m2 += src->m2 + d * d * na * nb / n;
	dst->n += src->n;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

double summary_var(const struct summary *s)
{
	if (s->n < 2)
		return 0;
	return s->m2 / (double)(s->n - 1);
}

double summary_sd(const struct summary *s)
{
	return sqrt(summary_var(s));
}

double summary_cv(const struct summary *s)
{
	if (s->n < 2 || s->mean == 0)
		return 0;
	return summary_sd(s) / fabs(s->mean);
}
