/* diskstats_bsd.c - device statistics on FreeBSD from devstat(3): the device a path lives
 * on (statfs's f_mntfromname, "/dev/ada0p2") and its whole disk ("ada0"), their counters
 * from devstat_getdevs mapped onto /proc/diskstats' fields (operations, bytes as 512-byte
 * sectors, busy and per-direction durations in ms; discards are BIO_DELETE, flushes
 * BIO_FLUSH), so that diskstats_compute gives the same iostat -x figures.
 * UNTESTED: compiled only where configure finds <devstat.h> and -ldevstat (HAVE_DEVSTAT)
 * and the Linux reader is absent; no Linux build compiles it. devstat keeps statistics of
 * disks, not of partitions: a partition's own counters stay absent (nfields 0). A ZFS
 * dataset names no device: -ENODEV. See diskstats.h. */
#include "config.h"

#if defined(HAVE_DEVSTAT) && !defined(HAVE_DISKSTATS)
#include <ctype.h>
#include <devstat.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/param.h>
#include <sys/mount.h>
#include <sys/types.h>

#include "core/clock.h"
#include "observe/diskstats.h"

/* A bintime in milliseconds. */
static uint64_t bt_ms(const struct bintime *bt)
{
	return (uint64_t)bt->sec * 1000u + (((uint64_t)(bt->frac >> 32) * 1000u) >> 32);
}

/* "ada0p2" -> "ada0", "da1s1a" -> "da1", "ada0" -> "ada0": the disk under a GPT, MBR or
 * BSD-label partition name. 1 when name was a partition. */
static int whole_disk(const char *name, char *disk, size_t len)
{
	size_t n = strlen(name), i = 0;

	while (i < n && !isdigit((unsigned char)name[i]))
		i++;
	while (i < n && isdigit((unsigned char)name[i]))
		i++;
	snprintf(disk, len, "%.*s", (int)i, name);
	return i < n;
}

static void add(struct diskstats_set *set, const char *name, enum diskstats_role role,
		int partition)
{
	struct diskstats_dev *d;

	if (set->ndev >= DISKSTATS_MAX_DEVS) {
		set->left_out++;
		return;
	}
	d = &set->dev[set->ndev];
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->role = role;
	d->parent = set->ndev ? 0 : -1;
	d->depth = set->ndev ? 1 : 0;
	d->partition = partition;
	d->queue.write_cache = d->queue.fua = d->queue.rotational = -1;
	set->ndev++;
}

int diskstats_find_at(const char *sysroot, const char *mountinfo, const char *path,
		      struct diskstats_set *set)
{
	struct statfs sf;
	char disk[DISKSTATS_NAME_LEN];
	const char *dev;
	int part;

	(void)sysroot;
	(void)mountinfo;
	diskstats_init(set);
	if (statfs(path, &sf) < 0) {
		snprintf(set->reason, sizeof(set->reason), "statfs failed: %s", strerror(errno));
		return -errno;
	}
	snprintf(set->fstype, sizeof(set->fstype), "%s", sf.f_fstypename);
	if (strncmp(sf.f_mntfromname, "/dev/", 5)) {
		snprintf(set->reason, sizeof(set->reason), "%s on '%.120s' has no block device "
			 "devstat follows", sf.f_fstypename, sf.f_mntfromname);
		return -ENODEV;
	}
	dev = sf.f_mntfromname + 5;
	part = whole_disk(dev, disk, sizeof(disk));
	add(set, dev, DISKSTATS_TOP, part);
	if (part)
		add(set, disk, DISKSTATS_DISK, 0);
	return (int)set->ndev;
}

int diskstats_find(const char *path, struct diskstats_set *set)
{
	return diskstats_find_at(NULL, NULL, path, set);
}

int diskstats_add_dev(const char *sysroot, unsigned major, unsigned minor,
		      struct diskstats_set *set)
{
	(void)sysroot;
	(void)major;
	(void)minor;
	(void)set;
	return -ENOSYS;		/* devstat names devices, it has no major:minor */
}

static void fill(const struct devstat *d, struct diskstats_counters *c)
{
	memset(c, 0, sizeof(*c));
	c->rd_ios = d->operations[DEVSTAT_READ];
	c->rd_sectors = d->bytes[DEVSTAT_READ] / DISKSTATS_SECTOR;
	c->rd_ticks = bt_ms(&d->duration[DEVSTAT_READ]);
	c->wr_ios = d->operations[DEVSTAT_WRITE];
	c->wr_sectors = d->bytes[DEVSTAT_WRITE] / DISKSTATS_SECTOR;
	c->wr_ticks = bt_ms(&d->duration[DEVSTAT_WRITE]);
	c->dc_ios = d->operations[DEVSTAT_FREE];
	c->dc_sectors = d->bytes[DEVSTAT_FREE] / DISKSTATS_SECTOR;
	c->dc_ticks = bt_ms(&d->duration[DEVSTAT_FREE]);
	c->fl_ios = d->operations[DEVSTAT_NO_DATA];
	c->fl_ticks = bt_ms(&d->duration[DEVSTAT_NO_DATA]);
	c->in_flight = d->start_count > d->end_count ? d->start_count - d->end_count : 0;
	c->io_ticks = bt_ms(&d->busy_time);
	c->nfields = 17;	/* discard and flush counters are there */
}

/* One devstat snapshot: the devices and their counters. Caller frees di->mem_ptr. */
static int snapshot(struct statinfo *si, struct devinfo *di)
{
	memset(si, 0, sizeof(*si));
	memset(di, 0, sizeof(*di));
	si->dinfo = di;
	if (devstat_checkversion(NULL) < 0 || devstat_getdevs(NULL, si) < 0)
		return -EIO;
	return 0;
}

static const struct devstat *lookup(const struct devinfo *di, const char *name)
{
	char n[DISKSTATS_NAME_LEN];
	int i;

	for (i = 0; i < di->numdevs; i++) {
		snprintf(n, sizeof(n), "%s%d", di->devices[i].device_name,
			 di->devices[i].unit_number);
		if (!strcmp(n, name))
			return &di->devices[i];
	}
	return NULL;
}

int diskstats_read(struct diskstats_set *set, struct diskstats_snap *snap)
{
	struct statinfo si;
	struct devinfo di;
	const struct devstat *d;
	unsigned i, found = 0;

	snap->ndev = 0;
	if (!set->ndev)
		return -ENODEV;
	snap->t_ns = clock_ns();
	if (snapshot(&si, &di) < 0) {
		free(di.mem_ptr);
		return -EIO;
	}
	snap->ndev = set->ndev;
	for (i = 0; i < set->ndev; i++) {
		d = lookup(&di, set->dev[i].name);
		if (d) {
			fill(d, &snap->c[i]);
			found++;
		} else {
			memset(&snap->c[i], 0, sizeof(snap->c[i]));
		}
	}
	free(di.mem_ptr);
	return (int)found;
}

int diskstats_read_name(const char *name, struct diskstats_counters *out)
{
	struct statinfo si;
	struct devinfo di;
	const struct devstat *d;
	int rc = -ENOENT;

	memset(out, 0, sizeof(*out));
	if (snapshot(&si, &di) < 0) {
		free(di.mem_ptr);
		return -EIO;
	}
	d = lookup(&di, name);
	if (d) {
		fill(d, out);
		rc = 0;
	}
	free(di.mem_ptr);
	return rc;
}
#endif /* HAVE_DEVSTAT && !HAVE_DISKSTATS */
