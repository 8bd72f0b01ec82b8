/* units.c - parsing dd(1) numbers and sizes, and printing sizes, rates and durations. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/units.h"

/* Accumulate leading decimal digits of *sp into *out. Returns the number of digits, or
 * -ERANGE on overflow. */
static int units_digits(const char **sp, uint64_t *out)
{
	const char *s = *sp;
	uint64_t v = 0;
	int n = 0;

	while (*s >= '0' && *s <= '9') {
		unsigned d = (unsigned)(*s - '0');

		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
		s++;
		n++;
	}
	*sp = s;
	*out = v;
	return n;
}

/* base^exp with overflow check: 0 or -ERANGE. */
static int units_pow(uint64_t base, unsigned exp, uint64_t *out)
{
	uint64_t v = 1;

	while (exp--) {
		if (v > UINT64_MAX / base)
			return -ERANGE;
		v *= base;
	}
	*out = v;
	return 0;
}

int units_mul_u64(uint64_t a, uint64_t b, uint64_t *out)
{
	if (a && b > UINT64_MAX / a)
		return -ERANGE;
	*out = a * b;
	return 0;
}

int units_add_u64(uint64_t a, uint64_t b, uint64_t *out)
{
	if (b > UINT64_MAX - a)
		return -ERANGE;
	*out = a + b;
	return 0;
}

int units_mul_off(uint64_t a, uint64_t b, uint64_t *out)
{
	uint64_t v;

	if (units_mul_u64(a, b, &v) < 0 || v > (uint64_t)INT64_MAX)
		return -ERANGE;
	*out = v;
	return 0;
}

uint64_t units_mul_sat(uint64_t a, uint64_t b)
{
	uint64_t v;

	return units_mul_u64(a, b, &v) < 0 ? UINT64_MAX : v;
}

uint64_t units_dtou64(double v, int round)
{
	if (round)
		v += 0.5;
	if (!(v >= 1))		/* NaN, negative, under one */
		return 0;
	if (v >= 18446744073709551616.0)
		return UINT64_MAX;
	return (uint64_t)v;
}

long long units_dtoll(double v, long long lo, long long hi)
{
	if (v != v)
		return lo <= 0 && hi >= 0 ? 0 : lo;
	if (v <= (double)lo)
		return lo;
	if (v >= (double)hi)
		return hi;
	return (long long)v;
}

int units_parse_u64(const char *s, uint64_t *out)
{
	uint64_t v;
	int n;

	if (!s)
		return -EINVAL;
	n = units_digits(&s, &v);
	if (n < 0)
		return n;
	if (n == 0 || *s)
		return -EINVAL;
	*out = v;
	return 0;
}

/* The multiplier of a dd suffix (coreutils' table): c w b, then a power letter
 * k K M G T P E Z Y, optionally followed by "B" or "D" (powers of 1000) or "iB"
 * (powers of 1024, as the bare letter). Sets *end past the suffix. */
static int units_dd_suffix(const char *s, const char **end, uint64_t *mul)
{
	static const char powers[] = "kMGTPEZY";
	const char *p;
	unsigned base = 1024;
	size_t skip = 1;

	*end = s;
	if (!*s) {
		*mul = 1;
		return 0;
	}
	if (s[1] == 'i' && s[2] == 'B') {
		skip = 3;
	} else if (s[1] == 'B' || s[1] == 'D') {
		base = 1000;
		skip = 2;
	}
	switch (*s) {
	case 'c':
		*mul = 1;
		break;
	case 'w':
		*mul = 2;
		break;
	case 'b':
		*mul = 512;
		break;
	case 'K':
		*mul = base;
		break;
	default:
		p = strchr(powers, *s);
		if (!p)
			return -EINVAL;
		*end = s + skip;
		if (units_pow(base, (unsigned)(p - powers) + 1, mul) < 0)
			return -ERANGE;
		break;
	}
	*end = s + skip;
	return 0;
}

