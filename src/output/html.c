/* html.c - the self-contained HTML report: the grouped table the seeds' web pages show
 * (machine rows, configuration rows, a rate / %CPU column pair per figure), bar charts
 * per figure with 95% confidence whiskers, latency percentile plots, the flags, the
 * comparison with run A and the environment of every run. Inline CSS and SVG only.
 * See html.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/textsafe.h"
#include "core/units.h"
#include "output/html.h"
#include "output/html_battery.h"
#include "output/html_int.h"
#include "stats/compare.h"
#include "stats/figkey.h"
#include "stats/hist.h"
#include "stats/result.h"
#include "stats/result_keys.h"

/* The stylesheet: the page never scrolls sideways (wide tables scroll inside their own
 * box, with the header row and the first column kept in view; charts scale down),
 * colours come from variables with a dark variant (prefers-color-scheme), the chart
 * series from Okabe and Ito's colour-blind-safe palette (k0..k7, as svg_colour), and
 * a print stylesheet lays the boxes open and keeps charts and rows whole. */
static const char css[] =
	":root{color-scheme:light dark;--fg:#1b1b1b;--bg:#fff;--mut:#555;--line:#bbb;"
	"--head:#e6edf5;--mach:#f2f2f2;--box:#fcfcfc;--bad:#b3261e;--good:#1b6e35;"
	"--k0:#0072b2;--k1:#d55e00;--k2:#009e73;--k3:#cc79a7;--k4:#e69f00;--k5:#56b4e9;"
	"--k6:#8c6d31;--k7:#999}"
	"@media (prefers-color-scheme:dark){:root{--fg:#e8e8e8;--bg:#141414;--mut:#aaa;"
	"--line:#555;--head:#1f2b38;--mach:#232323;--box:#1a1a1a;--bad:#ff8a80;--good:#7bd88f;"
	"--k0:#56a8e6;--k1:#ff8c4d;--k2:#3ccfa4;--k3:#e8a3cc;--k4:#f2b544;--k5:#9bd6f5;"
	"--k6:#c9a561;--k7:#bbb}}"
	"html{-webkit-text-size-adjust:100%}"
	"body{font-family:sans-serif;margin:16px auto;padding:0 16px;max-width:1600px;"
	"color:var(--fg);background:var(--bg);line-height:1.4;overflow-wrap:break-word}"
	"h1{font-size:22px}h2{font-size:18px;margin-top:28px;border-bottom:1px solid var(--line)}"
	"h3{font-size:15px}"
	".summary{border:1px solid var(--line);background:var(--box);padding:4px 14px}"
	".summary p{margin:8px 0}"
	".scroll{overflow:auto;max-width:100%;max-height:85vh;margin:8px 0}"
	"table{border-collapse:separate;border-spacing:0;font-size:13px}"
	"th,td{border:1px solid var(--line);border-width:0 1px 1px 0;padding:3px 6px;"
	"background:var(--bg);vertical-align:top}"
	"tr>:first-child{border-left-width:1px}thead tr:first-child>*{border-top-width:1px}"
	"td.n{text-align:right;white-space:nowrap}"
	"thead th{background:var(--head);position:sticky;top:0;z-index:1}"
	"tbody th,tbody td:first-child{position:sticky;left:0;z-index:1;text-align:left}"
	"tbody th{background:var(--mach)}tr.machine th{text-align:left}"
	"thead th:first-child{left:0;z-index:2}"
	"code{font-size:12px;overflow-wrap:anywhere}"
	"td.cmd{min-width:16em;max-width:40em}"
	".flag{color:var(--bad);font-weight:bold}.nm{fill:var(--mut);font-style:italic}"
	"td.nm{color:var(--mut);font-style:italic}.imp{color:var(--mut)}"
	"svg.chart{display:block;margin:10px 0;max-width:100%;height:auto;"
	"border:1px solid var(--line);background:var(--box)}"
	"svg text{fill:var(--fg)}.ttl{font-size:14px;font-weight:bold}.lbl{font-size:12px}"
	".val{font-size:11px}.tick{font-size:10px;fill:var(--mut)}"
	".axis{stroke:var(--fg);fill:none}.grid{stroke:var(--line);fill:none;stroke-width:.5}"
	".ci{stroke:var(--fg);stroke-width:1.5;fill:none}"
	".k0{--k:var(--k0)}.k1{--k:var(--k1)}.k2{--k:var(--k2)}.k3{--k:var(--k3)}"
	".k4{--k:var(--k4)}.k5{--k:var(--k5)}.k6{--k:var(--k6)}.k7{--k:var(--k7)}"
	"rect.bar,circle.pt{fill:var(--k)}polyline.line,path.key{stroke:var(--k);fill:none}"
	".better{color:var(--good)}.worse{color:var(--bad)}"
	".refused{color:var(--mut);font-style:italic}"
	"details.fold{margin:14px 0;border:1px solid var(--line);padding:4px 10px}"
	"details>summary{cursor:pointer;font-weight:bold}"
	"dl.legend{display:grid;grid-template-columns:max-content 1fr;gap:2px 10px;"
	"font-size:13px;margin:6px 0}dl.legend dd{margin:0}"
	".answer{font-size:16px}ul.refs{margin:0;padding-left:16px;font-size:12px}"
	"td small,th small{color:var(--mut)}span.conf{font-weight:bold}"
	".ioz-pair{display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start}"
	"table.ioz td.cache{background:var(--mach)}table.ioz caption{text-align:left;"
	"font-weight:bold;padding:4px 0}"
	"td code.id,td code.nowrap{overflow-wrap:normal;white-space:nowrap}"
	"table.place td.n,table.verdict td.n{white-space:normal}"
	"table.place td,table.verdict td,table.confs td{min-width:8em}"
	"@media (max-width:600px){body{padding:0 8px;margin:8px auto}h1{font-size:19px}"
	"table{font-size:12px}.scroll{max-height:none}}"
	"@media print{:root{--fg:#000;--bg:#fff;--box:#fff;--head:#eee;--mach:#f5f5f5}"
	"body{max-width:none;margin:0;padding:0;font-size:11px}"
	".scroll{overflow:visible;max-height:none}"
	"thead th,tbody th,tbody td:first-child{position:static}"
	"thead{display:table-header-group}tr,svg.chart,.summary{break-inside:avoid}"
	"h2{break-after:avoid}svg.chart{max-width:100%}}";

