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

#include "core/units.h"
#include "output/html.h"
#include "output/html_int.h"
#include "stats/compare.h"
#include "stats/hist.h"
#include "stats/result.h"
#include "stats/result_keys.h"

void html_esc(FILE *f, const char *s)
{
	if (!s)
		return;
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: putc(*s, f); break;
		}
	}
}

static const char css[] =
	"body{font-family:sans-serif;margin:24px;color:#222;background:#fff}"
	"h1{font-size:22px}h2{font-size:18px;margin-top:28px;border-bottom:1px solid #ccc}"
	"table{border-collapse:collapse;margin:8px 0;font-size:13px}"
	"th,td{border:1px solid #bbb;padding:3px 6px}td.n{text-align:right}"
	"thead th{background:#e8eef6}tr.machine th{background:#f3f3f3;text-align:left}"
	".flag{color:#b00;font-weight:bold}.nm{fill:#888;font-style:italic}"
	"td.nm{color:#888;font-style:italic}.imp{color:#555}"
	"svg.chart{display:block;margin:10px 0;border:1px solid #ddd;background:#fcfcfc}"
	".ttl{font-size:14px;font-weight:bold}.lbl{font-size:12px}.val{font-size:11px}"
	".tick{font-size:10px;fill:#555}.axis{stroke:#444;fill:none}"
	".grid{stroke:#ddd;fill:none}.ci{stroke:#000;stroke-width:1.5;fill:none}"
	".better{color:#070}.worse{color:#b00}.refused{color:#666;font-style:italic}"
	"code{font-size:12px}";

/* The flags a cell shows, as short words, and their legend. */
static const struct {
	unsigned bit;
	const char *word, *meaning;
} flag_words[] = {
	{ ROW_CACHE_INFLATED, "cache", "read largely from the page cache: RAM, not the disk" },
	{ ROW_SHORT, "short", "ran under 0.5 s: timing error may show" },
	{ ROW_INCONSISTENT, "inconsistent", "repeats vary by more than 10% (CV)" },
	{ ROW_INCOMPLETE, "incomplete", "interrupted: the figure covers part of the work" },
	{ ROW_FAILED, "failed", "the phase failed" },
	{ ROW_TOO_FAST, "offloaded", "faster than memory can copy (reflink or offload)" },
	{ ROW_IMPORTED, "imported", "read from an old tool's output, not measured here" },
};
#define NFLAGS (sizeof(flag_words) / sizeof(flag_words[0]))

void html_flags(FILE *f, unsigned flags)
{
	size_t i;

	for (i = 0; i < NFLAGS; i++)
		if ((flags & flag_words[i].bit) && flag_words[i].bit != ROW_IMPORTED)
			fprintf(f, " <span class=\"flag\" title=\"%s\">%s</span>",
				flag_words[i].meaning, flag_words[i].word);
}

const char *html_flag_mark(unsigned flags)
{
	if (flags & ROW_CACHE_INFLATED)
		return "(cache)";
	if (flags & ROW_INCONSISTENT)
		return "(inconsistent)";
	if (flags & ROW_SHORT)
		return "(short)";
	return NULL;
}

/* ---- columns: the figures across runs ------------------------------------------------ */

static int col_match(const struct row *a, const struct row *b)
{
	const char *da = kv_get(&a->params, RK_ROW_DETAIL), *db = kv_get(&b->params, RK_ROW_DETAIL);

	return !strcmp(a->workload ? a->workload : "", b->workload ? b->workload : "") &&
	       !strcmp(a->phase ? a->phase : "", b->phase ? b->phase : "") &&
	       !strcmp(da ? da : "", db ? db : "");
}

const struct row_group *html_cell(const struct report *r, size_t run, size_t col)
{
	const struct run_groups *g = &r->groups[run];
	size_t i;

	for (i = 0; i < g->n; i++)
		if (col_match(g->g[i].first, r->cols[col]))
			return &g->g[i];
	return NULL;
}

void html_col_name(FILE *f, const struct row *w)
{
	const char *d = kv_get(&w->params, RK_ROW_DETAIL);

	html_esc(f, w->workload);
	fputc(' ', f);
	html_esc(f, w->phase);
	if (d) {
		fputc(' ', f);
		html_esc(f, d);
	}
}

static int build(struct report *r)
{
	const struct row **nc;
	size_t i, j, k;

	r->groups = calloc(r->n, sizeof(*r->groups));
	if (!r->groups)
		return -ENOMEM;
	for (i = 0; i < r->n; i++) {
		if (compare_group_run(r->runs[i], &r->groups[i]) < 0)
			return -ENOMEM;
		for (j = 0; j < r->groups[i].n; j++) {
			const struct row *w = r->groups[i].g[j].first;

			for (k = 0; k < r->ncols && !col_match(r->cols[k], w); k++)
				;
			if (k < r->ncols)
				continue;
			nc = realloc(r->cols, (r->ncols + 1) * sizeof(*nc));
			if (!nc)
				return -ENOMEM;
			r->cols = nc;
			r->cols[r->ncols++] = w;
		}
	}
	return 0;
}

