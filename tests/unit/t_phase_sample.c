/* t_phase_sample.c - the runner's samplers: a phase run through the runner on the null
 * engine gets its system figures and a series whose interval ops and bytes add up to the
 * row's exactly, whose interval count follows the merging rule, whose latency summaries
 * are ordered; a restart of the clock keeps the sums; the live view sees the phase; the
 * flags steal, device_idle and writeback_pending fire on crafted figures and stay silent
 * on plain ones. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "core/clock.h"
#include "observe/taskio.h"
#include "engine/engine.h"
#include "runner/phase_sample.h"
#include "runner/runner.h"
#include "stats/result.h"
#include "stats/result_sys.h"
#include "test.h"

#define BASE_NS		10000000ull	/* 10 ms: merges show within half a second */
#define INTERVAL_NS	80000000ull	/* 8 base intervals */

struct load {
	uint64_t until;
	struct runner_obs *ro;
	struct obs_view view;
};

/* A worker: null-engine writes of 4 KiB until the deadline. */
static int worker(void *arg, unsigned i, struct worker *w)
{
	struct load *l = arg;
	static char buf[4096];
	struct engine_req *r;
	struct ioctx io;

	if (ioctx_init(&io, engine_find("null"), 1) < 0)
		return -1;
	ioctx_bind(&io, w);
	r = ioctx_get(&io);
	r->op = ENGINE_OP_PWRITE;
	r->fd = -1;
	r->buf = buf;
	r->len = sizeof(buf);
	worker_start(w);
	while (clock_ns() < l->until) {
		ioctx_do(&io, r);
		if (i == 0 && l->ro && !l->view.active && clock_ns() + 100000000 > l->until)
			runner_obs_view(l->ro, &l->view);
	}
	ioctx_put(&io, r);
	ioctx_exit(&io);
	return 0;
}

static struct row *one_phase(struct runner *rc, unsigned nw, uint64_t ns, int restart,
			     struct load *l)
{
	struct phase ph;

	if (phase_begin(&ph, rc, "write", nw, "B", 0) < 0)
		return NULL;
	l->until = clock_ns() + ns;
	l->ro = rc->obs;
	memset(&l->view, 0, sizeof(l->view));
	if (restart) {
		/* work counted before the restart lands in the first interval */
		struct load pre = { clock_ns() + 30000000, NULL, { 0 } };

		worker(&pre, 1, &ph.w[0]);
		phase_restart(&ph);
	}
	runner_parallel(&ph, worker, l);
	return phase_end(&ph, "t");
}

static void check_series(const struct row *w)
{
	const struct row_series *s = w->series;
	double ops = 0, bytes = 0, prev = -1;
	uint64_t width;

	CHECK(s != NULL && w->sys != NULL);
	if (!s || !w->sys)
		return;
	for (size_t i = 0; i < s->n; i++) {
		ops += s->v[RSE_OPS][i];
		bytes += s->v[RSE_BYTES][i];
		CHECK(s->v[RSE_T_NS][i] > prev);
		prev = s->v[RSE_T_NS][i];
		if (s->v[RSE_OPS][i] > 0)
			CHECK(s->v[RSE_P50][i] <= s->v[RSE_P99][i] &&
			      s->v[RSE_P99][i] <= s->v[RSE_MAX][i]);
		CHECK(isnan(s->v[RSE_CPU_USER][i]) ||
		      fabs(s->v[RSE_CPU_USER][i] + s->v[RSE_CPU_SYSTEM][i] +
			   s->v[RSE_CPU_IOWAIT][i] + s->v[RSE_CPU_STEAL][i] +
			   s->v[RSE_CPU_IDLE][i] - 100) < 1e-6);
	}
	/* exactly: the intervals are differences of the same counters */
	CHECK_EQ_U64((uint64_t)ops, w->ops);
	CHECK_EQ_U64((uint64_t)bytes, w->bytes);
	CHECK(w->ops > 0);
	/* the last interval ends when the sampler stopped, after the phase's clock */
	CHECK(s->n && s->v[RSE_T_NS][s->n - 1] >= (double)w->elapsed_ns);
	/* the merging rule: 10 to 20 intervals while shorter than asked, else 10 or more
	 * (a phase of at least ten intervals) */
	width = s->interval_ns / BASE_NS;
	CHECK(s->interval_ns % BASE_NS == 0 && width >= 1 && width <= 8);
	CHECK((width & (width - 1)) == 0);
	if (width < 8)
		CHECK(s->n >= (width > 1 ? 10u : 1u) && s->n <= 20);
	else
		CHECK(s->n >= 10);
#ifdef HAVE_PROC_TASKS
	/* the samplers saw the workers */
	CHECK(w->sys->v[RS_WAIT_PASSES] >= 1 && w->sys->v[RS_WAIT_OBS] >= 1);
#endif
	CHECK(w->sys->v[RS_SAMPLER_CPU_S] >= 0);
}

