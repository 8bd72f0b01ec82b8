/* t_sustained.c - the knee detector on crafted series (a clean step, noise, a gradual
 * slope, a short hold, an early transient, a fall that comes back), the cliff placed
 * inside the knee interval; the temperature sensor found in crafted sysfs trees (NVMe's
 * controller hwmon, drivetemp's SCSI device, a partition, none) and the throttling
 * verdict. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"
#include "observe/devtemp.h"
#include "stats/knee.h"

#define MB 1000000.0

/* n intervals of 1 s at rate[i] MB/s into t, b (n+1 points) */
static void series(const double *rate, size_t n, uint64_t *t, uint64_t *b)
{
	size_t i;

	t[0] = 1000;
	b[0] = 0;
	for (i = 1; i <= n; i++) {
		t[i] = t[i - 1] + 1000000000ull;
		b[i] = b[i - 1] + (uint64_t)(rate[i - 1] * MB);
	}
}

static void t_clean_step(void)
{
	/* 10 s at 500 MB/s, then 100 MB/s; the fall 40% into interval 11 */
	double r[20];
	uint64_t t[21], b[21];
	struct knee_rule rule = { 0.3, 5 };
	struct knee k;
	size_t i;

	for (i = 0; i < 20; i++)
		r[i] = i < 10 ? 500 : 100;
	r[10] = 0.4 * 500 + 0.6 * 100;
	series(r, 20, t, b);
	CHECK_EQ_U64(knee_find(t, b, 20, &rule, &k), 1);
	CHECK_EQ_U64(k.k, 11);
	CHECK_NEAR(k.burst_rate / MB, 500, 1e-6);
	CHECK_NEAR(k.sustained_rate / MB, 100, 1e-6);
	CHECK_NEAR(k.cliff_bytes / MB, 10 * 500 + 0.4 * 500, 1e-3);
	CHECK_NEAR(k.cliff_s, 10.4, 1e-6);
}

static void t_fast_knee_interval(void)
{
	/* the knee interval ran faster than the burst (600 MB/s where the burst is 500): the
	 * fall is at its end, after all of its bytes, not after burst x its time */
	double r[20];
	uint64_t t[21], b[21];
	struct knee_rule rule = { 0.3, 5 };
	struct knee k;
	size_t i;

	for (i = 0; i < 20; i++)
		r[i] = i < 10 ? 500 : 100;
	r[10] = 600;
	series(r, 20, t, b);
	CHECK_EQ_U64(knee_find(t, b, 20, &rule, &k), 1);
	CHECK_EQ_U64(k.k, 11);
	CHECK_NEAR(k.cliff_bytes / MB, 10 * 500 + 600, 1e-3);
	CHECK_NEAR(k.cliff_s, 11, 1e-6);
	/* one slower than the sustained rate: the fall is at its start */
	r[10] = 50;
	series(r, 20, t, b);
	CHECK_EQ_U64(knee_find(t, b, 20, &rule, &k), 1);
	CHECK_EQ_U64(k.k, 11);
	CHECK_NEAR(k.cliff_bytes / MB, 10 * 500, 1e-3);
	CHECK_NEAR(k.cliff_s, 10, 1e-6);
}

static void t_no_knee(void)
{
	double r[20];
	uint64_t t[21], b[21];
	struct knee_rule rule = { 0.3, 5 };
	struct knee k;
	size_t i;

	/* flat with 10% noise */
	for (i = 0; i < 20; i++)
		r[i] = 300 + (i % 2 ? 30 : -30);
	series(r, 20, t, b);
	CHECK_EQ_U64(knee_find(t, b, 20, &rule, &k), 0);
	CHECK(!k.found);
	CHECK_NEAR(k.burst_rate / MB, 300, 1);
	/* a fall of 20% only */
	for (i = 0; i < 20; i++)
		r[i] = i < 10 ? 300 : 240;
	series(r, 20, t, b);
	CHECK_EQ_U64(knee_find(t, b, 20, &rule, &k), 0);
	/* a fall that does not last the hold */
	for (i = 0; i < 20; i++)
		r[i] = i < 16 ? 300 : 50;
	series(r, 20, t, b);
	CHECK_EQ_U64(knee_find(t, b, 20, &rule, &k), 0);
	/* a fall that comes back: no step */
	for (i = 0; i < 20; i++)
		r[i] = i >= 6 && i < 12 ? 50 : 300;
	series(r, 20, t, b);
	CHECK_EQ_U64(knee_find(t, b, 20, &rule, &k), 0);
	/* a gentle slope (400 to 305 MB/s): no side falls 30% below the other */
	for (i = 0; i < 20; i++)
		r[i] = 400 - 5 * (double)i;
	series(r, 20, t, b);
	CHECK_EQ_U64(knee_find(t, b, 20, &rule, &k), 0);
}

