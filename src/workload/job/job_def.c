/* job_def.c - a job definition's defaults (fio's), deep copies for [global]
 * inheritance, and the fix-ups and checks fio makes once a job is complete. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "workload/job/job_int.h"

/* fio's default percentile_list */
static const double job_def_pctl[] = { 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99,
				       99.5, 99.9, 99.95, 99.99 };

int job_strset(char **dst, const char *s)
{
	char *n = NULL;

	if (s) {
		n = strdup(s);
		if (!n)
			return -ENOMEM;
	}
	free(*dst);
	*dst = n;
	return 0;
}

void job_def_defaults(struct job_def *d)
{
	unsigned i;

	memset(d, 0, sizeof(*d));
	d->rw = JOB_RW_READ;
	d->rw_seq_nr = 1;
	d->rwmix[JOB_READ] = d->rwmix[JOB_WRITE] = 50;
	for (i = 0; i < JOB_DDIRS; i++)
		d->bs_opt[i] = 4096;
	d->nrfiles = 1;
	d->iodepth = 1;
	d->iodepth_batch = 1;
	d->iodepth_batch_complete_min = 1;
	d->numjobs = 1;
	d->engine = &engine_psync;
	d->engine_name = engine_psync.name;
	d->sync = JOB_SYNC_NONE;
	d->loops = 1;
	d->rate_process = JOB_RATE_LINEAR;
	d->dist.kind = JOB_DIST_RANDOM;
	d->dist.center = -1;
	d->randrepeat = true;
	d->randseed = JOB_DEF_RANDSEED;
	d->npctl = sizeof(job_def_pctl) / sizeof(job_def_pctl[0]);
	for (i = 0; i < d->npctl; i++)
		d->pctl[i] = job_def_pctl[i];
	d->kb_base = 1024;
	d->invalidate = true;
}

void job_def_clear(struct job_def *d)
{
	free(d->name);
	free(d->section);
	free(d->src);
	free(d->description);
	free(d->filename);
	free(d->directory);
	free(d->write_iolog);
	d->name = d->section = d->src = d->description = d->filename = d->directory = NULL;
	d->write_iolog = NULL;
	job_logcfg_clear(&d->logs);
}

int job_def_copy(struct job_def *dst, const struct job_def *src)
{
	*dst = *src;
	dst->name = dst->section = dst->src = dst->description = NULL;
	dst->filename = dst->directory = dst->write_iolog = NULL;
	dst->logs.bw = dst->logs.lat = dst->logs.iops = dst->logs.hist = NULL;
	if (job_strset(&dst->name, src->name) || job_strset(&dst->section, src->section) ||
	    job_strset(&dst->write_iolog, src->write_iolog) ||
	    job_strset(&dst->src, src->src) || job_strset(&dst->description, src->description) ||
	    job_strset(&dst->filename, src->filename) ||
	    job_strset(&dst->directory, src->directory) ||
	    job_logcfg_copy(&dst->logs, &src->logs)) {
		job_def_clear(dst);
		return -ENOMEM;
	}
	return 0;
}

/* The effective block sizes of one direction: bssplit wins over bsrange, which wins
 * over bs (fio's order); the offset alignment is blockalign for random I/O, else the
 * smallest size. */
static void job_def_bs(struct job_def *d, unsigned dd)
{
	struct job_bs *b = &d->bs[dd];
	unsigned i;

	if (b->nsplit) {
		b->min = b->max = b->split[0].bs;
		for (i = 1; i < b->nsplit; i++) {
			if (b->split[i].bs < b->min)
				b->min = b->split[i].bs;
			if (b->split[i].bs > b->max)
				b->max = b->split[i].bs;
		}
	} else if (d->bsrange[dd][0]) {
		b->min = d->bsrange[dd][0];
		b->max = d->bsrange[dd][1];
	} else {
		b->min = b->max = d->bs_opt[dd];
	}
	b->ba = d->ba_opt[dd] && job_rw_random(d->rw) ? d->ba_opt[dd] : b->min;
}

int job_def_finish(struct job_pstate *ps, struct job_def *d)
{
	uint64_t minbs;
	unsigned dd;

	if (!d->name && job_strset(&d->name, d->section))
		return -ENOMEM;
	for (dd = 0; dd < JOB_DDIRS; dd++)
		job_def_bs(d, dd);
	if (JOB_SET(d, JOB_OPT_BSSPLIT) && JOB_SET(d, JOB_OPT_BSRANGE))
		job_pwarn(ps, "both bssplit and bsrange are set: bssplit decides the sizes");
	if (job_rw_random(d->rw) && !d->norandommap &&
	    (d->bs[JOB_READ].ba != d->bs[JOB_READ].min ||
	     d->bs[JOB_WRITE].ba != d->bs[JOB_WRITE].min ||
	     d->bs[JOB_TRIM].ba != d->bs[JOB_TRIM].min)) {
		job_pwarn(ps, "blockalign differs from the block size: the random map is off "
			  "(as fio), blocks may repeat");
		d->norandommap = true;
	}
	if (d->dist.kind != JOB_DIST_RANDOM)
		d->norandommap = true;	/* fio: a skewed distribution has no random map */
	if (!d->iodepth_batch || d->iodepth_batch > d->iodepth)
		d->iodepth_batch = d->iodepth;
	if ((d->rate[0] || d->rate[1] || d->rate[2]) &&
	    (d->rate_iops[0] || d->rate_iops[1] || d->rate_iops[2]))
		return job_perr(ps, "rate and rate_iops exclude each other");
	if (d->time_based && !d->runtime) {
		job_pwarn(ps, "time_based without runtime: ignored (as fio)");
		d->time_based = false;
	}
	minbs = d->bs[JOB_READ].min < d->bs[JOB_WRITE].min ? d->bs[JOB_READ].min
							    : d->bs[JOB_WRITE].min;
	if (job_rw_trims(d->rw) && d->bs[JOB_TRIM].min < minbs)
		minbs = d->bs[JOB_TRIM].min;
	if (d->size && d->size < minbs)
		return job_perr(ps, "size=%llu is smaller than the block size %llu",
				(unsigned long long)d->size, (unsigned long long)minbs);
	if (JOB_SET(d, JOB_OPT_RANDSEED))
		d->randrepeat = false;	/* fio: randseed overrides randrepeat */
	if (!d->loops)
		d->loops = 1;
	return job_engine_finish(ps, d);
}
