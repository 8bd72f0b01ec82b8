/* ceiling.c - the link to the target's disk from sysfs, and the memory copy rate. See
 * ceiling.h. */
#define _XOPEN_SOURCE 700	/* realpath */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "observe/ceiling.h"
#include "observe/memlimit.h"
#include "stats/result_ceiling.h"

double ceiling_pcie_bytes_s(const char *speed, const char *width)
{
	double gt, enc;
	char *end;
	long w;

	if (!speed || !width)
		return NAN;
	gt = strtod(speed, &end);
	if (end == speed || !(gt > 0 && gt < 1000) || strncmp(end, " GT/s", 5))
		return NAN;
	w = strtol(width, &end, 10);
	if (end == width || w < 1 || w > 64)
		return NAN;
	/* the line code: 8b/10b for PCIe 1 and 2 (2.5, 5 GT/s), 128b/130b for 3 to 5 (8,
	 * 16, 32 GT/s), FLIT mode's 242 of 256 bytes for 6 (64 GT/s) */
	enc = gt <= 5.0 ? 8.0 / 10.0 : gt <= 32.0 ? 128.0 / 130.0 : 242.0 / 256.0;
	return gt * 1e9 * (double)w * enc / 8.0;
}

double ceiling_sata_bytes_s(const char *spd)
{
	double g;
	char *end;

	if (!spd)
		return NAN;
	g = strtod(spd, &end);
	if (end == spd || !(g > 0 && g < 1000) || strncmp(end, " Gbps", 5))
		return NAN;
	return g * 1e9 * 8.0 / 10.0 / 8.0;	/* SATA's 8b/10b */
}

double ceiling_usb_bytes_s(const char *speed)
{
	double mb;
	char *end;

	if (!speed)
		return NAN;
	mb = strtod(speed, &end);
	if (end == speed || !(mb > 0 && mb < 1e7) || (*end && *end != '\n'))
		return NAN;
	/* USB 2 and below: the line rate; 5 Gb/s: 8b/10b; 10 and 20 Gb/s: 128b/132b */
	if (mb >= 10000)
		return mb * 1e6 * 128.0 / 132.0 / 8.0;
	if (mb >= 5000)
		return mb * 1e6 * 8.0 / 10.0 / 8.0;
	return mb * 1e6 / 8.0;
}

/* The first line of dir/name into buf, without its newline; 0 or -errno. */
static int read_line(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX];
	FILE *f;
	int ok;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -EIO;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int set_link(struct env_ceilings *c, const char *kind, const char *words, double bps,
		    const char *disk)
{
	free(c->link_kind);
	free(c->link);
	free(c->link_device);
	c->link_kind = strdup(kind);
	c->link = words ? strdup(words) : NULL;
	c->link_device = disk ? strdup(disk) : NULL;
	c->link_bytes_s = bps;
	return c->link_kind && (!words || c->link) && (!disk || c->link_device) ? 0 : -ENOMEM;
}

/* Walk up from dev (a resolved sysfs device path) to the sysfs root: the first directory
 * holding a PCIe link, a USB speed or an ATA port decides. */
static int walk(const char *root, char *dev, const char *disk, struct env_ceilings *c)
{
	char a[64], b[64], words[160], *slash;
	size_t rl = strlen(root);

	while (strlen(dev) > rl) {
		const char *base = strrchr(dev, '/') ? strrchr(dev, '/') + 1 : dev;
		unsigned n;

		if (!strncmp(base, "virtio", 6) && base[6] >= '0' && base[6] <= '9')
			return set_link(c, "virtio", "virtio: a virtual device, no link speed",
					NAN, disk);
		if (sscanf(base, "ata%u", &n) == 1) {
			char dir[PATH_MAX];

			snprintf(dir, sizeof(dir), "%s/class/ata_link/link%u", root, n);
			if (read_line(dir, "sata_spd", a, sizeof(a)) == 0) {
				snprintf(words, sizeof(words), "SATA %s", a);
				return set_link(c, "sata", words, ceiling_sata_bytes_s(a), disk);
			}
			return set_link(c, "sata", "SATA: link speed unknown", NAN, disk);
		}
		if (read_line(dev, "idVendor", a, sizeof(a)) == 0 &&
		    read_line(dev, "speed", b, sizeof(b)) == 0) {
			snprintf(words, sizeof(words), "USB %s Mb/s", b);
			return set_link(c, "usb", words, ceiling_usb_bytes_s(b), disk);
		}
		if (read_line(dev, "current_link_speed", a, sizeof(a)) == 0 &&
		    read_line(dev, "current_link_width", b, sizeof(b)) == 0) {
			double bps = ceiling_pcie_bytes_s(a, b);

			snprintf(words, sizeof(words), "PCIe %s x%s", a, b);
			return set_link(c, strncmp(disk, "nvme", 4) ? "pcie" : "nvme", words, bps,
					disk);
		}
		slash = strrchr(dev, '/');
		if (!slash)
			break;
		*slash = '\0';
	}
	return set_link(c, "unknown", "no link found in sysfs", NAN, disk);
}

int ceiling_link(const char *sysroot, const char *disk, struct env_ceilings *c)
{
	char path[PATH_MAX], real[PATH_MAX], rroot[PATH_MAX];
	const char *root = sysroot ? sysroot : getenv("IOBATTERY_SYSFS_ROOT");

	if (!root || !*root)
		root = "/sys";
	if (!disk || !*disk)
		return set_link(c, "none", "no block device", NAN, NULL);
	if (!realpath(root, rroot) ||
	    snprintf(path, sizeof(path), "%s/block/%s/device", rroot, disk) >=
	    (int)sizeof(path) || !realpath(path, real))
		return set_link(c, "unknown", "no device in sysfs", NAN, disk);
	return walk(rroot, real, disk, c);
}

double ceiling_memcpy_rate(uint64_t dur_ns)
{
	static double rate = -1;
	size_t n = 32u << 20;	/* each buffer: more than a CPU's last-level cache */
	uint64_t t0, t, copied = 0, cap;
	int limited = 0;
	char *a, *b;

	if (rate >= 0)
		return rate;
	/* under a cgroup memory limit (a container, a test's cgroup) the two buffers take
	 * at most an eighth of it: a smaller copy may stay in the CPU's cache and read
	 * faster, which only raises the ceiling */
	cap = memlimit_cache_bytes(&limited);
	if (limited && cap / 16 < n)
		n = cap / 16 > (1u << 20) ? (size_t)(cap / 16) : (1u << 20);
	a = malloc(n);
	b = malloc(n);
	if (!a || !b) {
		free(a);
		free(b);
		return NAN;
	}
	memset(a, 1, n);
	memset(b, 2, n);	/* both mapped before the clock */
	t0 = clock_ns();
	do {
		memcpy(copied / n % 2 ? a : b, copied / n % 2 ? b : a, n);
		copied += n;
		t = clock_ns();
	} while (t - t0 < dur_ns);
	/* keep the copies: a compiler may not drop what a volatile read depends on */
	rate = ((volatile char *)a)[n / 2] + ((volatile char *)b)[n / 3] >= 0 ?
	       (double)copied / ((double)(t - t0) / 1e9) : NAN;
	free(a);
	free(b);
	return rate;
}
