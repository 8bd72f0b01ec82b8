/* html_series.c - the report's time-series charts: per figure (column), what happened
 * inside the phase, the same phase of every run overlaid in the run's colour: the rate
 * and the p99 latency over time, the top device's %util and queue, the page cache's
 * dirty and writeback memory; then per run the CPU split as a stacked area and the
 * wait-state shares as a stacked bar. Every chart is an inline <svg class="chart
 * series">; strings are escaped. Called by html_report (html.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/html.h"
#include "output/html_int.h"
#include "output/numfmt.h"
#include "stats/compare.h"
#include "stats/result.h"
#include "stats/result_keys.h"
#include "stats/result_sys.h"

#define SW	440	/* a chart's size */
#define SH	190
#define SL	58	/* margins: left (y ticks), right, top, bottom */
#define SR	12
#define ST	26
#define SB	36
#define WAIT_SHOWN	5	/* wait states in a bar before "other" */

/* One run's line in a chart: y[i] at x[i] seconds; NaN breaks the line. */
struct sline {
	size_t run;
	const char *name;		/* the run's name, for the text alternative */
	const double *x;
	double *y;
	size_t n;
	int dashed;
};

/* The row of run i in column c that has a series (its first repeat that does). */
static const struct row *series_row(const struct report *r, size_t i, size_t c)
{
	const struct row_group *g = html_cell(r, i, c);

	for (size_t k = 0; g && k < g->nrows; k++)
		if (g->rows[k]->series && g->rows[k]->series->n)
			return g->rows[k];
	return NULL;
}

static double axis_top(double v)
{
	double p, m;

	if (!(v > 0))
		return 1;
	p = pow(10, floor(log10(v)));
	m = v / p;
	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

/* The chart's element, its accessible name (<title>) and the start of its <desc>; the
 * caller ends the <desc>. */
static void chart_open(FILE *f, const char *title, const char *what, const char *unit,
		       int w)
{
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart series\" "
		   "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n<title>",
		w, SH, w, SH);
	html_esc(f, title);
	fprintf(f, ": ");
	html_esc(f, what);
	fprintf(f, "</title>\n<desc>");
	html_esc(f, what);
	fprintf(f, " of ");
	html_esc(f, title);
	fprintf(f, " over the phase, horizontal axis the time from the phase's start in s, "
		   "vertical axis ");
	html_esc(f, unit && *unit ? unit : "the value");
	fprintf(f, ". ");
}

/* The heading drawn in the chart. */
static void chart_heading(FILE *f, const char *title, const char *what, const char *unit)
{
	fprintf(f, "<text x=\"4\" y=\"16\" class=\"ttl\">");
	html_esc(f, title);
	fprintf(f, " \xe2\x80\x94 ");
	html_esc(f, what);
	if (unit && *unit && strcmp(unit, "ns")) {
		fprintf(f, " (");
		html_esc(f, unit);
		fputc(')', f);
	}
	fprintf(f, "</text>\n");
}

/* Per line: its points, lowest, highest and last value, for the <desc>. */
static void lines_desc(FILE *f, const struct sline *l, size_t n, const char *unit)
{
	char a[NUMFMT_LEN], b[NUMFMT_LEN], c[NUMFMT_LEN];
	const char *u = !strcmp(unit, "ns") ? "ns" : "";

	for (size_t i = 0; i < n; i++) {
		double lo = INFINITY, hi = -INFINITY, last = NAN;
		size_t k, m = 0;

		for (k = 0; k < l[i].n; k++)
			if (isfinite(l[i].y[k])) {
				lo = fmin(lo, l[i].y[k]);
				hi = fmax(hi, l[i].y[k]);
				last = l[i].y[k];
				m++;
			}
		html_esc(f, l[i].name);
		if (l[i].dashed)
			fprintf(f, " (dashed)");
		if (!m) {
			fprintf(f, ": no values%s", i + 1 < n ? "; " : ".");
			continue;
		}
		fprintf(f, ": %zu intervals, from %s to %s, last %s%s", m,
			numfmt(a, sizeof(a), lo, u), numfmt(b, sizeof(b), hi, u),
			numfmt(c, sizeof(c), last, u), i + 1 < n ? "; " : ".");
	}
	fprintf(f, "</desc>\n");
}

