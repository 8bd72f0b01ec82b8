/* html_tables.c - the report's results tables, made to fit the page. One run: a table per
 * workload with one figure per row (value with its unit, interval, %CPU, latency
 * percentiles, cache, flags), which fits any width. Several runs: the grouped table the
 * seeds' web pages show (a machine row, a row per configuration measured on it, a value
 * and %CPU column pair per figure), its figures wrapped into groups of HTML_GROUP_COLS
 * columns, each group a table in its own scroll box whose header row and first column
 * stay in view. Numbers through output/numfmt.h: a column shows its values in one
 * display unit chosen by its largest value ("GB/s", "ms"), three significant figures.
 * See html.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "output/html.h"
#include "output/html_int.h"
#include "output/numfmt.h"
#include "stats/compare.h"
#include "stats/result.h"
#include "stats/result_keys.h"

/* Figures per table of the grouped layout: with the configuration and size columns, a
 * group fits a 1400-pixel window; narrower ones scroll inside the box. */
#define HTML_GROUP_COLS	6

void html_run_size(char *buf, size_t len, const struct run *run, const char *wl)
{
	const struct result_key *k;
	const char *s;
	size_t i;

	double bytes, first = -1;

	buf[0] = '\0';
	for (i = 0; i < run->nrows; i++) {
		if (!run->rows[i]->workload || strcmp(run->rows[i]->workload, wl))
			continue;
		s = result_key_role_param(run->rows[i], RK_ROLE_DATA_SIZE, &k);
		if (!s)
			continue;
		bytes = strtod(s, NULL) * result_key_unit_bytes(k->unit);
		if (first < 0) {
			first = bytes;
		} else if (bytes != first) {
			buf[0] = '\0';	/* the rows differ: no one data set to name */
			return;
		}
	}
	if (first >= 0)
		units_fmt_bytes(buf, len, first);
}

static int same_wl(const struct row *w, const char *wl)
{
	return !strcmp(w->workload ? w->workload : "", wl);
}

/* ---- one run ---------------------------------------------------------------------- */

static void lat_cells(FILE *f, const struct row_group *g)
{
	char b[NUMFMT_LEN];
	double ns[5];
	int k;
	static const int pick[3] = { 0, 2, 3 };	/* p50, p99, p99.9 */

	if (!html_group_lat(g, ns)) {
		fprintf(f, "<td></td><td></td><td></td>");
		return;
	}
	for (k = 0; k < 3; k++)
		fprintf(f, "<td class=\"n\">%s</td>", numfmt(b, sizeof(b), ns[pick[k]], "ns"));
}

/* A figure's row, labelled with its configuration: the battery's fs_config where the
 * row has one (shown before the phase), else the run's name (run). */
static void figure_row(FILE *f, const struct row_group *g, const char *run)
{
	const struct row *w = g->first;
	const char *d = kv_get(&w->params, RK_ROW_DETAIL);
	const char *c = kv_get(&w->params, RK_ROW_FS_CONFIG);
	char b[NUMFMT_LEN];

	fprintf(f, "<tr data-conf=\"");
	html_esc(f, c ? c : run);
	fprintf(f, "\"><td>");
	if (c) {
		fprintf(f, "<span class=\"conf\">");
		html_esc(f, c);
		fprintf(f, "</span> ");
	}
	html_esc(f, w->phase);
	if (d) {
		fputc(' ', f);
		html_esc(f, d);
	}
	fprintf(f, "</td>");
	if (g->value.n == 0) {
		fprintf(f, "<td class=\"nm\" colspan=\"2\">%s</td>", g->flags & ROW_FAILED ?
			"failed" : "not measured");
	} else {
		fprintf(f, "<td class=\"n\">");
		html_esc(f, numfmt(b, sizeof(b), g->value.mean, g->unit));
		fprintf(f, "</td><td class=\"n\">");
		if (g->value.n >= 2)
			html_esc(f, numfmt(b, sizeof(b), g->value.half, g->unit));
		fprintf(f, "</td>");
	}
	fprintf(f, "<td class=\"n\">");
	if (g->cpu.n)
		fprintf(f, "%.0f", g->cpu.mean);
	fprintf(f, "</td>");
	lat_cells(f, g);
	fprintf(f, "<td class=\"n\">");
	if (w->cache_pct >= 0)
		fprintf(f, "%.0f%%", w->cache_pct);
	fprintf(f, "</td><td>");
	html_flags(f, g->flags);
	fprintf(f, "</td></tr>\n");
}