/* One factor of a dd number: digits and an optional suffix, ending at 'x' or the end.
 * Advances *sp past the factor even when it overflows (-ERANGE), so the caller can
 * still check the syntax of the rest. */
static int units_dd_factor(const char **sp, uint64_t *out)
{
	const char *s = *sp, *end;
	uint64_t v = 0, mul = 1;
	int n, rc = 0, range = 0;

	n = units_digits(&s, &v);
	if (n < 0) {
		range = 1;
		while (*s >= '0' && *s <= '9')
			s++;
	} else if (n == 0) {
		return -EINVAL;
	}
	if (*s && *s != 'x') {
		rc = units_dd_suffix(s, &end, &mul);
		if (rc == -EINVAL || (*end && *end != 'x'))
			return -EINVAL;
		if (rc < 0)
			range = 1;
		s = end;
	}
	*sp = s;
	if (range || units_mul_u64(v, mul, out) < 0)
		return -ERANGE;
	return 0;
}

int units_parse_dd(const char *s, uint64_t *out)
{
	uint64_t total, f;
	int rc, range = 0;

	if (!s || !*s)
		return -EINVAL;
	rc = units_dd_factor(&s, &total);
	for (;;) {
		if (rc == -ERANGE)
			range = 1;	/* keep checking the syntax: junk wins over range */
		else if (rc < 0)
			return rc;
		if (!*s)
			break;
		s++;		/* the 'x' */
		rc = units_dd_factor(&s, &f);
		if (rc == 0 && !range && units_mul_u64(total, f, &total) < 0)
			range = 1;
	}
	if (range)
		return -ERANGE;
	*out = total;
	return 0;
}

int units_parse_size(const char *s, uint64_t default_unit, uint64_t *out)
{
	static const char powers[] = "kmgtpe";
	const char *p;
	uint64_t v, mul = default_unit;
	int n;

	if (!s)
		return -EINVAL;
	n = units_digits(&s, &v);
	if (n < 0)
		return n;
	if (n == 0)
		return -EINVAL;
	if (*s) {
		char c = *s;

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		p = c ? strchr(powers, c) : NULL;
		if (p) {
			if (units_pow(1024, (unsigned)(p - powers) + 1, &mul) < 0)
				return -ERANGE;
			s++;
			if (s[0] == 'i' && s[1] == 'B')
				s += 2;
			else if (s[0] == 'B')
				s++;
		} else if (s[0] == 'B') {
			mul = 1;
			s++;
		}
		if (*s)
			return -EINVAL;
	}
	if (units_mul_u64(v, mul, out) < 0)
		return -ERANGE;
	return 0;
}

static const char units_si_prefix[] = " kMGTPEZY";

/* dd's figure for a byte count (coreutils human_readable, exact integer path): below
 * one base step the plain number; else scaled by base^k, one decimal while under 10,
 * otherwise a whole number, rounded to nearest with ties to even. base is 1000 (SI:
 * "1.1 GB") or 1024 (IEC: "1.0 GiB"). */
static char *units_fmt_count(char *buf, size_t len, uint64_t v, const char *unit,
			     uint64_t base)
{
	uint64_t div = 1, q, r, t;
	unsigned k = 0;
	const char *iec = base == 1024 ? "i" : "";
	char pfx[4];

	if (v < base) {
		snprintf(buf, len, "%llu %s", (unsigned long long)v, unit);
		return buf;
	}
	while (k < 6 && v / div >= base) {
		div *= base;
		k++;
	}
	q = v / div;
	r = v % div;
	if (q < 10) {
		/* tenths = round(v * 10 / div), in integers: split so nothing overflows */
		t = q * 10 + (r * 10) / div;
		r = (r * 10) % div;
		if (r * 2 > div || (r * 2 == div && (t & 1)))
			t++;
		if (t < 100) {
			snprintf(pfx, sizeof(pfx), "%c", base == 1024 && k == 1 ? 'K' :
				 units_si_prefix[k]);
			snprintf(buf, len, "%u.%u %s%s%s", (unsigned)(t / 10), (unsigned)(t % 10),
				 pfx, iec, unit);
			return buf;
		}
		q = 10;
	} else if (r * 2 > div || (r * 2 == div && (q & 1))) {
		q++;
	}
	if (q >= base && k < 8) {
		k++;
		q = 1;
		snprintf(pfx, sizeof(pfx), "%c", base == 1024 && k == 1 ? 'K' : units_si_prefix[k]);
		snprintf(buf, len, "1.0 %s%s%s", pfx, iec, unit);
		return buf;
	}
	snprintf(pfx, sizeof(pfx), "%c", base == 1024 && k == 1 ? 'K' : units_si_prefix[k]);
	snprintf(buf, len, "%u %s%s%s", (unsigned)q, pfx, iec, unit);
	return buf;
}

