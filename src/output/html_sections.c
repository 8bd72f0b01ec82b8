/* html_sections.c - the report's grouped table, latency plots, comparison with run A and
 * environment tables. See html.c. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "output/html.h"
#include "output/html_int.h"
#include "stats/compare.h"
#include "stats/figkey.h"
#include "stats/hist.h"
#include "stats/result.h"
#include "stats/result_keys.h"

/* The data-set size of the run's rows of workload wl, as the param their key table gives
 * the data-set size role says ("1.00 GiB"), or "". */
static void run_size(char *buf, size_t len, const struct run *run, const char *wl)
{
	const struct result_key *k;
	const char *s;
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < run->nrows; i++) {
		if (!run->rows[i]->workload || strcmp(run->rows[i]->workload, wl))
			continue;
		s = result_key_role_param(run->rows[i], RK_ROLE_DATA_SIZE, &k);
		if (s) {
			units_fmt_bytes(buf, len, strtod(s, NULL) * result_key_unit_bytes(k->unit));
			return;
		}
	}
}

/* One cell pair: the rate (mean, +- CI half-width with repeats) and %CPU. */
static void cell(FILE *f, const struct row_group *g)
{
	if (!g) {
		fprintf(f, "<td></td><td></td>");
		return;
	}
	if (g->value.n == 0) {
		fprintf(f, "<td class=\"nm\" colspan=\"2\">%s</td>",
			g->flags & ROW_FAILED ? "failed" : "not measured");
		return;
	}
	fprintf(f, "<td class=\"n\">%.6g", g->value.mean);
	if (g->value.n >= 2)
		fprintf(f, " &plusmn;%.3g", g->value.half);
	html_flags(f, g->flags);
	fprintf(f, "</td><td class=\"n\">");
	if (g->cpu.n)
		fprintf(f, "%.0f", g->cpu.mean);
	fprintf(f, "</td>");
}

/* The columns of one workload: wc[0..nc-1], in column order. */
struct wl_cols {
	const size_t *wc;
	size_t nc;
};

/* Does run j have a figure among the workload's columns? */
static int run_has(const struct report *r, size_t j, const struct wl_cols *w)
{
	size_t c;

	for (c = 0; c < w->nc; c++)
		if (html_cell(r, j, w->wc[c]))
			return 1;
	return 0;
}

static void table_head(FILE *f, const struct report *r, const struct wl_cols *w)
{
	size_t c;

	fprintf(f, "<table class=\"grouped\"><thead><tr><th rowspan=\"2\">"
		   "Machine / configuration</th><th rowspan=\"2\">Size</th>");
	for (c = 0; c < w->nc; c++) {
		fprintf(f, "<th colspan=\"2\">");
		html_col_name(f, r->cols[w->wc[c]]);
		fprintf(f, "</th>");
	}
	fprintf(f, "</tr>\n<tr>");
	for (c = 0; c < w->nc; c++) {
		const struct row *col = r->cols[w->wc[c]];

		fprintf(f, "<th>");
		html_esc(f, col->rate_unit ? col->rate_unit : "s");
		fprintf(f, "</th><th>%%CPU</th>");
	}
	fprintf(f, "</tr></thead>\n<tbody>\n");
}

static void table_rows(FILE *f, const struct report *r, const char *wl,
		       const struct wl_cols *w, size_t i)
{
	const char *h = r->runs[i]->env.host ? r->runs[i]->env.host : "";
	char size[32];
	size_t c, j;

	for (j = i; j < r->n; j++) {
		if (strcmp(r->runs[j]->env.host ? r->runs[j]->env.host : "", h) ||
		    !run_has(r, j, w))
			continue;
		run_size(size, sizeof(size), r->runs[j], wl);
		fprintf(f, "<tr><td>");
		html_run_name(f, r, j);
		fprintf(f, "</td><td class=\"n\">%s</td>", size);
		for (c = 0; c < w->nc; c++)
			cell(f, html_cell(r, j, w->wc[c]));
		fprintf(f, "</tr>\n");
	}
}

