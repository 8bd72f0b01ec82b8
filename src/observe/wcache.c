/* wcache.c - write-cache facts from sysfs and the too-fast-to-be-durable verdict. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "observe/wcache.h"

/* Up to len - 1 bytes of path (raw); the count or -errno. */
static ssize_t read_small(const char *path, unsigned char *buf, size_t len)
{
	ssize_t n, got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	while ((size_t)got < len - 1) {
		n = read(fd, buf + got, len - 1 - (size_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += n;
	}
	if (close(fd) != 0)
		return -errno;
	buf[got] = 0;
	return got;
}

/* The first line of a sysfs text file, trimmed; "" when absent. */
static void read_line(const char *path, char *out, size_t len)
{
	unsigned char buf[256];
	ssize_t n = read_small(path, buf, sizeof(buf));
	size_t k;

	out[0] = 0;
	if (n <= 0)
		return;
	k = strcspn((char *)buf, "\n");
	while (k && isspace(buf[k - 1]))
		k--;
	snprintf(out, len, "%.*s", (int)k, (char *)buf);
}

unsigned wcache_rpm_from_vpd(const unsigned char *page, unsigned len)
{
	unsigned r;

	if (len < 6 || page[1] != 0xb1)
		return 0;
	r = (unsigned)page[4] << 8 | page[5];
	return r == 1 || (r >= 0x401 && r <= 0xfffe) ? r : 0;
}

/* A speed a disk is sold at, or 0. */
static unsigned known_rpm(unsigned long v)
{
	static const unsigned speeds[] = { 3600, 4200, 4500, 5400, 5900, 5940, 7200, 10000,
					   10025, 10500, 15000 };
	size_t i;

	for (i = 0; i < sizeof(speeds) / sizeof(speeds[0]); i++)
		if (v == speeds[i])
			return speeds[i];
	return 0;
}

unsigned wcache_rpm_from_model(const char *model)
{
	const char *p = model;
	unsigned long v;
	char *end;

	while (p && *p) {
		if (!isdigit((unsigned char)*p) || (p > model && isalnum((unsigned char)p[-1]))) {
			p++;
			continue;
		}
		v = strtoul(p, &end, 10);
		/* "10K", "15k" (but not "10KB") */
		if ((v == 10 || v == 15) && (*end == 'K' || *end == 'k') &&
		    !isalnum((unsigned char)end[1]))
			return (unsigned)v * 1000;
		/* a whole number, alone or before "RPM" or a ".version" (Barracuda 7200.12) */
		if (known_rpm(v) && (!isalnum((unsigned char)*end) ||
				     !strncmp(end, "RPM", 3) || !strncmp(end, "rpm", 3)))
			return known_rpm(v);
		p = end;
	}
	return 0;
}

/* Is device i of set below none other: no device names it as its parent? */
static int is_leaf(const struct diskstats_set *set, unsigned i)
{
	unsigned k;

	for (k = 0; k < set->ndev; k++)
		if (set->dev[k].parent == (int)i)
			return 0;
	return 1;
}

int wcache_facts(const char *sysroot, const struct diskstats_set *set, unsigned rpm_given,
		 struct wcache_facts *f)
{
	char path[512], vendor[64] = "", model[96] = "";
	unsigned char vpd[64];
	const struct diskstats_dev *d = NULL;
	unsigned i;
	ssize_t n;

	memset(f, 0, sizeof(*f));
	f->write_cache = f->fua = f->rotational = -1;
	f->memory_fs = !strcmp(set->fstype, "tmpfs") || !strcmp(set->fstype, "ramfs");
	for (i = 0; i < set->ndev && !d; i++)
		if (is_leaf(set, i))
			d = &set->dev[i];
	if (!d) {
		snprintf(f->reason, sizeof(f->reason), "%s",
			 set->reason[0] ? set->reason : "no block device under the file");
		return -1;
	}
	sysroot = sysroot ? sysroot : "/sys";
	snprintf(f->name, sizeof(f->name), "%s", d->name);
	f->write_cache = d->queue.write_cache;
	f->fua = d->queue.fua;
	f->rotational = d->queue.rotational;
	snprintf(path, sizeof(path), "%s/dev/block/%u:%u/device/vendor", sysroot, d->major,
		 d->minor);
	read_line(path, vendor, sizeof(vendor));
	snprintf(path, sizeof(path), "%s/dev/block/%u:%u/device/model", sysroot, d->major,
		 d->minor);
	read_line(path, model, sizeof(model));
	snprintf(f->model, sizeof(f->model), "%s%s%s", vendor, vendor[0] && model[0] ? " " : "",
		 model);
	if (rpm_given) {
		f->rpm = rpm_given;
		f->rpm_source = "--rpm";
		return (int)(d - set->dev);
	}
	snprintf(path, sizeof(path), "%s/dev/block/%u:%u/device/vpd_pgb1", sysroot, d->major,
		 d->minor);
	n = read_small(path, vpd, sizeof(vpd));
	if (n > 0 && (f->rpm = wcache_rpm_from_vpd(vpd, (unsigned)n)) > 1) {
		f->rpm_source = "vpd";
	} else if (f->rpm == 1) {
		f->rpm = 0;	/* the device says it does not rotate, whatever the flag says */
		f->rotational = 0;
	} else if ((f->rpm = wcache_rpm_from_model(f->model)) != 0) {
		f->rpm_source = "model";
	}
	if (!f->rpm && f->rotational == 1) {
		f->rpm = WCACHE_DEFAULT_RPM;
		f->rpm_source = "assumed";
	}
	return (int)(d - set->dev);
}

void wcache_verdict(const struct wcache_facts *f, uint64_t p50_ns, struct wcache_verdict *v)
{
	memset(v, 0, sizeof(*v));
	if (f->memory_fs) {
		snprintf(v->floor_why, sizeof(v->floor_why),
			 "nothing: a memory file system keeps no data across a power cut");
		v->implausible = 1;
		return;
	}
	if (f->rotational == 1 || (f->rotational != 0 && f->rpm > 1)) {
		unsigned rpm = f->rpm > 1 ? f->rpm : WCACHE_DEFAULT_RPM;

		/* half a revolution: 60 / rpm / 2 seconds */
		v->floor_ns = 30000000000ull / rpm;
		snprintf(v->floor_why, sizeof(v->floor_why), "half a revolution at %u rpm (%s)",
			 rpm, f->rpm > 1 && f->rpm_source ? f->rpm_source : "assumed");
	} else if (f->rotational == 0 && f->write_cache == 0) {
		v->floor_ns = WCACHE_MEDIA_FLOOR_NS;
		snprintf(v->floor_why, sizeof(v->floor_why),
			 "a media write (write through, no rotation)");
	}
	v->implausible = v->floor_ns && p50_ns && p50_ns < v->floor_ns;
}

const char *wcache_mode_name(int write_cache)
{
	return write_cache == 1 ? "write back" : write_cache == 0 ? "write through" : "unknown";
}
