/* ceilings.c - the ceilings of a run's figures, put into its results before they are
 * written (common_mark): the link to the target's disk and the memory copy rate once per
 * run into the environment, and for each row the ceilings that apply to it, the tool's
 * own limit at its settings where it has them (job rows: the job's own loop with the
 * null engine; dd rows: the runner's request path), and the flags over_ceiling and
 * tool_bound. docs/methodology.md, "Ceilings". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/common.h"
#include "core/kv.h"
#include "observe/ceiling.h"
#include "runner/toolceil.h"
#include "stats/result.h"
#include "stats/result_ceiling.h"
#include "stats/result_keys.h"
#include "workload/workload.h"

#define CEIL_MEMCPY_NS	50000000ull	/* the memory copy rate: about 50 ms */

/* A positive integer param of w, or 0. */
static unsigned long long param_u(const struct row *w, const char *key)
{
	const char *v = kv_get(&w->params, key);
	char *end;
	unsigned long long n;

	if (!v || !*v)
		return 0;
	n = strtoull(v, &end, 10);
	return *end ? 0 : n;
}

/* The settings of a row (0 when it has none): block size, depth, threads, engine. */
static unsigned long long settings(const struct row *w, unsigned long long *depth,
				   unsigned long long *threads, const char **eng)
{
	unsigned long long b;

	*depth = *threads = 1;
	*eng = NULL;
	if (!w->workload || !(b = param_u(w, RK_JOB_BS)))
		return 0;
	if (!strcmp(w->workload, "job")) {
		*depth = param_u(w, RK_JOB_IODEPTH);
		*threads = param_u(w, RK_JOB_NUMJOBS);
		*eng = kv_get(&w->params, RK_JOB_IOENGINE);
	} else if (!strcmp(w->workload, "dd")) {
		*eng = kv_get(&w->params, RK_DD_ENGINE);
	} else {
		return 0;
	}
	return *depth && *threads ? b : 0;
}

/* A row of the run measured with the null engine at w's settings (w itself when it was):
 * the workload's own loop at those settings, the tool's limit as closely as it can be had.
 * Its rate and CPU per request into t; 0 when there is none. */
static int null_row(const struct run *run, const struct row *w, struct toolceil *t)
{
	unsigned long long b, d, n, b2, d2, n2;
	const char *e, *e2;

	b = settings(w, &d, &n, &e);
	for (size_t i = 0; b && i < run->nrows; i++) {
		const struct row *x = run->rows[i];

		b2 = settings(x, &d2, &n2, &e2);
		if (b2 != b || d2 != d || n2 != n || !e2 || strcmp(e2, "null") ||
		    strcmp(x->workload, w->workload) || !x->ops || !x->elapsed_ns ||
		    (x->flags & (ROW_FAILED | ROW_INCOMPLETE)))
			continue;
		t->ops_s = (double)x->ops / ((double)x->elapsed_ns / 1e9);
		t->cpu_ns_per_op = row_cpu_per_op(x);
		return 1;
	}
	return 0;
}

/* The tool's own limit for w's settings, its block size into *bs (NaN unknown) and the
 * limit used in words. A row on the null engine is its own limit; else first the
 * workload's own loop with the null engine at the row's settings where the workload
 * measures it (workload.h's tool_limit: job), then a null-engine row of the run at the
 * same settings, else the runner's request path with the null engine; NaN for a row
 * without settings. */
static struct toolceil tool_limit(const struct run *run, const struct row *w,
				  struct workload_ctx *x, double *bs, char *words, size_t len)
{
	struct toolceil none = { NAN, NAN }, t = none, own;
	unsigned long long b, depth = 1, threads = 1;
	const char *eng;

	b = settings(w, &depth, &threads, &eng);
	*bs = b ? (double)b : NAN;
	if (b && eng && !strcmp(eng, "null") && w->ops && w->elapsed_ns) {
		/* a row on the null engine did no I/O: it is the tool's own loop at its
		 * settings, so its limit is itself, not a second measure of the same loop */
		snprintf(words, len, "the row itself: the null engine does no I/O (depth %llu, "
			 "%llu thread%s, bs %llu)", depth, threads, threads == 1 ? "" : "s", b);
		t.ops_s = (double)w->ops / ((double)w->elapsed_ns / 1e9);
		t.cpu_ns_per_op = row_cpu_per_op(w);
		return t;
	}
	if (x && x->w->tool_limit && w->workload && !strcmp(w->workload, x->w->name) &&
	    x->w->tool_limit(x, w, &t, words, len) > 0 && isfinite(t.ops_s) && t.ops_s > 0)
		return t;
	if (!b)
		return none;
	if (null_row(run, w, &own)) {	/* the workload's own loop, in the same run */
		snprintf(words, len, "the run's own null-engine %s row: depth %llu, %llu "
			 "thread%s, bs %llu", w->workload, depth, threads, threads == 1 ? "" : "s",
			 b);
		return own;
	}
	snprintf(words, len, "the runner's request path with the null engine (the row's: "
		 "%.16s), depth %llu, %llu thread%s, bs %llu", eng ? eng : "?", depth, threads,
		 threads == 1 ? "" : "s", b);
	return toolceil_measure((unsigned)threads, (unsigned)depth, b, 0);
}

void ceilings_apply_run(struct run *run, struct workload_ctx *x)
{
	struct env_ceilings *c = run->env.ceilings;
	size_t i;

	if ((run->flags & RUN_IMPORTED) || !run->nrows)
		return;
	if (!c) {
		c = calloc(1, sizeof(*c));
		if (!c)
			return;
		if (ceiling_link(NULL, run->env.device, c) < 0) {
			env_ceilings_free(c);
			return;
		}
		c->memory_bytes_s = ceiling_memcpy_rate(CEIL_MEMCPY_NS);
		run->env.ceilings = c;
	}
	for (i = 0; i < run->nrows; i++) {
		struct row *w = run->rows[i];
		char words[160] = "";
		double bs;
		struct toolceil t = tool_limit(run, w, x, &bs, words, sizeof(words));

		w->flags |= row_ceiling_apply(w, c, t.ops_s, t.cpu_ns_per_op, bs, words);
	}
}
