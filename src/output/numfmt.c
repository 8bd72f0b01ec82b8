/* numfmt.c - human numbers: significant figures, prefixes by unit family, round axis
 * ticks; never exponent notation. See numfmt.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/numfmt.h"

#define MAX_DECIMALS 9

static const char *const si_prefix[] = { "", "k", "M", "G", "T", "P", "E", "Z", "Y" };
static const char *const bin_prefix[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "Zi", "Yi" };
/* time: index 0 is nanoseconds, 3 seconds */
static const char *const time_unit[] = { "ns", "us", "ms", "s" };
/* counts go up to E (a trillion trillion rows is not a figure anyone measures) */
#define COUNT_KMAX	6
#define BYTES_KMAX	8

static int unit_is(const char *u, const char *a, const char *b, const char *c)
{
	return !strcmp(u, a) || (b && !strcmp(u, b)) || (c && !strcmp(u, c));
}

/* A byte unit: [prefix][i]B[/s|/sec], or Bonnie++'s K/sec and M/sec. 1 when it is. */
static int parse_bytes(const char *s, struct numfmt_unit *u)
{
	static const char letters[] = "kMGTPEZY";
	const char *p = s;
	int idx = 0, bin = 0, bonnie = 0;

	if (*p == 'K' || (*p && strchr(letters, *p))) {
		idx = *p == 'K' ? 1 : (int)(strchr(letters, *p) - letters) + 1;
		p++;
		if (*p == 'i') {
			bin = 1;
			p++;
		}
	}
	if (!strncmp(p, "bytes", 5) && !idx)
		p += 5;
	else if (*p == 'B')
		p++;
	else if (idx && !bin && *p == '/')
		bonnie = 1;	/* "K/sec": Bonnie++ counts in 1024 bytes */
	else
		return 0;
	if (!*p) {
		u->per_s = 0;
	} else if (!strcmp(p, "/s") || !strcmp(p, "/sec")) {
		u->per_s = 1;
	} else {
		return 0;
	}
	u->kind = NUMFMT_BYTES;
	u->binary = bin || bonnie;
	u->scale = pow(u->binary ? 1024 : 1000, idx);
	return 1;
}

void numfmt_unit_parse(const char *unit, struct numfmt_unit *u)
{
	memset(u, 0, sizeof(*u));
	u->kind = NUMFMT_COUNT;
	u->scale = 1;
	if (!unit || !*unit)
		return;
	if (!strcmp(unit, "%")) {
		u->kind = NUMFMT_PERCENT;
		return;
	}
	if (unit_is(unit, "s", "sec", "secs")) {
		u->kind = NUMFMT_TIME;
		return;
	}
	if (unit_is(unit, "ms", NULL, NULL) || unit_is(unit, "us", "\xc2\xb5s", NULL) ||
	    unit_is(unit, "ns", NULL, NULL)) {
		u->kind = NUMFMT_TIME;
		u->scale = unit[0] == 'm' ? 1e-3 : unit[0] == 'n' ? 1e-9 : 1e-6;
		return;
	}
	if (parse_bytes(unit, u))
		return;
	snprintf(u->base, sizeof(u->base), "%s", unit);
}

/* a (> 0, finite) rounded to sig significant figures; *e10 receives the decimal exponent
 * of the rounded value. printf's %e rounds correctly, so it does the work. */
static double round_sig(double a, int sig, int *e10)
{
	char t[64], *e;

	snprintf(t, sizeof(t), "%.*e", sig - 1, a);
	e = strchr(t, 'e');
	*e10 = e ? atoi(e + 1) : 0;
	return strtod(t, NULL);
}

/* The digits of a (>= 0, finite) with sig significant figures: whole numbers when a has
 * more integer digits than sig. */