/* The columns (one per workload, phase and detail: figkey_col) in the order they first
 * appear across the runs, and each run's group for each column (its first such group):
 * sorted keys, so O(g log g) in the groups g of all runs together. */
static int build(struct report *r)
{
	struct figkey_index x = { 0 };
	char **key = NULL;
	size_t *run_of = NULL, *grp_of = NULL, *col_of = NULL;
	size_t i, j, k, t, ng = 0;
	int rc = -ENOMEM;

	r->groups = calloc(r->n, sizeof(*r->groups));
	if (!r->groups)
		return -ENOMEM;
	for (i = 0; i < r->n; i++) {
		if (compare_group_run(r->runs[i], &r->groups[i]) < 0)
			return -ENOMEM;
		for (j = 0; j < r->groups[i].n; j++)
			ng += !html_iozone_row(r->groups[i].g[j].first);
	}
	key = calloc(ng + 1, sizeof(*key));
	run_of = calloc(ng + 1, sizeof(*run_of));
	grp_of = calloc(ng + 1, sizeof(*grp_of));
	col_of = calloc(ng + 1, sizeof(*col_of));
	r->cols = calloc(ng + 1, sizeof(*r->cols));
	if (!key || !run_of || !grp_of || !col_of || !r->cols)
		goto out;
	for (i = 0, t = 0; i < r->n; i++)
		for (j = 0; j < r->groups[i].n; j++) {
			if (html_iozone_row(r->groups[i].g[j].first))
				continue;	/* drawn by html_iozone_section */
			run_of[t] = i;
			grp_of[t] = j;
			if (!(key[t++] = figkey_col(r->groups[i].g[j].first)))
				goto out;
		}
	if (figkey_index_build(&x, key, ng) < 0)
		goto out;
	/* a column per distinct key, numbered in the order of its first group */
	for (t = 0; t < ng; t++)
		col_of[t] = SIZE_MAX;
	for (k = 0; k < ng; k = j) {
		for (j = k + 1; j < ng && !strcmp(key[x.ord[j]], key[x.ord[k]]); j++)
			;
		col_of[x.ord[k]] = 0;	/* x.ord[k]: the lowest group of this key */
	}
	for (t = 0; t < ng; t++)
		if (col_of[t] == 0) {
			col_of[t] = r->ncols;
			r->cols[r->ncols++] = r->groups[run_of[t]].g[grp_of[t]].first;
		}
	for (k = 0; k < ng; k = j) {
		for (j = k + 1; j < ng && !strcmp(key[x.ord[j]], key[x.ord[k]]); j++)
			col_of[x.ord[j]] = col_of[x.ord[k]];
	}
	r->cells = calloc(r->n * r->ncols + 1, sizeof(*r->cells));
	if (!r->cells)
		goto out;
	/* in group order, so that a run's first group of a column wins */
	for (t = ng; t-- > 0;)
		r->cells[run_of[t] * r->ncols + col_of[t]] = &r->groups[run_of[t]].g[grp_of[t]];
	rc = 0;
out:
	figkey_index_free(&x);
	for (t = 0; key && t < ng; t++)
		free(key[t]);
	free(key);
	free(run_of);
	free(grp_of);
	free(col_of);
	return rc;
}