/* The y position of v on a linear (lo 0) or log10 axis from lo to hi. */
static double ypos(double v, double lo, double hi, int logy)
{
	double a = ST, b = SH - SB, t;

	if (logy)
		t = (log10(v) - log10(lo)) / (log10(hi) - log10(lo));
	else
		t = v / hi;
	return b - t * (b - a);
}

static void axes(FILE *f, double xmax, double lo, double hi, int logy, const char *unit)
{
	char buf[NUMFMT_LEN], xs[NUMFMT_LEN];
	int k;

	fprintf(f, "<path class=\"axis\" d=\"M%d %d V%d H%d\"/>\n", SL, ST, SH - SB, SW - SR);
	for (k = 0; k <= 2; k++) {
		double v = logy ? pow(10, log10(lo) + (log10(hi) - log10(lo)) * k / 2) :
			   hi * k / 2;
		double y = ypos(logy ? v : v, lo, hi, logy);

		if (!strcmp(unit, "ns"))
			numfmt(buf, sizeof(buf), v, "ns");
		else
			numfmt_num(buf, sizeof(buf), v);
		fprintf(f, "<path class=\"grid\" d=\"M%d %.1f H%d\"/><text x=\"%d\" y=\"%.1f\" "
			   "class=\"tick\" text-anchor=\"end\">%s</text>\n", SL, y, SW - SR, SL - 4,
			y + 3, buf);
	}
	for (k = 0; k <= 4; k++)
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"tick\" text-anchor=\"%s\">"
			   "%s s</text>\n", SL + (SW - SL - SR) * k / 4.0, SH - SB + 13,
			k == 4 ? "end" : "middle", numfmt_num(xs, sizeof(xs), xmax * k / 4));
}

/* A line chart of the lines, a log axis when logy (values <= 0 left out). */
static void line_chart(FILE *f, const char *title, const char *what, const char *unit,
		       const struct sline *l, size_t n, int logy)
{
	double xmax = 0, lo = INFINITY, hi = 0;
	size_t i, k;

	for (i = 0; i < n; i++)
		for (k = 0; k < l[i].n; k++) {
			double v = l[i].y[k];

			if (l[i].x[k] > xmax)
				xmax = l[i].x[k];
			if (!isfinite(v) || (logy && v <= 0))
				continue;
			lo = fmin(lo, v);
			hi = fmax(hi, v);
		}
	if (!(xmax > 0))
		xmax = 1;
	if (logy) {
		if (!(hi > 0))
			return;
		lo = pow(10, floor(log10(lo)));
		hi = pow(10, ceil(log10(hi)));
		if (hi <= lo)
			hi = lo * 10;
	} else {
		hi = axis_top(hi);
		lo = 0;
	}
	chart_open(f, title, what, unit, SW);
	lines_desc(f, l, n, unit);
	chart_heading(f, title, what, unit);
	axes(f, xmax, lo, hi, logy, unit);
	for (i = 0; i < n; i++) {
		int open = 0;

		for (k = 0; k < l[i].n; k++) {
			double v = l[i].y[k];

			if (!isfinite(v) || (logy && v <= 0)) {
				if (open)
					fprintf(f, "\"/>\n");
				open = 0;
				continue;
			}
			/* the run's colour from the page's palette classes (html.c) */
			if (!open)
				fprintf(f, "<polyline class=\"line k%zu\" stroke-width=\"1.6\"%s "
					   "points=\"", l[i].run % 8,
					l[i].dashed ? " stroke-dasharray=\"4 3\"" : "");
			open = 1;
			fprintf(f, "%.1f,%.1f ", SL + (SW - SL - SR) * l[i].x[k] / xmax,
				ypos(v, lo, hi, logy));
		}
		if (open)
			fprintf(f, "\"/>\n");
	}
	fprintf(f, "</svg>\n");
}

