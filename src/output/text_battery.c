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
/* the widest line of the battery's own lines (the tables' too: text_table.c); the
 * comparison below them (stats/battery_table.c) stays within 100 */
#define TEXT_WIDTH 80

/* words printed from column col on, wrapped at TEXT_WIDTH with indent spaces before each
 * further line; returns the column after the last word */
static size_t wrap_words(FILE *f, const char *words, size_t col, size_t indent)
{
	const char *p = words;
	int first = 1;

	while (*p) {
		size_t n = strcspn(p, " ");

		if (!first && col + 1 + n > TEXT_WIDTH) {
			fprintf(f, "\n%*s", (int)indent, "");
			col = indent;
		} else if (!first) {
			fputc(' ', f);
			col++;
		}
		fwrite(p, 1, n, f);
		col += n;
		first = 0;
		p += n;
		while (*p == ' ')
			p++;
	}
	return col;
}

/* One line of text wrapped at TEXT_WIDTH, continued with indent spaces, and a newline. */
static void wrapped(FILE *f, const char *text, size_t indent)
{
	wrap_words(f, text, 0, indent);
	fputc('\n', f);
}

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

/* Has run a "skipped" row (a step dropped or late in a pass) for the step called name? */
static int has_skipped_row(const struct run *run, const char *name, size_t len)
{
	for (size_t i = 0; i < run->nrows; i++) {
		const struct row *w = run->rows[i];
		const char *d = kv_get(&w->params, RK_ROW_DETAIL);

		if (!strcmp(w->phase, "skipped") && d && strlen(d) == len && !strncmp(d, name, len))
			return 1;
	}
	return 0;
}

static void not_shown(FILE *f, size_t *n, const char *line)
{
	if (!(*n)++)
		fputs("\nnot shown:\n", f);
	fputs("  ", f);
	wrap_words(f, line, 2, 4);
	fputc('\n', f);
}

/* The steps the plan skipped (the run's options step1, step2 ...: "NAME: skipped: why";
 * one a pass dropped or ran out of time for has a row of its own, named there), then the
 * rows without a figure, once each (the first repeat's), with their configuration. */
static void left_out(FILE *f, const struct run *run, int several)
{
	size_t i, n = 0;
	char line[1024];

	for (i = 0; i < run->options.n; i++) {
		const struct kv *o = &run->options.v[i];
		const char *sk = o->value ? strstr(o->value, ": skipped: ") : NULL;

		if (strncmp(o->key, "step", 4) || !sk ||
		    strstr(o->value, ": skipped: not in --steps") ||
		    has_skipped_row(run, o->value, (size_t)(sk - o->value)))
			continue;	/* what --steps left out was not asked for */
		not_shown(f, &n, o->value);
	}
	for (i = 0; i < run->nrows; i++) {
		const struct row *w = run->rows[i];
		const char *c = conf_of(w), *d = kv_get(&w->params, RK_ROW_DETAIL);

		if (!(w->flags & ROW_NOT_MEASURED) || w->repeat)
			continue;
		if (!strcmp(w->phase, "skipped"))
			snprintf(line, sizeof(line), "%s%s%s: %s", several && c ? c : "",
				 several && c ? ": " : "", d ? d : w->workload,
				 w->note ? w->note : "skipped");
		else
			snprintf(line, sizeof(line), "%s%s%s %s%s%s%s: %s", several && c ? c : "",
				 several && c ? ": " : "", w->workload, w->phase, d ? " (" : "",
				 d ? d : "", d ? ")" : "", w->note ? w->note : "left out");
		not_shown(f, &n, line);
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

	if (m) {
		fputs("\nnote: ", f);
		wrap_words(f, m, 6, 6);
		fputc('\n', f);
	}
	if (!(w > 0))
		return;
	fprintf(f, "\nwall time %.1f s", w);
	if (b > 0 && kv_get(o, RK_BAT_SIZING) && !strcmp(kv_get(o, RK_BAT_SIZING), "planned"))
		fprintf(f, " of a %.0f s budget (%.0f%%%s)", b, 100.0 * w / b,
			w > b ? ", over it" : "");
	fprintf(f, ";\noutside the steps %.1f s (%.1f%%: probe, plan, syncs, cleanup)\n", v,
		100.0 * v / w);
}

/* The heading of configuration c: its name, then which configuration its rows belong to
 * (file system, mkfs and mount options, device, kernel), from its first row and the run's
 * environment. */
static void conf_heading(FILE *f, const struct run *run, const char *c, const struct run *v,
			 int first)
{
	const struct env *e = &run->env;
	const struct kvlist *p = v->nrows ? &v->rows[0]->params : NULL;
	const char *fs = p ? kv_get(p, RK_ROW_FS) : NULL;
	const char *mk = p ? kv_get(p, RK_ROW_MKFS_OPTIONS) : NULL;
	const char *mo = p ? kv_get(p, RK_ROW_MOUNT_OPTIONS) : NULL;
	char line[1024];

	if (c) {
		snprintf(line, sizeof(line), "file system %s (mkfs %s, mount %s) on a loop device "
			 "over a file on %s; kernel %s", fs && *fs ? fs : c,
			 mk && *mk ? mk : "defaults", mo && *mo ? mo : "defaults",
			 e->device && *e->device ? e->device : "the target's device",
			 e->kernel && *e->kernel ? e->kernel : "?");
	} else {
		snprintf(line, sizeof(line), "file system %s (mount %s) on %s; kernel %s",
			 e->fs_type && *e->fs_type ? e->fs_type : "unknown",
			 e->mount_opts && *e->mount_opts ? e->mount_opts : "options unknown",
			 e->device && *e->device ? e->device : "no block device",
			 e->kernel && *e->kernel ? e->kernel : "?");
	}
	fprintf(f, "%s== %s ==\n", first ? "" : "\n", c ? c : e->target ? e->target : "target");
	wrapped(f, line, 2);
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
		conf_heading(f, run, c[i], &v, i == 0);
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