/* One table per workload, a figure per row. */
static void single_tables(FILE *f, const struct report *r)
{
	const struct run_groups *gs = &r->groups[0];
	char size[32], run[160];
	size_t i, k;
	const char *wl;

	html_run_name_buf(run, sizeof(run), r, 0);
	for (i = 0; i < gs->n; i++) {
		if (html_iozone_row(gs->g[i].first))
			continue;	/* html_iozone_section draws its matrices */
		wl = gs->g[i].first->workload ? gs->g[i].first->workload : "";
		for (k = 0; k < i && !same_wl(gs->g[k].first, wl); k++)
			;
		if (k < i)
			continue;	/* this workload's table is written */
		html_run_size(size, sizeof(size), r->runs[0], wl);
		fprintf(f, "<h3>");
		html_esc(f, wl);
		if (size[0])
			fprintf(f, " <span class=\"imp\">(data set %s)</span>", size);
		fprintf(f, "</h3>\n<div class=\"scroll\"><table class=\"figures\"><thead><tr>"
			   "<th>figure</th><th>value</th><th>&plusmn; 95%% CI</th><th>%%CPU</th>"
			   "<th>p50</th><th>p99</th><th>p99.9</th><th>cache</th><th>flags</th>"
			   "</tr></thead><tbody>\n");
		for (k = i; k < gs->n; k++)
			if (same_wl(gs->g[k].first, wl))
				figure_row(f, &gs->g[k], run);
		fprintf(f, "</tbody></table></div>\n");
	}
}

/* ---- several runs: the grouped table -------------------------------------------- */

/* One cell pair in the column's display unit: the mean (+- the CI half-width with
 * repeats) and %CPU. */
static void cell(FILE *f, const struct row_group *g, const struct numfmt_scale *s)
{
	char b[NUMFMT_LEN];

	if (!g) {
		fprintf(f, "<td></td><td></td>");
		return;
	}
	if (g->value.n == 0) {
		fprintf(f, "<td class=\"nm\" colspan=\"2\">%s</td>",
			g->flags & ROW_FAILED ? "failed" : "not measured");
		return;
	}
	fprintf(f, "<td class=\"n\">%s", numfmt_num(b, sizeof(b), g->value.mean / s->div));
	if (g->value.n >= 2)
		fprintf(f, " &plusmn;%s", numfmt_num(b, sizeof(b), g->value.half / s->div));
	html_flags(f, g->flags);
	fprintf(f, "</td><td class=\"n\">");
	if (g->cpu.n)
		fprintf(f, "%.0f", g->cpu.mean);
	fprintf(f, "</td>");
}

/* The display unit of column c: by the largest mean any run has there. */
static void col_scale(const struct report *r, size_t c, struct numfmt_scale *s)
{
	const struct row_group *g;
	const char *unit = NULL;
	double max = 0;
	size_t i;

	for (i = 0; i < r->n; i++) {
		g = html_cell(r, i, c);
		if (!g || !g->value.n)
			continue;
		if (!unit)
			unit = g->unit;
		if (fabs(g->value.mean) > max)
			max = fabs(g->value.mean);
	}
	numfmt_scale_for(max, unit ? unit : r->cols[c]->rate_unit, s);
}

/* Does run j have a figure among columns cs[0..nc-1]? */
static int run_has(const struct report *r, size_t j, const size_t *cs, size_t nc)
{
	size_t k;

	for (k = 0; k < nc; k++)
		if (html_cell(r, j, cs[k]))
			return 1;
	return 0;
}

static void group_head(FILE *f, const struct report *r, const size_t *cs, size_t nc,
		       const struct numfmt_scale *sc)
{
	size_t k;

	fprintf(f, "<div class=\"scroll\"><table class=\"grouped\"><thead><tr><th rowspan=\"2\">"
		   "Machine / configuration</th><th rowspan=\"2\">Size</th>");
	for (k = 0; k < nc; k++) {
		fprintf(f, "<th colspan=\"2\">");
		html_col_name(f, r->cols[cs[k]]);
		fprintf(f, "</th>");
	}
	fprintf(f, "</tr>\n<tr>");
	for (k = 0; k < nc; k++) {
		fprintf(f, "<th>");
		html_esc(f, sc[k].unit[0] ? sc[k].unit : "value");
		fprintf(f, "</th><th>%%CPU</th>");
	}
	fprintf(f, "</tr></thead>\n<tbody>\n");
}