/* The means of the CPU shares over the phase's intervals, for the <desc>. */
static void cpu_desc(FILE *f, const struct row_series *s)
{
	static const char *const name[] = { "usr", "sys", "iowait", "steal" };
	static const int col[] = { RSE_CPU_USER, RSE_CPU_SYSTEM, RSE_CPU_IOWAIT, RSE_CPU_STEAL };
	char v[NUMFMT_LEN];

	fprintf(f, "Mean shares over %zu intervals:", s->n);
	for (int c = 0; c < 4; c++) {
		double sum = 0;
		size_t m = 0;

		for (size_t k = 0; k < s->n; k++)
			if (isfinite(s->v[col[c]][k])) {
				sum += s->v[col[c]][k];
				m++;
			}
		fprintf(f, " %s %s%%%s", name[c], m ? numfmt_num(v, sizeof(v), sum / (double)m) :
			"n/a", c < 3 ? "," : ".");
	}
	fprintf(f, "</desc>\n");
}

/* The CPU split of one run's phase as a stacked area: usr, sys, iowait, steal. */
static void cpu_chart(FILE *f, const char *title, const char *run, const struct row_series *s,
		      const double *x)
{
	static const char *const name[] = { "usr", "sys", "iowait", "steal" };
	static const char *const colour[] = { "#4c78a8", "#f58518", "#e45756", "#72b7b2" };
	static const int col[] = { RSE_CPU_USER, RSE_CPU_SYSTEM, RSE_CPU_IOWAIT, RSE_CPU_STEAL };
	double xmax = s->n ? x[s->n - 1] : 1, base[512];
	size_t n = s->n < 512 ? s->n : 512, k;
	char what[128];

	if (!(xmax > 0))
		xmax = 1;
	snprintf(what, sizeof(what), "CPU, %s", run);
	chart_open(f, title, what, "% of all CPUs, stacked: usr, sys, iowait, steal", SW);
	cpu_desc(f, s);
	chart_heading(f, title, what, "%");
	axes(f, xmax, 0, 100, 0, "%");
	memset(base, 0, sizeof(base));
	for (int c = 0; c < 4; c++) {
		fprintf(f, "<path fill=\"%s\" fill-opacity=\"0.85\" d=\"", colour[c]);
		for (k = 0; k < n; k++) {
			double v = isfinite(s->v[col[c]][k]) ? s->v[col[c]][k] : 0;

			fprintf(f, "%c%.1f %.1f ", k ? 'L' : 'M', SL + (SW - SL - SR) * x[k] / xmax,
				ypos(base[k] + v, 0, 100, 0));
		}
		for (k = n; k-- > 0;) {
			fprintf(f, "L%.1f %.1f ", SL + (SW - SL - SR) * x[k] / xmax,
				ypos(base[k], 0, 100, 0));
			base[k] += isfinite(s->v[col[c]][k]) ? s->v[col[c]][k] : 0;
		}
		fprintf(f, "Z\"/>\n<rect x=\"%d\" y=\"%d\" width=\"9\" height=\"9\" fill=\"%s\"/>"
			   "<text x=\"%d\" y=\"%d\" class=\"tick\">%s</text>\n", SL + c * 60,
			SH - 11, colour[c], SL + 12 + c * 60, SH - 3, name[c]);
	}
	fprintf(f, "</svg>\n");
}

