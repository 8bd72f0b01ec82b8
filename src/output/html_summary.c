/* html_summary.c - the report's summary, at the top: per run, in sentences, what ran
 * (workloads and their figures, host, file system, date, tool; where an imported run
 * came from), how often each figure was measured, what can be trusted (the figures
 * without a warning) and which flags apply to how many figures, naming a few; with
 * two runs or more, one sentence per run against A. Every string is escaped.
 * See html.c. */
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "output/html.h"
#include "output/html_int.h"
#include "stats/compare.h"
#include "stats/flags.h"
#include "stats/result.h"
#include "stats/result_keys.h"

/* Figures named after a flag's sentence, at most. */
#define NAMES_SHOWN 4

static void esc_or(FILE *f, const char *s, const char *dflt)
{
	html_esc(f, s && *s ? s : dflt);
}

/* "dd (3 figures), cp (2) and bonnie (12)" */
static void workloads(FILE *f, const struct run_groups *gs)
{
	size_t i, k, n, shown = 0, total = 0;
	const char *wl;

	for (i = 0; i < gs->n; i++) {
		wl = gs->g[i].first->workload ? gs->g[i].first->workload : "";
		for (k = 0; k < i && strcmp(gs->g[k].first->workload ?
					    gs->g[k].first->workload : "", wl); k++)
			;
		total += k == i;
	}
	for (i = 0; i < gs->n; i++) {
		wl = gs->g[i].first->workload ? gs->g[i].first->workload : "";
		for (k = 0; k < i && strcmp(gs->g[k].first->workload ?
					    gs->g[k].first->workload : "", wl); k++)
			;
		if (k < i)
			continue;
		for (k = i, n = 0; k < gs->n; k++)
			n += !strcmp(gs->g[k].first->workload ? gs->g[k].first->workload : "", wl);
		if (shown)
			fputs(shown + 1 == total ? " and " : ", ", f);
		esc_or(f, wl, "?");
		fprintf(f, " (%zu%s)", n, shown ? "" : n == 1 ? " figure" : " figures");
		shown++;
	}
	if (!shown)
		fputs("no figures", f);
}

/* Where, on what and when the run was measured, or where it was imported from. */
static void provenance(FILE *f, const struct run *run)
{
	const struct env *e = &run->env;
	const char *from = kv_get(&run->options, RK_IMPORT_IMPORTED_FROM);
	char ram[32];

	if (run->flags & RUN_IMPORTED) {
		fputs(" It was imported from ", f);
		esc_or(f, from, "an old output");
		fputs(": measured by ", f);
		esc_or(f, e->tool_version, "another tool");
		fputs(e->host ? " on host " : ", host unknown", f);
		html_esc(f, e->host);
		fputs(".", f);
		return;
	}
	fputs(" It ran on host ", f);
	esc_or(f, e->host, "(unknown)");
	if (e->os || e->kernel || e->ncpu || e->ram_bytes) {
		fputs(" (", f);
		esc_or(f, e->os, "");
		if (e->kernel) {
			fputs(e->os ? " " : "", f);
			html_esc(f, e->kernel);
		}
		if (e->ncpu)
			fprintf(f, "%s%u CPUs", e->os || e->kernel ? ", " : "", e->ncpu);
		if (e->ram_bytes)
			fprintf(f, "%s%s RAM", e->os || e->kernel || e->ncpu ? ", " : "",
				units_fmt_bytes(ram, sizeof(ram), (double)e->ram_bytes));
		fputs(")", f);
	}
	if (e->target) {
		fputs(", in ", f);
		html_esc(f, e->target);
	}
	if (e->fs_type) {
		fputs(" on ", f);
		html_esc(f, e->fs_type);
		if (e->device) {
			fputs(" (", f);
			html_esc(f, e->device);
			fputs(")", f);
		}
	}
	if (e->date) {
		fputs(", on ", f);
		html_esc(f, e->date);
	}
	fputs(", with iobattery ", f);
	esc_or(f, e->tool_version, "(unknown version)");
	fputs(".", f);
}

