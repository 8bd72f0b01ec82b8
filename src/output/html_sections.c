/* html_sections.c - the report's latency plots, comparison with run A, notes and
 * environment tables. See html.c. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "output/html.h"
#include "output/html_int.h"
#include "output/numfmt.h"
#include "stats/compare.h"
#include "stats/hist.h"
#include "stats/result.h"
#include "stats/result_keys.h"

/* The group's latency percentiles, merging the repeats' histograms when every row has
 * one (percentiles only after merging), else those of its first row. 0 when none. */
int html_group_lat(const struct row_group *g, double ns[5])
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

static const char lat_intro[] =
	"<h2 id=\"latency\">Latency percentiles</h2>\n<p>Per call, from the merged "
	"histograms of all repeats (log-linear buckets, under 1% error). Hover over a point "
	"for its value.</p>\n";

/* One run: a chart per workload, a curve per figure (its phases on one axis). */
static void latency_single(FILE *f, const struct report *r, struct svg_lat *l,
			   char (*names)[96])
{
	const struct run_groups *gs = &r->groups[0];
	const char *wl, *d;
	size_t i, k, nl, shown = 0;

	for (i = 0; i < gs->n; i++) {
		if (html_iozone_row(gs->g[i].first))
			continue;	/* html_iozone_section draws its matrices */
		wl = gs->g[i].first->workload ? gs->g[i].first->workload : "";
		for (k = 0; k < i && strcmp(gs->g[k].first->workload ?
					    gs->g[k].first->workload : "", wl); k++)
			;
		if (k < i)
			continue;
		for (k = i, nl = 0; k < gs->n; k++) {
			const struct row *w = gs->g[k].first;

			if (strcmp(w->workload ? w->workload : "", wl) ||
			    !html_group_lat(&gs->g[k], l[nl].ns))
				continue;
			d = kv_get(&w->params, RK_ROW_DETAIL);
			snprintf(names[nl], sizeof(names[0]), "%s%s%s", w->phase ? w->phase : "?",
				 d ? " " : "", d ? d : "");
			l[nl].label = names[nl];
			nl++;
		}
		if (!nl)
			continue;
		if (!shown++)
			fputs(lat_intro, f);
		svg_latency(f, wl, l, nl);
	}
}

/* Several runs: a chart per figure, a curve per run. */
static void latency_runs(FILE *f, const struct report *r, struct svg_lat *l,
			 char (*names)[96])
{
	char title[256];
	const char *d;
	size_t c, i, nl, shown = 0;

	for (c = 0; c < r->ncols; c++) {
		for (i = 0, nl = 0; i < r->n; i++) {
			const struct row_group *g = html_cell(r, i, c);

			if (!g || !html_group_lat(g, l[nl].ns))
				continue;
			html_run_name_buf(names[nl], sizeof(names[0]), r, i);
			l[nl].label = names[nl];
			nl++;
		}
		if (!nl)
			continue;
		if (!shown++)
			fputs(lat_intro, f);
		d = kv_get(&r->cols[c]->params, RK_ROW_DETAIL);
		snprintf(title, sizeof(title), "%s %s%s%s", r->cols[c]->workload,
			 r->cols[c]->phase, d ? " " : "", d ? d : "");
		svg_latency(f, title, l, nl);
	}
}

void html_latency_section(FILE *f, const struct report *r)
{
	size_t most = r->n == 1 ? r->groups[0].n : r->n;
	struct svg_lat *l = calloc(most ? most : 1, sizeof(*l));
	char (*names)[96] = calloc(most ? most : 1, sizeof(*names));

	if (l && names) {
		if (r->n == 1)
			latency_single(f, r, l, names);
		else
			latency_runs(f, r, l, names);
	}
	free(l);
	free(names);
}

static void delta_line(FILE *f, const struct cmp_line *l, char who)
{
	const struct row_group *g = l->a ? l->a : l->b;
	char a[NUMFMT_LEN], b[NUMFMT_LEN];

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
	fprintf(f, "<td class=\"n %s\">%s</td><td class=\"n\">", l->delta_pct > 0 ?
		"better" : l->delta_pct < 0 ? "worse" : "",
		numfmt_pct(a, sizeof(a), l->delta_pct));
	if (l->have_ci)
		fprintf(f, "[%s, %s]", numfmt_pct(a, sizeof(a), l->lo_pct),
			numfmt_pct(b, sizeof(b), l->hi_pct));
	else
		fprintf(f, "no interval");
	fprintf(f, "</td><td>");
	if (l->winner == CMP_TIE)
		fprintf(f, "equal");
	else
		fprintf(f, "%c better", l->winner == CMP_B ? who : 'A');
	if (l->tested)
		fprintf(f, ", %s (Welch p%s%s)", l->significant ? "significant" :
			"not significant", l->w.p < 0.001 ? "" : "=",
			numfmt_p(a, sizeof(a), l->w.p));
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
			   "<div class=\"scroll\"><table><thead><tr><th>figure</th><th>delta</th>"
			   "<th>95%% CI</th>"
			   "<th>verdict</th></tr></thead><tbody>\n", cr.b_better, cr.compared,
			cr.b_better_sig);
		for (k = 0; k < cr.n; k++)
			delta_line(f, &cr.l[k], who);
		fprintf(f, "</tbody></table></div>\n");
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

	fprintf(f, "<h2 id=\"environment\">Environment</h2>\n<div class=\"scroll\"><table>"
		   "<thead><tr><th></th>");
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
		fprintf(f, "<td class=\"cmd\"><code>");
		html_esc(f, r->runs[i]->command_line);
		fprintf(f, "</code></td>");
	}
	fprintf(f, "</tr>\n<tr><th>options</th>");
	for (i = 0; i < r->n; i++) {
		fprintf(f, "<td class=\"cmd\">");
		for (k = 0; k < r->runs[i]->options.n; k++) {
			fprintf(f, "%s<code>", k ? " " : "");
			html_esc(f, r->runs[i]->options.v[k].key);
			fputc('=', f);
			html_esc(f, r->runs[i]->options.v[k].value);
			fprintf(f, "</code>");
		}
		fprintf(f, "</td>");
	}
	fprintf(f, "</tr>\n</tbody></table></div>\n");
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
			if (kv_get(&w->params, RK_ROW_FS_CONFIG)) {	/* which file system */
				html_esc(f, kv_get(&w->params, RK_ROW_FS_CONFIG));
				fprintf(f, ": ");
			}
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