static void t_noise_and_transient(void)
{
	/* a fast first interval (start-up), noisy burst and sustained parts */
	static const double r[] = { 700, 480, 520, 470, 530, 500, 490, 510, 150, 90, 110,
				    95, 105, 100, 90, 110 };
	uint64_t t[17], b[17];
	struct knee_rule rule = { 0.3, 5 };
	struct knee k;

	series(r, 16, t, b);
	CHECK_EQ_U64(knee_find(t, b, 16, &rule, &k), 1);
	CHECK_EQ_U64(k.k, 9);
	CHECK(k.burst_rate / MB > 450 && k.burst_rate / MB < 560);
	CHECK(k.sustained_rate / MB > 90 && k.sustained_rate / MB < 110);
	/* the cliff: 8 intervals' bytes plus part of the ninth */
	CHECK(k.cliff_bytes > (double)b[8] && k.cliff_bytes < (double)b[9]);
}

static void t_bad_input(void)
{
	uint64_t t[3] = { 0, 2, 1 }, b[3] = { 0, 1, 2 };
	struct knee_rule rule = { 0.3, 5 }, bad = { 1.5, 5 }, zero = { 0.3, 0 };
	struct knee k;

	CHECK_EQ_U64(knee_find(t, b, 2, &rule, &k), (uint64_t)-EINVAL);
	t[2] = 3;
	CHECK_EQ_U64(knee_find(t, b, 2, &bad, &k), (uint64_t)-EINVAL);
	CHECK_EQ_U64(knee_find(t, b, 2, &zero, &k), (uint64_t)-EINVAL);
	CHECK_EQ_U64(knee_find(t, b, 0, &rule, &k), 0);
	CHECK_EQ_U64(knee_find(t, b, 2, &rule, &k), 0);
}

/* ---- crafted sysfs trees ---- */

static char root[PATH_MAX];

static void mk(const char *rel)
{
	char p[PATH_MAX * 2], *s;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	for (s = p + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	mkdir(p, 0755);
}

static void put(const char *rel, const char *text)
{
	char p[PATH_MAX * 2];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		CHECK(fclose(f) == 0);
	}
}

static void link_to(const char *target, const char *rel)
{
	char p[PATH_MAX * 2];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	CHECK(symlink(target, p) == 0);
}

static void build_tree(void)
{
	/* NVMe: the namespace's device is the controller, and so is the hwmon's */
	mk("sys/devices/pci0/nvme/nvme0/nvme0n1/nvme0n1p1");
	put("sys/devices/pci0/nvme/nvme0/nvme0n1/nvme0n1p1/partition", "1\n");
	link_to("../../nvme0", "sys/devices/pci0/nvme/nvme0/nvme0n1/device");
	mk("sys/devices/pci0/nvme/nvme0/hwmon/hwmon2");
	link_to("../../../nvme0", "sys/devices/pci0/nvme/nvme0/hwmon/hwmon2/device");
	put("sys/devices/pci0/nvme/nvme0/hwmon/hwmon2/name", "nvme\n");
	put("sys/devices/pci0/nvme/nvme0/hwmon/hwmon2/temp1_input", "41850\n");
	put("sys/devices/pci0/nvme/nvme0/hwmon/hwmon2/temp1_max", "81850\n");
	put("sys/devices/pci0/nvme/nvme0/hwmon/hwmon2/temp1_crit", "84850\n");
	/* SATA with drivetemp: both name the SCSI device */
	mk("sys/devices/ata1/host0/target0/0:0:0:0/block/sda");
	link_to("../../../0:0:0:0", "sys/devices/ata1/host0/target0/0:0:0:0/block/sda/device");
	mk("sys/devices/ata1/host0/target0/0:0:0:0/hwmon/hwmon5");
	link_to("../../../0:0:0:0", "sys/devices/ata1/host0/target0/0:0:0:0/hwmon/hwmon5/device");
	put("sys/devices/ata1/host0/target0/0:0:0:0/hwmon/hwmon5/name", "drivetemp\n");
	put("sys/devices/ata1/host0/target0/0:0:0:0/hwmon/hwmon5/temp1_input", "35000\n");
	/* a disk without a sensor (a virtual disk) */
	mk("sys/devices/virtio1/block/vda");
	link_to("../../../virtio1", "sys/devices/virtio1/block/vda/device");
	/* an unrelated hwmon (the CPU's) */
	mk("sys/devices/platform/coretemp.0/hwmon/hwmon0");
	link_to("../../../coretemp.0", "sys/devices/platform/coretemp.0/hwmon/hwmon0/device");
	put("sys/devices/platform/coretemp.0/hwmon/hwmon0/temp1_input", "60000\n");
	mk("sys/class/block");
	mk("sys/class/hwmon");
	link_to("../../devices/pci0/nvme/nvme0/nvme0n1", "sys/class/block/nvme0n1");
	link_to("../../devices/pci0/nvme/nvme0/nvme0n1/nvme0n1p1", "sys/class/block/nvme0n1p1");
	link_to("../../devices/ata1/host0/target0/0:0:0:0/block/sda", "sys/class/block/sda");
	link_to("../../devices/virtio1/block/vda", "sys/class/block/vda");
	link_to("../../devices/pci0/nvme/nvme0/hwmon/hwmon2", "sys/class/hwmon/hwmon2");
	link_to("../../devices/ata1/host0/target0/0:0:0:0/hwmon/hwmon5", "sys/class/hwmon/hwmon5");
	link_to("../../devices/platform/coretemp.0/hwmon/hwmon0", "sys/class/hwmon/hwmon0");
}

