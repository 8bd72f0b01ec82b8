/* fuzz_ceiling.c - the link parsers of the ceilings (observe/ceiling.c) on any text:
 * the input split at its first newline into a speed and a width; every result is NaN or
 * a positive finite rate. */
#include <math.h>

#include "fuzz.h"
#include "observe/ceiling.h"

static void check(double v)
{
	if (!isnan(v) && !(v > 0 && isfinite(v)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size), *w = strchr(s, '\n');

	if (w)
		*w++ = '\0';
	check(ceiling_pcie_bytes_s(s, w ? w : "4"));
	check(ceiling_sata_bytes_s(s));
	check(ceiling_usb_bytes_s(s));
	free(s);
	return 0;
}
