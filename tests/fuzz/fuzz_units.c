/* fuzz_units.c - dd's numbers and the size parser (core/units.c), and the formatters on
 * the values they give and on any double (the input's first 8 bytes). */
#include "fuzz.h"
#include "core/units.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size), buf[128];
	uint64_t v;
	double d = 0;

	if (units_parse_dd(s, &v) == 0) {
		units_fmt_si(buf, sizeof(buf), (double)v, "B");
		units_fmt_iec_dd(buf, sizeof(buf), v);
	}
	if (units_parse_size(s, 1, &v) == 0)
		units_fmt_bytes(buf, sizeof(buf), (double)v);
	if (units_parse_size(s, 1u << 20, &v) == 0)
		units_fmt_bytes(buf, sizeof(buf), (double)v);
	if (units_parse_u64(s, &v) == 0)
		units_fmt_ns(buf, sizeof(buf), (double)v);
	if (size >= sizeof(d)) {
		memcpy(&d, data, sizeof(d));
		units_fmt_si(buf, sizeof(buf), d, "B");
		units_fmt_si(buf, sizeof(buf), d, "B/s");
		units_fmt_bytes(buf, sizeof(buf), d);
		units_fmt_ns(buf, sizeof(buf), d);
	}
	free(s);
	return 0;
}
