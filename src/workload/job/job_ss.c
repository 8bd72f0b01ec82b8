/* job_ss.c - fio's steady state (job_ss.h): the options, a thread's seconds and the
 * judgement, the unit's figures on its rows. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/runner.h"
#include "stats/result.h"
#include "stats/result_keys.h"
#include "workload/job/job_int.h"
#include "workload/job/job_run.h"
#include "workload/job/job_ss.h"

#define SS_SEC	1000000000ull

struct job_ssrun {
	const struct job_sscfg *c;
	unsigned n;			/* seconds in the window */
	uint64_t next;			/* end of the current second (clock_ns) */
	bool started;			/* past ss_ramp: bytes0/ios0 hold */
	uint64_t bytes0, ios0;		/* totals at the current second's start */
	uint64_t lsum0, ln0;		/* completion latencies' sum and count then */
	uint64_t *iops, *bw;		/* ring of n seconds */
	uint64_t *lsum, *ln;		/* the seconds' latency sums and counts */
	double *v;			/* n: room for a judgement (none in the loop) */
	unsigned head, count;
	bool attained;
	double crit, max_dev, slope, iops_mean, bw_mean, lat_mean;
};

/* ---- options ---- */

static const char *const ss_names[] = { "", "iops", "iops_slope", "bw", "bw_slope", "lat",
					"lat_slope" };

/* steadystate=KIND:LIMIT[%] */
static int ss_opt(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		  const char *val)
{
	char buf[64], *colon;
	struct job_sscfg *c = &d->ss;
	size_t len;
	unsigned k;

	(void)o;
	if (!val || strlen(val) >= sizeof(buf))
		return job_opt_bad(ps, val, "KIND:LIMIT expected (iops:2%, bw_slope:0.1% ...)");
	strcpy(buf, val);
	colon = strchr(buf, ':');
	if (!colon)
		return job_opt_bad(ps, val, "KIND:LIMIT expected (iops:2%, bw_slope:0.1% ...)");
	*colon++ = '\0';
	for (k = 1; k < sizeof(ss_names) / sizeof(ss_names[0]); k++)
		if (!strcmp(buf, ss_names[k]))
			break;
	if (k == sizeof(ss_names) / sizeof(ss_names[0]))
		return job_opt_bad(ps, val, "the criterion is iops, iops_slope, bw, bw_slope, lat "
				   "or lat_slope");
	len = strlen(colon);
	c->pct = len && colon[len - 1] == '%';
	if (c->pct)
		colon[len - 1] = '\0';
	if (job_parse_double(colon, &c->limit) || !isfinite(c->limit) || c->limit < 0)
		return job_opt_bad(ps, val, "the limit is a number, at least 0 (or a percentage)");
	c->kind = (enum job_ss_kind)k;
	return 0;
}

#define SS_OFF(f)	offsetof(struct job_def, f)

static const struct job_optdef ss_opts[] = {
	{ "steadystate", "ss", JOB_OPT_COUNT, JK_SPECIAL, 0, 0, 0, 0, 0, ss_opt },
	/* seconds when bare, as fio */
	{ "steadystate_duration", "ss_dur", JOB_OPT_COUNT, JK_TIME, 0, SS_OFF(ss.dur_us), 0,
	  0, 1000000u, NULL },
	{ "steadystate_ramp_time", "ss_ramp", JOB_OPT_COUNT, JK_TIME, 0, SS_OFF(ss.ramp_us), 0,
	  0, 1000000u, NULL },
};

const struct job_optdef *job_ss_opt_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(ss_opts) / sizeof(ss_opts[0]); i++)
		if (!strcmp(ss_opts[i].name, name) || !strcmp(ss_opts[i].alias, name))
			return &ss_opts[i];
	return NULL;
}

bool job_ss_on(const struct job_sscfg *c)
{
	return c->kind != JOB_SS_NONE && c->dur_us >= 1000000u;
}

void job_ss_spec(const struct job_sscfg *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s:%f%s", ss_names[c->kind], c->limit, c->pct ? "%" : "");
}

/* ---- a thread's seconds ---- */

int job_ss_new(const struct job_def *d, uint64_t t0, struct job_ssrun **out)
{
	struct job_ssrun *s;

	*out = NULL;
	if (!job_ss_on(&d->ss))
		return 0;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->c = &d->ss;
	s->n = (unsigned)(d->ss.dur_us / 1000000u);
	s->iops = calloc(s->n, sizeof(*s->iops));
	s->bw = calloc(s->n, sizeof(*s->bw));
	s->lsum = calloc(s->n, sizeof(*s->lsum));
	s->ln = calloc(s->n, sizeof(*s->ln));
	s->v = calloc(s->n, sizeof(*s->v));
	if (!s->iops || !s->bw || !s->lsum || !s->ln || !s->v) {
		job_ss_free(s);
		return -ENOMEM;
	}
	s->next = t0 + d->ss.ramp_us * 1000u;
	*out = s;
	return 0;
}

void job_ss_free(struct job_ssrun *s)
{
	if (!s)
		return;
	free(s->iops);
	free(s->bw);
	free(s->lsum);
	free(s->ln);
	free(s->v);
	free(s);
}

