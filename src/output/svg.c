/* svg.c - the report's charts as inline SVG: horizontal bars with 95% confidence
 * whiskers per figure, and latency percentile curves on a log time axis. Each chart
 * carries its text alternative: a <title> (its accessible name), a <desc> with the axes
 * and every value, and a <title> on every bar and point (shown on hover). Colours come
 * from the page's stylesheet through classes k0..k7 (html.c: a colour-blind-safe
 * palette with a dark variant); lines beyond eight are dashed. Axis ticks and values
 * go through output/numfmt.h. See html.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "output/html.h"
#include "output/numfmt.h"

#define BAR_W		760	/* chart width (the viewBox: the page scales it down) */
#define BAR_LABEL	210	/* space for run names at the left */
#define BAR_RIGHT	150	/* space for the value text at the right */
#define BAR_H		22
#define BAR_GAP		8

/* Okabe and Ito's palette without its yellow and black, which vanish on white and on
 * black backgrounds: distinguishable with the common colour-vision deficiencies. */
static const char *const palette[] = {
	"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#8c6d31", "#999999",
};
#define NPAL (sizeof(palette) / sizeof(palette[0]))

const char *svg_colour(size_t i)
{
	return palette[i % NPAL];
}

/* The class attribute: base and the series class ("line k3"), and from the ninth series
 * on a dash pattern. */
static void series_attrs(FILE *f, const char *base, size_t i)
{
	static const char *const dash[] = { "6 3", "2 3", "8 3 2 3" };

	fprintf(f, " class=\"%s%sk%zu", base, *base ? " " : "", i % NPAL);
	if (i >= NPAL)
		fprintf(f, " dash\" stroke-dasharray=\"%s\"", dash[(i / NPAL - 1) % 3]);
	else
		fputc('"', f);
}

/* "1.57 GB/s", with " ±2.0%" for a mean with an interval. */
static void bar_value(char *buf, size_t len, const struct svg_bar *b, const char *unit)
{
	char v[NUMFMT_LEN], p[NUMFMT_LEN];

	numfmt(v, sizeof(v), b->value, unit);
	if (b->has_ci && b->value != 0) {
		numfmt_num(p, sizeof(p), fabs((b->hi - b->lo) / 2 / b->value * 100));
		snprintf(buf, len, "%s \xc2\xb1%s%%", v, p);
	} else {
		snprintf(buf, len, "%s", v);
	}
}

static void bar_one(FILE *f, const struct svg_bar *b, size_t i, double scale, int y,
		    const char *unit)
{
	double w = b->value * scale, x0 = BAR_LABEL, lo, hi, tx, tw;
	int ty = y + BAR_H / 2 + 4;
	char v[3 * NUMFMT_LEN];

	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" class=\"lbl\">", BAR_LABEL - 6, ty);
	html_esc(f, b->label);
	fprintf(f, "</text>\n");
	if (b->not_measured) {
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"nm\">not measured</text>\n", x0 + 4,
			ty);
		return;
	}
	bar_value(v, sizeof(v), b, unit);
	fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\"", x0, y,
		w > 0.5 ? w : 0.5, BAR_H);
	series_attrs(f, "bar", i);
	fprintf(f, "><title>");
	html_esc(f, b->label);
	fprintf(f, ": ");
	html_esc(f, v);
	if (b->mark) {
		fputc(' ', f);
		html_esc(f, b->mark);
	}
	fprintf(f, "</title></rect>\n");
	if (b->has_ci) {
		lo = x0 + (b->lo > 0 ? b->lo : 0) * scale;
		hi = x0 + b->hi * scale;
		fprintf(f, "<path class=\"ci\" d=\"M%.1f %d H%.1f M%.1f %d V%d M%.1f %d V%d\"/>\n",
			lo, y + BAR_H / 2, hi, lo, y + 4, y + BAR_H - 4, hi, y + 4, y + BAR_H - 4);
	}
	/* after the bar (or its whisker); pulled back inside the chart when too long, at
	 * about 6 pixels a character of the 11-pixel font */
	tx = x0 + (b->has_ci && b->hi * scale > w ? b->hi * scale : w) + 6;
	tw = 6.0 * (double)(strlen(v) + (b->mark ? strlen(b->mark) + 1 : 0));
	if (tx + tw > BAR_W - 4)
		fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"val\" text-anchor=\"end\">",
			BAR_W - 4, ty);
	else
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"val\">", tx, ty);
	html_esc(f, v);
	if (b->mark) {
		fputc(' ', f);
		html_esc(f, b->mark);
	}
	fprintf(f, "</text>\n");
}