/* Every run's wait-state shares in the phase, one stacked bar each. */
static void wait_bars(FILE *f, const char *title, const struct report *r, size_t c)
{
	static const char *const colour[] = { "#4c78a8", "#e45756", "#f58518", "#72b7b2",
					       "#54a24b", "#bab0ac" };
	char name[96], label[160];
	size_t i, nr = 0;
	int y, h;

	for (i = 0; i < r->n; i++) {
		const struct row *w = series_row(r, i, c);

		nr += w && w->sys && w->sys->nwait;
	}
	if (!nr)
		return;
	h = ST + (int)nr * 40 + 8;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart waits\" "
		   "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n<title>",
		2 * SW, h, 2 * SW, h);
	html_esc(f, title);
	fprintf(f, ": wait states</title>\n<desc>Where the threads of ");
	html_esc(f, title);
	fprintf(f, " were, as shares of the thread samples, one stacked bar per run; each "
		   "segment's state, wait channel and system call are in its own title.</desc>\n"
		   "<text x=\"4\" y=\"16\" class=\"ttl\">");
	html_esc(f, title);
	fprintf(f, " \xe2\x80\x94 wait states (share of thread samples)</text>\n");
	for (i = 0, y = ST; i < r->n; i++) {
		const struct row *w = series_row(r, i, c);
		double x = 150, other = 100;

		if (!w || !w->sys || !w->sys->nwait)
			continue;
		html_run_name_buf(name, sizeof(name), r, i);
		fprintf(f, "<text x=\"4\" y=\"%d\" class=\"lbl\">", y + 14);
		html_esc(f, name);
		fprintf(f, "</text>\n");
		for (size_t k = 0; k <= WAIT_SHOWN; k++) {
			const struct row_sys_wait *ws = k < w->sys->nwait ? &w->sys->wait[k] : NULL;
			double share = k < WAIT_SHOWN ? (ws ? ws->share_pct : 0) : other;
			double len = (2 * SW - 160) * share / 100;

			if (!(share > 0))
				continue;
			if (k < WAIT_SHOWN) {
				other -= share;
				snprintf(label, sizeof(label), "%c %s%s%s%s %.0f%%", ws->state,
					 ws->wchan ? ws->wchan : "", ws->syscall && *ws->syscall ?
					 " (" : "", ws->syscall ? ws->syscall : "",
					 ws->syscall && *ws->syscall ? ")" : "", share);
			} else {
				snprintf(label, sizeof(label), "other %.0f%%", share);
			}
			fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"18\" "
				   "fill=\"%s\"><title>", x, y, len, colour[k]);
			html_esc(f, label);
			fprintf(f, "</title></rect>\n");
			if (len > 5.5 * (double)strlen(label) + 6) {
				fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"tick\" "
					   "style=\"fill:#fff\">",
					x + 3, y + 13);
				html_esc(f, label);
				fprintf(f, "</text>\n");
			}
			x += len;
		}
		y += 40;
	}
	fprintf(f, "</svg>\n");
}

/* The x (interval ends, s) and each chart's y of one run's series; returns 0 or -1. */
struct run_cols {
	double *x, *rate, *p99, *util, *aqu, *dirty, *wb, *temp;
	int any_temp;			/* a temperature was read */
};

static int run_cols(const struct row_series *s, struct run_cols *c, int *bytes)
{
	size_t n = s->n;

	memset(c, 0, sizeof(*c));
	c->x = malloc(n * sizeof(double) * 8);
	if (!c->x)
		return -1;
	c->rate = c->x + n;
	c->p99 = c->rate + n;
	c->util = c->p99 + n;
	c->aqu = c->util + n;
	c->dirty = c->aqu + n;
	c->wb = c->dirty + n;
	c->temp = c->wb + n;
	for (size_t i = 0; i < n; i++) {
		double t0 = i ? s->v[RSE_T_NS][i - 1] : 0, t1 = s->v[RSE_T_NS][i];
		double dt = (t1 - t0) / 1e9;

		c->x[i] = t1 / 1e9;
		c->rate[i] = dt > 0 ? (*bytes ? s->v[RSE_BYTES][i] / 1e6 : s->v[RSE_OPS][i]) / dt :
			     NAN;
		c->p99[i] = s->v[RSE_P99][i];
		c->util[i] = s->ndev ? s->dev[0].v[RSED_UTIL][i] : NAN;
		c->aqu[i] = s->ndev ? s->dev[0].v[RSED_AQU][i] : NAN;
		c->dirty[i] = s->v[RSE_DIRTY][i] / 1048576.0;
		c->wb[i] = s->v[RSE_WB][i] / 1048576.0;
		c->temp[i] = s->v[RSE_TEMP_C][i];
		c->any_temp |= isfinite(c->temp[i]) != 0;
	}
	return 0;
}