uint64_t job_ss_next(const struct job_ssrun *s)
{
	return s->next;
}

/* x[i] of the window, oldest first. */
static double ss_at(const struct job_ssrun *s, const uint64_t *x, unsigned i)
{
	return (double)x[(s->head + s->n - s->count + i) % s->n];
}

/* The mean, largest deviation from it and least-squares slope (per second) of n values
 * v(0..n-1). The slope: sum((i - im)(y - ym)) / sum((i - im)^2). */
static void ss_fit(const double *v, unsigned n, double *mean, double *maxdev, double *slope)
{
	double sy = 0, sxy = 0, sxx = 0, im = (n - 1) / 2.0;
	unsigned i;

	for (i = 0; i < n; i++)
		sy += v[i];
	*mean = n ? sy / n : 0;
	*maxdev = 0;
	for (i = 0; i < n; i++) {
		if (fabs(v[i] - *mean) > *maxdev)
			*maxdev = fabs(v[i] - *mean);
		sxy += (i - im) * (v[i] - *mean);
		sxx += (i - im) * (i - im);
	}
	*slope = sxx > 0 ? sxy / sxx : 0;
}

/* The mean completion latency of second i of the window (0 when it completed nothing). */
static double ss_lat(const struct job_ssrun *s, unsigned i)
{
	double n = ss_at(s, s->ln, i);

	return n > 0 ? ss_at(s, s->lsum, i) / n : 0;
}

/* Judge the n values of the criterion's figure (the window, or a unit's sum). */
static bool ss_judge(const struct job_sscfg *c, const double *v, unsigned n, double *crit,
		     double *maxdev, double *slope)
{
	bool slope_kind = c->kind == JOB_SS_IOPS_SLOPE || c->kind == JOB_SS_BW_SLOPE ||
			  c->kind == JOB_SS_LAT_SLOPE;
	double mean, x;

	ss_fit(v, n, &mean, maxdev, slope);
	if (!slope_kind)
		*slope = 0;		/* fio reports the one it judged */
	else
		*maxdev = 0;
	x = slope_kind ? *slope : *maxdev;
	*crit = c->pct ? (mean > 0 ? 100.0 * x / mean : (x ? INFINITY : 0)) : x;
	return fabs(*crit) <= c->limit && mean > 0;
}

static enum job_ss_kind ss_base(enum job_ss_kind k)
{
	return k == JOB_SS_IOPS_SLOPE ? JOB_SS_IOPS : k == JOB_SS_BW_SLOPE ? JOB_SS_BW :
	       k == JOB_SS_LAT_SLOPE ? JOB_SS_LAT : k;
}

/* The window (full) judged; the three means kept for the report. */
static void ss_eval(struct job_ssrun *s)
{
	enum job_ss_kind k = ss_base(s->c->kind);
	double d, sl;
	unsigned i;

	for (i = 0; i < s->n; i++)
		s->v[i] = ss_at(s, s->bw, i);
	ss_fit(s->v, s->n, &s->bw_mean, &d, &sl);
	for (i = 0; i < s->n; i++)
		s->v[i] = ss_lat(s, i);
	ss_fit(s->v, s->n, &s->lat_mean, &d, &sl);
	for (i = 0; i < s->n; i++)
		s->v[i] = ss_at(s, s->iops, i);
	ss_fit(s->v, s->n, &s->iops_mean, &d, &sl);
	for (i = 0; i < s->n; i++)	/* the criterion's figure */
		s->v[i] = k == JOB_SS_BW ? ss_at(s, s->bw, i) : k == JOB_SS_LAT ? ss_lat(s, i) :
			  ss_at(s, s->iops, i);
	s->attained = ss_judge(s->c, s->v, s->n, &s->crit, &s->max_dev, &s->slope);
}

bool job_ss_tick(struct job_ssrun *s, uint64_t t, uint64_t bytes, uint64_t ios,
		 uint64_t lsum, uint64_t ln)
{
	if (!s->started) {
		s->started = true;
		s->bytes0 = bytes;
		s->ios0 = ios;
		s->lsum0 = lsum;
		s->ln0 = ln;
		s->next += SS_SEC;
		return false;
	}
	/* every second that ended: the first gets what came since, the others nothing */
	while (t >= s->next) {
		s->iops[s->head] = ios - s->ios0;
		s->bw[s->head] = bytes - s->bytes0;
		s->lsum[s->head] = lsum - s->lsum0;
		s->ln[s->head] = ln - s->ln0;
		s->head = (s->head + 1) % s->n;
		if (s->count < s->n)
			s->count++;
		s->ios0 = ios;
		s->bytes0 = bytes;
		s->lsum0 = lsum;
		s->ln0 = ln;
		s->next += SS_SEC;
		if (s->count == s->n) {
			ss_eval(s);
			if (s->attained)
				return true;
		}
	}
	return false;
}

/* ---- the unit's rows ---- */

/* The unit's figures: its threads' last seconds (as many as the fullest holds) summed
 * second by second (latency: all completions of the second over their count), judged
 * again; attained when every thread attained. */
