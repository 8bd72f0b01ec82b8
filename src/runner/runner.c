/* runner.c - phases: clocks, CPU samples, workers and their merge into a row. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "stats/result.h"
#include "runner/phase_sample.h"
#include "runner/ranks.h"
#include "runner/runner.h"

int phase_begin(struct phase *ph, struct runner *rc, const char *name, unsigned nw,
		const char *unit, uint64_t expected)
{
	unsigned i;

	memset(ph, 0, sizeof(*ph));
	ph->rc = rc;
	ph->name = name;
	ph->nw = nw ? nw : 1;
	ph->w = calloc(ph->nw, sizeof(*ph->w));
	if (!ph->w)
		return -ENOMEM;
	for (i = 0; i < ph->nw; i++)
		hist_init(&ph->w[i].lat);
	progress_init(&ph->prog, rc->progress, name, unit, expected);
	ph->prog.job = rc->total;
	ranks_phase_begin(ph);		/* several ranks: released together */
	/* The inline timing helpers tick progress with the byte count; other units are
	 * ticked by the workload itself. */
	if ((ph->prog.enabled || ph->prog.hook) && unit && !strcmp(unit, "B"))
		ph->w[0].prog = &ph->prog;
	phase_obs_begin(ph);
	phase_restart(ph);
	return 0;
}

void phase_restart(struct phase *ph)
{
	unsigned i;

	phase_obs_restart(ph);	/* before the clock: starting a sampler is not timed */
	cpu_sample_now(&ph->c0);
	ph->t0 = ph->c0.wall_ns;
	ph->prog.t0 = ph->t0;
	for (i = 0; ph->rc->stonewall_ns && i < ph->nw; i++)
		ph->w[i].stop_ns = ph->t0 + ph->rc->stonewall_ns;	/* --stonewall */
}

void phase_exclude(struct phase *ph, const struct cpu_sample *a, const struct cpu_sample *b)
{
	/* the phase starts later by as much as the excluded span took, in every counter */
	ph->c0.wall_ns += b->wall_ns - a->wall_ns;
	ph->c0.user_ns += b->user_ns - a->user_ns;
	ph->c0.sys_ns += b->sys_ns - a->sys_ns;
	ph->c0.busy_ticks += b->busy_ticks - a->busy_ticks;
	ph->c0.total_ticks += b->total_ticks - a->total_ticks;
	ph->t0 = ph->c0.wall_ns;
}

void phase_abort(struct phase *ph)
{
	phase_obs_end(ph, NULL);
	ranks_phase_end(ph, NULL, -ECANCELED);
	progress_done(&ph->prog);
	free(ph->w);
	ph->w = NULL;
}

struct row *phase_end(struct phase *ph, const char *workload)
{
	struct hist *h;
	struct row *row;
	unsigned i;
	int err = 0;

	cpu_sample_now(&ph->c1);
	ph->t1 = ph->c1.wall_ns;
	row = run_add_row(ph->rc->run, workload, ph->name);
	h = malloc(sizeof(*h));
	if (!row || !h) {
		free(h);
		phase_abort(ph);
		return NULL;
	}
	hist_init(h);
	for (i = 0; i < ph->nw; i++) {
		row->bytes += ph->w[i].bytes;
		row->ops += ph->w[i].ops;
		hist_merge(h, &ph->w[i].lat);
		if (!err && ph->w[i].err)
			err = ph->w[i].err;
	}
	row->repeat = ph->rc->repeat;
	row->elapsed_ns = ph->t1 - ph->t0;
	cpu_fill(&row->cpu, &ph->c0, &ph->c1, row->ops);
	if (h->n)
		row_set_lat(row, h);
	else
		free(h);
	if (row->elapsed_ns < ROW_SHORT_NS)
		row->flags |= ROW_SHORT;
	if (sig_stop_requested())
		row->flags |= ROW_INCOMPLETE;
	if (err) {
		row->flags |= ROW_FAILED;
		row->error = str_printf("%s", strerror(-err));
	}
	phase_obs_end(ph, row);
	ranks_phase_end(ph, row, err);	/* several ranks: the end gate, the row's timing */
	progress_done(&ph->prog);
	free(ph->w);
	ph->w = NULL;
	return row;
}

/* The start gate. Threads check in and wait until the main thread opens the gate (go)
 * or calls the phase off (abort: a thread could not be created). A mutex and condition
 * variable rather than barriers: a barrier's count is fixed at init, so threads waiting
 * in one cannot be released when fewer threads than planned exist, and
 * pthread_barrier_wait is no cancellation point. */
struct par_ctx {
	struct phase *ph;
	int (*fn)(void *arg, unsigned i, struct worker *w);
	void *arg;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned ready;
	int go, abort;
};

struct par_thread {
	struct par_ctx *c;
	unsigned i;
	int rc;
};

static void *par_main(void *p)
{
	struct par_thread *t = p;
	struct par_ctx *c = t->c;
	int run;

	phase_obs_thread(c->ph, t->i);
	pthread_mutex_lock(&c->mu);
	c->ready++;
	pthread_cond_broadcast(&c->cv);
	while (!c->go && !c->abort)
		pthread_cond_wait(&c->cv, &c->mu);
	run = c->go;
	pthread_mutex_unlock(&c->mu);
	t->rc = run ? c->fn(c->arg, t->i, &c->ph->w[t->i]) : 0;
	phase_obs_thread_done(c->ph, t->i);
	return NULL;
}

/* Wait until n threads checked in, then open the gate (go) or call it off. */
static void par_release(struct par_ctx *c, unsigned n, int go)
{
	pthread_mutex_lock(&c->mu);
	while (c->ready < n)
		pthread_cond_wait(&c->cv, &c->mu);
	if (go) {
		/* the clock starts when every worker is ready */
		phase_restart(c->ph);
		c->go = 1;
	} else {
		c->abort = 1;
	}
	pthread_cond_broadcast(&c->cv);
	pthread_mutex_unlock(&c->mu);
}

int runner_parallel(struct phase *ph, int (*fn)(void *arg, unsigned i, struct worker *w),
		    void *arg)
{
	struct par_ctx c;
	struct par_thread *t;
	pthread_t *tid;
	unsigned i, started = 0;
	int rc = 0;

	if (ph->nw == 1) {
		phase_restart(ph);
		return fn(arg, 0, &ph->w[0]);
	}
	memset(&c, 0, sizeof(c));
	c.ph = ph;
	c.fn = fn;
	c.arg = arg;
	t = calloc(ph->nw, sizeof(*t));
	tid = calloc(ph->nw, sizeof(*tid));
	if (!t || !tid) {
		free(t);
		free(tid);
		return -ENOMEM;
	}
	pthread_mutex_init(&c.mu, NULL);
	pthread_cond_init(&c.cv, NULL);
	for (i = 0; i < ph->nw; i++) {
		t[i].c = &c;
		t[i].i = i;
		if (pthread_create(&tid[i], NULL, par_main, &t[i]) != 0) {
			rc = -EAGAIN;
			break;
		}
		started++;
	}
	par_release(&c, started, started == ph->nw);
	for (i = 0; i < started; i++) {
		pthread_join(tid[i], NULL);
		if (!rc && t[i].rc)
			rc = t[i].rc;
	}
	pthread_cond_destroy(&c.cv);
	pthread_mutex_destroy(&c.mu);
	free(t);
	free(tid);
	return rc;
}