static char *units_fmt_si_count(char *buf, size_t len, uint64_t v, const char *unit)
{
	return units_fmt_count(buf, len, v, unit, 1000);
}

char *units_fmt_iec_dd(char *buf, size_t len, uint64_t bytes)
{
	return units_fmt_count(buf, len, bytes, "B", 1024);
}

/* dd's figure for a rate (human_readable's floating-point path): at least the k prefix,
 * "%.1f" when that fits in four characters ("45.0", "3.9"), otherwise "%.0f". */
static char *units_fmt_si_rate(char *buf, size_t len, double v, const char *unit)
{
	char num[64];
	unsigned k = 1;
	double e = 1000;

	while (k < 8 && e * 1000 <= v) {
		e *= 1000;
		k++;
	}
	snprintf(num, sizeof(num), "%.1f", v / e);
	if (strlen(num) > 4)
		snprintf(num, sizeof(num), "%.0f", v / e);
	snprintf(buf, len, "%s %c%s", num, units_si_prefix[k], unit);
	return buf;
}

char *units_fmt_si(char *buf, size_t len, double value, const char *unit)
{
	size_t ul;

	if (!unit)
		unit = "";
	ul = strlen(unit);
	if (value < 0 || value != value)
		value = 0;
	if (ul >= 2 && strcmp(unit + ul - 2, "/s") == 0)
		return units_fmt_si_rate(buf, len, value, unit);
	if (value >= 18446744073709551615.0)
		return units_fmt_si_rate(buf, len, value, unit);
	return units_fmt_si_count(buf, len, (uint64_t)(value + 0.5), unit);
}

/* Three significant figures: "1.23", "12.3", "123". */
static void units_fmt3(char *buf, size_t len, double v, const char *unit)
{
	int prec = v < 9.995 ? 2 : v < 99.95 ? 1 : 0;

	snprintf(buf, len, "%.*f %s", prec, v, unit);
}

char *units_fmt_bytes(char *buf, size_t len, double bytes)
{
	static const char *const names[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	unsigned k = 0;

	if (bytes < 0 || bytes != bytes)
		bytes = 0;
	while (k < 6 && bytes >= 1024) {
		bytes /= 1024;
		k++;
	}
	/* past EiB (or infinite) the figure stays a double: no cast out of range */
	if (!(bytes < 1e18))
		snprintf(buf, len, "%.3g %s", bytes, names[k]);
	else if (k == 0 || (bytes == (double)(uint64_t)bytes && bytes >= 10))
		snprintf(buf, len, "%.0f %s", bytes, names[k]);
	else
		units_fmt3(buf, len, bytes, names[k]);
	return buf;
}

char *units_fmt_ns(char *buf, size_t len, double ns)
{
	if (ns < 0 || ns != ns)
		ns = 0;
	if (ns < 999.5)
		snprintf(buf, len, "%.0f ns", ns);
	else if (ns < 999500)
		units_fmt3(buf, len, ns / 1e3, "us");
	else if (ns < 999500000)
		units_fmt3(buf, len, ns / 1e6, "ms");
	else
		snprintf(buf, len, "%.3f s", ns / 1e9);
	return buf;
}