static const char *host_of(const struct report *r, size_t i)
{
	return r->runs[i]->env.host ? r->runs[i]->env.host : "";
}

/* A machine row for each host, then its runs that have a figure in the group. */
static void group_rows(FILE *f, const struct report *r, char (*size)[32], const size_t *cs,
		       size_t nc, const struct numfmt_scale *sc)
{
	size_t i, j, k;

	for (i = 0; i < r->n; i++) {
		if (!run_has(r, i, cs, nc))
			continue;
		for (k = 0; k < i && !(run_has(r, k, cs, nc) &&
				       !strcmp(host_of(r, k), host_of(r, i))); k++)
			;
		if (k < i)
			continue;	/* machine already listed */
		fprintf(f, "<tr class=\"machine\"><th colspan=\"%zu\">", 2 + 2 * nc);
		html_esc(f, host_of(r, i)[0] ? host_of(r, i) : "unknown host");
		fprintf(f, "</th></tr>\n");
		for (j = i; j < r->n; j++) {
			if (strcmp(host_of(r, j), host_of(r, i)) || !run_has(r, j, cs, nc))
				continue;
			fprintf(f, "<tr data-conf=\"");
			html_run_name(f, r, j);
			fprintf(f, "\"><td>");
			html_run_name(f, r, j);
			fprintf(f, "</td><td class=\"n\">%s</td>", size[j]);
			for (k = 0; k < nc; k++)
				cell(f, html_cell(r, j, cs[k]), &sc[k]);
			fprintf(f, "</tr>\n");
		}
	}
}

static void grouped_tables(FILE *f, const struct report *r)
{
	size_t cs[HTML_GROUP_COLS];
	struct numfmt_scale sc[HTML_GROUP_COLS];
	size_t c, k, nc, ntot, part;
	const char *wl;
	/* each run's data-set size per workload, found once: a search of the run's rows per
	 * table of six columns made the report quadratic in the figures */
	char (*size)[32] = calloc(r->n ? r->n : 1, sizeof(*size));

	if (!size)
		return;
	for (c = 0; c < r->ncols; c++) {
		wl = r->cols[c]->workload ? r->cols[c]->workload : "";
		for (k = 0; k < c && !same_wl(r->cols[k], wl); k++)
			;
		if (k < c)
			continue;	/* this workload's tables are written */
		for (k = c, ntot = 0; k < r->ncols; k++)
			ntot += same_wl(r->cols[k], wl);
		fprintf(f, "<h3>");
		html_esc(f, wl);
		if (ntot > HTML_GROUP_COLS)
			fprintf(f, " <span class=\"imp\">(%zu figures in groups of %d)</span>",
				ntot, HTML_GROUP_COLS);
		fprintf(f, "</h3>\n");
		for (k = 0; k < r->n; k++)
			html_run_size(size[k], sizeof(size[k]), r->runs[k], wl);
		for (k = c, nc = 0, part = 0; k < r->ncols; k++) {
			if (!same_wl(r->cols[k], wl))
				continue;
			col_scale(r, k, &sc[nc]);
			cs[nc++] = k;
			if (nc == HTML_GROUP_COLS || part * HTML_GROUP_COLS + nc == ntot) {
				group_head(f, r, cs, nc, sc);
				group_rows(f, r, size, cs, nc, sc);
				fprintf(f, "</tbody></table></div>\n");
				part++;
				nc = 0;
			}
		}
	}
	free(size);
}

void html_table_section(FILE *f, const struct report *r)
{
	fprintf(f, "<h2 id=\"results\">Results</h2>\n");
	if (r->n == 1) {
		fprintf(f, "<p>Each figure of the run, with the latency percentiles of its "
			   "calls; a unit with a prefix is chosen per value.</p>\n");
		single_tables(f, r);
	} else {
		fprintf(f, "<p>Each column shows its values in the unit of its header.</p>\n");
		grouped_tables(f, r);
	}
}
