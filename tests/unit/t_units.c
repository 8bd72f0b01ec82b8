/* t_units.c - dd's suffix table and products, the size parser, and the formatters. */
#include <errno.h>
#include <string.h>

#include "test.h"
#include "core/units.h"

static int dd(const char *s, uint64_t want)
{
	uint64_t v = 12345;
	int rc = units_parse_dd(s, &v);

	if (rc != 0 || v != want) {
		fprintf(stderr,
			"units_parse_dd(\"%s\"): rc %d value %" PRIu64 ", want %" PRIu64 "\n",
			s, rc, v, want);
		return 0;
	}
	return 1;
}

static int dd_err(const char *s)
{
	uint64_t v;

	return units_parse_dd(s, &v);
}

static void t_dd_suffixes(void)
{
	const uint64_t k = 1024, t = 1000;

	CHECK(dd("0", 0));
	CHECK(dd("1", 1));
	CHECK(dd("017", 17));
	CHECK(dd("3c", 3));
	CHECK(dd("3w", 6));
	CHECK(dd("3b", 1536));
	CHECK(dd("1kB", 1000));
	CHECK(dd("1KB", 1000));
	CHECK(dd("1k", k));
	CHECK(dd("1K", k));
	CHECK(dd("1KiB", k));
	CHECK(dd("1MB", t * t));
	CHECK(dd("1M", k * k));
	CHECK(dd("1MiB", k * k));
	CHECK(dd("1GB", t * t * t));
	CHECK(dd("1G", k * k * k));
	CHECK(dd("1GiB", k * k * k));
	CHECK(dd("1TB", t * t * t * t));
	CHECK(dd("1T", k * k * k * k));
	CHECK(dd("1TiB", k * k * k * k));
	CHECK(dd("1PB", t * t * t * t * t));
	CHECK(dd("1P", k * k * k * k * k));
	CHECK(dd("1PiB", k * k * k * k * k));
	CHECK(dd("1EB", t * t * t * t * t * t));
	CHECK(dd("1E", k * k * k * k * k * k));
	CHECK(dd("1EiB", k * k * k * k * k * k));
	CHECK(dd("15E", 15 * k * k * k * k * k * k));
	CHECK(dd("1024", 1024));
}

static void t_dd_products(void)
{
	CHECK(dd("2x1M", 2u << 20));
	CHECK(dd("1Kx2x3", 6144));
	CHECK(dd("0x5", 0));
	CHECK(dd("2x3", 6));
	CHECK(dd("1bx2w", 2048));
}

static void t_dd_errors(void)
{
	CHECK_EQ_U64(dd_err(""), (uint64_t)-EINVAL);
	CHECK_EQ_U64(dd_err("-1"), (uint64_t)-EINVAL);
	CHECK_EQ_U64(dd_err("1Q"), (uint64_t)-EINVAL);
	CHECK_EQ_U64(dd_err("1x"), (uint64_t)-EINVAL);
	CHECK_EQ_U64(dd_err("x2"), (uint64_t)-EINVAL);
	CHECK_EQ_U64(dd_err("2x3xk"), (uint64_t)-EINVAL);
	CHECK_EQ_U64(dd_err("1e"), (uint64_t)-EINVAL);
	CHECK_EQ_U64(dd_err("1D"), (uint64_t)-EINVAL);
	CHECK_EQ_U64(dd_err("1KK"), (uint64_t)-EINVAL);
	CHECK_EQ_U64(dd_err(" 1"), (uint64_t)-EINVAL);
	CHECK_EQ_U64(dd_err("1 "), (uint64_t)-EINVAL);
	CHECK_EQ_U64(dd_err("18446744073709551615"), 0);
	CHECK_EQ_U64(dd_err("18446744073709551616"), (uint64_t)-ERANGE);
	CHECK_EQ_U64(dd_err("16E"), (uint64_t)-ERANGE);
	CHECK_EQ_U64(dd_err("1Z"), (uint64_t)-ERANGE);
	CHECK_EQ_U64(dd_err("1Y"), (uint64_t)-ERANGE);
	CHECK_EQ_U64(dd_err("1Gx1Gx1G"), (uint64_t)-ERANGE);
	CHECK_EQ_U64(dd_err("99999999999999999999x"), (uint64_t)-EINVAL);
	CHECK_EQ_U64(dd_err("1Zx1Q"), (uint64_t)-EINVAL);
}

