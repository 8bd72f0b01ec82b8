/* clock.h - monotonic and wall clocks in nanoseconds. Thread-safe. */
#ifndef IOB_CORE_CLOCK_H
#define IOB_CORE_CLOCK_H

#include <stdint.h>
#include <time.h>

/* Monotonic time in ns (CLOCK_MONOTONIC); cheap (vDSO), good to about a microsecond
 * or better. Use differences only. */
static inline uint64_t clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Wall-clock time as seconds since the epoch with ns fraction. */
double clock_wall_s(void);

/* Format the current UTC time as ISO 8601 ("2026-11-30T12:00:00Z") into buf (>= 21 bytes).
 * Returns buf. */
char *clock_iso8601(char *buf, unsigned long len);

#endif