static void teardown(struct report *r)
{
	size_t i;

	if (r->groups)
		for (i = 0; i < r->n; i++)
			compare_groups_free(&r->groups[i]);
	free(r->groups);
	free(r->cols);
}

/* "A: ext4 tuned" - the run's letter and name (label, else the tool of an imported run,
 * else file system and device, else its id). Escaped. */
void html_run_name(FILE *f, const struct report *r, size_t i)
{
	char buf[160];

	html_run_name_buf(buf, sizeof(buf), r, i);
	html_esc(f, buf);
}

/* Same as html_run_name into a buffer (unescaped: svg.c escapes). */
void html_run_name_buf(char *buf, size_t len, const struct report *r, size_t i)
{
	const struct run *run = r->runs[i];
	char c = (char)('A' + (i % 26));

	if (run->label)
		snprintf(buf, len, "%c: %s", c, run->label);
	else if ((run->flags & RUN_IMPORTED) && run->env.tool_version)
		snprintf(buf, len, "%c: %s", c, run->env.tool_version);
	else if (run->env.fs_type)
		snprintf(buf, len, "%c: %s%s%s", c, run->env.fs_type, run->env.device ? " on " : "",
			 run->env.device ? run->env.device : "");
	else
		snprintf(buf, len, "%c: %s", c, run->id ? run->id : "?");
}

/* ---- sections ---------------------------------------------------------------------------- */

static void runs_section(FILE *f, const struct report *r)
{
	size_t i;

	fprintf(f, "<h2>Runs</h2>\n<table><thead><tr><th>run</th><th>host</th><th>workload</th>"
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
		fprintf(f, "</td><td><code>");
		html_esc(f, r->names[i]);
		fprintf(f, "</code></td><td><code>");
		html_esc(f, run->id);
		fprintf(f, "</code></td></tr>\n");
	}
	fprintf(f, "</tbody></table>\n");
}

static void legend(FILE *f)
{
	size_t i;

	fprintf(f, "<p>Flags: ");
	for (i = 0; i < NFLAGS; i++)
		fprintf(f, "%s<span class=\"flag\">%s</span>: %s", i ? "; " : "",
			flag_words[i].word, flag_words[i].meaning);
	fprintf(f, ". A value with &plusmn; is the mean of repeats with the half-width of its "
		   "95%% confidence interval (Student's t); one without comes from a single run "
		   "and has no interval. <i>not measured</i>: the tool printed "
		   "no figure (Bonnie++'s +++++).</p>\n");
}

static void charts_section(FILE *f, const struct report *r)
{
	struct svg_bar *b = calloc(r->n, sizeof(*b));
	char (*names)[96] = calloc(r->n, sizeof(*names)), title[256];
	size_t c, i, nb;

	if (!b || !names)
		goto out;
	fprintf(f, "<h2>Charts</h2>\n<p>One chart per figure; whiskers are 95%% confidence "
		   "intervals of the mean where a run has repeats.</p>\n");
	for (c = 0; c < r->ncols; c++) {
		const char *unit = NULL;

		for (i = 0, nb = 0; i < r->n; i++) {
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
			nb++;
		}
		snprintf(title, sizeof(title), "%s %s%s%s", r->cols[c]->workload,
			 r->cols[c]->phase, kv_get(&r->cols[c]->params, RK_ROW_DETAIL) ? " " : "",
			 kv_get(&r->cols[c]->params, RK_ROW_DETAIL) ?
			 kv_get(&r->cols[c]->params, RK_ROW_DETAIL) : "");
		svg_bars(f, title, unit ? unit : "", b, nb);
	}
out:
	free(b);
	free(names);
}

int html_report(FILE *f, struct run *const *runs, const char *const *names, size_t n,
		const char *title)
{
	struct report r = { runs, names, n, NULL, NULL, 0 };
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
		   "<meta charset=\"utf-8\"><title>");
	html_esc(f, title ? title : "iobattery report");
	fprintf(f, "</title>\n<style>%s</style></head>\n<body>\n<h1>", css);
	html_esc(f, title ? title : "iobattery report");
	fprintf(f, "</h1>\n<p>%zu run%s, report written %s. Every figure below comes from the "
		   "result files; docs/methodology.md says how each is measured.</p>\n", n,
		n == 1 ? "" : "s", now);
	runs_section(f, &r);
	html_table_section(f, &r);
	legend(f);
	charts_section(f, &r);
	html_latency_section(f, &r);
	html_series_section(f, &r);
	if (n >= 2)
		html_delta_section(f, &r);
	html_notes_section(f, &r);
	html_env_section(f, &r);
	fprintf(f, "</body></html>\n");
	teardown(&r);
	return ferror(f) ? -EIO : 0;
}
