/* cpu_bsd.c - the whole system's CPU ticks on FreeBSD (and the BSDs that share its
 * kern.cp_time sysctl and <sys/resource.h> CP_* indexes): user, nice, sys, intr and idle
 * statclock ticks summed over all CPUs; busy is all but idle (the BSDs count no iowait).
 * UNTESTED: compiled only where configure finds kern.cp_time (HAVE_KERN_CP_TIME), which no
 * Linux build does. See cpu.h. */
#include "config.h"

#ifdef HAVE_KERN_CP_TIME
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/resource.h>
#include <sys/sysctl.h>
#include <sys/time.h>

#include "observe/cpu.h"

int cpu_bsd_cp_time(uint64_t *busy, uint64_t *total)
{
	long v[CPUSTATES];
	size_t len = sizeof(v);
	uint64_t sum = 0;
	int i;

	if (sysctlbyname("kern.cp_time", v, &len, NULL, 0) < 0)
		return -errno;
	if (len != sizeof(v))
		return -EINVAL;
	for (i = 0; i < CPUSTATES; i++)
		sum += v[i] > 0 ? (uint64_t)v[i] : 0;
	*total = sum;
	*busy = sum - (v[CP_IDLE] > 0 ? (uint64_t)v[CP_IDLE] : 0);
	return 0;
}

long cpu_bsd_tick_hz(void)
{
	struct clockinfo ci;
	size_t len = sizeof(ci);

	if (sysctlbyname("kern.clockrate", &ci, &len, NULL, 0) < 0)
		return 128;	/* FreeBSD's usual stathz */
	return ci.stathz > 0 ? ci.stathz : ci.hz > 0 ? ci.hz : 128;
}
#endif /* HAVE_KERN_CP_TIME */