static void t_size(void)
{
	uint64_t v = 0;

	CHECK(units_parse_size("100", 1, &v) == 0 && v == 100);
	CHECK(units_parse_size("100", 1u << 20, &v) == 0 && v == 100ull << 20);
	CHECK(units_parse_size("4k", 1u << 20, &v) == 0 && v == 4096);
	CHECK(units_parse_size("4K", 1, &v) == 0 && v == 4096);
	CHECK(units_parse_size("4KiB", 1, &v) == 0 && v == 4096);
	CHECK(units_parse_size("4KB", 1, &v) == 0 && v == 4096);
	CHECK(units_parse_size("2m", 1, &v) == 0 && v == 2ull << 20);
	CHECK(units_parse_size("2G", 1, &v) == 0 && v == 2ull << 30);
	CHECK(units_parse_size("1t", 1, &v) == 0 && v == 1ull << 40);
	CHECK(units_parse_size("1TiB", 1, &v) == 0 && v == 1ull << 40);
	CHECK(units_parse_size("512B", 1u << 20, &v) == 0 && v == 512);
	CHECK(units_parse_size("0", 1, &v) == 0 && v == 0);
	CHECK(units_parse_size("", 1, &v) == -EINVAL);
	CHECK(units_parse_size("-1", 1, &v) == -EINVAL);
	CHECK(units_parse_size("1q", 1, &v) == -EINVAL);
	CHECK(units_parse_size("1kk", 1, &v) == -EINVAL);
	CHECK(units_parse_size("k", 1, &v) == -EINVAL);
	CHECK(units_parse_size("20000000t", 1, &v) == -ERANGE);
	CHECK(units_parse_size("20000000000000", 1u << 20, &v) == -ERANGE);
	CHECK(units_parse_u64("42", &v) == 0 && v == 42);
	CHECK(units_parse_u64("42k", &v) == -EINVAL);
	CHECK(units_parse_u64("", &v) == -EINVAL);
	CHECK(units_parse_u64("99999999999999999999", &v) == -ERANGE);
}

#define FMT_IS(call, want) do { \
	char b_[64]; \
	const char *got_ = (call); \
	(void)b_; \
	if (strcmp(got_, want) != 0) { \
		fprintf(stderr, "%s: got \"%s\" want \"%s\"\n", #call, got_, want); \
		CHECK(0); \
	} \
} while (0)

static void t_fmt(void)
{
	char b[64];

	/* byte counts: checked against coreutils 9.1 dd's closing lines */
	FMT_IS(units_fmt_si(b, sizeof(b), 1073741824, "B"), "1.1 GB");
	FMT_IS(units_fmt_si(b, sizeof(b), 999000, "B"), "999 kB");
	FMT_IS(units_fmt_si(b, sizeof(b), 9999000, "B"), "10 MB");
	FMT_IS(units_fmt_si(b, sizeof(b), 99999000, "B"), "100 MB");
	FMT_IS(units_fmt_si(b, sizeof(b), 5000, "B"), "5.0 kB");
	FMT_IS(units_fmt_si(b, sizeof(b), 1000, "B"), "1.0 kB");
	FMT_IS(units_fmt_si(b, sizeof(b), 1024, "B"), "1.0 kB");
	FMT_IS(units_fmt_si(b, sizeof(b), 500000, "B"), "500 kB");
	FMT_IS(units_fmt_si(b, sizeof(b), 50000000, "B"), "50 MB");
	FMT_IS(units_fmt_si(b, sizeof(b), 999, "B"), "999 B");
	FMT_IS(units_fmt_si(b, sizeof(b), 999999, "B"), "1.0 MB");
	FMT_IS(units_fmt_si(b, sizeof(b), 1050, "B"), "1.0 kB");	/* tie to even */
	FMT_IS(units_fmt_si(b, sizeof(b), 1150, "B"), "1.2 kB");
	/* rates: dd's floating-point path */
	FMT_IS(units_fmt_si(b, sizeof(b), 894e6, "B/s"), "894 MB/s");
	FMT_IS(units_fmt_si(b, sizeof(b), 45.0e9, "B/s"), "45.0 GB/s");
	FMT_IS(units_fmt_si(b, sizeof(b), 3.9e6, "B/s"), "3.9 MB/s");
	FMT_IS(units_fmt_si(b, sizeof(b), 498e3, "B/s"), "498 kB/s");
	FMT_IS(units_fmt_si(b, sizeof(b), 1.0, "B/s"), "0.0 kB/s");
	/* binary sizes */
	FMT_IS(units_fmt_bytes(b, sizeof(b), 1073741824.0), "1.00 GiB");
	FMT_IS(units_fmt_bytes(b, sizeof(b), 524288), "512 KiB");
	FMT_IS(units_fmt_bytes(b, sizeof(b), 17), "17 B");
	FMT_IS(units_fmt_bytes(b, sizeof(b), 1536), "1.50 KiB");
	FMT_IS(units_fmt_bytes(b, sizeof(b), 0), "0 B");
	/* durations */
	FMT_IS(units_fmt_ns(b, sizeof(b), 812), "812 ns");
	FMT_IS(units_fmt_ns(b, sizeof(b), 12300), "12.3 us");
	FMT_IS(units_fmt_ns(b, sizeof(b), 4560000), "4.56 ms");
	FMT_IS(units_fmt_ns(b, sizeof(b), 1234000000), "1.234 s");
	FMT_IS(units_fmt_ns(b, sizeof(b), 999.7), "1.00 us");
}

