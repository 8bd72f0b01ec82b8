/* text_battery.c - the battery's text: a table per configuration of the figures kept,
 * the figures left out and the steps skipped with their reasons, and the comparison
 * summary when several file systems ran. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/battery_out.h"
#include "output/output.h"
#include "output/verdict_out.h"
#include "stats/battery_table.h"
#include "stats/result.h"
#include "stats/result_keys.h"

#define MAX_CONFS 32

static const char *conf_of(const struct row *w)
{
	return kv_get(&w->params, RK_ROW_FS_CONFIG);
}

static int same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* The configurations in the order they ran (NULL: the target itself). */
static size_t confs(const struct run *run, const char **out, size_t max)
{
	size_t i, k, n = 0;

	for (i = 0; i < run->nrows; i++) {
		const char *c = conf_of(run->rows[i]);

		for (k = 0; k < n && !same(out[k], c); k++)
			;
		if (k == n && n < max)
			out[n++] = c;
	}
	return n;
}

/* A view of run holding only the rows of configuration c that have a figure (measured,
 * or failed: a failure is shown). */
static int view_of(const struct run *run, const char *c, struct run *v)
{
	size_t i;

	*v = *run;
	v->rows = malloc((run->nrows + 1) * sizeof(*v->rows));
	if (!v->rows)
		return -ENOMEM;
	v->nrows = 0;
	for (i = 0; i < run->nrows; i++) {
		struct row *w = run->rows[i];

		if (same(conf_of(w), c) && !(w->flags & ROW_NOT_MEASURED))
			v->rows[v->nrows++] = w;
	}
	return 0;
}

static int has_repeats(const struct run *run)
{
	size_t i;

	for (i = 0; i < run->nrows; i++)
		if (run->rows[i]->repeat > 0)
			return 1;
	return 0;
}

/* The steps the plan skipped (the run's options step1, step2 ...: "NAME: skipped: why"),
 * then the rows without a figure, once each (the first repeat's). */
static void left_out(FILE *f, const struct run *run, int several)
{
	size_t i, n = 0;

	for (i = 0; i < run->options.n; i++) {
		const struct kv *o = &run->options.v[i];

		if (strncmp(o->key, "step", 4) || !o->value || !strstr(o->value, ": skipped: ") ||
		    strstr(o->value, ": skipped: not in --steps"))
			continue;	/* what --steps left out was not asked for */
		if (!n++)
			fputs("\nnot shown:\n", f);
		fprintf(f, "  %s\n", o->value);
	}
	for (i = 0; i < run->nrows; i++) {
		const struct row *w = run->rows[i];
		const char *c = conf_of(w), *d = kv_get(&w->params, RK_ROW_DETAIL);

		if (!(w->flags & ROW_NOT_MEASURED) || w->repeat)
			continue;
		if (!n++)
			fputs("\nnot shown:\n", f);
		if (!strcmp(w->phase, "skipped"))
			fprintf(f, "  %s%s%s: %s\n", several && c ? c : "",
				several && c ? ": " : "", d ? d : w->workload,
				w->note ? w->note : "skipped");
		else
			fprintf(f, "  %s%s%s %s%s%s%s: %s\n", several && c ? c : "",
				several && c ? ": " : "", w->workload, w->phase, d ? " (" : "",
				d ? d : "", d ? ")" : "", w->note ? w->note : "left out");
	}
}

/* A target in memory says so; the wall time against the budget, and what of it was not
 * the steps' own. */
static void footer(FILE *f, const struct run *run)
{
	const struct kvlist *o = &run->options;
	const char *m = kv_get(o, RK_BAT_MEMORY), *wall = kv_get(o, RK_BAT_WALL);
	const char *budget = kv_get(o, RK_BAT_BUDGET), *over = kv_get(o, RK_BAT_OVERHEAD);
	double w = wall ? atof(wall) : 0, b = budget ? atof(budget) : 0;
	double v = over ? atof(over) : 0;

	if (m)
		fprintf(f, "\nnote: %s\n", m);
	if (!(w > 0))
		return;
	fprintf(f, "\nwall time %.1f s", w);
	if (b > 0 && kv_get(o, RK_BAT_SIZING) && !strcmp(kv_get(o, RK_BAT_SIZING), "planned"))
		fprintf(f, " of a %.0f s budget (%.0f%%%s)", b, 100.0 * w / b,
			w > b ? ", over it" : "");
	fprintf(f, "; outside the steps %.1f s (%.1f%%: probe, plan, syncs, cleanup)\n", v,
		100.0 * v / w);
}

int out_battery_text(FILE *f, const struct run *run)
{
	const char *c[MAX_CONFS];
	size_t nc = confs(run, c, MAX_CONFS), i;
	struct run v;
	int rc = 0;

	rc = out_text_verdict(f, (struct run *const *)&run, NULL, 1);	/* the answer first */
	for (i = 0; i < nc && rc == 0; i++) {
		if (view_of(run, c[i], &v) < 0)
			return -ENOMEM;
		if (nc > 1 || c[i])
			fprintf(f, "%s== %s ==\n", i ? "\n" : "", c[i] ? c[i] : "target");
		if (v.nrows)
			rc = out_text_table(f, &v);
		else
			fputs("no figure\n", f);
		if (rc == 0 && has_repeats(&v))
			rc = out_text_repeats(f, &v);
		free(v.rows);
	}
	left_out(f, run, nc > 1);
	if (rc == 0 && nc > 1)
		rc = battery_table_summary(f, run, NULL);
	footer(f, run);
	return rc ? rc : ferror(f) ? -EIO : 0;
}