/* One workload's table: a machine row, then one row per configuration measured on it. */
static void wl_table(FILE *f, const struct report *r, const char *wl, const struct wl_cols *w)
{
	size_t i, k;
	const char *h;

	table_head(f, r, w);
	for (i = 0; i < r->n; i++) {
		if (!run_has(r, i, w))
			continue;
		h = r->runs[i]->env.host;
		for (k = 0; k < i; k++)
			if (run_has(r, k, w) && !strcmp(r->runs[k]->env.host ?
							r->runs[k]->env.host : "", h ? h : ""))
				break;
		if (k < i)
			continue;	/* machine already listed */
		fprintf(f, "<tr class=\"machine\"><th colspan=\"%zu\">", 2 + 2 * w->nc);
		html_esc(f, h ? h : "unknown host");
		fprintf(f, "</th></tr>\n");
		table_rows(f, r, wl, w, i);
	}
	fprintf(f, "</tbody></table>\n");
}

/* The seeds' table, one per workload in the order the workloads first appear, a rate and
 * %CPU column pair per figure. The columns are sorted by workload once (stable), so the
 * tables cost O(c log c) in the columns however many workloads there are. */
void html_table_section(FILE *f, const struct report *r)
{
	struct figkey_index x = { 0 };
	char **wk = calloc(r->ncols + 1, sizeof(*wk));
	size_t *start = calloc(r->ncols + 1, sizeof(*start));
	size_t c, k, j;

	fprintf(f, "<h2>Results</h2>\n");
	if (!wk || !start)
		goto out;
	for (c = 0; c < r->ncols; c++)
		wk[c] = r->cols[c]->workload;	/* borrowed; the index only reads them */
	if (figkey_index_build(&x, wk, r->ncols) < 0)
		goto out;
	for (c = 0; c < r->ncols; c++)
		start[c] = SIZE_MAX;
	for (k = 0; k < r->ncols; k = j) {
		for (j = k + 1; j < r->ncols && !strcmp(wk[x.ord[j]], wk[x.ord[k]]); j++)
			;
		start[x.ord[k]] = k;	/* the workload's first column starts its run */
	}
	for (c = 0; c < r->ncols; c++) {
		struct wl_cols w;

		if (start[c] == SIZE_MAX)
			continue;	/* not the first column of its workload */
		for (j = start[c]; j < r->ncols && !strcmp(wk[x.ord[j]], wk[c]); j++)
			;
		w.wc = x.ord + start[c];
		w.nc = j - start[c];
		wl_table(f, r, wk[c], &w);
	}
out:
	figkey_index_free(&x);
	free(wk);
	free(start);
}

/* The group's latency percentiles, merging the repeats' histograms when every row has
 * one (percentiles only after merging), else those of its first row. 0 when none. */
static int group_lat(const struct row_group *g, double ns[5])
{
	static const double pct[4] = { 50, 90, 99, 99.9 };
	const struct row_lat *l = &g->first->lat;
	struct hist *h;
	size_t i;
	int k;

	if (!l->valid)
		return 0;
	for (i = 0; i < g->nrows; i++)
		if (!g->rows[i]->lat.valid || !g->rows[i]->lat.hist)
			break;
	if (i == g->nrows && (h = malloc(sizeof(*h)))) {
		hist_init(h);
		for (i = 0; i < g->nrows; i++)
			hist_merge(h, g->rows[i]->lat.hist);
		for (k = 0; k < 4; k++)
			ns[k] = (double)hist_percentile(h, pct[k]);
		ns[4] = (double)h->max;
		free(h);
		return 1;
	}
	ns[0] = (double)l->p50_ns;
	ns[1] = (double)l->p90_ns;
	ns[2] = (double)l->p99_ns;
	ns[3] = (double)l->p999_ns;
	ns[4] = (double)l->max_ns;
	return 1;
}