/* dd's IEC figure in its closing line, as coreutils 9.1 printed it here. */
static void t_fmt_iec_dd(void)
{
	char b[32];

	CHECK(!strcmp(units_fmt_iec_dd(b, sizeof(b), 104857600), "100 MiB"));
	CHECK(!strcmp(units_fmt_iec_dd(b, sizeof(b), 1048576), "1.0 MiB"));
	CHECK(!strcmp(units_fmt_iec_dd(b, sizeof(b), 1126400), "1.1 MiB"));
	CHECK(!strcmp(units_fmt_iec_dd(b, sizeof(b), 1073741824), "1.0 GiB"));
	CHECK(!strcmp(units_fmt_iec_dd(b, sizeof(b), 6144), "6.0 KiB"));
	CHECK(!strcmp(units_fmt_iec_dd(b, sizeof(b), 1000), "1000 B"));
	CHECK(!strcmp(units_fmt_iec_dd(b, sizeof(b), 4096000000ull), "3.8 GiB"));
}

/* the checked arithmetic every size x count goes through */
static void t_checked(void)
{
	uint64_t v = 7;
	char b[64];

	CHECK(units_mul_u64(1ull << 32, 1ull << 31, &v) == 0 && v == 1ull << 63);
	CHECK(units_mul_u64(1ull << 32, 1ull << 32, &v) == -ERANGE && v == 1ull << 63);
	CHECK(units_mul_u64(0, UINT64_MAX, &v) == 0 && v == 0);
	CHECK(units_mul_off(1ull << 44, 1ull << 20, &v) == -ERANGE);
	CHECK(units_mul_off(1ull << 42, 1ull << 20, &v) == 0 && v == 1ull << 62);
	CHECK(units_mul_off(1ull << 43, 1ull << 20, &v) == -ERANGE);
	CHECK(units_add_u64(UINT64_MAX, 1, &v) == -ERANGE);
	CHECK(units_add_u64(UINT64_MAX - 1, 1, &v) == 0 && v == UINT64_MAX);
	CHECK(units_mul_sat(1ull << 40, 1ull << 40) == UINT64_MAX);
	CHECK(units_mul_sat(3, 5) == 15);
	/* huge and infinite doubles: no cast out of range (UBSan checks it) */
	CHECK(strstr(units_fmt_bytes(b, sizeof(b), 1e300), "EiB") != NULL);
	CHECK(strstr(units_fmt_bytes(b, sizeof(b), INFINITY), "EiB") != NULL);
	CHECK(!strcmp(units_fmt_bytes(b, sizeof(b), NAN), "0 B"));
}

int main(void)
{
	RUN(t_checked);
	RUN(t_fmt_iec_dd);
	RUN(t_dd_suffixes);
	RUN(t_dd_products);
	RUN(t_dd_errors);
	RUN(t_size);
	RUN(t_fmt);
	return test_done();
}