static void t_series(void)
{
	struct obs_opts o = { INTERVAL_NS, 5000000, 1, BASE_NS, 0 };
	struct runner rc;
	struct load l;
	struct row *w;

	memset(&rc, 0, sizeof(rc));
	rc.run = run_new("t");
	rc.eng = engine_find("null");
	CHECK(rc.run && rc.eng && runner_obs_new(&o, ".", &rc.obs) == 0);
	if (!rc.obs)
		return;
	w = one_phase(&rc, 1, 350000000, 0, &l);	/* 35 base intervals: one merge */
	CHECK(w != NULL);
	if (w) {
		check_series(w);
		/* at least one merge (35 base intervals are more than 20); a phase that a
		 * loaded machine stretched past 40 may have merged twice: check_series holds
		 * the rule for whatever it ran */
		CHECK(w->series && w->series->interval_ns >= 2 * BASE_NS);
	}
	CHECK(l.view.active && !strcmp(l.view.phase, "write"));
	w = one_phase(&rc, 2, 200000000, 0, &l);	/* two workers */
	if (w)
		check_series(w);
	w = one_phase(&rc, 1, 120000000, 1, &l);	/* a restart of the clock */
	if (w)
		check_series(w);
	w = one_phase(&rc, 1, 1000000000, 0, &l);	/* 100 base intervals: full width */
	if (w) {
		check_series(w);
		CHECK(w->series && w->series->interval_ns == INTERVAL_NS);
	}
	runner_obs_view(rc.obs, &l.view);
	CHECK(!l.view.active);	/* between phases */
	runner_obs_free(rc.obs);
	run_free(rc.run);
}

/* No samplers: no figures, nothing else changes. */
static void t_off(void)
{
	struct runner rc;
	struct load l;
	struct row *w;

	memset(&rc, 0, sizeof(rc));
	rc.run = run_new("t");
	rc.eng = engine_find("null");
	w = one_phase(&rc, 1, 20000000, 0, &l);
	CHECK(w && !w->sys && !w->series && w->ops > 0);
	run_free(rc.run);
}

/* ---- flags on crafted figures ---- */

static struct row *crafted(struct run *r, const char *unit, uint64_t bytes)
{
	struct row *w = run_add_row(r, "dd", "x");

	w->sys = row_sys_new();
	row_sys_set_devs(w->sys, 1);
	str_set(&w->sys->dev[0].name, "vda");
	str_set(&w->sys->dev[0].role, "top");
	w->bytes = bytes;
	w->elapsed_ns = 1000000000;
	w->rate = (double)bytes / 1e6;
	str_set(&w->rate_unit, unit);
	w->sys->v[RS_CPU_STEAL] = 0;
	w->sys->dev[0].v[RSD_RD_BYTES] = (double)bytes;
	w->sys->dev[0].v[RSD_WR_BYTES] = (double)bytes;
	w->sys->v[RS_WL_READ] = 0;
	w->sys->v[RS_WL_WRITTEN] = (double)bytes;
	w->sys->v[RS_DIRTY0] = w->sys->v[RS_DIRTY1] = 1 << 20;
	w->sys->v[RS_WB0] = w->sys->v[RS_WB1] = 0;
	return w;
}