void html_latency_section(FILE *f, const struct report *r)
{
	struct svg_lat *l = calloc(r->n, sizeof(*l));
	char (*names)[96] = calloc(r->n, sizeof(*names)), title[256];
	const char *d;
	size_t c, i, nl, shown = 0;

	if (!l || !names)
		goto out;
	for (c = 0; c < r->ncols; c++) {
		for (i = 0, nl = 0; i < r->n; i++) {
			const struct row_group *g = html_cell(r, i, c);

			if (!g || !group_lat(g, l[nl].ns))
				continue;
			html_run_name_buf(names[nl], sizeof(names[0]), r, i);
			l[nl].label = names[nl];
			nl++;
		}
		if (!nl)
			continue;
		if (!shown++)
			fprintf(f, "<h2>Latency percentiles</h2>\n<p>Per call, from the merged "
				   "histograms of all repeats (log-linear buckets, under 1%% "
				   "error).</p>\n");
		d = kv_get(&r->cols[c]->params, RK_ROW_DETAIL);
		snprintf(title, sizeof(title), "%s %s%s%s", r->cols[c]->workload,
			 r->cols[c]->phase, d ? " " : "", d ? d : "");
		svg_latency(f, title, l, nl);
	}
out:
	free(l);
	free(names);
}

static void delta_line(FILE *f, const struct cmp_line *l, char who)
{
	const struct row_group *g = l->a ? l->a : l->b;

	fprintf(f, "<tr><td>");
	html_col_name(f, g->first);
	fprintf(f, "</td>");
	if (!l->a || !l->b) {
		fprintf(f, "<td colspan=\"3\" class=\"refused\">only in %c</td></tr>\n",
			l->a ? 'A' : who);
		return;
	}
	if (l->refusal) {
		fprintf(f, "<td colspan=\"3\" class=\"refused\">not compared: ");
		html_esc(f, l->refusal);
		fprintf(f, "</td></tr>\n");
		return;
	}
	if (isnan(l->delta_pct)) {
		fprintf(f, "<td colspan=\"3\">A is zero: no ratio</td></tr>\n");
		return;
	}
	fprintf(f, "<td class=\"n %s\">%+.1f%%</td><td class=\"n\">", l->delta_pct > 0 ?
		"better" : l->delta_pct < 0 ? "worse" : "", l->delta_pct);
	if (l->have_ci)
		fprintf(f, "[%+.1f%%, %+.1f%%]", l->lo_pct, l->hi_pct);
	else
		fprintf(f, "no interval");
	fprintf(f, "</td><td>");
	if (l->winner == CMP_TIE)
		fprintf(f, "equal");
	else
		fprintf(f, "%c better", l->winner == CMP_B ? who : 'A');
	if (l->tested)
		fprintf(f, ", %s (Welch p=%.2g)", l->significant ? "significant" :
			"not significant", l->w.p);
	else if (l->winner != CMP_TIE)
		fprintf(f, " (single runs: not tested)");
	fprintf(f, "</td></tr>\n");
}

void html_delta_section(FILE *f, const struct report *r)
{
	struct cmp_result cr;
	size_t i, k;
	char who;

	fprintf(f, "<h2>Compared with A</h2>\n<p>Delta: the run relative to A, positive when "
		   "it is better (higher rate, or shorter time), with the 95%% confidence "
		   "interval of the ratio of means (Fieller). Figures measured differently are "
		   "not compared.</p>\n");
	for (i = 1; i < r->n; i++) {
		if (compare_groups(&r->groups[0], &r->groups[i], &cr) < 0)
			return;
		who = (char)('A' + (i % 26));
		fprintf(f, "<h3>");
		html_run_name(f, r, i);
		fprintf(f, " against A: better in %u of %u figures, significantly in %u</h3>\n"
			   "<table><thead><tr><th>figure</th><th>delta</th><th>95%% CI</th>"
			   "<th>verdict</th></tr></thead><tbody>\n", cr.b_better, cr.compared,
			cr.b_better_sig);
		for (k = 0; k < cr.n; k++)
			delta_line(f, &cr.l[k], who);
		fprintf(f, "</tbody></table>\n");
		compare_result_free(&cr);
	}
}

