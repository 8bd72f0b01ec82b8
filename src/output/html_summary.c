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
#include "stats/result.h"
#include "stats/result_keys.h"

/* Flags that make a figure something other than the device's steady speed. */
#define DOUBT_FLAGS (ROW_SHORT | ROW_CACHE_INFLATED | ROW_INCOMPLETE | ROW_FAILED | \
		     ROW_TOO_FAST | ROW_INCONSISTENT | ROW_NOT_MEASURED | ROW_OVER_CEILING | \
		     ROW_TOOL_BOUND)
/* Figures named after a flag's sentence, at most. */
#define NAMES_SHOWN 4

/* What a flag means for the reader, as the end of "N figures ..." */
static const struct {
	unsigned bit;
	const char *one, *many, *why;
} doubts[] = {
	{ ROW_FAILED, "failed", "failed", "" },
	{ ROW_NOT_MEASURED, "was not measured", "were not measured",
	  ": the tool printed no figure" },
	{ ROW_INCOMPLETE, "was interrupted", "were interrupted",
	  " (incomplete): the figures cover part of the work" },
	{ ROW_CACHE_INFLATED, "was read largely from the page cache",
	  "were read largely from the page cache",
	  " (cache): they show the speed of RAM, not of the disk" },
	{ ROW_TOO_FAST, "was faster than memory can copy", "were faster than memory can copy",
	  " (offloaded): a reflink or a copy offload, not a disk rate" },
	{ ROW_SHORT, "ran under 0.5 s", "ran under 0.5 s",
	  " (short): timing error may show; a larger size makes them steadier" },
	{ ROW_INCONSISTENT, "varies by more than 10% between repeats",
	  "vary by more than 10% between repeats", " (inconsistent): read them with their "
	  "intervals" },
	{ ROW_OVER_CEILING, "is above its ceiling", "are above their ceilings",
	  " (over ceiling): faster than the link to the disk or than memory copies" },
	{ ROW_TOOL_BOUND, "is bound by the tool", "are bound by the tool",
	  " (tool bound): within 10% of iobattery's own limit at those settings" },
};
#define NDOUBTS (sizeof(doubts) / sizeof(doubts[0]))

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

/* "dd write bs=1M, cp copy rw and 3 more" */
static void figure_names(FILE *f, const struct run_groups *gs, unsigned bit, size_t count)
{
	size_t i, shown = 0;
	const char *d;

	fputs(" (", f);
	for (i = 0; i < gs->n && shown < NAMES_SHOWN; i++) {
		if (!(gs->g[i].flags & bit))
			continue;
		if (shown)
			fputs(shown + 1 == count ? " and " : ", ", f);
		html_esc(f, gs->g[i].first->workload);
		fputc(' ', f);
		html_esc(f, gs->g[i].first->phase);
		d = kv_get(&gs->g[i].first->params, RK_ROW_DETAIL);
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

/* What can be trusted, then a sentence per flag that applies. */
static void trust(FILE *f, const struct run_groups *gs)
{
	size_t i, k, clean = 0, n;

	for (i = 0; i < gs->n; i++)
		clean += !(gs->g[i].flags & DOUBT_FLAGS);
	if (!gs->n)
		return;
	if (clean == gs->n)
		fprintf(f, "<li><b>Trust:</b> all %zu figures carry no warning.</li>\n", gs->n);
	else if (!clean)
		fprintf(f, "<li><b>Trust:</b> none of the %zu figures is free of warnings."
			   "</li>\n", gs->n);
	else
		fprintf(f, "<li><b>Trust:</b> %zu of %zu figures carry no warning.</li>\n", clean,
			gs->n);
	for (k = 0; k < NDOUBTS; k++) {
		for (i = 0, n = 0; i < gs->n; i++)
			n += (gs->g[i].flags & doubts[k].bit) != 0;
		if (!n)
			continue;
		if (n == gs->n)
			fprintf(f, "<li>%s %s", n == 1 ? "It" : n == 2 ? "Both" : "All",
				n == 1 ? doubts[k].one : doubts[k].many);
		else
			fprintf(f, "<li>%zu %s", n, n == 1 ? doubts[k].one : doubts[k].many);
		if (n < gs->n)
			figure_names(f, gs, doubts[k].bit, n);
		fprintf(f, "%s.</li>\n", doubts[k].why);
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
		trust(f, &r->groups[i]);
		fprintf(f, "</ul>\n");
	}
	for (i = 1; i < r->n; i++)
		against_a(f, r, i);
	fprintf(f, "</section>\n");
}