static void repeats(FILE *f, const struct run_groups *gs)
{
	unsigned most = 0;
	size_t i;

	for (i = 0; i < gs->n; i++)
		if (gs->g[i].value.n > most)
			most = gs->g[i].value.n;
	if (most >= 2)
		fprintf(f, "<li>Figures were measured up to %u times: each has a mean and a 95%% "
			   "confidence interval.</li>\n", most);
	else if (gs->n)
		fputs("<li>Each figure was measured once: no spread and no confidence interval "
		      "(--repeat N gives them).</li>\n", f);
}

/* "dd write bs=1M, cp copy rw and 3 more": the rows carrying bit. */
static void figure_names(FILE *f, const struct run *run, unsigned bit, size_t count)
{
	size_t i, shown = 0;
	const char *d, *c;

	fputs(" (", f);
	for (i = 0; i < run->nrows && shown < NAMES_SHOWN; i++) {
		const struct row *w = run->rows[i];

		if (!(w->flags & bit))
			continue;
		if (shown)
			fputs(shown + 1 == count ? " and " : ", ", f);
		c = kv_get(&w->params, RK_ROW_FS_CONFIG);
		if (c) {
			html_esc(f, c);
			fputs(": ", f);
		}
		html_esc(f, w->workload);
		fputc(' ', f);
		html_esc(f, w->phase);
		d = kv_get(&w->params, RK_ROW_DETAIL);
		if (d) {
			fputc(' ', f);
			html_esc(f, d);
		}
		shown++;
	}
	if (count > shown)
		fprintf(f, " and %zu more", count - shown);
	fputs(")", f);
}

/* What can be trusted, counted over the run's rows exactly as the JSON holds their flags
 * (a row without a flag is a figure without a warning), then a line per flag that
 * applies, by its one name and meaning (stats/flags.h). */
static void trust(FILE *f, const struct run *run)
{
	size_t i, k, clean = 0, n;

	if (!run->nrows)
		return;
	for (i = 0; i < run->nrows; i++)
		clean += run->rows[i]->flags == 0;
	fprintf(f, "<li><b>Trust:</b> <span class=\"trust\" data-clean=\"%zu\" "
		   "data-rows=\"%zu\">%zu of %zu figures carry no warning</span>.</li>\n",
		clean, run->nrows, clean, run->nrows);
	for (k = 0; flag_table[k].name; k++) {
		for (i = 0, n = 0; i < run->nrows; i++)
			n += (run->rows[i]->flags & flag_table[k].bit) != 0;
		if (!n)
			continue;
		fprintf(f, "<li data-flag=\"%s\">%zu %s <span class=\"flag\">%s</span>: ",
			flag_table[k].name, n, n == 1 ? "figure is" : "figures are",
			flag_table[k].name);
		html_esc(f, flag_table[k].meaning);
		if (n < run->nrows)
			figure_names(f, run, flag_table[k].bit, n);
		fputs(".</li>\n", f);
	}
}

static void against_a(FILE *f, const struct report *r, size_t i)
{
	struct cmp_result cr;

	if (compare_groups(&r->groups[0], &r->groups[i], &cr) < 0)
		return;
	fprintf(f, "<p>");
	html_run_name(f, r, i);
	fprintf(f, " against A: better in %u of %u compared figures (significantly in %u), "
		   "worse in %u (significantly in %u)", cr.b_better, cr.compared,
		cr.b_better_sig, cr.a_better, cr.a_better_sig);
	if (cr.refused)
		fprintf(f, "; %u not compared because they were measured differently",
			cr.refused);
	if (cr.unmatched)
		fprintf(f, "; %u in one of the two runs only", cr.unmatched);
	fprintf(f, ".</p>\n");
	compare_result_free(&cr);
}

void html_summary_section(FILE *f, const struct report *r)
{
	size_t i;

	fprintf(f, "<section class=\"summary\" id=\"summary\"><h2>Summary</h2>\n");
	for (i = 0; i < r->n; i++) {
		fprintf(f, "<p><b>");
		html_run_name(f, r, i);
		fprintf(f, "</b>: ");
		workloads(f, &r->groups[i]);
		fprintf(f, ".");
		provenance(f, r->runs[i]);
		fprintf(f, "</p>\n<ul>\n");
		repeats(f, &r->groups[i]);
		trust(f, r->runs[i]);
		fprintf(f, "</ul>\n");
	}
	for (i = 1; i < r->n; i++)
		against_a(f, r, i);
	fprintf(f, "</section>\n");
}