static void env_row(FILE *f, const struct report *r, const char *name, size_t off)
{
	size_t i;

	fprintf(f, "<tr><th>%s</th>", name);
	for (i = 0; i < r->n; i++) {
		const char *v = *(char *const *)((const char *)&r->runs[i]->env + off);

		fprintf(f, "<td>");
		html_esc(f, v ? v : "");
		fprintf(f, "</td>");
	}
	fprintf(f, "</tr>\n");
}

void html_env_section(FILE *f, const struct report *r)
{
	static const struct { const char *name; size_t off; } fields[] = {
		{ "tool", offsetof(struct env, tool_version) },
		{ "date", offsetof(struct env, date) },
		{ "host", offsetof(struct env, host) },
		{ "OS", offsetof(struct env, os) },
		{ "kernel", offsetof(struct env, kernel) },
		{ "CPU", offsetof(struct env, cpu_model) },
		{ "target", offsetof(struct env, target) },
		{ "file system", offsetof(struct env, fs_type) },
		{ "mount options", offsetof(struct env, mount_opts) },
		{ "device", offsetof(struct env, device) },
		{ "device model", offsetof(struct env, device_model) },
		{ "scheduler", offsetof(struct env, scheduler) },
	};
	char buf[32];
	size_t i, k;

	fprintf(f, "<h2>Environment</h2>\n<table><thead><tr><th></th>");
	for (i = 0; i < r->n; i++) {
		fprintf(f, "<th>");
		html_run_name(f, r, i);
		fprintf(f, "</th>");
	}
	fprintf(f, "</tr></thead><tbody>\n");
	for (k = 0; k < sizeof(fields) / sizeof(fields[0]); k++)
		env_row(f, r, fields[k].name, fields[k].off);
	fprintf(f, "<tr><th>CPUs, RAM</th>");
	for (i = 0; i < r->n; i++)
		fprintf(f, "<td>%u, %s</td>", r->runs[i]->env.ncpu,
			r->runs[i]->env.ram_bytes ? units_fmt_bytes(buf, sizeof(buf),
			(double)r->runs[i]->env.ram_bytes) : "?");
	fprintf(f, "</tr>\n<tr><th>command line</th>");
	for (i = 0; i < r->n; i++) {
		fprintf(f, "<td><code>");
		html_esc(f, r->runs[i]->command_line);
		fprintf(f, "</code></td>");
	}
	fprintf(f, "</tr>\n<tr><th>options</th>");
	for (i = 0; i < r->n; i++) {
		fprintf(f, "<td>");
		for (k = 0; k < r->runs[i]->options.n; k++) {
			fprintf(f, "%s<code>", k ? " " : "");
			html_esc(f, r->runs[i]->options.v[k].key);
			fputc('=', f);
			html_esc(f, r->runs[i]->options.v[k].value);
			fprintf(f, "</code>");
		}
		fprintf(f, "</td>");
	}
	fprintf(f, "</tr>\n</tbody></table>\n");
}

/* Row notes (the cache verdict, a reflink, a PostMark warning) and errors, per run. */
void html_notes_section(FILE *f, const struct report *r)
{
	size_t i, k, shown = 0;

	for (i = 0; i < r->n; i++) {
		const struct run *run = r->runs[i];

		for (k = 0; k < run->nrows; k++) {
			const struct row *w = run->rows[k];

			if ((!w->note && !w->error) || (html_iozone_row(w) && !w->error))
				continue;
			if (!shown++)
				fprintf(f, "<h2>Notes</h2>\n<ul>\n");
			fprintf(f, "<li>");
			html_run_name(f, r, i);
			fprintf(f, ", ");
			html_esc(f, w->workload);
			fputc(' ', f);
			html_esc(f, w->phase);
			if (w->repeat)
				fprintf(f, " (repeat %u)", w->repeat);
			fprintf(f, ": ");
			if (w->error) {
				fprintf(f, "<span class=\"flag\">error</span> ");
				html_esc(f, w->error);
				fprintf(f, "%s", w->note ? "; " : "");
			}
			html_esc(f, w->note);
			fprintf(f, "</li>\n");
		}
	}
	if (shown)
		fprintf(f, "</ul>\n");
}