static void teardown(struct report *r)
{
	size_t i;

	if (r->groups)
		for (i = 0; i < r->n; i++)
			compare_groups_free(&r->groups[i]);
	free(r->groups);
	free(r->cols);
	free(r->cells);
}

/* ---- sections ---------------------------------------------------------------------------- */

static void runs_section(FILE *f, const struct report *r)
{
	size_t i;

	fprintf(f, "<h2>Runs</h2>\n<div class=\"scroll\"><table><thead><tr><th>run</th>"
		   "<th>host</th><th>workload</th>"
		   "<th>tool</th><th>date</th><th>given as</th><th>id</th></tr></thead><tbody>\n");
	for (i = 0; i < r->n; i++) {
		const struct run *run = r->runs[i];

		fprintf(f, "<tr><td>");
		html_run_name(f, r, i);
		fprintf(f, "%s</td><td>", run->flags & RUN_IMPORTED ?
			" <span class=\"imp\">(imported)</span>" : "");
		html_esc(f, run->env.host);
		fprintf(f, "</td><td>");
		html_esc(f, run->workload);
		fprintf(f, "</td><td>");
		html_esc(f, run->env.tool_version);
		fprintf(f, "</td><td>");
		html_esc(f, run->env.date);
		fprintf(f, "</td><td><code class=\"nowrap\">");
		html_esc(f, r->names[i]);
		fprintf(f, "</code></td><td><code class=\"id\">");
		html_esc(f, run->id);
		fprintf(f, "</code></td></tr>\n");
	}
	fprintf(f, "</tbody></table></div>\n");
}

/* Every flag a run can carry, by its one name (stats/flags.h); the +++++ sentence only
 * where an imported run has a figure its tool did not print. */
static void legend(FILE *f, const struct report *r)
{
	size_t i, k;
	int plus = 0;

	for (i = 0; i < r->n; i++)
		for (k = 0; (r->runs[i]->flags & RUN_IMPORTED) && k < r->runs[i]->nrows; k++)
			plus |= (r->runs[i]->rows[k]->flags & ROW_NOT_MEASURED) != 0;
	fprintf(f, "<h3 id=\"legend\">Flags</h3>\n<dl class=\"legend\">");
	for (i = 0; html_flag_words[i].name; i++) {
		fprintf(f, "<dt data-flag=\"%s\"><span class=\"flag\">%s</span></dt><dd>",
			html_flag_words[i].name, html_flag_words[i].name);
		html_esc(f, html_flag_words[i].meaning);
		fprintf(f, "</dd>");
	}
	fprintf(f, "</dl>\n<p>A value with &plusmn; is the mean of repeats with the half-width "
		   "of its 95%% confidence interval (Student's t); one without comes from a single "
		   "run and has no interval.%s</p>\n", plus ? " <i>not measured</i> in an imported "
		   "run: the tool printed no figure (Bonnie++'s +++++)." : "");
}

/* One bar chart per figure that two or more runs measured: a chart of one bar compares
 * nothing (the table has the figure). */
