/* html.h - the self-contained HTML report (html.c) and its SVG charts (svg.c): inline CSS
 * and SVG only, no script, font or image from anywhere. Every string taken from a result
 * is HTML-escaped. Thread-safe as long as each call has its own stream. */
#ifndef IOB_OUTPUT_HTML_H
#define IOB_OUTPUT_HTML_H

#include <stddef.h>
#include <stdio.h>

struct run;

/* Write s with & < > " ' escaped (NULL writes nothing). */
void html_esc(FILE *f, const char *s);

/* One bar of a bar chart: a run's mean for one figure, with its 95% CI when it has one. */
struct svg_bar {
	const char *label;		/* run name (escaped when written) */
	double value;
	int has_ci;
	double lo, hi;
	int not_measured;		/* no bar: "not measured" */
	const char *mark;		/* short flag text after the value ("cache"), or NULL */
};
/* A horizontal bar chart with CI whiskers, bars coloured by index, a round axis in the
 * unit's display prefix, a <title> and <desc> naming every value. The caller draws one
 * only where it compares two or more values. 0 or -EIO. */
int svg_bars(FILE *f, const char *title, const char *unit, const struct svg_bar *b,
	     size_t n);

/* One run's latency percentiles (ns) for the percentile plot: p50 p90 p99 p99.9 max. */
struct svg_lat {
	const char *label;
	double ns[5];
};
/* Lines of latency against percentile, log-scaled time axis, a point with its value on
 * hover per percentile, a <title> and <desc> naming every value. Writes nothing when no
 * series has a value. 0 or -EIO. */
int svg_latency(FILE *f, const char *title, const struct svg_lat *l, size_t n);

/* The colour of series i ("#0072b2"...: Okabe and Ito's colour-blind-safe palette; the
 * report's stylesheet gives the charts the same colours through classes k0..k7, lighter
 * in dark mode). Static string. */
const char *svg_colour(size_t i);

/* The report for runs[0..n-1] (n >= 1), run A being runs[0]; names[i] is what the user
 * gave for run i (file, id or label). title may be NULL. Returns 0, -ENOMEM or -EIO. */
int html_report(FILE *f, struct run *const *runs, const char *const *names, size_t n,
		const char *title);
/* The same, with the battery comparison's baseline configuration (NULL: the first).
 * -ENOENT when baseline names no configuration. */
int html_report_baseline(FILE *f, struct run *const *runs, const char *const *names, size_t n,
			 const char *title, const char *baseline);

#endif
