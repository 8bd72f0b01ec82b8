/* job_null.c - the tool's own limit of a job row (workload.h's tool_limit, job_run.h):
 * the jobs of the row's step run again through the job's own loop with the null engine,
 * which completes each request at once, for JOB_NULL_US. What the loop does per request
 * (offsets, block sizes, the mix, the random map, buffers, stamps, the histogram, the
 * counters) is the row's own; what only waits or writes elsewhere is left out. The null
 * engine opens no file, so the copies keep their regions as names only: nothing is
 * created, read or removed, and nothing is printed or stored. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comm/comm.h"
#include "core/kv.h"
#include "core/cleanup.h"
#include "engine/engine.h"
#include "runner/runner.h"
#include "stats/result.h"
#include "stats/result_ceiling.h"
#include "stats/result_keys.h"
#include "workload/job/job_run.h"

/* The unit of p whose rows w is (its job, group id and threads), or -1. */
static int null_unit(const struct job_plan *p, const struct row *w)
{
	const char *job = kv_get(&w->params, RK_JOB_JOB);
	const char *grp = kv_get(&w->params, RK_JOB_GROUPID);
	const char *n = kv_get(&w->params, RK_JOB_JOBS);
	unsigned i;
	char b1[16], b2[16];

	if (!w->workload || strcmp(w->workload, "job") || !job || !grp || !n ||
	    (strcmp(w->phase, "read") && strcmp(w->phase, "write") && strcmp(w->phase, "trim") &&
	     strcmp(w->phase, "sync")))
		return -1;
	for (i = 0; i < p->nunits; i++) {
		const struct job_unit *u = &p->units[i];

		snprintf(b1, sizeof(b1), "%u", u->group);
		snprintf(b2, sizeof(b2), "%u", u->nthreads);
		if (!strcmp(p->threads[u->first_thread].d->name, job) && !strcmp(b1, grp) &&
		    !strcmp(b2, n))
			return (int)i;
	}
	return -1;
}

/* d as the null measure runs it (a shallow copy: its strings stay d's); t is its first
 * thread in the plan (its region when size= came from the file). */
static void null_def(struct job_def *c, const struct job_def *d, const struct job_thread *t,
		     const struct engine *null)
{
	*c = *d;
	c->engine = null;
	c->engine_name = "null";
	c->neopt = 0;		/* the row's engine's options */
	c->description = NULL;
	c->filename = c->directory = NULL;	/* names only: nothing is opened */
	c->xo.filename_format[0] = '\0';
	c->xo.wait_for[0] = '\0';
	c->xo.unlink = c->xo.unlink_each_loop = false;
	if (!c->size || c->size_pct || d->filename) {
		c->size = t->size;	/* as the row's thread had it */
		c->size_pct = 0;
		c->nrfiles = t->nfiles ? t->nfiles : 1;
		c->filesize[0] = c->filesize[1] = 0;
	}
	c->offset_pct = 0;
	c->write_iolog = NULL;
	memset(&c->logs, 0, sizeof(c->logs));
	memset(&c->ss, 0, sizeof(c->ss));
	c->runtime = JOB_NULL_US;
	c->time_based = true;
	c->ramp_time = 0;
	c->startdelay[0] = c->startdelay[1] = 0;
	c->loops = 1;
	c->number_ios = 0;
	memset(c->rate, 0, sizeof(c->rate));
	memset(c->rate_iops, 0, sizeof(c->rate_iops));
	c->thinktime = 0;
	c->invalidate = false;
	c->verify = false;
	c->stonewall = false;	/* the step's jobs, one step */
}

/* The jobs of step st of p as copies in l (l->jobs malloc'd, its strings d's). 0,
 * -ENOTSUP (a metadata engine: no null loop of its own) or -ENOMEM. */
static int null_list(const struct job_plan *p, const struct job_step *st, struct job_list *l)
{
	const struct engine *null = engine_find("null");
	unsigned i, last = (unsigned)-1;

	memset(l, 0, sizeof(*l));
	if (!null)
		return -ENOTSUP;
	l->jobs = calloc(st->n, sizeof(*l->jobs));
	if (!l->jobs)
		return -ENOMEM;
	for (i = st->first; i < st->first + st->n; i++) {
		const struct job_thread *t = &p->threads[i];

		if (t->d->xo.fileop || t->d->xo.iometa)
			return -ENOTSUP;
		if (t->job == last)
			continue;
		last = t->job;
		null_def(&l->jobs[l->njobs++], t->d, t, null);
	}
	return 0;
}