static void digits(char *buf, size_t len, double a, int sig)
{
	double r;
	int e, d;

	if (a == 0) {
		snprintf(buf, len, "0");
		return;
	}
	r = round_sig(a, sig, &e);
	if (e >= sig - 1) {
		snprintf(buf, len, "%.0f", e >= sig ? a : r);
		return;
	}
	d = sig - 1 - e;
	if (d > MAX_DECIMALS)
		d = MAX_DECIMALS;
	snprintf(buf, len, "%.*f", d, r);
}

/* Pick the prefix index k in [kmin, kmax] (powers of base) for a > 0 so that the number
 * shown, once rounded to sig figures, is below base where a larger prefix is left. */
static int pick_prefix(double a, double base, int kmin, int kmax, int sig)
{
	char t[NUMFMT_LEN];
	int k = kmin;

	while (k < kmax && a >= pow(base, k + 1))
		k++;
	/* 999.5 rounds to 1000: that is 1.00 of the next prefix (1023.9 MiB: 1.00 GiB) */
	digits(t, sizeof(t), a / pow(base, k), sig);
	if (k < kmax && strtod(t, NULL) >= base)
		k++;
	return k;
}

char *numfmt_sig(char *buf, size_t len, double v, const char *unit, int sig)
{
	struct numfmt_unit u;
	const char *sign = v < 0 ? "-" : "";
	char d[NUMFMT_LEN];
	double a;
	int k;

	if (sig < 1 || sig > 9)
		sig = NUMFMT_SIG;
	if (isnan(v)) {
		snprintf(buf, len, "n/a");
		return buf;
	}
	if (isinf(v)) {
		snprintf(buf, len, "%sinf", sign);
		return buf;
	}
	numfmt_unit_parse(unit, &u);
	a = fabs(v) * u.scale;
	if (a == 0)
		sign = "";
	switch (u.kind) {
	case NUMFMT_PERCENT:
		digits(d, sizeof(d), a, sig);
		snprintf(buf, len, "%s%s%%", sign, d);
		break;
	case NUMFMT_TIME:
		/* in nanoseconds, prefixes ns us ms s */
		a *= 1e9;
		k = a == 0 ? 3 : pick_prefix(a, 1000, 0, 3, sig);
		digits(d, sizeof(d), a / pow(1000, k), sig);
		snprintf(buf, len, "%s%s %s", sign, d, time_unit[k]);
		break;
	case NUMFMT_BYTES:
		k = a == 0 ? 0 : pick_prefix(a, u.binary ? 1024 : 1000, 0, BYTES_KMAX, sig);
		digits(d, sizeof(d), a / pow(u.binary ? 1024 : 1000, k), sig);
		snprintf(buf, len, "%s%s %sB%s", sign, d, u.binary ? bin_prefix[k] : si_prefix[k],
			 u.per_s ? "/s" : "");
		break;
	default:
		k = a == 0 ? 0 : pick_prefix(a, 1000, 0, COUNT_KMAX, sig);
		digits(d, sizeof(d), a / pow(1000, k), sig);
		snprintf(buf, len, "%s%s%s%s%s%s", sign, d, k ? " " : "", si_prefix[k],
			 u.base[0] ? " " : "", u.base);
		break;
	}
	return buf;
}

char *numfmt(char *buf, size_t len, double v, const char *unit)
{
	return numfmt_sig(buf, len, v, unit, NUMFMT_SIG);
}

char *numfmt_num(char *buf, size_t len, double v)
{
	char d[NUMFMT_LEN];

	if (isnan(v)) {
		snprintf(buf, len, "n/a");
		return buf;
	}
	if (isinf(v)) {
		snprintf(buf, len, "%sinf", v < 0 ? "-" : "");
		return buf;
	}
	digits(d, sizeof(d), fabs(v), NUMFMT_SIG);
	snprintf(buf, len, "%s%s", v < 0 && strcmp(d, "0") ? "-" : "", d);
	return buf;
}