static void t_flags(void)
{
	struct run *r = run_new("dd");
	const uint64_t mb100 = 100ull << 20;
	struct row *w;

	/* plain: a write whose bytes reached the device, no steal, nothing dirty */
	w = crafted(r, "MB/s", mb100);
	w->durable_ns = w->elapsed_ns;
	CHECK_EQ_U64(row_sys_flags(w), 0);
	/* steal over 5% of the CPU, and not at 5% */
	w->sys->v[RS_CPU_STEAL] = 5.5;
	CHECK_EQ_U64(row_sys_flags(w), ROW_STEAL);
	w->sys->v[RS_CPU_STEAL] = 5.0;
	CHECK_EQ_U64(row_sys_flags(w), 0);
	/* a durable write whose device wrote 5% of the bytes */
	w->sys->dev[0].v[RSD_WR_BYTES] = 0.05 * (double)mb100;
	CHECK_EQ_U64(row_sys_flags(w), ROW_DEVICE_IDLE);
	w->sys->dev[0].v[RSD_WR_BYTES] = 0.11 * (double)mb100;
	CHECK_EQ_U64(row_sys_flags(w), 0);
	/* a buffered write timed before its sync: pending, not idle */
	w->durable_ns = 2 * w->elapsed_ns;
	w->sys->dev[0].v[RSD_WR_BYTES] = 0;
	w->sys->v[RS_DIRTY1] += 0.5 * (double)mb100;
	CHECK_EQ_U64(row_sys_flags(w), ROW_WRITEBACK_PENDING);
	w->sys->v[RS_DIRTY1] = w->sys->v[RS_DIRTY0] + 0.09 * (double)mb100;
	CHECK_EQ_U64(row_sys_flags(w), 0);
	w->sys->v[RS_WB1] = 0.02 * (double)mb100;	/* writeback counts as pending too */
	CHECK_EQ_U64(row_sys_flags(w), ROW_WRITEBACK_PENDING);
	/* the gauges are the whole system's: not a phase whose device wrote its bytes */
	w->sys->dev[0].v[RSD_WR_BYTES] = 0.95 * (double)mb100;
	CHECK_EQ_U64(row_sys_flags(w), 0);
	w->sys->dev[0].v[RSD_WR_BYTES] = 0;
	/* nor a phase that made its data durable in its time (another writer's dirt) */
	w->durable_ns = w->elapsed_ns;
	w->sys->dev[0].v[RSD_WR_BYTES] = (double)mb100;
	w->sys->v[RS_DIRTY1] += 0.5 * (double)mb100;
	CHECK_EQ_U64(row_sys_flags(w), 0);
	/* small writes: the whole system's Dirty says nothing about them */
	w = crafted(r, "MB/s", 8u << 20);
	w->sys->v[RS_DIRTY1] += 8u << 20;
	CHECK_EQ_U64(row_sys_flags(w), 0);
	/* a read the device did 2% of: idle; already cache_inflated: not again */
	w = crafted(r, "K/sec", mb100);
	w->sys->v[RS_WL_READ] = (double)mb100;
	w->sys->v[RS_WL_WRITTEN] = 0;
	w->sys->dev[0].v[RSD_RD_BYTES] = 0.02 * (double)mb100;
	CHECK_EQ_U64(row_sys_flags(w), 0);	/* no residency was checked: no claim */
	w->cache_pct = 3;			/* the check said: not in the cache */
	CHECK_EQ_U64(row_sys_flags(w), ROW_DEVICE_IDLE);
	w->flags |= ROW_CACHE_INFLATED;
	CHECK_EQ_U64(row_sys_flags(w), 0);
	w->flags = 0;
	/* not a byte rate (files/s), or under 1 MiB: never */
	str_set(&w->rate_unit, "files/s");
	CHECK_EQ_U64(row_sys_flags(w), 0);
	str_set(&w->rate_unit, "MiB/s");
	CHECK_EQ_U64(row_sys_flags(w), ROW_DEVICE_IDLE);
	w->bytes = 1000;
	CHECK_EQ_U64(row_sys_flags(w), 0);
	/* no device (tmpfs): no device_idle */
	w = crafted(r, "MB/s", mb100);
	row_sys_set_devs(w->sys, 0);
	w->sys->v[RS_WL_READ] = (double)mb100;
	CHECK_EQ_U64(row_sys_flags(w), 0);
	/* the run-wide pass sets them; a row without figures keeps its flags */
	w = crafted(r, "MB/s", mb100);
	w->sys->v[RS_CPU_STEAL] = 20;
	w = run_add_row(r, "dd", "y");
	w->flags = ROW_SHORT;
	result_sys_flag_run(r);
	CHECK(r->rows[r->nrows - 2]->flags & ROW_STEAL);
	CHECK_EQ_U64(r->rows[r->nrows - 1]->flags, ROW_SHORT);
	/* the disk of a partition is its whole disk */
	w = crafted(r, "MB/s", mb100);
	CHECK(row_sys_disk(w) == &w->sys->dev[0]);
	row_sys_set_devs(w->sys, 2);
	str_set(&w->sys->dev[1].role, "disk");
	CHECK(row_sys_disk(w) == &w->sys->dev[1]);
	run_free(r);
}