/* The text alternative of a bar chart: what it shows and every value. */
static void bars_desc(FILE *f, const char *title, const char *unit, const struct svg_bar *b,
		      size_t n)
{
	char v[3 * NUMFMT_LEN];
	size_t i;

	fprintf(f, "<title>");
	html_esc(f, title);
	fprintf(f, "</title>\n<desc>Bar chart of ");
	html_esc(f, title);
	fprintf(f, ", one bar per run, horizontal axis ");
	html_esc(f, unit && *unit ? unit : "value");
	fprintf(f, " from 0. ");
	for (i = 0; i < n; i++) {
		html_esc(f, b[i].label);
		fprintf(f, ": ");
		if (b[i].not_measured) {
			fprintf(f, "not measured");
		} else {
			bar_value(v, sizeof(v), &b[i], unit);
			html_esc(f, v);
		}
		fprintf(f, "%s", i + 1 < n ? "; " : ".");
	}
	fprintf(f, "</desc>\n");
}

int svg_bars(FILE *f, const char *title, const char *unit, const struct svg_bar *b,
	     size_t n)
{
	struct numfmt_axis ax;
	double max = 0, scale, x;
	size_t i;
	int h = 34 + (int)n * (BAR_H + BAR_GAP) + 34, y;
	unsigned t;
	char tick[NUMFMT_LEN];

	for (i = 0; i < n; i++) {
		if (b[i].not_measured)
			continue;
		if (b[i].value > max)
			max = b[i].value;
		if (b[i].has_ci && b[i].hi > max)
			max = b[i].hi;
	}
	numfmt_axis(max, unit, 4, &ax);
	scale = (BAR_W - BAR_LABEL - BAR_RIGHT) / ax.top;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart bars\" width=\"%d\" "
		   "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n", BAR_W, h, BAR_W, h);
	bars_desc(f, title, unit, b, n);
	fprintf(f, "<text x=\"4\" y=\"18\" class=\"ttl\">");
	html_esc(f, title);
	fprintf(f, "</text>\n");
	y = 30 + (int)n * (BAR_H + BAR_GAP);
	for (t = 0; t < ax.n; t++) {
		x = BAR_LABEL + t * ax.step * scale;
		fprintf(f, "<path class=\"grid\" d=\"M%.1f 26 V%d\"/><text x=\"%.1f\" y=\"%d\" "
			   "class=\"tick\" text-anchor=\"middle\">", x, y, x, y + 14);
		html_esc(f, numfmt_tick(tick, sizeof(tick), &ax, t));	/* the unit is data */
		fprintf(f, "</text>\n");
	}
	for (i = 0, y = 30; i < n; i++, y += BAR_H + BAR_GAP)
		bar_one(f, &b[i], i, scale, y, unit);
	fprintf(f, "<path class=\"axis\" d=\"M%d %d V%d H%.1f\"/>\n", BAR_LABEL, 26, y,
		BAR_LABEL + ax.top * scale);
	fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"tick\" text-anchor=\"middle\">",
		BAR_LABEL + ax.top * scale / 2, y + 30);
	html_esc(f, ax.scale.unit[0] ? ax.scale.unit : "value");
	fprintf(f, "</text>\n</svg>\n");
	return ferror(f) ? -EIO : 0;
}

#define LAT_W	760
#define LAT_H	300
#define LAT_L	80	/* left margin for the time axis */
#define LAT_R	190	/* right margin for the legend */

static const char *const lat_names[5] = { "p50", "p90", "p99", "p99.9", "max" };

static void lat_desc(FILE *f, const char *title, const struct svg_lat *l, size_t n)
{
	char v[NUMFMT_LEN];
	size_t i;
	int k;

	fprintf(f, "<title>");
	html_esc(f, title);
	fprintf(f, " latency percentiles</title>\n<desc>Latency percentile curves of ");
	html_esc(f, title);
	fprintf(f, ": horizontal axis the percentile (p50, p90, p99, p99.9, max), vertical "
		   "axis the latency on a log scale. ");
	for (i = 0; i < n; i++) {
		html_esc(f, l[i].label);
		fprintf(f, ":");
		for (k = 0; k < 5; k++)
			fprintf(f, " %s %s%s", lat_names[k], numfmt(v, sizeof(v), l[i].ns[k], "ns"),
				k < 4 ? "," : "");
		fprintf(f, "%s", i + 1 < n ? "; " : ".");
	}
	fprintf(f, "</desc>\n");
}

