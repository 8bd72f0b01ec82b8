/* flags.c - the row flags' names and meanings, once (flags.h). */
#include <string.h>

#include "stats/flags.h"
#include "stats/result.h"

const struct flag_info flag_table[] = {
	{ ROW_FAILED, "failed", "the phase failed; its error says why", 1 },
	{ ROW_NOT_MEASURED, "not_measured", "no figure: the step was skipped or left out "
	  "(its note says why), or an imported tool printed none (Bonnie++'s +++++)", 1 },
	{ ROW_INCOMPLETE, "incomplete", "interrupted: the figure covers part of the work", 1 },
	{ ROW_CACHE_INFLATED, "cache_inflated", "read largely from the page cache: the speed "
	  "of RAM, not of the device", 1 },
	{ ROW_DEVICE_IDLE, "device_idle", "a disk rate while the device moved under 10% of the "
	  "bytes: the page cache answered", 1 },
	{ ROW_WRITEBACK_PENDING, "writeback_pending", "a buffered write ended with over 10% of "
	  "its bytes still dirty in the page cache: partly the cache's rate", 1 },
	{ ROW_FLUSH_IMPLAUSIBLE, "flush_implausible", "a durable sync finished faster than the "
	  "device can make data durable: a volatile cache (or a layer above it) acknowledged "
	  "it", 1 },
	{ ROW_TOO_FAST, "too_fast", "finished faster than memory can copy (reflink or copy "
	  "offload): not a disk rate", 1 },
	{ ROW_SHORT, "short", "ran under 0.5 s: timer resolution and start-up may show", 1 },
	{ ROW_INCONSISTENT, "inconsistent", "the repeats' coefficient of variation is over "
	  "10%: read the figure with its interval", 0 },
	{ ROW_STEAL, "steal", "the hypervisor took over 5% of the CPU time: the figure depends "
	  "on the host", 0 },
	{ ROW_IMPORTED, "imported", "read from an old tool's output, not measured here", 0 },
	{ 0, NULL, NULL, 0 },
};

const struct flag_info *flag_info_of(unsigned bit)
{
	for (unsigned i = 0; flag_table[i].name; i++)
		if (flag_table[i].bit == bit)
			return &flag_table[i];
	return NULL;
}

unsigned flag_of_name(const char *name)
{
	for (unsigned i = 0; name && flag_table[i].name; i++)
		if (!strcmp(flag_table[i].name, name))
			return flag_table[i].bit;
	return 0;
}

unsigned flag_untrusted_mask(void)
{
	unsigned m = 0;

	for (unsigned i = 0; flag_table[i].name; i++)
		if (flag_table[i].untrusted)
			m |= flag_table[i].bit;
	return m;
}

unsigned flag_count(void)
{
	unsigned i;

	for (i = 0; flag_table[i].name; i++)
		;
	return i;
}
