/* devsafe.c - the checks before a block device is written (devsafe.h). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>
#endif

#include "fs/devsafe.h"

static int has(const unsigned char *buf, size_t len, size_t off, const char *magic, size_t n)
{
	return off + n <= len && !memcmp(buf + off, magic, n);
}

const char *devsafe_signature(const unsigned char *buf, size_t len)
{
	size_t s;

	/* ext2/3/4: the superblock at 1024 holds 0xEF53 (little endian) at byte 56 */
	if (len >= 1082 && buf[1080] == 0x53 && buf[1081] == 0xEF)
		return "ext2/3/4";
	if (has(buf, len, 0, "XFSB", 4))
		return "xfs";
	if (has(buf, len, 65536 + 64, "_BHRfS_M", 8))
		return "btrfs";
	/* swap: the signature ends the first page, whatever its size */
	for (s = 4096; s <= len && s <= 65536; s *= 2)
		if (has(buf, len, s - 10, "SWAPSPACE2", 10) ||
		    has(buf, len, s - 10, "SWAP-SPACE", 10))
			return "swap";
	/* LVM2: a label "LABELONE" in one of the first four sectors */
	for (s = 0; s < 4; s++)
		if (has(buf, len, s * 512, "LABELONE", 8))
			return "LVM2 physical volume";
	if (has(buf, len, 0, "LUKS\xba\xbe", 6))
		return "LUKS";
	if (has(buf, len, 512, "EFI PART", 8))
		return "GPT partition table";
	if (has(buf, len, 0, "hsqs", 4))
		return "squashfs";
	if (has(buf, len, 32769, "CD001", 5))
		return "ISO 9660";
	if (len >= 512 && buf[510] == 0x55 && buf[511] == 0xAA)
		return "MBR partition table or boot sector";
	return NULL;
}

#ifdef __linux__
/* 1 when the device major:minor is mounted (/proc/self/mountinfo's third field). */
static int dev_mounted(unsigned maj, unsigned min)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[4096];
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned a, b;

		if (sscanf(line, "%*s %*s %u:%u", &a, &b) == 2 && a == maj && b == min)
			found = 1;
	}
	fclose(f);
	return found;
}

/* Entries of /sys/dev/block/M:m/SUB that are not "." or "..": partitions hold a
 * "partition" file; holders are dm or md devices built on it. */
static int sys_count(unsigned maj, unsigned min, const char *sub, int partitions)
{
	char path[256];
	struct dirent *e;
	DIR *d;
	int n = 0;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u%s%s", maj, min, *sub ? "/" : "", sub);
	d = opendir(path);
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char p[800];
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		if (partitions) {
			snprintf(p, sizeof(p), "%s/%s/partition", path, e->d_name);
			if (stat(p, &st) == 0)
				n++;
		} else {
			n++;
		}
	}
	closedir(d);
	return n;
}
#endif

static int dev_size(int fd, uint64_t *size)
{
#if defined(__linux__) && defined(BLKGETSIZE64)
	uint64_t n = 0;

	if (ioctl(fd, BLKGETSIZE64, &n) == 0) {
		*size = n;
		return 0;
	}
#endif
	off_t end = lseek(fd, 0, SEEK_END);

	if (end < 0)
		return -errno;
	*size = (uint64_t)end;
	return 0;
}

/* The signature check on an open device. 0 or -EINVAL with why. */
static int dev_signature(int fd, char *why, size_t wl)
{
	unsigned char *buf = calloc(1, DEVSAFE_PROBE_BYTES);
	size_t got = 0;
	const char *sig;
	int rc = 0;

	if (!buf)
		return -ENOMEM;
	while (got < DEVSAFE_PROBE_BYTES) {
		ssize_t k = pread(fd, buf + got, DEVSAFE_PROBE_BYTES - got, (off_t)got);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			rc = -errno;
			snprintf(why, wl, "cannot read its first blocks: %s", strerror(errno));
			break;
		}
		if (k == 0)
			break;
		got += (size_t)k;
	}
	if (!rc && (sig = devsafe_signature(buf, got))) {
		snprintf(why, wl, "it holds a %s signature: wipe it first (wipefs) if its data "
			 "may go", sig);
		rc = -EINVAL;
	}
	free(buf);
	return rc;
}

int devsafe_check(const char *path, const char *named, uint64_t *size, char *why, size_t wl)
{
	struct stat a, b;
	uint64_t sz = 0;
	int fd, rc;

	if (stat(path, &a) < 0) {
		rc = -errno;
		snprintf(why, wl, "%s", strerror(-rc));
		return rc;
	}
	if (!S_ISBLK(a.st_mode)) {
		snprintf(why, wl, "not a block device");
		return -EINVAL;
	}
	if (!named || stat(named, &b) < 0 || !S_ISBLK(b.st_mode) || a.st_rdev != b.st_rdev) {
		snprintf(why, wl, "a block device: iobattery writes a device only when "
			 "--destroy-data-on names it");
		return -EINVAL;
	}
#ifdef __linux__
	if (dev_mounted(major(a.st_rdev), minor(a.st_rdev))) {
		snprintf(why, wl, "it is mounted");
		return -EBUSY;
	}
	if (sys_count(major(a.st_rdev), minor(a.st_rdev), "", 1)) {
		snprintf(why, wl, "it holds partitions");
		return -EINVAL;
	}
	if (sys_count(major(a.st_rdev), minor(a.st_rdev), "holders", 0)) {
		snprintf(why, wl, "it is in use by another device (device mapper, md)");
		return -EBUSY;
	}
#endif
	/* O_EXCL on a block device: EBUSY when mounted or claimed by someone else */
	fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		if (rc == -EBUSY)
			snprintf(why, wl, "it is in use (an exclusive open failed)");
		else
			snprintf(why, wl, "cannot open it: %s", strerror(-rc));
		return rc;
	}
	rc = dev_signature(fd, why, wl);
	if (!rc && (rc = dev_size(fd, &sz)) < 0)
		snprintf(why, wl, "cannot tell its size: %s", strerror(-rc));
	close(fd);
	if (!rc && size)
		*size = sz;
	return rc;
}
