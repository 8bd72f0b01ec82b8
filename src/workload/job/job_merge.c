/* job_merge.c - the one place where the figures of several threads become one: a
 * report unit's (fio's job or group block) from its threads', and a step's from its
 * units'. Every field is a sum, an extreme or a histogram, so the same function merges
 * ranks of a distributed run (issue: MPI) once their stats are sent to rank 0. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "workload/job/job_run.h"

static void lsum_init(struct job_lsum *s)
{
	memset(s, 0, sizeof(*s));
	s->min = UINT64_MAX;
}

static void lsum_merge(struct job_lsum *d, const struct job_lsum *s)
{
	d->n += s->n;
	d->sum += s->sum;
	d->sumsq += s->sumsq;
	if (s->min < d->min)
		d->min = s->min;
	if (s->max > d->max)
		d->max = s->max;
}

void job_stats_init(struct job_stats *s)
{
	unsigned i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < JOB_NDIR; i++)
		hist_init(&s->clat[i]);
	for (i = 0; i < JOB_DDIRS; i++) {
		lsum_init(&s->slat[i]);
		lsum_init(&s->lat[i]);
	}
	s->t_start = s->rt_min_ns = UINT64_MAX;
	s->samp_ns = JOB_SAMPLE_NS;
}

void job_stats_free(struct job_stats *s)
{
	free(s->lat_h);
	s->lat_h = NULL;
	free(s->samp);
	s->samp = NULL;
	s->nsamp = 0;
}

#define MIN_(a, b)	((a) < (b) ? (a) : (b))
#define MAX_(a, b)	((a) > (b) ? (a) : (b))

/* dst's samples += src's by interval index: the units' per-interval bandwidth is the sum
 * of its threads' (they start together). Cumulative counts: a thread that ended earlier
 * keeps its last figure in the later intervals. */
static int merge_samples(struct job_stats *dst, const struct job_stats *src)
{
	unsigned i, n = MAX_(dst->nsamp, src->nsamp), k;

	if (!src->nsamp)
		return 0;
	if (dst->nsamp && dst->samp_ns != src->samp_ns)
		return 0;	/* a thread whose interval doubled: its samples are left out */
	if (n > dst->nsamp || !dst->samp) {
		struct job_sample *ns = realloc(dst->samp, n * sizeof(*ns));

		if (!ns)
			return -ENOMEM;
		for (i = dst->nsamp; i < n; i++) {
			if (dst->nsamp)
				ns[i] = ns[dst->nsamp - 1];
			else
				memset(&ns[i], 0, sizeof(ns[i]));
		}
		dst->samp = ns;
		dst->nsamp = n;
	}
	dst->samp_ns = src->samp_ns;
	for (i = 0; i < n; i++) {
		const struct job_sample *x = &src->samp[i < src->nsamp ? i : src->nsamp - 1];

		for (k = 0; k < JOB_DDIRS; k++) {
			dst->samp[i].bytes[k] += x->bytes[k];
			dst->samp[i].ios[k] += x->ios[k];
		}
	}
	return 0;
}

int job_lat_hist_new(struct job_stats *s)
{
	unsigned i;

	if (s->lat_h)
		return 0;
	s->lat_h = malloc(JOB_DDIRS * sizeof(*s->lat_h));
	if (!s->lat_h)
		return -ENOMEM;
	for (i = 0; i < JOB_DDIRS; i++)
		hist_init(&s->lat_h[i]);
	return 0;
}

int job_merge(struct job_stats *dst, const struct job_stats *src)
{
	unsigned i;

	if (src->lat_h && job_lat_hist_new(dst) < 0)
		return -ENOMEM;
	for (i = 0; src->lat_h && i < JOB_DDIRS; i++)
		hist_merge(&dst->lat_h[i], &src->lat_h[i]);

	dst->nthreads += src->nthreads;
	for (i = 0; i < JOB_NDIR; i++) {
		dst->ios[i] += src->ios[i];
		dst->bytes[i] += src->bytes[i];
		hist_merge(&dst->clat[i], &src->clat[i]);
	}
	for (i = 0; i < JOB_DDIRS; i++) {
		dst->short_ios[i] += src->short_ios[i];
		lsum_merge(&dst->slat[i], &src->slat[i]);
		lsum_merge(&dst->lat[i], &src->lat[i]);
	}
	dst->t_start = MIN_(dst->t_start, src->t_start);
	dst->t_stop = MAX_(dst->t_stop, src->t_stop);
	dst->t_last_write = MAX_(dst->t_last_write, src->t_last_write);
	dst->t_durable = MAX_(dst->t_durable, src->t_durable);
	dst->rt_sum_ns += src->rt_sum_ns;
	dst->rt_min_ns = MIN_(dst->rt_min_ns, src->rt_min_ns);
	dst->rt_max_ns = MAX_(dst->rt_max_ns, src->rt_max_ns);
	dst->usr_ns += src->usr_ns;
	dst->sys_ns += src->sys_ns;
	dst->ctx += src->ctx;
	dst->majf += src->majf;
	dst->minf += src->minf;
	for (i = 0; i < JOB_DEPTH_BKT; i++) {
		dst->depth[i] += src->depth[i];
		dst->submit[i] += src->submit[i];
		dst->complete[i] += src->complete[i];
	}
	dst->first_done_bytes += src->first_done_bytes;
	for (i = 0; i < JOB_DDIRS; i++)
		dst->errs[i] += src->errs[i];
	if (!dst->first_err)
		dst->first_err = src->first_err;
	dst->sync_only_engine = dst->sync_only_engine || src->sync_only_engine;
	if (!dst->err && src->err) {
		dst->err = src->err;
		dst->err_op = src->err_op;
		dst->err_off = src->err_off;
		dst->err_len = src->err_len;
		memcpy(dst->errtxt, src->errtxt, sizeof(dst->errtxt));
	}
	return merge_samples(dst, src);
}
