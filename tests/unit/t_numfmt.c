/* t_numfmt.c - human numbers on a table of values (zero, tiny, rounding across a prefix,
 * huge, negative, NaN, infinities) against the exact strings, the unit families, the
 * column scales and the axis ticks; and never an exponent. */
#include <math.h>
#include <string.h>

#include "test.h"
#include "output/numfmt.h"

static int same(const char *what, const char *got, const char *want)
{
	if (strcmp(got, want)) {
		fprintf(stderr, "%s: got '%s', want '%s'\n", what, got, want);
		return 0;
	}
	return 1;
}

static int fmt(double v, const char *unit, const char *want)
{
	char b[NUMFMT_LEN], what[96];

	snprintf(what, sizeof(what), "numfmt(%.17g, \"%s\")", v, unit ? unit : "(null)");
	return same(what, numfmt(b, sizeof(b), v, unit), want);
}

static void t_table(void)
{
	/* the examples */
	CHECK(fmt(1574760000, "B/s", "1.57 GB/s"));
	CHECK(fmt(5038.54, "MB/s", "5.04 GB/s"));
	CHECK(fmt(0.000812303, "s", "812 us"));
	CHECK(fmt(18.3e6, "ns", "18.3 ms"));
	CHECK(fmt(1792290, "rows/s", "1.79 M rows/s"));
	/* zero, tiny, rounding across a prefix, huge */
	CHECK(fmt(0, "B/s", "0 B/s"));
	CHECK(fmt(0, "s", "0 s"));
	CHECK(fmt(0, "rows/s", "0 rows/s"));
	CHECK(fmt(0, "", "0"));
	CHECK(fmt(1e-9, "s", "1.00 ns"));
	CHECK(fmt(1e-12, "s", "0.00100 ns"));
	CHECK(fmt(1e-9, "", "0.000000001"));
	CHECK(fmt(1e-9, "B", "0.000000001 B"));
	CHECK(fmt(999.5, "B/s", "1.00 kB/s"));
	CHECK(fmt(999.4, "B/s", "999 B/s"));
	CHECK(fmt(999.5, "ns", "1.00 us"));
	CHECK(fmt(999.5, "files/s", "1.00 k files/s"));
	CHECK(fmt(9.996, "MB/s", "10.0 MB/s"));
	CHECK(fmt(9.994, "MB/s", "9.99 MB/s"));
	CHECK(fmt(99.95, "ms", "100 ms"));
	CHECK(fmt(1e15, "B/s", "1.00 PB/s"));
	CHECK(fmt(1e15, "rows/s", "1.00 P rows/s"));
	CHECK(fmt(1e15, "s", "1000000000000000 s"));
	CHECK(fmt(1e15, "", "1.00 P"));
	CHECK(fmt(1e24, "files", "1000000 E files"));
	/* negative, NaN, infinities */
	CHECK(fmt(-1574760000, "B/s", "-1.57 GB/s"));
	CHECK(fmt(-0.0123, "s", "-12.3 ms"));
	CHECK(fmt(-42, "tps", "-42.0 tps"));
	CHECK(fmt(NAN, "MB/s", "n/a"));
	CHECK(fmt(INFINITY, "MB/s", "inf"));
	CHECK(fmt(-INFINITY, "s", "-inf"));
	/* binary families: MiB, Bonnie++'s K/sec */
	CHECK(fmt(857783.8, "K/sec", "838 MiB/s"));
	CHECK(fmt(3260485.2, "K/sec", "3.11 GiB/s"));
	CHECK(fmt(1.5 * 1073741824.0, "B", "1.61 GB"));	/* bytes count as dd counts */
	CHECK(fmt(1.5, "GiB", "1.50 GiB"));
	CHECK(fmt(1013, "MiB", "1013 MiB"));
	CHECK(fmt(1023.9, "MiB", "1.00 GiB"));
	CHECK(fmt(10.43, "MiB/s", "10.4 MiB/s"));
	CHECK(fmt(1023, "B", "1.02 kB"));
	CHECK(fmt(1023, "KiB", "1023 KiB"));
	/* SI byte units as dd counts them */
	CHECK(fmt(1, "kB", "1.00 kB"));
	CHECK(fmt(1, "KB", "1.00 kB"));
	CHECK(fmt(1, "GB/s", "1.00 GB/s"));
	/* percent, plain counts */
	CHECK(fmt(99.5, "%", "99.5%"));
	CHECK(fmt(100, "%", "100%"));
	CHECK(fmt(10718.2, "tps", "10.7 k tps"));
	CHECK(fmt(812, "", "812"));
}

static void t_sig(void)
{
	char b[NUMFMT_LEN];

	CHECK(same("sig 2", numfmt_sig(b, sizeof(b), 1574760000, "B/s", 2), "1.6 GB/s"));
	CHECK(same("sig 5", numfmt_sig(b, sizeof(b), 1574760000, "B/s", 5), "1.5748 GB/s"));
	CHECK(same("sig 0", numfmt_sig(b, sizeof(b), 1574760000, "B/s", 0), "1.57 GB/s"));
}

