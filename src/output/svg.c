/* svg.c - the report's charts as inline SVG: horizontal bars with 95% confidence
 * whiskers per figure, and latency percentile lines on a log time axis. See html.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "core/units.h"
#include "output/html.h"

#define BAR_W		760	/* chart width */
#define BAR_LABEL	200	/* space for run names at the left */
#define BAR_H		22
#define BAR_GAP		8

static const char *const palette[] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};

const char *svg_colour(size_t i)
{
	return palette[i % (sizeof(palette) / sizeof(palette[0]))];
}

/* A round axis maximum at or above v: 1, 2 or 5 times a power of ten. */
static double nice_max(double v)
{
	double p, m;

	if (!(v > 0))
		return 1;
	p = pow(10, floor(log10(v)));
	m = v / p;
	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

static void bar_one(FILE *f, const struct svg_bar *b, size_t i, double scale, int y)
{
	double w = b->value * scale, x0 = BAR_LABEL, lo, hi;
	int ty = y + BAR_H / 2 + 4;

	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" class=\"lbl\">", BAR_LABEL - 6, ty);
	html_esc(f, b->label);
	fprintf(f, "</text>\n");
	if (b->not_measured) {
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"nm\">not measured</text>\n", x0 + 4,
			ty);
		return;
	}
	fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>\n", x0,
		y, w > 0.5 ? w : 0.5, BAR_H, svg_colour(i));
	if (b->has_ci) {
		lo = x0 + (b->lo > 0 ? b->lo : 0) * scale;
		hi = x0 + b->hi * scale;
		fprintf(f, "<path class=\"ci\" d=\"M%.1f %d H%.1f M%.1f %d V%d M%.1f %d V%d\"/>\n",
			lo, y + BAR_H / 2, hi, lo, y + 4, y + BAR_H - 4, hi, y + 4, y + BAR_H - 4);
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"val\">%.4g",
		x0 + (b->has_ci && b->hi * scale > w ? b->hi * scale : w) + 6, ty, b->value);
	if (b->has_ci)
		fprintf(f, " \xc2\xb1%.3g", (b->hi - b->lo) / 2);
	fprintf(f, "%s%s</text>\n", b->mark ? " " : "", b->mark ? b->mark : "");
}

int svg_bars(FILE *f, const char *title, const char *unit, const struct svg_bar *b,
	     size_t n)
{
	double max = 0, scale, axis;
	size_t i;
	int h = 34 + (int)n * (BAR_H + BAR_GAP) + 24, y, t;

	for (i = 0; i < n; i++) {
		if (b[i].not_measured)
			continue;
		if (b[i].value > max)
			max = b[i].value;
		if (b[i].has_ci && b[i].hi > max)
			max = b[i].hi;
	}
	axis = nice_max(max);
	/* leave room on the right for the value text */
	scale = (BAR_W - BAR_LABEL - 120) / axis;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"%d\" "
		   "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n", BAR_W, h, BAR_W, h);
	fprintf(f, "<text x=\"4\" y=\"18\" class=\"ttl\">");
	html_esc(f, title);
	fprintf(f, " (");
	html_esc(f, unit);
	fprintf(f, ")</text>\n");
	for (i = 0, y = 30; i < n; i++, y += BAR_H + BAR_GAP)
		bar_one(f, &b[i], i, scale, y);
	/* axis with 0, half and the top */
	fprintf(f, "<path class=\"axis\" d=\"M%d %d V%d H%.1f\"/>\n", BAR_LABEL, 26, y,
		BAR_LABEL + axis * scale);
	for (t = 0; t <= 2; t++)
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"tick\" text-anchor=\"middle\">"
			   "%.6g</text>\n", BAR_LABEL + axis * scale * t / 2, y + 14, axis * t / 2);
	fprintf(f, "</svg>\n");
	return ferror(f) ? -EIO : 0;
}

#define LAT_W	760
#define LAT_H	300
#define LAT_L	80	/* left margin for the time axis */
#define LAT_R	170	/* right margin for the legend */

int svg_latency(FILE *f, const char *title, const struct svg_lat *l, size_t n)
{
	static const char *const xl[5] = { "p50", "p90", "p99", "p99.9", "max" };
	double lo = INFINITY, hi = 0, lmin, lmax, x, yv, step;
	int top = 30, bottom = LAT_H - 30, k, d;
	char buf[32];
	size_t i;

	for (i = 0; i < n; i++)
		for (k = 0; k < 5; k++)
			if (l[i].ns[k] > 0) {
				lo = fmin(lo, l[i].ns[k]);
				hi = fmax(hi, l[i].ns[k]);
			}
	if (!(hi > 0))
		return 0;
	lmin = floor(log10(lo));
	lmax = ceil(log10(hi));
	if (lmax <= lmin)
		lmax = lmin + 1;
	step = (double)(LAT_W - LAT_L - LAT_R) / 4;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"%d\" "
		   "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n<text x=\"4\" y=\"18\" "
		   "class=\"ttl\">", LAT_W, LAT_H, LAT_W, LAT_H);
	html_esc(f, title);
	fprintf(f, " (latency, log scale)</text>\n");
	for (d = (int)lmin; d <= (int)lmax; d++) {
		yv = bottom - (d - lmin) / (lmax - lmin) * (bottom - top);
		fprintf(f, "<path class=\"grid\" d=\"M%d %.1f H%d\"/><text x=\"%d\" y=\"%.1f\" "
			   "class=\"tick\" text-anchor=\"end\">%s</text>\n", LAT_L, yv,
			LAT_W - LAT_R, LAT_L - 6, yv + 4,
			units_fmt_ns(buf, sizeof(buf), pow(10, d)));
	}
	for (k = 0; k < 5; k++)
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"tick\" text-anchor=\"middle\">%s"
			   "</text>\n", LAT_L + k * step, LAT_H - 10, xl[k]);
	for (i = 0; i < n; i++) {
		fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"",
			svg_colour(i));
		for (k = 0; k < 5; k++) {
			if (!(l[i].ns[k] > 0))
				continue;
			x = LAT_L + k * step;
			yv = bottom - (log10(l[i].ns[k]) - lmin) / (lmax - lmin) * (bottom - top);
			fprintf(f, "%.1f,%.1f ", x, yv);
		}
		fprintf(f, "\"/>\n<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" "
			   "fill=\"%s\"/><text x=\"%d\" y=\"%d\" class=\"lbl\">",
			LAT_W - LAT_R + 12, top + (int)i * 18, svg_colour(i), LAT_W - LAT_R + 30,
			top + (int)i * 18 + 10);
		html_esc(f, l[i].label);
		fprintf(f, "</text>\n");
	}
	fprintf(f, "</svg>\n");
	return ferror(f) ? -EIO : 0;
}
