/* clock.c - wall clock helpers (the monotonic clock is inline in clock.h). */
#include <stdio.h>
#include <time.h>

#include "core/clock.h"

double clock_wall_s(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
		return (double)time(NULL);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

char *clock_iso8601(char *buf, unsigned long len)
{
	time_t now = time(NULL);
	struct tm tm;

	if (len == 0)
		return buf;
	if (!gmtime_r(&now, &tm) ||
	    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		buf[0] = '\0';
	return buf;
}