static void charts_section(FILE *f, const struct report *r)
{
	struct svg_bar *b = calloc(r->n, sizeof(*b));
	char (*names)[96] = calloc(r->n, sizeof(*names)), title[256];
	const char *d;
	size_t c, i, nb, measured, shown = 0;

	if (!b || !names)
		goto out;
	for (c = 0; c < r->ncols; c++) {
		const char *unit = NULL;

		for (i = 0, nb = 0, measured = 0; i < r->n; i++) {
			const struct row_group *g = html_cell(r, i, c);

			if (!g)
				continue;
			html_run_name_buf(names[nb], sizeof(names[0]), r, i);
			b[nb].label = names[nb];
			b[nb].value = g->value.mean;
			b[nb].not_measured = g->value.n == 0;
			b[nb].has_ci = g->value.n >= 2;
			b[nb].lo = g->value.lo;
			b[nb].hi = g->value.hi;
			b[nb].mark = html_flag_mark(g->flags);
			if (!unit && g->value.n)
				unit = g->unit;
			measured += g->value.n > 0;
			nb++;
		}
		if (measured < 2)
			continue;
		if (!shown++)
			fprintf(f, "<h2 id=\"charts\">Charts</h2>\n<p>One chart per figure "
				   "measured by two or more runs; whiskers are 95%% confidence "
				   "intervals of the mean where a run has repeats. Hover over a "
				   "bar for its value.</p>\n");
		d = kv_get(&r->cols[c]->params, RK_ROW_DETAIL);
		snprintf(title, sizeof(title), "%s %s%s%s", r->cols[c]->workload,
			 r->cols[c]->phase, d ? " " : "", d ? d : "");
		svg_bars(f, title, unit ? unit : "", b, nb);
	}
out:
	free(b);
	free(names);
}

int html_report(FILE *f, struct run *const *runs, const char *const *names, size_t n,
		const char *title)
{
	return html_report_baseline(f, runs, names, n, title, NULL);
}

int html_report_baseline(FILE *f, struct run *const *runs, const char *const *names, size_t n,
			 const char *title, const char *baseline)
{
	struct report r = { runs, names, n, NULL, NULL, 0, NULL };
	char now[32];
	time_t t = time(NULL);
	struct tm tm;
	int rc;

	rc = build(&r);
	if (rc < 0) {
		teardown(&r);
		return rc;
	}
	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
	fprintf(f, "<!DOCTYPE html>\n<!-- iobattery report -->\n<html lang=\"en\"><head>"
		   "<meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, "
		   "initial-scale=1\"><title>");
	html_esc(f, title ? title : "iobattery report");
	fprintf(f, "</title>\n<style>%s</style></head>\n<body>\n<h1>", css);
	html_esc(f, title ? title : "iobattery report");
	fprintf(f, "</h1>\n<p>%zu run%s, report written %s. Every figure below comes from the "
		   "result files; docs/methodology.md says how each is measured.</p>\n", n,
		n == 1 ? "" : "s", now);
	rc = html_verdict_section(f, &r);
	if (rc == 0)
		rc = html_battery_section(f, runs, names, n, baseline);
	if (rc < 0) {
		teardown(&r);
		return rc;
	}
	html_summary_section(f, &r);
	runs_section(f, &r);
	html_table_section(f, &r);
	legend(f, &r);
	html_iozone_section(f, &r);
	/* the charts repeat the tables' figures: folded, so that the report reads (and
	 * prints) in a few pages; a reader opens what they want to see */
	fprintf(f, "<details class=\"fold\" id=\"charts-fold\"><summary>Charts: each figure, "
		   "latency percentiles, each phase over time</summary>\n");
	charts_section(f, &r);
	html_latency_section(f, &r);
	html_series_section(f, &r);
	fprintf(f, "</details>\n");
	html_ranks_section(f, &r);		/* runs of several ranks only */
	if (n >= 2) {
		fprintf(f, "<details class=\"fold\"><summary>Each figure against A</summary>\n");
		html_delta_section(f, &r);
		fprintf(f, "</details>\n");
	}
	html_notes_section(f, &r);
	fprintf(f, "<details class=\"fold\"><summary>Environment of each run</summary>\n");
	html_env_section(f, &r);
	fprintf(f, "</details>\n");
	fprintf(f, "</body></html>\n");
	teardown(&r);
	return ferror(f) ? -EIO : 0;
}
