/* numfmt.h - numbers for people: the one place that turns a figure and its unit into the
 * text the text output, the HTML report and its SVG axes show. Three significant figures
 * by default ("1.57 GB/s", "812 us", "18.3 ms", "1.79 M rows/s", "99.5%"), the prefix
 * chosen by the value and the unit's family (SI for "MB/s" and "rows/s", binary for
 * "MiB/s" and Bonnie++'s "K/sec"), never exponent notation. Machine outputs (JSON, CSV)
 * keep raw numbers; the original tools' own layouts (Bonnie++'s table, dd's closing
 * lines, PostMark's report) keep their formats and do not use this module.
 * Pure functions on caller buffers: thread-safe. */
#ifndef IOB_OUTPUT_NUMFMT_H
#define IOB_OUTPUT_NUMFMT_H

#include <stddef.h>

/* Enough for any string below (sign, digits, prefix, unit of up to 24 characters). */
#define NUMFMT_LEN	64
/* The default number of significant figures. */
#define NUMFMT_SIG	3

enum numfmt_kind {
	NUMFMT_COUNT,		/* things (rows/s, files, tps, ""): k M G T P E, after a space */
	NUMFMT_BYTES,		/* B kB MB ... or B KiB MiB ..., optionally per second */
	NUMFMT_TIME,		/* ns us ms s */
	NUMFMT_PERCENT,		/* "%": no prefix */
};

/* What a unit string means. */
struct numfmt_unit {
	enum numfmt_kind kind;
	double scale;		/* one of the unit in the base (bytes, seconds, things) */
	int binary;		/* bytes: powers of 1024 (KiB); else powers of 1000 */
	int per_s;		/* bytes: a rate ("/s" follows the prefixed unit) */
	char base[28];		/* count: the unit as given ("rows/s", "files", "") */
};

/* Classify unit (NULL or "" is a plain count): "B" "kB" "KB" "MB" ... (SI, as dd counts
 * them), "KiB" "MiB" ... (binary), any of them with "/s" or "/sec", Bonnie++'s "K/sec"
 * and "M/sec" (binary), "ns" "us" "ms" "s", "%", and anything else as a count. */
void numfmt_unit_parse(const char *unit, struct numfmt_unit *u);

/* v (in unit) with sig significant figures (1..9; others mean NUMFMT_SIG) and the prefix
 * that puts it in [1, 1000) (binary: [1, 1024)): "1.57 GB/s", "838 MiB/s", "812 us",
 * "1.79 M rows/s", "0 B". Values beyond the largest prefix are whole numbers ("1234 s"),
 * values below the smallest have more decimals (up to 9: "0.00100 ns"). Negative values
 * get a '-'; NaN is "n/a", infinities "inf" and "-inf". Returns buf. */
char *numfmt_sig(char *buf, size_t len, double v, const char *unit, int sig);
/* numfmt_sig with NUMFMT_SIG figures. Returns buf. */
char *numfmt(char *buf, size_t len, double v, const char *unit);

/* A bare number with three significant figures, no prefix and no exponent: "1.57",
 * "0.00123", "-12.3", "812"; a number of more integer digits keeps them all ("1297842").
 * NaN "n/a", infinities "inf"/"-inf". Returns buf. */
char *numfmt_num(char *buf, size_t len, double v);

/* A signed percentage for deltas: "+12.3%", "-0.512%", "0%". Returns buf. */
char *numfmt_pct(char *buf, size_t len, double pct);

/* A p-value: "0.034", "0.5", "<0.001". Returns buf. */
char *numfmt_p(char *buf, size_t len, double p);

/* A display unit for a column or an axis whose largest magnitude is max (in unit): values
 * in the column are shown as numfmt_num(v / div) under the label unit ("GB/s",
 * "M rows/s", "ms"). */
struct numfmt_scale {
	double div;
	char unit[40];
};
void numfmt_scale_for(double max, const char *unit, struct numfmt_scale *s);

/* A linear axis from 0 that reaches at least max (in unit), its ticks at round values of
 * the display unit: 1, 2 or 5 times a power of ten, n ticks from 0 to top inclusive
 * (at most 11). */
struct numfmt_axis {
	struct numfmt_scale scale;
	double step;		/* in unit */
	double top;		/* in unit: (n - 1) * step */
	unsigned n;
};
/* Fill *a for max (<= 0 or not finite gives the axis 0..1). about: the number of ticks
 * wanted (2..10). */
void numfmt_axis(double max, const char *unit, unsigned about, struct numfmt_axis *a);
/* Label of tick i ("2.5 GB/s", "0"), no trailing zeros. Returns buf. */
char *numfmt_tick(char *buf, size_t len, const struct numfmt_axis *a, unsigned i);

#endif