static void t_devtemp_find(void)
{
	struct devtemp d;
	double c = 0;

	CHECK_EQ_U64(devtemp_find("nvme0n1", &d), 0);
	CHECK(!strcmp(d.driver, "nvme"));
	CHECK_EQ_U64(devtemp_read(&d, &c), 0);
	CHECK_NEAR(c, 41.85, 1e-9);
	CHECK_NEAR(d.warn_c, 81.85, 1e-9);
	CHECK_NEAR(d.crit_c, 84.85, 1e-9);
	CHECK_EQ_U64(devtemp_find("nvme0n1p1", &d), 0);	/* a partition: its disk */
	CHECK(!strcmp(d.driver, "nvme"));
	CHECK_EQ_U64(devtemp_find("sda", &d), 0);
	CHECK(!strcmp(d.driver, "drivetemp"));
	CHECK(isnan(d.warn_c) && isnan(d.crit_c));
	CHECK_EQ_U64(devtemp_read(&d, &c), 0);
	CHECK_NEAR(c, 35, 1e-9);
	CHECK_EQ_U64(devtemp_find("vda", &d), (uint64_t)-ENOENT);
	CHECK_EQ_U64(devtemp_find("loop0", &d), (uint64_t)-ENOENT);
	CHECK_EQ_U64(devtemp_find("../sda", &d), (uint64_t)-ENOENT);
	CHECK_EQ_U64(devtemp_find("", &d), (uint64_t)-ENOENT);
	/* a sensor that goes away */
	CHECK_EQ_U64(devtemp_find("nvme0n1", &d), 0);
	put("sys/devices/pci0/nvme/nvme0/hwmon/hwmon2/temp1_input", "garbage\n");
	CHECK(devtemp_read(&d, &c) < 0);
}

static void t_throttled(void)
{
	uint64_t t[6] = { 0, 1, 2, 3, 4, 5 };
	double rise[6] = { 60, 70, 80, 83, 84, 84 };	/* passes 82 at t=3 */
	double hot[6] = { 85, 85, 86, 86, 86, 86 };
	double cool[6] = { 40, 41, 42, 42, 43, 43 };
	double none[6] = { NAN, NAN, NAN, NAN, NAN, NAN };

	CHECK_EQ_U64(devtemp_throttled(rise, t, 6, 3, 1, 82), 1);
	CHECK_EQ_U64(devtemp_throttled(rise, t, 6, 1, 1, 82), 0);	/* fell before */
	CHECK_EQ_U64(devtemp_throttled(hot, t, 6, 3, 1, 82), 0);	/* hot from the start */
	CHECK_EQ_U64(devtemp_throttled(cool, t, 6, 3, 1, 82), 0);
	CHECK_EQ_U64(devtemp_throttled(cool, t, 6, 3, 1, NAN), (uint64_t)-1);
	CHECK_EQ_U64(devtemp_throttled(none, t, 6, 3, 1, 82), (uint64_t)-1);
}

int main(void)
{
	const char *tmp = getenv("TESTS_TMP");
	char cmd[PATH_MAX + 16];
	int rc;

	RUN(t_clean_step);
	RUN(t_fast_knee_interval);
	RUN(t_no_knee);
	RUN(t_noise_and_transient);
	RUN(t_bad_input);
	snprintf(root, sizeof(root), "%s/iob-sysfs.XXXXXX", tmp ? tmp : "/tmp");
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 1;
	}
	setenv("IOB_SYSFS_ROOT", root, 1);
	build_tree();
	RUN(t_devtemp_find);
	RUN(t_throttled);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	rc = system(cmd);
	CHECK(rc == 0);
	return test_done();
}
