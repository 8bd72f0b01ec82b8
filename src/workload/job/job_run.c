/* job_run.c - the steps of a job run: each is one runner phase whose threads are
 * released together; before it the files' cache is dropped (fio's invalidate) and the
 * residency measured, after it the threads are merged into report units (job_merge) and
 * rows. The devices behind the files are read before the first step and after the last
 * one (fio's disk stats), and around each step (the O_DIRECT check). */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "observe/diskstats.h"
#include "fs/scratch.h"
#include "runner/ranks.h"
#include "runner/runner.h"
#include "stats/result.h"
#include "workload/job/job_run.h"

struct jr_step {
	struct job_plan *p;
	unsigned first;
};

static int jr_thread(void *arg, unsigned i, struct worker *w)
{
	struct jr_step *c = arg;

	return job_thread_run(&c->p->threads[c->first + i], w);
}

/* The devices behind the run's files, for the disk stats. */
static int jr_devices(const struct job_plan *p, struct diskstats_set *set)
{
	unsigned i;

	for (i = 0; i < p->nfiles; i++)
		if (diskstats_find(p->files[i].path, set) > 0)
			return 0;
	diskstats_close(set);
	diskstats_init(set);
	return -ENODEV;
}

/* Whether any thread of the plan does I/O (not the null engine). */
static bool jr_any_io(const struct job_plan *p)
{
	unsigned i;

	for (i = 0; i < p->nthreads; i++)
		if (!(p->threads[i].e->flags & ENGINE_F_NOIO))
			return true;
	return false;
}

/* Residency of the read units' files before the step (buffered reads only). */
static void jr_residency(struct job_plan *p, unsigned step)
{
	unsigned i;

	for (i = 0; i < p->nunits; i++) {
		struct job_unit *u = &p->units[i];
		const struct job_def *d = p->threads[u->first_thread].d;

		if (u->step == step && job_rw_reads(d->rw) && !d->direct)
			u->cache_pct = job_unit_residency(p, u);
	}
}

/* Merge the step's threads into their units and into all; rows for the units. */
static int jr_step_rows(struct runner *rc, struct job_plan *p, unsigned step, struct row *agg,
			const struct diskstats_figures *dev, uint64_t first_done)
{
	const struct job_step *st = &p->steps[step];
	struct job_stats all;
	unsigned i;
	int rc1 = 0;

	job_stats_init(&all);
	for (i = st->first; i < st->first + st->n && !rc1; i++) {
		struct job_unit *u = &p->units[p->threads[i].unit];

		if (!u->merged) {
			job_stats_init(&u->st);
			u->merged = true;
		}
		rc1 = job_merge(&u->st, &p->threads[i].st);
		if (!rc1)
			rc1 = job_merge(&all, &p->threads[i].st);
	}
	if (!rc1 && agg)
		rc1 = job_rows_aggregate(agg, p, step, &all, first_done);
	for (i = 0; i < p->nunits && rc1 >= 0; i++)
		if (p->units[i].step == step)
			if ((rc1 = job_rows_unit(rc, p, &p->units[i], dev, agg)) > 0)
				rc1 = job_ss_rows(rc, p, &p->units[i], rc1);
	job_stats_free(&all);
	return rc1 < 0 ? rc1 : 0;
}

/* The system refused a thread (ulimit -u or -v, memory): no thread of the step ran.
 * Each says why in its report (err=, the setup text) and stderr says it once. */
static void jr_not_started(struct job_plan *p, const struct job_step *st)
{
	unsigned i;

	for (i = st->first; i < st->first + st->n; i++) {
		struct job_stats *s = &p->threads[i].st;

		if (s->err)
			continue;
		s->err = -EAGAIN;
		s->err_op = -1;
		snprintf(s->errtxt, sizeof(s->errtxt), "the system refused to start a thread");
	}
	err_msg("job: cannot start the step's %u threads: the system refused a thread "
		"(%s): lower numjobs, or raise the limits (ulimit -u, ulimit -v)", st->n,
		strerror(EAGAIN));
}

/* The bytes the phase's threads moved so far. */
static uint64_t jr_bytes(const struct phase *ph)
{
	uint64_t b = 0;
	unsigned i;

	for (i = 0; i < ph->nw; i++)
		b += ph->w[i].bytes;
	return b;
}

/* --wearout: the threads of the step again, each with its share of left bytes, no wall
 * (the phase's clock goes on: this is the same phase). Returns the first error. */
struct jr_wear {
	struct job_thread *t;
	struct worker *w;
	uint64_t budget;
	int rc;
};

static void *jr_wear_main(void *arg)
{
	struct jr_wear *x = arg;

	x->rc = job_thread_wear(x->t, x->w, x->budget);
	return NULL;
}