char *numfmt_pct(char *buf, size_t len, double pct)
{
	char d[NUMFMT_LEN];

	if (isnan(pct) || isinf(pct))
		return numfmt_num(buf, len, pct);
	digits(d, sizeof(d), fabs(pct), NUMFMT_SIG);
	snprintf(buf, len, "%s%s%%", !strcmp(d, "0") ? "" : pct < 0 ? "-" : "+", d);
	return buf;
}

char *numfmt_p(char *buf, size_t len, double p)
{
	if (isnan(p))
		snprintf(buf, len, "n/a");
	else if (p < 0.001)
		snprintf(buf, len, "<0.001");
	else
		snprintf(buf, len, "%.2g", p);	/* 0.001 .. 1: never an exponent */
	return buf;
}

void numfmt_scale_for(double max, const char *unit, struct numfmt_scale *s)
{
	struct numfmt_unit u;
	double a;
	int k;

	numfmt_unit_parse(unit, &u);
	a = isfinite(max) ? fabs(max) * u.scale : 0;
	switch (u.kind) {
	case NUMFMT_PERCENT:
		s->div = 1;
		snprintf(s->unit, sizeof(s->unit), "%%");
		break;
	case NUMFMT_TIME:
		a *= 1e9;
		k = a == 0 ? 3 : pick_prefix(a, 1000, 0, 3, NUMFMT_SIG);
		s->div = pow(1000, k) * 1e-9 / u.scale;
		snprintf(s->unit, sizeof(s->unit), "%s", time_unit[k]);
		break;
	case NUMFMT_BYTES:
		k = a == 0 ? 0 : pick_prefix(a, u.binary ? 1024 : 1000, 0, BYTES_KMAX, NUMFMT_SIG);
		s->div = pow(u.binary ? 1024 : 1000, k) / u.scale;
		snprintf(s->unit, sizeof(s->unit), "%sB%s", u.binary ? bin_prefix[k] :
			 si_prefix[k], u.per_s ? "/s" : "");
		break;
	default:
		k = a == 0 ? 0 : pick_prefix(a, 1000, 0, COUNT_KMAX, NUMFMT_SIG);
		s->div = pow(1000, k);
		snprintf(s->unit, sizeof(s->unit), "%s%s%s", si_prefix[k], k && u.base[0] ? " " :
			 "", u.base);
		break;
	}
}

/* A round step near range / about: 1, 2 or 5 times a power of ten. */
static double nice_step(double range, unsigned about)
{
	double raw = range / about, p = pow(10, floor(log10(raw))), m = raw / p;

	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

void numfmt_axis(double max, const char *unit, unsigned about, struct numfmt_axis *a)
{
	double top, step;
	unsigned n;

	if (about < 2 || about > 10)
		about = 4;
	if (!(max > 0) || !isfinite(max))
		max = 1;
	numfmt_scale_for(max, unit, &a->scale);
	top = max / a->scale.div;		/* in the display unit */
	step = nice_step(top, about);
	n = (unsigned)ceil(top / step - 1e-9) + 1;
	if (n > 11) {
		step = nice_step(top, 10);
		n = (unsigned)ceil(top / step - 1e-9) + 1;
	}
	if (n < 2)
		n = 2;
	a->n = n;
	a->step = step * a->scale.div;
	a->top = (n - 1) * a->step;
}

char *numfmt_tick(char *buf, size_t len, const struct numfmt_axis *a, unsigned i)
{
	double v = i * a->step / a->scale.div;
	char d[NUMFMT_LEN], *dot, *e;

	if (i == 0) {
		snprintf(buf, len, "0");
		return buf;
	}
	/* enough decimals for the step, none of them trailing zeros */
	snprintf(d, sizeof(d), "%.6f", v);
	dot = strchr(d, '.');
	if (dot) {
		e = d + strlen(d);
		while (e > dot + 1 && e[-1] == '0')
			*--e = '\0';
		if (e == dot + 1)
			*dot = '\0';
	}
	snprintf(buf, len, "%s%s%s", d, a->scale.unit[0] && strcmp(a->scale.unit, "%") ? " " :
		 "", a->scale.unit);
	return buf;
}