struct ss_unit {
	unsigned n;
	bool attained;
	double crit, max_dev, slope, iops_mean, bw_mean, lat_mean;
	double *iops, *bw, *lsum, *ln;
};

static int ss_unit(const struct job_plan *p, const struct job_unit *u, struct ss_unit *r)
{
	const struct job_sscfg *c = &p->threads[u->first_thread].d->ss;
	enum job_ss_kind kind = ss_base(c->kind);
	double d, sl;
	unsigned i, k;

	memset(r, 0, sizeof(*r));
	r->attained = true;
	for (k = 0; k < u->nthreads; k++) {
		const struct job_ssrun *s = p->threads[u->first_thread + k].ss;

		if (s && s->count > r->n)
			r->n = s->count;
		r->attained &= s && s->attained;
	}
	r->iops = calloc(r->n + 1, sizeof(*r->iops));
	r->bw = calloc(r->n + 1, sizeof(*r->bw));
	r->lsum = calloc(r->n + 1, sizeof(*r->lsum));
	r->ln = calloc(r->n + 1, sizeof(*r->ln));
	if (!r->iops || !r->bw || !r->lsum || !r->ln)
		return -ENOMEM;
	for (k = 0; k < u->nthreads; k++) {
		const struct job_ssrun *s = p->threads[u->first_thread + k].ss;
		unsigned o = s ? r->n - s->count : 0;

		/* the last seconds line up at the end: a thread that held fewer adds to the
		 * latest ones */
		for (i = 0; s && i < s->count; i++) {
			r->iops[o + i] += ss_at(s, s->iops, i);
			r->bw[o + i] += ss_at(s, s->bw, i);
			r->lsum[o + i] += ss_at(s, s->lsum, i);
			r->ln[o + i] += ss_at(s, s->ln, i);
		}
	}
	for (i = 0; i < r->n; i++)	/* lsum becomes the seconds' mean latency */
		r->lsum[i] = r->ln[i] > 0 ? r->lsum[i] / r->ln[i] : 0;
	if (r->n)
		(void)ss_judge(c, kind == JOB_SS_IOPS ? r->iops : kind == JOB_SS_BW ? r->bw :
			       r->lsum, r->n, &r->crit, &r->max_dev, &r->slope);
	ss_fit(r->iops, r->n, &r->iops_mean, &d, &sl);
	ss_fit(r->bw, r->n, &r->bw_mean, &d, &sl);
	ss_fit(r->lsum, r->n, &r->lat_mean, &d, &sl);
	return 0;
}

static int ss_list(struct row *w, const char *key, const double *v, unsigned n)
{
	size_t cap = (size_t)n * 22 + 1, len = 0;
	char *buf = malloc(cap);
	unsigned i;
	int rc;

	if (!buf)
		return -ENOMEM;
	buf[0] = '\0';
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(buf + len, cap - len, "%s%.0f", i ? "," : "", v[i]);
	rc = kv_set(&w->params, key, "%s", buf);
	free(buf);
	return rc;
}

int job_ss_rows(struct runner *rc, const struct job_plan *p, const struct job_unit *u,
		int nrows)
{
	const struct job_sscfg *c = &p->threads[u->first_thread].d->ss;
	struct ss_unit ru, *r = &ru;
	char spec[64];
	int i, e = 0;

	if (!job_ss_on(c) || nrows <= 0 || (size_t)nrows > rc->run->nrows)
		return 0;
	e = ss_unit(p, u, r);
	job_ss_spec(c, spec, sizeof(spec));
	for (i = 0; i < nrows && !e; i++) {
		struct row *w = rc->run->rows[rc->run->nrows - (size_t)nrows + (size_t)i];

		e |= kv_set(&w->params, RK_JOB_SS, "%s", spec);
		e |= row_add_metric(w, RK_JOB_SS_ATTAINED, r->attained ? 1 : 0, "bool");
		e |= row_add_metric(w, RK_JOB_SS_DURATION, (double)(c->dur_us / 1000000u), "s");
		e |= row_add_metric(w, RK_JOB_SS_CRITERION, r->crit, "");
		e |= row_add_metric(w, RK_JOB_SS_MAX_DEV, r->max_dev, "");
		e |= row_add_metric(w, RK_JOB_SS_SLOPE, r->slope, "/s");
		e |= row_add_metric(w, RK_JOB_SS_IOPS_MEAN, r->iops_mean, "IO/s");
		e |= row_add_metric(w, RK_JOB_SS_BW_MEAN, r->bw_mean, "B/s");
		e |= ss_list(w, RK_JOB_SS_IOPS_DATA, r->iops, r->n);
		e |= ss_list(w, RK_JOB_SS_BW_DATA, r->bw, r->n);
		if (ss_base(c->kind) == JOB_SS_LAT) {	/* fio 3.42 adds these for lat */
			e |= row_add_metric(w, RK_JOB_SS_LAT_MEAN, r->lat_mean, "ns");
			e |= ss_list(w, RK_JOB_SS_LAT_DATA, r->lsum, r->n);
		}
	}
	free(r->iops);
	free(r->bw);
	free(r->lsum);
	free(r->ln);
	return e ? -ENOMEM : 0;
}