/* Run the copies of step's jobs into k (its list, plan and run). 0 or -errno. */
static int null_measure(const struct job_plan *p, unsigned step, struct job_null_kept *k)
{
	struct job_safety sf = { .no_space_check = true, .names_only = true };
	struct runner rc;
	char err[1024];
	int r;

	memset(&rc, 0, sizeof(rc));
	r = null_list(p, &p->steps[step], &k->l);
	if (!r)
		r = job_prepare(&k->np, &k->l, NULL, 0, &sf, err, sizeof(err));
	if (!r && k->np.need_scratch)
		r = job_plan_place(&k->np, "(null engine)");
	if (r)
		return r;
	rc.eng = engine_find("null");
	rc.solo = 1;	/* this rank's alone: no gate, no booking */
	rc.run = k->run = run_new("job");
	return rc.run ? job_run_steps(&rc, &k->np) : -ENOMEM;
}

/* The row of k's run for w's direction and unit (the plan's unit at that place in its
 * step is the measure's unit at the same place), or NULL. */
static const struct row *null_row(const struct job_null_kept *k, const struct job_plan *p,
				  unsigned unit, const struct row *w)
{
	const struct job_unit *nu;
	unsigned first = unit;
	char g[16], n[16];
	size_t i;

	while (first > 0 && p->units[first - 1].step == p->units[unit].step)
		first--;
	if (!k->run || unit - first >= k->np.nunits)
		return NULL;
	nu = &k->np.units[unit - first];
	snprintf(g, sizeof(g), "%u", nu->group);
	snprintf(n, sizeof(n), "%u", nu->nthreads);
	for (i = 0; i < k->run->nrows; i++) {
		const struct row *x = k->run->rows[i];
		const char *job = kv_get(&x->params, RK_JOB_JOB);
		const char *xg = kv_get(&x->params, RK_JOB_GROUPID);
		const char *xn = kv_get(&x->params, RK_JOB_JOBS);

		if (!strcmp(x->phase, w->phase) && job &&
		    !strcmp(job, k->np.threads[nu->first_thread].d->name) && xg &&
		    !strcmp(xg, g) && xn && !strcmp(xn, n) && x->ops && x->elapsed_ns &&
		    !(x->flags & (ROW_FAILED | ROW_INCOMPLETE)))
			return x;
	}
	return NULL;
}

int job_null_limit(const struct job_plan *p, const struct row *w, struct job_null_kept *k,
		   double *ops_s, double *cpu_ns, char *words, size_t len)
{
	const struct job_unit *u;
	const struct job_def *d;
	const struct row *x;
	int unit;

	if (comm_multi() || sig_stop_requested() || !p->nunits || (unit = null_unit(p, w)) < 0)
		return 0;
	u = &p->units[unit];
	if (!k->have || k->step != u->step) {
		job_null_free(k);
		k->have = true;
		k->step = u->step;
		if (null_measure(p, u->step, k) < 0) {
			run_free(k->run);
			k->run = NULL;
		}
	}
	if (!(x = null_row(k, p, (unsigned)unit, w)))
		return 0;
	*ops_s = (double)x->ops / ((double)x->elapsed_ns / 1e9);
	*cpu_ns = row_cpu_per_op(x);
	d = p->threads[u->first_thread].d;
	/* a synchronous engine's loop: the null engine completes each request in submit,
	 * one in flight, whatever iodepth says */
	snprintf(words, len, "the job's own loop with the null engine, %u ms: rw=%s, depth 1%s, "
		 "%u thread%s, bs %.24s", JOB_NULL_US / 1000, job_rw_name(d->rw),
		 d->iodepth > 1 ? " (null is synchronous)" : "", u->nthreads,
		 u->nthreads == 1 ? "" : "s",
		 kv_get(&w->params, RK_JOB_BS) ? kv_get(&w->params, RK_JOB_BS) : "?");
	return 1;
}

void job_null_free(struct job_null_kept *k)
{
	run_free(k->run);
	if (k->have)
		job_plan_free(&k->np);
	free(k->l.jobs);	/* the copies' strings are the plan's */
	memset(k, 0, sizeof(*k));
}