static int jr_wear(struct phase *ph, struct job_plan *p, const struct job_step *st,
		   uint64_t left)
{
	struct jr_wear *x = calloc(st->n, sizeof(*x));
	pthread_t *tid = calloc(st->n, sizeof(*tid));
	uint64_t g = 0;
	unsigned i, started = 0;
	int rc = 0;

	if (!x || !tid) {
		free(x);
		free(tid);
		return -ENOMEM;
	}
	for (i = 0; i < st->n; i++) {
		const struct job_def *d = p->threads[st->first + i].d;
		uint64_t b = d->bs[JOB_READ].min < d->bs[JOB_WRITE].min ? d->bs[JOB_READ].min
									: d->bs[JOB_WRITE].min;

		g = !g || b < g ? b : g;
	}
	/* whole blocks each (a thread issues whole blocks: a share of part of one would
	 * come out a block more), the rest to the first */
	g = g ? g : 1;
	for (i = 0; i < st->n; i++) {
		uint64_t nb = left / g;

		x[i].t = &p->threads[st->first + i];
		x[i].w = &ph->w[i];
		x[i].w->stop_ns = 0;	/* past the wall now */
		x[i].budget = (nb / st->n + (i < nb % st->n ? 1 : 0)) * g + (i ? 0 : left % g);
	}
	if (st->n == 1) {
		jr_wear_main(&x[0]);
		started = 1;
	} else {
		for (i = 0; i < st->n; i++, started++)
			if (pthread_create(&tid[i], NULL, jr_wear_main, &x[i]) != 0) {
				rc = -EAGAIN;
				break;
			}
		for (i = 0; i < started; i++)
			pthread_join(tid[i], NULL);
	}
	for (i = 0; i < started && !rc; i++)
		rc = x[i].rc;
	free(x);
	free(tid);
	return rc;
}

static int jr_step(struct runner *rc, struct job_plan *p, unsigned step,
		   struct diskstats_set *set)
{
	const struct job_step *st = &p->steps[step];
	_Atomic uint64_t first_done = 0;
	_Atomic int *exits = NULL;
	bool any_exitall = atomic_load(&p->exit_later) != 0;
	struct diskstats_snap a, b;
	struct diskstats_figures fig, *dev = NULL;
	struct jr_step c = { p, st->first };
	uint64_t expected = 0;
	struct phase ph;
	struct row *agg;
	unsigned i;
	int rc1, rc2;

	job_invalidate(p, st->first, st->n);
	jr_residency(p, step);
	for (i = st->first; i < st->first + st->n; i++)
		any_exitall |= p->threads[i].d->xo.exitall;
	/* exitall: a flag per group (an earlier step's exit_what=all: all set) */
	if (any_exitall && !(exits = calloc(p->ngroups ? p->ngroups : 1, sizeof(*exits))))
		return -ENOMEM;
	for (i = 0; exits && i < p->ngroups; i++)
		atomic_store(&exits[i], atomic_load(&p->exit_later));
	for (i = st->first; i < st->first + st->n; i++) {
		struct job_thread *t = &p->threads[i];

		t->first_done = &first_done;
		t->exit_all = exits ? &exits[p->units[t->unit].group] : NULL;
		t->exit_groups = exits;
		t->exit_ngroups = exits ? p->ngroups : 0;
		t->exit_later = &p->exit_later;
		t->pfiles = p->files;
		t->vh = p->vh;
		if (!t->d->time_based)
			expected += t->d->xo.io_size ? t->d->xo.io_size : t->size * t->d->loops;
	}
	if (phase_begin(&ph, rc, "aggregate", st->n, "B", expected) < 0) {
		free(exits);
		return -ENOMEM;
	}
	if (set->ndev && diskstats_read(set, &a) <= 0)
		a.ndev = 0;
	rc1 = runner_parallel(&ph, jr_thread, &c);
	if (rc1 == -EAGAIN)
		jr_not_started(p, st);
	/* fio's logs of the first repeat; a log that cannot be written fails the step */
	if (!rc->repeat && (rc2 = job_logs_write(p, st->first, st->n)) < 0 && rc1 >= 0)
		rc1 = rc2;
	if (rc->stonewall_ns) {
		/* every rank books what it did by the wall (runner/ranks.h); --wearout: then
		 * as much as the busiest rank did */
		uint64_t done = jr_bytes(&ph), most = ranks_stonewall(&ph, done, rc1 < 0 ? rc1 : 0);

		if (most > done && rc1 >= 0 && !sig_stop_requested())
			rc1 = jr_wear(&ph, p, st, most - done);
	}
	if (set->ndev && a.ndev && diskstats_read(set, &b) > 0 &&
	    diskstats_compute(&a.c[0], &b.c[0], b.t_ns - a.t_ns, &fig) == 0)
		dev = &fig;
	free(exits);
	for (i = st->first; i < st->first + st->n; i++)
		p->threads[i].exit_all = p->threads[i].exit_groups = NULL;
	agg = phase_end(&ph, "job");
	if (!agg)
		return -ENOMEM;
	rc2 = jr_step_rows(rc, p, step, agg, dev, atomic_load(&first_done));
	if (rc2 < 0)
		return rc2;
	return rc1;
}

int job_run_steps(struct runner *rc, struct job_plan *p)
{
	struct diskstats_set set;
	struct diskstats_snap a, b;
	unsigned s;
	int rc1 = 0, r, have = 0;

	atomic_store(&p->exit_later, 0);
	for (s = 0; s < p->nthreads; s++)
		job_stats_free(&p->threads[s].st);	/* a repeat starts afresh */
	for (s = 0; s < p->nunits; s++) {
		job_stats_free(&p->units[s].st);
		p->units[s].merged = false;
		p->units[s].cache_pct = -1;
	}
	diskstats_init(&set);
	if (jr_any_io(p) && jr_devices(p, &set) == 0 && diskstats_read(&set, &a) > 0)
		have = 1;
	for (s = 0; s < p->nsteps && !sig_stop_requested(); s++) {
		r = jr_step(rc, p, s, &set);
		if (r == -ENOMEM) {
			rc1 = r;
			break;
		}
		if (r < 0 && !rc1)
			rc1 = r;
	}
	if (have && diskstats_read(&set, &b) > 0 && job_rows_disks(rc, &set, &a, &b) < 0 && !rc1)
		rc1 = -ENOMEM;
	diskstats_close(&set);
	if (sig_stop_requested())
		return -EINTR;
	return rc1;
}
