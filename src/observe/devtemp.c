/* devtemp.c - the device temperature from hwmon (devtemp.h). The disk and the hwmon
 * device are matched by their sysfs parents: /sys/class/block/DISK/device and
 * /sys/class/hwmon/hwmonN/device resolve to the same device (drivetemp: the SCSI
 * device; NVMe: the controller), or the hwmon's to the disk device's parent. */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/rfile.h"
#include "observe/devtemp.h"

static const char *sysfs_root(void)
{
	const char *r = getenv("IOB_SYSFS_ROOT");

	return r ? r : "";
}

/* The first line of a small sysfs file into buf. 0 or -errno. */
static int read_line(const char *path, char *buf, size_t len)
{
	char *text;
	size_t n;
	int rc = rfile_read(path, 0, 4096, &text, &n);

	if (rc < 0)
		return rc;
	snprintf(buf, len, "%s", text);
	free(text);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* millidegrees in a file as degrees, NAN when absent or not a number */
static double read_milli(const char *path)
{
	char buf[64], *end;
	long long v;

	if (read_line(path, buf, sizeof(buf)) < 0)
		return NAN;
	errno = 0;
	v = strtoll(buf, &end, 10);
	if (errno || end == buf || v < -273150 || v > 1000000)
		return NAN;
	return (double)v / 1000.0;
}

/* The disk behind dev: dev itself, or the disk of a partition. */
static int disk_of(const char *dev, char *disk, size_t len)
{
	char p[PATH_MAX], real[PATH_MAX], *slash;

	if (snprintf(p, sizeof(p), "%s/sys/class/block/%s/partition", sysfs_root(), dev) >=
	    (int)sizeof(p))
		return -ENAMETOOLONG;
	snprintf(disk, len, "%s", dev);
	if (access(p, F_OK) < 0)
		return 0;
	snprintf(p, sizeof(p), "%s/sys/class/block/%s", sysfs_root(), dev);
	if (!realpath(p, real))
		return -errno;
	slash = strrchr(real, '/');
	if (!slash)
		return -ENOENT;
	*slash = '\0';
	slash = strrchr(real, '/');
	return snprintf(disk, len, "%s", slash ? slash + 1 : real) >= (int)len ? -ENAMETOOLONG :
									       0;
}

static int parent_is(const char *child, const char *parent)
{
	size_t n = strlen(parent);

	return !strncmp(child, parent, n) && child[n] == '/' && !strchr(child + n + 1, '/');
}

/* hwmon directory h (under the class directory) into out when it belongs to real_dev. */
static int try_hwmon(const char *cls, const char *h, const char *real_dev, struct devtemp *out)
{
	char p[PATH_MAX], real[PATH_MAX];

	if (snprintf(p, sizeof(p), "%s/%s/device", cls, h) >= (int)sizeof(p) || !realpath(p, real))
		return 0;
	if (strcmp(real, real_dev) && !parent_is(real_dev, real))
		return 0;
	if (snprintf(out->input, sizeof(out->input), "%s/%s/temp1_input", cls, h) >=
	    (int)sizeof(out->input) || access(out->input, R_OK) < 0)
		return 0;
	/* p held a longer path than these just now: they fit */
	if (snprintf(p, sizeof(p), "%s/%s/name", cls, h) < (int)sizeof(p) &&
	    read_line(p, out->driver, sizeof(out->driver)) < 0)
		snprintf(out->driver, sizeof(out->driver), "hwmon");
	out->warn_c = out->crit_c = NAN;
	if (snprintf(p, sizeof(p), "%s/%s/temp1_max", cls, h) < (int)sizeof(p))
		out->warn_c = read_milli(p);
	if (snprintf(p, sizeof(p), "%s/%s/temp1_crit", cls, h) < (int)sizeof(p))
		out->crit_c = read_milli(p);
	return 1;
}

int devtemp_find(const char *dev, struct devtemp *out)
{
	char disk[NAME_MAX + 1], p[PATH_MAX], cls[PATH_MAX], real_dev[PATH_MAX];
	struct dirent *d;
	DIR *dir;
	int rc, found = 0;

	if (!dev || !*dev || strchr(dev, '/'))
		return -ENOENT;
	rc = disk_of(dev, disk, sizeof(disk));
	if (rc < 0)
		return rc;
	if (snprintf(p, sizeof(p), "%s/sys/class/block/%s/device", sysfs_root(), disk) >=
	    (int)sizeof(p))
		return -ENAMETOOLONG;
	if (!realpath(p, real_dev))
		return -ENOENT;
	snprintf(cls, sizeof(cls), "%s/sys/class/hwmon", sysfs_root());
	dir = opendir(cls);
	if (!dir)
		return -ENOENT;
	while (!found && (d = readdir(dir)))
		if (!strncmp(d->d_name, "hwmon", 5))
			found = try_hwmon(cls, d->d_name, real_dev, out);
	closedir(dir);
	return found ? 0 : -ENOENT;
}

int devtemp_read(const struct devtemp *t, double *celsius)
{
	double v = read_milli(t->input);

	if (isnan(v))
		return -EIO;
	*celsius = v;
	return 0;
}

int devtemp_throttled(const double *temp_c, const uint64_t *t_ns, size_t n, uint64_t cliff_ns,
		      uint64_t slack_ns, double warn_c)
{
	size_t i, first = n;

	if (isnan(warn_c))
		return -1;
	for (i = 0; i < n; i++)
		if (!isnan(temp_c[i])) {
			first = i;
			break;
		}
	if (first == n)
		return -1;
	if (temp_c[first] >= warn_c)
		return 0;	/* hot from the start: no rise past it to blame */
	for (i = first; i < n && t_ns[i] <= cliff_ns + slack_ns; i++)
		if (!isnan(temp_c[i]) && temp_c[i] >= warn_c)
			return 1;
	return 0;
}