/* One series: the line, a point per percentile with its value on hover, the legend. */
static void lat_series(FILE *f, const struct svg_lat *s, size_t i, double lmin, double lmax,
		       int top, int bottom, double step)
{
	char v[NUMFMT_LEN];
	double x, yv;
	int k;

	fprintf(f, "<polyline fill=\"none\" stroke-width=\"2\"");
	series_attrs(f, "line", i);
	fprintf(f, " points=\"");
	for (k = 0; k < 5; k++) {
		if (!(s->ns[k] > 0))
			continue;
		x = LAT_L + k * step;
		yv = bottom - (log10(s->ns[k]) - lmin) / (lmax - lmin) * (bottom - top);
		fprintf(f, "%.1f,%.1f ", x, yv);
	}
	fprintf(f, "\"/>\n");
	for (k = 0; k < 5; k++) {
		if (!(s->ns[k] > 0))
			continue;
		x = LAT_L + k * step;
		yv = bottom - (log10(s->ns[k]) - lmin) / (lmax - lmin) * (bottom - top);
		fprintf(f, "<circle class=\"pt k%zu\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\"><title>",
			i % NPAL, x, yv);
		html_esc(f, s->label);
		fprintf(f, " %s: %s</title></circle>\n", lat_names[k],
			numfmt(v, sizeof(v), s->ns[k], "ns"));
	}
	fprintf(f, "<path d=\"M%d %d h16\" stroke-width=\"3\"", LAT_W - LAT_R + 10,
		top + (int)i * 18 + 6);
	series_attrs(f, "key", i);
	fprintf(f, "/><text x=\"%d\" y=\"%d\" class=\"lbl\">", LAT_W - LAT_R + 32,
		top + (int)i * 18 + 10);
	html_esc(f, s->label);
	fprintf(f, "</text>\n");
}

int svg_latency(FILE *f, const char *title, const struct svg_lat *l, size_t n)
{
	double lo = INFINITY, hi = 0, lmin, lmax, yv, step;
	int top = 30, h = LAT_H, bottom, k, d;
	char buf[NUMFMT_LEN];
	size_t i;

	for (i = 0; i < n; i++)
		for (k = 0; k < 5; k++)
			if (l[i].ns[k] > 0) {
				lo = fmin(lo, l[i].ns[k]);
				hi = fmax(hi, l[i].ns[k]);
			}
	if (!(hi > 0))
		return 0;
	if (top + (int)n * 18 + 20 > h)
		h = top + (int)n * 18 + 20;	/* room for every legend line */
	bottom = h - 44;
	lmin = floor(log10(lo));
	lmax = ceil(log10(hi));
	if (lmax <= lmin)
		lmax = lmin + 1;
	step = (double)(LAT_W - LAT_L - LAT_R) / 4;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart lat\" width=\"%d\" "
		   "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n", LAT_W, h, LAT_W, h);
	lat_desc(f, title, l, n);
	fprintf(f, "<text x=\"4\" y=\"18\" class=\"ttl\">");
	html_esc(f, title);
	fprintf(f, " (latency per call, log scale)</text>\n");
	for (d = (int)lmin; d <= (int)lmax; d++) {
		yv = bottom - (d - lmin) / (lmax - lmin) * (bottom - top);
		fprintf(f, "<path class=\"grid\" d=\"M%d %.1f H%d\"/><text x=\"%d\" y=\"%.1f\" "
			   "class=\"tick\" text-anchor=\"end\">%s</text>\n", LAT_L, yv,
			LAT_W - LAT_R, LAT_L - 6, yv + 4, numfmt_sig(buf, sizeof(buf), pow(10, d),
								      "ns", 1));
	}
	for (k = 0; k < 5; k++)
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"tick\" text-anchor=\"middle\">%s"
			   "</text>\n", LAT_L + k * step, bottom + 16, lat_names[k]);
	fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"tick\" text-anchor=\"middle\">percentile"
		   "</text>\n<text x=\"14\" y=\"%d\" class=\"tick\" text-anchor=\"middle\" "
		   "transform=\"rotate(-90 14 %d)\">latency</text>\n", LAT_L + 2 * step,
		bottom + 34, (top + bottom) / 2, (top + bottom) / 2);
	fprintf(f, "<path class=\"axis\" d=\"M%d %d V%d H%d\"/>\n", LAT_L, top, bottom,
		LAT_W - LAT_R);
	for (i = 0; i < n; i++)
		lat_series(f, &l[i], i, lmin, lmax, top, bottom, step);
	fprintf(f, "</svg>\n");
	return ferror(f) ? -EIO : 0;
}
