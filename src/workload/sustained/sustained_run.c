/* sustained_run.c - the sustained write (sustained.h): one worker writes bs at a time from
 * offset 0, O_DIRECT where the file system takes it; at the end of every step interval
 * it notes the bytes so far and the device temperature and looks for the knee in what it
 * has; it stops once one holds, at the size or time limit, or at a stop signal. The data
 * are random (a compressing or deduplicating device sees no zeros). A closing fdatasync
 * gives the durable figure. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "core/cleanup.h"
#include "core/rng.h"
#include "core/units.h"
#include "observe/devtemp.h"
#include "runner/runner.h"
#include "stats/result.h"
#include "stats/result_keys.h"
#include "stats/result_sys.h"
#include "workload/sustained/sustained.h"
#include "stats/knee.h"

#define SUS_ALIGN	4096u
#define SUS_MAX_POINTS	(1u << 20)

/* What the loop notes: n+1 points (the start and each interval's end). */
struct sus_trace {
	uint64_t *t, *b, *o;		/* time, bytes and writes so far */
	double *temp;
	size_t n, cap;
	struct devtemp dt;
	int have_temp;
	const char *stop;
	struct knee knee;
};

static int trace_alloc(struct sus_trace *tr, const struct sustained_cfg *c)
{
	double want = c->time_s / c->step_s + 2;

	tr->cap = want > SUS_MAX_POINTS ? SUS_MAX_POINTS : (size_t)want;
	tr->t = calloc(tr->cap, sizeof(*tr->t));
	tr->b = calloc(tr->cap, sizeof(*tr->b));
	tr->o = calloc(tr->cap, sizeof(*tr->o));
	tr->temp = calloc(tr->cap, sizeof(*tr->temp));
	return tr->t && tr->b && tr->o && tr->temp ? 0 : -ENOMEM;
}

static void trace_note(struct sus_trace *tr, uint64_t t, uint64_t bytes, uint64_t ops)
{
	size_t i = tr->n + (tr->t[0] || tr->b[0] || tr->n ? 1 : 0);

	if (i >= tr->cap)
		return;
	tr->t[i] = t;
	tr->b[i] = bytes;
	tr->o[i] = ops;
	tr->temp[i] = NAN;
	if (tr->have_temp)
		(void)devtemp_read(&tr->dt, &tr->temp[i]);
	tr->n = i;
}

/* The write loop. 0 or -errno; tr->stop says why it ended. */
static int write_loop(struct ioctx *io, struct worker *w, struct engine_req *r,
		      const struct sustained_cfg *c, struct sus_trace *tr)
{
	struct knee_rule rule = { c->drop_pct / 100.0, c->hold };
	uint64_t step = (uint64_t)(c->step_s * 1e9), limit = (uint64_t)(c->time_s * 1e9);
	uint64_t t0 = w->t_first, next = t0 + step, bytes = 0;
	size_t confirm = 0;
	int64_t res;

	tr->stop = "size";
	trace_note(tr, t0, 0, 0);
	while (bytes < c->size) {
		if (c->size - bytes < r->len)
			r->len = c->size - bytes;
		res = ioctx_do_chain(io, r);
		if (res <= 0)
			return res < 0 ? (int)res : -EIO;
		bytes += (uint64_t)res;
		r->off += (uint64_t)res;
		if (sig_stop_requested()) {
			tr->stop = "signal";
			return -EINTR;
		}
		if (w->t_last < next)
			continue;
		/* an interval ended: note it, look for the knee (a few microseconds a step) */
		trace_note(tr, w->t_last, bytes, w->ops);
		next = w->t_last + step;
		/* a knee seen first is confirmed by hold more intervals, after which the
		 * whole series decides where it is (fill_row): one seen as soon as it
		 * qualifies is often an interval early, its hold holding the fall itself */
		if (!c->no_stop && !confirm &&
		    knee_find(tr->t, tr->b, tr->n, &rule, &tr->knee) == 1)
			confirm = tr->n + c->hold;
		if (confirm && tr->n >= confirm) {
			tr->stop = "knee";
			return 0;
		}
		if (tr->n + 1 >= tr->cap || w->t_last - t0 >= limit) {
			tr->stop = "time";
			return 0;
		}
	}
	return 0;
}