static void t_plain(void)
{
	char b[NUMFMT_LEN];

	CHECK(same("num", numfmt_num(b, sizeof(b), 1.5748), "1.57"));
	CHECK(same("num", numfmt_num(b, sizeof(b), 1297842.1), "1297842"));
	CHECK(same("num", numfmt_num(b, sizeof(b), 0.00123456), "0.00123"));
	CHECK(same("num", numfmt_num(b, sizeof(b), -12.345), "-12.3"));
	CHECK(same("num", numfmt_num(b, sizeof(b), 0), "0"));
	CHECK(same("num", numfmt_num(b, sizeof(b), 1e15), "1000000000000000"));
	CHECK(same("num", numfmt_num(b, sizeof(b), NAN), "n/a"));
	CHECK(same("num", numfmt_num(b, sizeof(b), -INFINITY), "-inf"));
	CHECK(same("pct", numfmt_pct(b, sizeof(b), 30.04), "+30.0%"));
	CHECK(same("pct", numfmt_pct(b, sizeof(b), -0.5123), "-0.512%"));
	CHECK(same("pct", numfmt_pct(b, sizeof(b), 0), "0%"));
	CHECK(same("p", numfmt_p(b, sizeof(b), 0.0342), "0.034"));
	CHECK(same("p", numfmt_p(b, sizeof(b), 1.2e-5), "<0.001"));
	CHECK(same("p", numfmt_p(b, sizeof(b), 0.5), "0.5"));
	CHECK(same("p", numfmt_p(b, sizeof(b), 0.001), "0.001"));
}

static void t_scale(void)
{
	struct numfmt_scale s;
	char b[NUMFMT_LEN];

	numfmt_scale_for(6233.4, "MB/s", &s);
	CHECK(same("scale", s.unit, "GB/s"));
	CHECK(same("scaled", numfmt_num(b, sizeof(b), 679.2 / s.div), "0.679"));
	numfmt_scale_for(0.0184, "s", &s);
	CHECK(same("scale", s.unit, "ms"));
	CHECK_NEAR(0.0184 / s.div, 18.4, 1e-9);
	numfmt_scale_for(1792290, "rows/s", &s);
	CHECK(same("scale", s.unit, "M rows/s"));
	numfmt_scale_for(857783.8, "K/sec", &s);
	CHECK(same("scale", s.unit, "MiB/s"));
	CHECK_NEAR(857783.8 / s.div, 837.68, 0.01);
	numfmt_scale_for(0, "tps", &s);
	CHECK(same("scale", s.unit, "tps"));
	CHECK(s.div == 1);
}

static void t_axis(void)
{
	struct numfmt_axis a;
	char b[NUMFMT_LEN];

	numfmt_axis(6233.4, "MB/s", 4, &a);
	CHECK(a.n == 5);
	CHECK(same("tick 0", numfmt_tick(b, sizeof(b), &a, 0), "0"));
	CHECK(same("tick 1", numfmt_tick(b, sizeof(b), &a, 1), "2 GB/s"));
	CHECK(same("tick 4", numfmt_tick(b, sizeof(b), &a, 4), "8 GB/s"));
	CHECK_NEAR(a.top, 8000, 1e-6);
	numfmt_axis(0.9, "", 4, &a);
	CHECK(same("tick 1", numfmt_tick(b, sizeof(b), &a, 1), "0.5"));
	CHECK(a.top >= 0.9);
	numfmt_axis(3260485.2, "K/sec", 4, &a);
	CHECK(same("unit", a.scale.unit, "GiB/s"));
	CHECK(same("tick 1", numfmt_tick(b, sizeof(b), &a, 1), "1 GiB/s"));
	numfmt_axis(0, "MB/s", 4, &a);
	CHECK(a.n >= 2 && a.top > 0);
	numfmt_axis(NAN, "MB/s", 4, &a);
	CHECK(a.n >= 2 && a.top > 0);
	numfmt_axis(2.5e-4, "s", 5, &a);
	CHECK(same("tick 1", numfmt_tick(b, sizeof(b), &a, 1), "50 us"));
}

/* No value, however large or small, prints with an exponent. */
static void t_no_exponent(void)
{
	static const char *const units[] = { "", "B/s", "MB/s", "K/sec", "MiB", "s", "ns",
					     "%", "rows/s" };
	char b[NUMFMT_LEN];
	double v;
	size_t u;
	int bad = 0;

	for (u = 0; u < sizeof(units) / sizeof(units[0]); u++)
		for (v = 1e-15; v < 1e30; v *= 7.3) {
			numfmt(b, sizeof(b), v, units[u]);
			if (strchr(b, 'e') && !strstr(b, "seeks")) {
				fprintf(stderr, "exponent: %s\n", b);
				bad++;
			}
			numfmt_num(b, sizeof(b), -v);
			bad += strchr(b, 'e') != NULL;
		}
	CHECK(bad == 0);
}

int main(void)
{
	RUN(t_table);
	RUN(t_sig);
	RUN(t_plain);
	RUN(t_scale);
	RUN(t_axis);
	RUN(t_no_exponent);
	return test_done();
}
