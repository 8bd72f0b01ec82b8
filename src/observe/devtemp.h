/* devtemp.h - a block device's temperature, where the kernel exposes it: the hwmon device
 * whose parent is the disk's (NVMe's own hwmon, drivetemp for SATA and SAS), its
 * temp1_input (the NVMe composite temperature) and its warning (temp1_max) and critical
 * (temp1_crit) thresholds, all in millidegrees Celsius. The sysfs root is /sys, or
 * $IOB_SYSFS_ROOT/sys for the unit test's crafted trees (nothing else sets it).
 * Thread-safe: no shared state; devtemp_read may run on any thread. */
#ifndef IOB_OBSERVE_DEVTEMP_H
#define IOB_OBSERVE_DEVTEMP_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

struct devtemp {
	char input[PATH_MAX];		/* .../hwmonN/temp1_input */
	char driver[32];		/* hwmon's name: "nvme", "drivetemp" ... */
	double warn_c;			/* temp1_max; NAN when not given */
	double crit_c;			/* temp1_crit; NAN when not given */
};

/* Find the temperature sensor of block device dev ("nvme0n1", "sda", "sda1": a
 * partition means its disk). 0 and *out, -ENOENT when the kernel exposes none for it,
 * -ENAMETOOLONG. */
int devtemp_find(const char *dev, struct devtemp *out);
/* The temperature now, in degrees Celsius. 0 or -errno (the sensor went away). */
int devtemp_read(const struct devtemp *t, double *celsius);

/* Throttling, as docs/methodology.md ("Sustained writes") defines it: the rate fell (a
 * knee at cliff_ns) while the temperature rose past the warning threshold: it began
 * below warn_c and a sample at or before cliff_ns + slack_ns reached it. temp_c[i] is
 * the temperature at t_ns[i] (NAN: not read). 1 throttled, 0 not, -1 cannot tell (no
 * samples, no threshold). Pure. */
int devtemp_throttled(const double *temp_c, const uint64_t *t_ns, size_t n, uint64_t cliff_ns,
		      uint64_t slack_ns, double warn_c);

#endif