static void temp_metrics(struct row *row, const struct sus_trace *tr, double step_s)
{
	double mx = -INFINITY;
	uint64_t cliff, slack;
	size_t i;
	int th;

	if (!tr->have_temp)
		return;
	for (i = 0; i <= tr->n; i++)
		mx = tr->temp[i] > mx ? tr->temp[i] : mx;
	if (!isnan(tr->temp[0]))
		row_add_metric(row, RK_SUS_TEMP_START, tr->temp[0], "C");
	if (isfinite(mx))
		row_add_metric(row, RK_SUS_TEMP_MAX, mx, "C");
	if (!isnan(tr->temp[tr->n]))
		row_add_metric(row, RK_SUS_TEMP_END, tr->temp[tr->n], "C");
	if (!isnan(tr->dt.warn_c))
		row_add_metric(row, RK_SUS_TEMP_WARN, tr->dt.warn_c, "C");
	if (!isnan(tr->dt.crit_c))
		row_add_metric(row, RK_SUS_TEMP_CRIT, tr->dt.crit_c, "C");
	if (!tr->knee.found)
		return;
	if (!isnan(tr->temp[tr->knee.k]))
		row_add_metric(row, RK_SUS_TEMP_CLIFF, tr->temp[tr->knee.k], "C");
	/* up to the reading that closes the interval after the knee interval (the fall is
	 * placed within an interval of where it was: the readings of both count), or a
	 * step past the cliff if later (an interval slow writes stretched is longer) */
	cliff = tr->t[0] + (uint64_t)(tr->knee.cliff_s * 1e9);
	slack = (uint64_t)(step_s * 1e9);
	i = tr->knee.k + 1 <= tr->n ? tr->knee.k + 1 : tr->knee.k;
	if (tr->t[i] > cliff && tr->t[i] - cliff > slack)
		slack = tr->t[i] - cliff;
	th = devtemp_throttled(tr->temp, tr->t, tr->n + 1, cliff, slack, tr->dt.warn_c);
	if (th >= 0)
		row_add_metric(row, RK_SUS_THROTTLED, th, "bool");
	if (th == 1 && row->note) {	/* said where the cliff is said */
		char *n = str_printf("%s; throttled: the device reached its warning temperature "
				     "(%.1f C) as the rate fell", row->note, tr->dt.warn_c);

		if (n) {
			free(row->note);
			row->note = n;
		}
	}
}

/* The row's series: the knee's own intervals (the step), each end from the first write,
 * its bytes and writes, the temperature read at its end; what the summary figures come
 * from, so that they can be derived again from the result (verify --result). It takes
 * the place of the sampler's series (--interval), whose intervals are not the knee's. */
static void trace_series(struct row *row, const struct sus_trace *tr, double step_s)
{
	struct row_series *se;

	if (!tr->n || !(se = row_series_new(tr->n, 0)))
		return;
	se->interval_ns = (uint64_t)(step_s * 1e9);
	for (size_t i = 1; i <= tr->n; i++) {
		se->v[RSE_T_NS][i - 1] = (double)(tr->t[i] - tr->t[0]);
		se->v[RSE_BYTES][i - 1] = (double)(tr->b[i] - tr->b[i - 1]);
		se->v[RSE_OPS][i - 1] = (double)(tr->o[i] - tr->o[i - 1]);
		se->v[RSE_TEMP_C][i - 1] = tr->temp[i];
	}
	row_series_free(row->series);
	row->series = se;
	kv_set(&row->params, RK_SUS_KNEE_SERIES, "true");
}

static void fill_row(struct row *row, const struct sustained_cfg *c, struct sus_trace *tr,
		     int direct, const char *engine)
{
	struct knee_rule rule = { c->drop_pct / 100.0, c->hold };
	char a[32], b[32];

	/* the knee of the whole series as it ended */
	(void)knee_find(tr->t, tr->b, tr->n, &rule, &tr->knee);
	kv_set(&row->params, RK_SUS_BS, "%" PRIu64, c->bs);
	kv_set(&row->params, RK_SUS_DIRECT, "%s", direct ? "true" : "false");
	kv_set(&row->params, RK_SUS_ENGINE, "%s", engine);
	kv_set(&row->params, RK_SUS_STEP, "%g", c->step_s);
	kv_set(&row->params, RK_SUS_DROP, "%g", c->drop_pct);
	kv_set(&row->params, RK_SUS_HOLD, "%u", c->hold);
	kv_set(&row->params, RK_SUS_LIMIT, "%" PRIu64, c->size);
	kv_set(&row->params, RK_SUS_STOP, "%s", tr->stop);
	kv_set(&row->params, RK_SUS_TEMP_SOURCE, "%s", tr->have_temp ? tr->dt.driver :
	       "none: the kernel exposes no temperature for the device");
	if (c->bs % (1u << 20) == 0)
		snprintf(a, sizeof(a), "%" PRIu64 "M", c->bs >> 20);
	else
		snprintf(a, sizeof(a), "%" PRIu64 "K", c->bs >> 10);	/* a multiple of 4k */
	kv_set(&row->params, RK_ROW_DETAIL, "bs=%s%s", a, direct ? ", direct" : "");
	row_add_metric(row, RK_SUS_KNEE, tr->knee.found, "bool");
	row_add_metric(row, RK_SUS_INTERVALS, (double)tr->n, "intervals");
	row_add_metric(row, RK_SUS_BURST, tr->knee.burst_rate / 1e6, "MB/s");
	if (tr->knee.found) {
		row_add_metric(row, RK_SUS_SUSTAINED, tr->knee.sustained_rate / 1e6, "MB/s");
		row_add_metric(row, RK_SUS_CLIFF_BYTES, round(tr->knee.cliff_bytes), "B");
		row_add_metric(row, RK_SUS_CLIFF_S, tr->knee.cliff_s, "s");
		free(row->note);
		row->note = str_printf("the rate fell after %s (%.1f s): %.1f MB/s, then %.1f "
				       "MB/s", units_fmt_bytes(b, sizeof(b), tr->knee.cliff_bytes),
				       tr->knee.cliff_s, tr->knee.burst_rate / 1e6,
				       tr->knee.sustained_rate / 1e6);
	} else {
		free(row->note);
		row->note = str_printf("no knee: the rate did not fall by %g%% and stay down "
				       "within %s", c->drop_pct, units_fmt_bytes(b, sizeof(b),
				       (double)row->bytes));
	}
	temp_metrics(row, tr, c->step_s);
	trace_series(row, tr, c->step_s);
}