/* A thread's I/O counters: parsed, and read for this thread (growing as it reads). */
static void t_taskio(void)
{
	struct taskio a, b;
	char buf[64];
	FILE *f;

	CHECK(taskio_parse("rchar: 12\nwchar: 34\nsyscr: 1\nread_bytes: 4096\n"
			   "write_bytes: 8192\n", &a) == 0);
	CHECK(a.ok && a.rchar == 12 && a.wchar == 34 && a.read_bytes == 4096 &&
	      a.write_bytes == 8192);
	CHECK(taskio_parse("syscr: 1\n", &a) == -EINVAL && !a.ok);
	if (taskio_read(0, &a) < 0)
		return;	/* no task I/O accounting here */
	f = fopen("/proc/self/stat", "r");
	CHECK(f && fgets(buf, sizeof(buf), f));
	if (f)
		fclose(f);
	CHECK(taskio_read(0, &b) == 0 && b.rchar > a.rchar);
}

/* Tool mode: "t_phase_sample phases N": the wall time of N empty phases (begin, one
 * operation, end) with and without the samplers, and the phase clock's own time, to
 * show what starting and stopping a sampler costs and that it is outside the clock. */
static int tool_phases(unsigned n)
{
	struct obs_opts o = { 0, 0, 1, 0, 0 };
	struct runner rc;
	uint64_t t0, wall[2], timed[2];

	for (int on = 0; on < 2; on++) {
		memset(&rc, 0, sizeof(rc));
		rc.run = run_new("t");
		rc.eng = engine_find("null");
		if (on && runner_obs_new(&o, ".", &rc.obs) < 0)
			return 1;
		timed[on] = 0;
		t0 = clock_ns();
		for (unsigned i = 0; i < n; i++) {
			struct phase ph;
			struct row *w;
			uint64_t b;

			if (phase_begin(&ph, &rc, "p", 1, "B", 0) < 0)
				return 1;
			b = op_begin();
			op_end(&ph.w[0], b, 1);
			w = phase_end(&ph, "t");
			if (w)
				timed[on] += w->elapsed_ns;
		}
		wall[on] = clock_ns() - t0;
		runner_obs_free(rc.obs);
		run_free(rc.run);
	}
	printf("%u phases: %.1f us each without samplers, %.1f us with; the phase clock "
	       "%.2f us without, %.2f us with\n", n, wall[0] / 1e3 / n, wall[1] / 1e3 / n,
	       timed[0] / 1e3 / n, timed[1] / 1e3 / n);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "phases"))
		return tool_phases((unsigned)atoi(argv[2]));
	if (!engine_find("null"))
		return TEST_SKIP;
	RUN(t_series);
	RUN(t_off);
	RUN(t_flags);
	RUN(t_taskio);
	return test_done();
}
