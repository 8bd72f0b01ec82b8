/* t_wcache.c - write-cache honesty on crafted sysfs trees: the facts of the device that
 * holds the data (write cache, FUA, rotation, the speed from --rpm, the VPD page or the
 * model), and the flush_implausible verdict on given median latencies. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "observe/diskstats.h"
#include "observe/wcache.h"
#include "test.h"

static char fake[1024];

#ifdef HAVE_DISKSTATS
/* Write len bytes of data to fake/rel, making the folders. */
static void put_bytes(const char *rel, const void *data, size_t len)
{
	char p[4096];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", fake, rel);
	for (char *s = strchr(p + strlen(fake) + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	f = fopen(p, "w");
	CHECK(f != NULL);
	if (f) {
		CHECK(fwrite(data, 1, len, f) == len);
		CHECK(fclose(f) == 0);
	}
}

static void put(const char *rel, const char *text)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "%s\n", text);
	put_bytes(rel, buf, strlen(buf));
}

static void link_to(const char *rel, const char *target)
{
	char p[4096];

	snprintf(p, sizeof(p), "%s/%s", fake, rel);
	for (char *s = strchr(p + strlen(fake) + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	CHECK(symlink(target, p) == 0);
}

/* A whole disk NAME at MAJ:MIN with its queue facts (NULL: the file is absent). */
static void disk(const char *name, const char *devno, const char *rot, const char *wc,
		 const char *fua, const char *model)
{
	char rel[256], tgt[256];

	snprintf(rel, sizeof(rel), "devices/pci0/block/%s/dev", name);
	put(rel, devno);
	if (rot) {
		snprintf(rel, sizeof(rel), "devices/pci0/block/%s/queue/rotational", name);
		put(rel, rot);
	}
	if (wc) {
		snprintf(rel, sizeof(rel), "devices/pci0/block/%s/queue/write_cache", name);
		put(rel, wc);
	}
	if (fua) {
		snprintf(rel, sizeof(rel), "devices/pci0/block/%s/queue/fua", name);
		put(rel, fua);
	}
	if (model) {
		snprintf(rel, sizeof(rel), "devices/pci0/block/%s/device/model", name);
		put(rel, model);
	}
	snprintf(rel, sizeof(rel), "dev/block/%s", devno);
	snprintf(tgt, sizeof(tgt), "../../devices/pci0/block/%s", name);
	link_to(rel, tgt);
}

/* A VPD page B1 stating rpm for disk name. */
static void vpd(const char *name, unsigned rpm)
{
	unsigned char p[64] = { 0, 0xb1, 0, 0x3c };
	char rel[256];

	p[4] = (unsigned char)(rpm >> 8);
	p[5] = (unsigned char)rpm;
	snprintf(rel, sizeof(rel), "devices/pci0/block/%s/device/vpd_pgb1", name);
	put_bytes(rel, p, sizeof(p));
}

/* The facts of the device maj:min of the fake tree. */
static int facts_of(unsigned maj, unsigned min, unsigned rpm, struct wcache_facts *f)
{
	struct diskstats_set set;
	int n;

	diskstats_init(&set);
	n = diskstats_add_dev(fake, maj, min, &set);
	CHECK(n >= 1);
	n = wcache_facts(fake, &set, rpm, f);
	CHECK(diskstats_close(&set) == 0);
	return n;
}

static void build(void)
{
	disk("sda", "8:0", "1", "write back", "0", "ST4000DM004-2CV1");
	vpd("sda", 7200);
	disk("sdb", "8:16", "1", "write through", "1", "WDC WD10EZEX 5400 RPM");
	disk("sdc", "8:32", "1", "write back", "0", "Generic Disk");
	disk("nvme0n1", "259:0", "0", "write back", "1", "Some NVMe SSD");
	disk("sdd", "8:48", "0", "write through", "0", "PLP SSD");
	disk("sde", "8:64", "1", "write back", "0", "Odd Disk");
	vpd("sde", 1);			/* says it does not rotate, whatever the flag says */
	disk("sdf", "8:80", NULL, NULL, NULL, NULL);
	/* a dm device over a partition of sdg: the facts are sdg's */
	disk("sdg", "8:96", "1", "write through", "1", "Barracuda 7200.12");
	put("devices/pci0/block/sdg/sdg1/dev", "8:97");
	put("devices/pci0/block/sdg/sdg1/partition", "1");
	link_to("dev/block/8:97", "../../devices/pci0/block/sdg/sdg1");
	put("devices/virtual/block/dm-7/dev", "253:7");
	put("devices/virtual/block/dm-7/queue/write_cache", "write back");
	link_to("devices/virtual/block/dm-7/slaves/sdg1", "../../../../pci0/block/sdg/sdg1");
	link_to("dev/block/253:7", "../../devices/virtual/block/dm-7");
}

static void t_facts(void)
{
	struct wcache_facts f;

	CHECK(facts_of(8, 0, 0, &f) == 0);
	CHECK(!strcmp(f.name, "sda") && f.write_cache == 1 && f.fua == 0 && f.rotational == 1);
	CHECK(f.rpm == 7200 && !strcmp(f.rpm_source, "vpd"));
	CHECK(strstr(f.model, "ST4000DM004") != NULL);

	facts_of(8, 16, 0, &f);
	CHECK(f.write_cache == 0 && f.fua == 1 && f.rpm == 5400 && !strcmp(f.rpm_source, "model"));

	facts_of(8, 32, 0, &f);
	CHECK(f.rpm == 7200 && !strcmp(f.rpm_source, "assumed"));

	facts_of(8, 32, 15000, &f);
	CHECK(f.rpm == 15000 && !strcmp(f.rpm_source, "--rpm"));

	facts_of(259, 0, 0, &f);
	CHECK(f.rotational == 0 && f.write_cache == 1 && f.rpm == 0 && f.rpm_source == NULL);

	facts_of(8, 64, 0, &f);
	CHECK(f.rotational == 0 && f.rpm == 0);

	facts_of(8, 80, 0, &f);
	CHECK(f.write_cache == -1 && f.fua == -1 && f.rotational == -1 && f.rpm == 0);

	/* dm-7 -> sdg1 -> sdg: the leaf is the disk */
	CHECK(facts_of(253, 7, 0, &f) == 2);
	CHECK(!strcmp(f.name, "sdg") && f.write_cache == 0 && f.fua == 1 && f.rotational == 1);
	CHECK(f.rpm == 7200 && !strcmp(f.rpm_source, "model"));
}

#endif

/* Facts as wcache_facts would give them. */
static void facts(struct wcache_facts *f, int rot, int wc, unsigned rpm, const char *src)
{
	memset(f, 0, sizeof(*f));
	f->rotational = rot;
	f->write_cache = wc;
	f->fua = -1;
	f->rpm = rpm;
	f->rpm_source = src;
}

static void t_verdict(void)
{
	struct wcache_facts f;
	struct wcache_verdict v;

	facts(&f, 1, 1, 7200, "vpd");		/* 7200 rpm: 4.17 ms */
	wcache_verdict(&f, 346000, &v);
	CHECK(v.implausible && v.floor_ns == 4166666);
	CHECK(strstr(v.floor_why, "7200 rpm (vpd)") != NULL);
	wcache_verdict(&f, 8400000, &v);
	CHECK(!v.implausible);

	facts(&f, 1, 0, 5400, "model");		/* 5400 rpm: 5.56 ms */
	wcache_verdict(&f, 5000000, &v);
	CHECK(v.implausible && v.floor_ns == 5555555);

	facts(&f, 1, 1, 15000, "--rpm");	/* 2 ms */
	wcache_verdict(&f, 2500000, &v);
	CHECK(!v.implausible && v.floor_ns == 2000000);
	wcache_verdict(&f, 1900000, &v);
	CHECK(v.implausible);

	facts(&f, 1, 1, 0, NULL);		/* rotating, speed unknown: 7200 assumed */
	wcache_verdict(&f, 4000000, &v);
	CHECK(v.implausible && strstr(v.floor_why, "assumed") != NULL);

	facts(&f, 0, 1, 0, NULL);		/* write back, no rotation: no floor */
	wcache_verdict(&f, 1000, &v);
	CHECK(!v.implausible && v.floor_ns == 0);

	facts(&f, 0, 0, 0, NULL);		/* write through, no rotation: 10 us */
	wcache_verdict(&f, 5000, &v);
	CHECK(v.implausible && v.floor_ns == WCACHE_MEDIA_FLOOR_NS);
	wcache_verdict(&f, 50000, &v);
	CHECK(!v.implausible);

	facts(&f, -1, -1, 0, NULL);		/* nothing known: no floor */
	wcache_verdict(&f, 1000, &v);
	CHECK(!v.implausible && v.floor_ns == 0);

	facts(&f, 1, 1, 7200, "vpd");		/* no sample: never implausible */
	wcache_verdict(&f, 0, &v);
	CHECK(!v.implausible);
}

static void t_memory_fs(void)
{
	struct diskstats_set set;
	struct wcache_facts f;
	struct wcache_verdict v;

	diskstats_init(&set);
	snprintf(set.fstype, sizeof(set.fstype), "tmpfs");
	snprintf(set.reason, sizeof(set.reason), "no block device: a tmpfs file system");
	CHECK(wcache_facts(fake, &set, 0, &f) == -1);
	CHECK(f.name[0] == 0 && f.memory_fs && strstr(f.reason, "tmpfs"));
	wcache_verdict(&f, 100000000, &v);
	CHECK(v.implausible && v.floor_ns == 0 && strstr(v.floor_why, "memory file system"));
	snprintf(set.fstype, sizeof(set.fstype), "nfs");
	CHECK(wcache_facts(fake, &set, 0, &f) == -1);
	wcache_verdict(&f, 1000, &v);
	CHECK(!f.memory_fs && !v.implausible);
}

static void t_parsers(void)
{
	unsigned char p[6] = { 0, 0xb1, 0, 2, 0x1c, 0x20 };

	CHECK(wcache_rpm_from_model("ST3500418AS 7200RPM") == 7200);
	CHECK(wcache_rpm_from_model("Seagate Barracuda 7200.12") == 7200);
	CHECK(wcache_rpm_from_model("WD Blue 5400 rpm") == 5400);
	CHECK(wcache_rpm_from_model("Cheetah 15K.7") == 15000);
	CHECK(wcache_rpm_from_model("Savvio 10K") == 10000);
	CHECK(wcache_rpm_from_model("ST4000DM004-2CV1") == 0);
	CHECK(wcache_rpm_from_model("HUS7200X") == 0);	/* a digit run inside a word */
	CHECK(wcache_rpm_from_model("Disk 10KB") == 0);
	CHECK(wcache_rpm_from_model("") == 0);
	CHECK(wcache_rpm_from_vpd(p, 6) == 7200);
	CHECK(wcache_rpm_from_vpd(p, 5) == 0);
	p[1] = 0xb0;
	CHECK(wcache_rpm_from_vpd(p, 6) == 0);
	p[1] = 0xb1;
	p[4] = 0;
	p[5] = 1;
	CHECK(wcache_rpm_from_vpd(p, 6) == 1);
	p[5] = 0x20;			/* 32: a value the page reserves */
	CHECK(wcache_rpm_from_vpd(p, 6) == 0);
	CHECK(!strcmp(wcache_mode_name(1), "write back"));
	CHECK(!strcmp(wcache_mode_name(0), "write through"));
	CHECK(!strcmp(wcache_mode_name(-1), "unknown"));
}

int main(void)
{
	const char *tmp = getenv("TESTS_TMP") ? getenv("TESTS_TMP") : "/tmp";
	char cmd[1200];

	snprintf(fake, sizeof(fake), "%.900s/iob-t_wcache.XXXXXX", tmp);
	if (!mkdtemp(fake)) {
		perror("mkdtemp");
		return 1;
	}
	RUN(t_parsers);
	RUN(t_verdict);
#ifdef HAVE_DISKSTATS
	build();
	RUN(t_facts);
#endif
	RUN(t_memory_fs);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fake);
	CHECK(system(cmd) == 0);
	return test_done();
}
