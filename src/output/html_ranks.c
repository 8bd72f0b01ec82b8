/* html_ranks.c - the report's section for runs measured by several ranks (mpirun): per
 * run a table by host (its ranks, file systems, and per merged row the sum of its ranks'
 * own rates), a table by rank, and a bar chart per merged row of the ranks' own rates, so
 * a slow host shows. Nothing for runs of one process. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/html.h"
#include "output/html_int.h"
#include "output/numfmt.h"
#include "stats/result.h"
#include "stats/result_keys.h"

#define MAX_COLS	8	/* merged rows shown as columns and charts */

static const char *s_or(const char *s, const char *d)
{
	return s && *s ? s : d;
}

/* The merged rows with a rate for every rank, at most MAX_COLS. */
static size_t columns(const struct run *run, const struct row **cols)
{
	size_t i, n = 0;

	for (i = 0; i < run->nrows && n < MAX_COLS; i++)
		if (run->rows[i]->nranks == run->nranks && isfinite(run->rows[i]->rate))
			cols[n++] = run->rows[i];
	return n;
}

static void head(FILE *f, const char *first, const char *second, const struct row **cols,
		 size_t nc)
{
	size_t c;

	fprintf(f, "<div class=\"scroll\"><table><thead><tr><th>%s</th><th>%s</th>"
		   "<th>file system</th>", first, second);
	for (c = 0; c < nc; c++) {
		fprintf(f, "<th>");
		html_col_name(f, cols[c]);
		fprintf(f, "</th>");
	}
	fprintf(f, "</tr></thead><tbody>\n");
}

static void cell(FILE *f, double v, const char *unit)
{
	char buf[48];

	fprintf(f, "<td class=\"num\">");
	html_esc(f, isfinite(v) ? numfmt(buf, sizeof(buf), v, unit) : "-");
	fprintf(f, "</td>");
}

static void by_host(FILE *f, const struct run *run, const struct row **cols, size_t nc)
{
	size_t r, j, c;

	head(f, "host", "ranks", cols, nc);
	for (r = 0; r < run->nranks; r++) {
		const char *h = s_or(run->ranks[r].env.host, "?");

		for (j = 0; j < r && strcmp(h, s_or(run->ranks[j].env.host, "?")); j++)
			;
		if (j < r)
			continue;	/* this host has a line already */
		fprintf(f, "<tr><th>");
		html_esc(f, h);
		fprintf(f, "</th><td>");
		for (j = r; j < run->nranks; j++)
			if (!strcmp(h, s_or(run->ranks[j].env.host, "?")))
				fprintf(f, "%zu ", j);
		fprintf(f, "</td><td>");
		html_esc(f, s_or(run->ranks[r].env.fs_type, "?"));
		fprintf(f, "</td>");
		for (c = 0; c < nc; c++) {
			double sum = 0;

			for (j = r; j < run->nranks; j++)
				if (!strcmp(h, s_or(run->ranks[j].env.host, "?")) &&
				    cols[c]->ranks[j].present && isfinite(cols[c]->ranks[j].rate))
					sum += cols[c]->ranks[j].rate;
			cell(f, sum, s_or(cols[c]->rate_unit, ""));
		}
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</tbody></table></div>\n");
}

static void by_rank(FILE *f, const struct run *run, const struct row **cols, size_t nc)
{
	size_t r, c;

	head(f, "rank", "host", cols, nc);
	for (r = 0; r < run->nranks; r++) {
		const struct run_rank *k = &run->ranks[r];

		fprintf(f, "<tr><th>%zu</th><td>", r);
		html_esc(f, s_or(k->env.host, "?"));
		fprintf(f, "</td><td>");
		html_esc(f, s_or(k->env.fs_type, "?"));
		if (k->fs_differs)
			fprintf(f, " (not rank 0's)");
		fprintf(f, "</td>");
		for (c = 0; c < nc; c++)
			cell(f, cols[c]->ranks[r].present ? cols[c]->ranks[r].rate : NAN,
			     s_or(cols[c]->rate_unit, ""));
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</tbody></table></div>\n");
}

static void charts(FILE *f, const struct run *run, const struct row **cols, size_t nc)
{
	struct svg_bar *b = calloc(run->nranks, sizeof(*b));
	char (*labels)[96] = calloc(run->nranks, sizeof(*labels));
	char title[160];
	size_t c, r;

	for (c = 0; b && labels && c < nc; c++) {
		const char *d = kv_get(&cols[c]->params, RK_ROW_DETAIL);

		for (r = 0; r < run->nranks; r++) {
			snprintf(labels[r], sizeof(labels[r]), "rank %zu (%s)", r,
				 s_or(run->ranks[r].env.host, "?"));
			b[r].label = labels[r];
			b[r].value = cols[c]->ranks[r].rate;
			b[r].not_measured = !cols[c]->ranks[r].present ||
					    !isfinite(cols[c]->ranks[r].rate);
		}
		snprintf(title, sizeof(title), "%s %s%s%s: each rank's own rate",
			 cols[c]->workload, cols[c]->phase, d ? " " : "", d ? d : "");
		svg_bars(f, title, s_or(cols[c]->rate_unit, ""), b, run->nranks);
	}
	free(b);
	free(labels);
}

void html_ranks_section(FILE *f, const struct report *r)
{
	const struct row *cols[MAX_COLS];
	size_t i, nc, shown = 0;

	for (i = 0; i < r->n; i++) {
		const struct run *run = r->runs[i];

		if (!run->nranks)
			continue;
		if (!shown++)
			fprintf(f, "<h2 id=\"ranks\">Ranks</h2>\n<p>Runs measured by several "
				   "ranks at once (mpirun). Their figures above are the aggregate: "
				   "the work of all ranks over the span from the earliest start "
				   "to the latest stop. Here each host's and each rank's own "
				   "rates, over their own times.</p>\n");
		nc = columns(run, cols);
		fprintf(f, "<h3>");
		html_run_name(f, r, i);
		fprintf(f, ": %zu ranks</h3>\n", run->nranks);
		by_host(f, run, cols, nc);
		by_rank(f, run, cols, nc);
		charts(f, run, cols, nc);
	}
}
