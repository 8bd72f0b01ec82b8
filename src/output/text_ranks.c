/* text_ranks.c - after the workload's own text, what a run of several ranks adds: per
 * merged row the aggregate by IOR's rule, the ranks' spread and first done, and a table
 * of the ranks (host, file system, each row's rate). Nothing for one process. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "output/numfmt.h"
#include "output/text_renderers.h"
#include "stats/result.h"
#include "stats/result_keys.h"

#define TABLE_ROWS	6	/* rows with a column in the ranks' table */

static double metric(const struct row *w, const char *name)
{
	const struct metric *m = row_metric(w, name);

	return m ? m->value : NAN;
}

static const char *s_or(const char *s, const char *d)
{
	return s && *s ? s : d;
}

/* The distinct host names among the ranks. */
static unsigned hosts(const struct run *run)
{
	unsigned n = 0;

	for (size_t i = 0; i < run->nranks; i++) {
		size_t j;

		const char *h = s_or(run->ranks[i].env.host, "?");

		for (j = 0; j < i; j++)
			if (!strcmp(h, s_or(run->ranks[j].env.host, "?")))
				break;
		n += j == i;
	}
	return n;
}

static void row_line(FILE *f, const struct row *w)
{
	const char *u = s_or(w->rate_unit, "");
	char a[32], b[32], c[32], d[32], e[32], t[32];
	double first = metric(w, RK_ROW_FIRST_DONE_RATE);

	fprintf(f, "  %s%s%s: %s over %s from the first start to the last stop\n", w->phase,
		kv_get(&w->params, RK_ROW_DETAIL) ? " " : "",
		kv_get(&w->params, RK_ROW_DETAIL) ? kv_get(&w->params, RK_ROW_DETAIL) : "",
		numfmt(a, sizeof(a), w->rate, u), numfmt(t, sizeof(t), (double)w->elapsed_ns / 1e9,
							  "s"));
	if (isfinite(metric(w, RK_ROW_RANK_RATE_MIN)))
		fprintf(f, "    per rank %s .. %s, mean %s, sd %s\n",
			numfmt(a, sizeof(a), metric(w, RK_ROW_RANK_RATE_MIN), u),
			numfmt(b, sizeof(b), metric(w, RK_ROW_RANK_RATE_MAX), u),
			numfmt(c, sizeof(c), metric(w, RK_ROW_RANK_RATE_MEAN), u),
			numfmt(d, sizeof(d), metric(w, RK_ROW_RANK_RATE_SD), u));
	if (isfinite(first))
		fprintf(f, "    first done %s at %s\n", numfmt(e, sizeof(e), first, u),
			numfmt(t, sizeof(t), metric(w, RK_ROW_FIRST_DONE_S), "s"));
	if (isfinite(metric(w, RK_ROW_STONEWALL_S)))
		fprintf(f, "    stonewall: %s until %s (each rank %s .. %s before the wall)\n",
			numfmt(a, sizeof(a), metric(w, RK_ROW_STONEWALL_RATE), u),
			numfmt(t, sizeof(t), metric(w, RK_ROW_STONEWALL_S), "s"),
			numfmt(b, sizeof(b), metric(w, RK_ROW_STONEWALL_BYTES_MIN), "B"),
			numfmt(c, sizeof(c), metric(w, RK_ROW_STONEWALL_BYTES_MAX), "B"));
}

static void rank_table(FILE *f, const struct run *run)
{
	const struct row *cols[TABLE_ROWS];
	unsigned nc = 0;
	size_t i, r;
	char buf[32];

	for (i = 0; i < run->nrows && nc < TABLE_ROWS; i++)
		if (run->rows[i]->nranks == run->nranks && isfinite(run->rows[i]->rate))
			cols[nc++] = run->rows[i];
	fprintf(f, "  %-5s %-16s %-8s", "rank", "host", "fs");
	for (i = 0; i < nc; i++)
		fprintf(f, " %12.12s", cols[i]->phase);
	fputc('\n', f);
	for (r = 0; r < run->nranks; r++) {
		const struct run_rank *k = &run->ranks[r];

		fprintf(f, "  %-5zu %-16.16s %-8.8s", r, s_or(k->env.host, "?"),
			s_or(k->env.fs_type, "?"));
		for (i = 0; i < nc; i++) {
			const struct row_rank *x = r < cols[i]->nranks ? &cols[i]->ranks[r] : NULL;

			fprintf(f, " %12s", x && x->present ? numfmt(buf, sizeof(buf), x->rate,
					s_or(cols[i]->rate_unit, "")) : "-");
		}
		fprintf(f, "%s\n", k->fs_differs ? "  (other file system)" : "");
	}
}

int out_text_ranks(FILE *f, const struct run *run)
{
	size_t i;

	if (!run->nranks)
		return 0;
	fprintf(f, "\n%zu ranks on %u host%s, one result (aggregate = all ranks' work over "
		"the span from the earliest start to the latest stop):\n", run->nranks,
		hosts(run), hosts(run) == 1 ? "" : "s");
	for (i = 0; i < run->nrows; i++)
		if (run->rows[i]->nranks && isfinite(run->rows[i]->rate) &&
		    isfinite(metric(run->rows[i], RK_ROW_LAST_DONE_S)))
			row_line(f, run->rows[i]);
	rank_table(f, run);
	return ferror(f) ? -EIO : 0;
}