static int open_file(struct ioctx *io, const char *path, int buffered, int *direct)
{
	int fd = -EINVAL;

	*direct = 0;
#ifdef HAVE_O_DIRECT
	if (!buffered) {
		fd = ioctx_open(io, path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_DIRECT,
				 0600);
		*direct = fd >= 0;
	}
#else
	(void)buffered;
#endif
	if (fd == -EINVAL)	/* a file system without O_DIRECT (tmpfs): buffered */
		fd = ioctx_open(io, path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600);
	return fd;
}

static int measure(struct runner *rc, struct ioctx *io, int fd, int direct, void *buf,
		   const struct sustained_cfg *c, struct sus_trace *tr)
{
	struct engine_req *r;
	struct phase ph;
	struct row *row;
	uint64_t end, durable = 0;
	int err;

	err = phase_begin(&ph, rc, "write", 1, "B", c->size);
	if (err)
		return err;
	r = ioctx_get(io);
	if (!r) {
		phase_abort(&ph);
		return io->err ? io->err : -ENOMEM;
	}
	r->op = ENGINE_OP_PWRITE;
	r->fd = fd;
	r->buf = buf;
	r->len = c->bs;
	ioctx_bind(io, &ph.w[0]);
	phase_restart(&ph);
	worker_start(&ph.w[0]);
	err = write_loop(io, &ph.w[0], r, c, tr);
	ioctx_put(io, r);
	end = ph.w[0].t_last;
	if (!err) {
		err = ioctx_sync(io, fd, 1);
		durable = err ? 0 : clock_ns();
	}
	if (err && !ph.w[0].err && err != -EINTR)
		ph.w[0].err = err;
	row = phase_end(&ph, "sustained");
	if (!row)
		return -ENOMEM;
	row->elapsed_ns = end > ph.t0 ? end - ph.t0 : 1;
	row->buffered_ns = row->elapsed_ns;
	if (durable)
		row->durable_ns = durable - ph.t0;
	row->rate = (double)row->bytes / ((double)row->elapsed_ns / 1e9) / 1e6;
	str_set(&row->rate_unit, "MB/s");
	fill_row(row, c, tr, direct, rc->eng->name);
	if (err && err != -EINTR) {
		free(row->error);
		row->error = str_printf("%s after %" PRIu64 " bytes written", strerror(-err),
					row->bytes);
	}
	return err;
}

int sustained_run(struct runner *rc, const struct sustained_cfg *c, const char *dir)
{
	struct sus_trace tr;
	struct ioctx io;
	char path[4096];
	void *buf = NULL;
	int fd, err, direct, e2;
	struct rng g;

	memset(&tr, 0, sizeof(tr));
	if (snprintf(path, sizeof(path), "%s/sustained.dat", dir) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	tr.have_temp = rc->run->env.device && devtemp_find(rc->run->env.device, &tr.dt) == 0;
	if ((err = trace_alloc(&tr, c)) < 0 || posix_memalign(&buf, SUS_ALIGN, c->bs)) {
		err = -ENOMEM;
		goto out;
	}
	rng_seed(&g, 1);
	rng_fill(&g, buf, c->bs);
	if ((err = ioctx_init(&io, rc->eng, 1)) < 0)
		goto out;
	fd = open_file(&io, path, c->buffered, &direct);
	if (fd < 0) {
		err = fd;
	} else {
		err = measure(rc, &io, fd, direct, buf, c, &tr);
		if ((e2 = ioctx_close(&io, fd)) < 0 && !err)
			err = e2;
	}
	ioctx_exit(&io);
out:
	free(buf);
	free(tr.t);
	free(tr.b);
	free(tr.o);
	free(tr.temp);
	return err;
}