/* All charts of column c. */
static void column_charts(FILE *f, const struct report *r, size_t c, const char *title)
{
	struct sline *l = calloc(2 * r->n, sizeof(*l));
	struct run_cols *rc = calloc(r->n, sizeof(*rc));
	char (*names)[96] = calloc(r->n, sizeof(*names));
	size_t i, n = 0, m;
	int bytes = r->cols[c]->bytes > 0;
	char name[96];

	if (!l || !rc || !names)
		goto out;
	fprintf(f, "<h3>");
	html_esc(f, title);
	fprintf(f, "</h3>\n<div style=\"display:flex;flex-wrap:wrap;gap:6px\">\n");
	for (i = 0; i < r->n; i++) {
		const struct row *w = series_row(r, i, c);

		if (w && run_cols(w->series, &rc[i], &bytes) == 0) {
			html_run_name_buf(names[n], sizeof(names[0]), r, i);
			l[n] = (struct sline){ i, names[n], rc[i].x, rc[i].rate, w->series->n, 0 };
			n++;
		}
	}
	line_chart(f, title, bytes ? "rate" : "operations", bytes ? "MB/s" : "ops/s", l, n, 0);
	for (m = 0; m < n; m++)
		l[m].y = rc[l[m].run].p99;
	line_chart(f, title, "p99 latency (log scale)", "ns", l, n, 1);
	for (m = 0; m < n; m++)
		l[m].y = rc[l[m].run].util;
	line_chart(f, title, "top device %util", "%", l, n, 0);
	for (m = 0; m < n; m++)
		l[m].y = rc[l[m].run].aqu;
	line_chart(f, title, "top device aqu-sz", "", l, n, 0);
	for (m = 0; m < n; m++) {
		l[n + m] = l[m];
		l[m].y = rc[l[m].run].dirty;
		l[n + m].y = rc[l[m].run].wb;
		l[n + m].dashed = 1;
	}
	line_chart(f, title, "dirty (solid), writeback (dashed)", "MiB", l, 2 * n, 0);
	for (m = 0, i = 0; m < n; m++) {
		l[m].y = rc[l[m].run].temp;
		i += rc[l[m].run].any_temp;
	}
	if (i)	/* sustained, where the kernel gives the device's temperature */
		line_chart(f, title, "device temperature", "C", l, n, 0);
	for (m = 0; m < n; m++) {
		html_run_name_buf(name, sizeof(name), r, l[m].run);
		cpu_chart(f, title, name, series_row(r, l[m].run, c)->series, rc[l[m].run].x);
	}
	fprintf(f, "</div>\n");
	wait_bars(f, title, r, c);
out:
	for (i = 0; rc && i < r->n; i++)
		free(rc[i].x);
	free(rc);
	free(l);
	free(names);
}

static const char intro[] =
	"<h2>Inside the phases</h2>\n<p>Each phase interval by interval (the series), the "
	"same phase of every run in the run's colour: the rate, the p99 latency, the device "
	"under the target, the page cache's dirty memory, the device's temperature where it was "
	"read (sustained), the CPU split of the whole system "
	"and where the threads waited. Of repeats, the first.</p>\n";

void html_series_section(FILE *f, const struct report *r)
{
	char title[256];
	const char *d;
	size_t c, i, shown = 0;

	for (c = 0; c < r->ncols; c++) {
		for (i = 0; i < r->n && !series_row(r, i, c); i++)
			;
		if (i == r->n)
			continue;
		if (!shown++) {
			fputs(intro, f);
			fprintf(f, "<p>");
			for (i = 0; i < r->n; i++) {
				char name[96];

				html_run_name_buf(name, sizeof(name), r, i);
				fprintf(f, "%s<span class=\"k%zu\" style=\"color:var(--k)\">"
					   "&#9632;</span> ", i ? " " : "", i % 8);
				html_esc(f, name);
			}
			fprintf(f, "</p>\n");
		}
		d = kv_get(&r->cols[c]->params, RK_ROW_DETAIL);
		snprintf(title, sizeof(title), "%s %s%s%s", r->cols[c]->workload,
			 r->cols[c]->phase, d ? " " : "", d ? d : "");
		column_charts(f, r, c, title);
	}
}
