/* t_ceiling.c - the pure parts of the ceilings and of the block-layer latency: link rates
 * from sysfs strings, the link found in crafted sysfs trees (NVMe under a PCIe device,
 * SATA through an ata port, USB, virtio, a device without a known bus), the rules that
 * pick the ceiling and set over_ceiling and tool_bound, the devices the block-layer
 * program counts for a stack, and its figures' JSON round trip and merge. */
#define _XOPEN_SOURCE 700	/* mkdtemp, symlink */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "observe/ceiling.h"
#include "observe/devlat.h"
#include "stats/hist.h"
#include "stats/result.h"
#include "stats/result_ceiling.h"
#include "stats/result_devlat.h"
#include "test.h"

static void t_rates(void)
{
	/* PCIe 3.0 x4: 8 GT/s x 4 x 128/130 / 8 = 3.938 GB/s */
	CHECK_NEAR(ceiling_pcie_bytes_s("8.0 GT/s PCIe", "4"), 8e9 * 4 * 128 / 130 / 8, 1);
	CHECK_NEAR(ceiling_pcie_bytes_s("2.5 GT/s", "1"), 2.5e9 * 0.8 / 8, 1);
	CHECK_NEAR(ceiling_pcie_bytes_s("16.0 GT/s PCIe", "16"), 16e9 * 16 * 128 / 130 / 8, 1);
	CHECK(isnan(ceiling_pcie_bytes_s("Unknown", "4")));
	CHECK(isnan(ceiling_pcie_bytes_s("8.0 GT/s", "0")));
	CHECK_NEAR(ceiling_sata_bytes_s("6.0 Gbps"), 600e6, 1);
	CHECK_NEAR(ceiling_sata_bytes_s("1.5 Gbps"), 150e6, 1);
	CHECK(isnan(ceiling_sata_bytes_s("<unknown>")));
	CHECK_NEAR(ceiling_usb_bytes_s("480"), 60e6, 1);
	CHECK_NEAR(ceiling_usb_bytes_s("5000"), 500e6, 1);
	CHECK_NEAR(ceiling_usb_bytes_s("10000"), 10e9 * 128 / 132 / 8, 1);
	CHECK(isnan(ceiling_usb_bytes_s("fast")));
}

static char root[64];

static void mk(const char *rel)
{
	char p[512], *s;

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
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void link_to(const char *rel, const char *target)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	CHECK(symlink(target, p) == 0);
}

static void check_link(const char *disk, const char *kind, double bps)
{
	struct env_ceilings c;

	memset(&c, 0, sizeof(c));
	CHECK(ceiling_link(root, disk, &c) == 0);
	CHECK(c.link_kind && !strcmp(c.link_kind, kind));
	if (c.link_kind && strcmp(c.link_kind, kind))
		fprintf(stderr, "%s: kind %s (%s), expected %s\n", disk, c.link_kind,
			c.link ? c.link : "", kind);
	if (isnan(bps))
		CHECK(isnan(c.link_bytes_s));
	else
		CHECK_NEAR(c.link_bytes_s, bps, 1);
	free(c.link_kind);
	free(c.link);
	free(c.link_device);
}

static void t_sysfs(void)
{
	const char *pci = "devices/pci0000:00/0000:00:1d.0";

	snprintf(root, sizeof(root), "%s/t_ceiling.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") :
		 "/tmp");
	CHECK(mkdtemp(root) != NULL);
	mk("block");
	mk("class/ata_link/link3");
	/* NVMe: block/nvme0n1/device -> the controller under its PCIe function */
	mk("devices/pci0000:00/0000:00:1d.0/nvme/nvme0");
	put("devices/pci0000:00/0000:00:1d.0/current_link_speed", "8.0 GT/s PCIe\n");
	put("devices/pci0000:00/0000:00:1d.0/current_link_width", "4\n");
	mk("block/nvme0n1");
	link_to("block/nvme0n1/device", "../../devices/pci0000:00/0000:00:1d.0/nvme/nvme0");
	/* SATA: sda under ata3 */
	mk("devices/pci0000:00/0000:00:17.0/ata3/host2/target2:0:0/2:0:0:0");
	put("class/ata_link/link3/sata_spd", "6.0 Gbps\n");
	mk("block/sda");
	link_to("block/sda/device",
		"../../devices/pci0000:00/0000:00:17.0/ata3/host2/target2:0:0/2:0:0:0");
	/* USB: sdb under a USB device with a speed */
	mk("devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/host5/target5:0:0/5:0:0:0");
	put("devices/pci0000:00/0000:00:14.0/usb2/2-1/idVendor", "0781\n");
	put("devices/pci0000:00/0000:00:14.0/usb2/2-1/speed", "5000\n");
	mk("block/sdb");
	link_to("block/sdb/device", "../../devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/"
		"host5/target5:0:0/5:0:0:0");
	/* virtio: vda under virtio1 under a PCI function that has no link files */
	mk("devices/pci0000:00/0000:00:02.0/virtio1");
	mk("block/vda");
	link_to("block/vda/device", "../../devices/pci0000:00/0000:00:02.0/virtio1");
	/* something else: a platform device */
	mk("devices/platform/mmc0/mmc0:0001");
	mk("block/mmcblk0");
	link_to("block/mmcblk0/device", "../../devices/platform/mmc0/mmc0:0001");

	check_link("nvme0n1", "nvme", 8e9 * 4 * 128 / 130 / 8);
	check_link("sda", "sata", 600e6);
	check_link("sdb", "usb", 500e6);
	check_link("vda", "virtio", NAN);
	check_link("mmcblk0", "unknown", NAN);
	check_link("nosuch", "unknown", NAN);
	check_link(NULL, "none", NAN);
	(void)pci;
	/* the environment variable names the root when none is given */
	setenv("IOBATTERY_SYSFS_ROOT", root, 1);
	{
		struct env_ceilings c;

		memset(&c, 0, sizeof(c));
		CHECK(ceiling_link(NULL, "sda", &c) == 0 && !strcmp(c.link_kind, "sata"));
		free(c.link_kind);
		free(c.link);
		free(c.link_device);
	}
	unsetenv("IOBATTERY_SYSFS_ROOT");
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		CHECK(system(cmd) == 0);
	}
}

/* A row of ops over 1 s moving bytes, with CPU time cpu_s. */
static struct row *row_of(struct run *r, uint64_t ops, uint64_t bytes, double cpu_s)
{
	struct row *w = run_add_row(r, "job", "read");

	if (!w)
		return NULL;
	w->ops = ops;
	w->bytes = bytes;
	w->elapsed_ns = 1000000000ull;
	w->cpu.valid = 1;
	w->cpu.user_s = cpu_s;
	w->cpu.cpu_ns_per_op = cpu_s * 1e9 / (double)ops;
	return w;
}

static void t_rules(void)
{
	struct run *r = run_new("job");
	struct env_ceilings c = { NULL, NULL, NULL, 10e9, 40e9 };
	struct row *w;

	CHECK(r != NULL);
	if (!r)
		return;
	/* 91% of the tool's rate: tool_bound; 89%: not (CPU far above the tool's) */
	w = row_of(r, 910000, 910000 * 4096ull, 1.0);
	CHECK(w && row_ceiling_apply(w, &c, 1e6, 50, 4096, "x") == ROW_TOOL_BOUND);
	CHECK(w && w->ceiling && w->ceiling->applies == CEIL_TOOL);	/* 4.1 GB/s lowest */
	w = row_of(r, 890000, 890000 * 512ull, 1.0);
	CHECK(w && row_ceiling_apply(w, &c, 1e6, 50, 512, "x") == 0);
	/* by CPU per request: 55 ns against the tool's 50 is within 1/0.9 */
	w = row_of(r, 100000, 100000 * 512ull, 100000 * 55e-9);
	CHECK(w && row_ceiling_apply(w, &c, 1e6, 50, 512, "x") == ROW_TOOL_BOUND);
	w = row_of(r, 100000, 100000 * 512ull, 100000 * 57e-9);
	CHECK(w && row_ceiling_apply(w, &c, 1e6, 50, 512, "x") == 0);
	/* above the link: over_ceiling; the tool's bytes (512 x 1e6) lowest: tool applies */
	w = row_of(r, 1000, 12000000000ull, 1.0);
	CHECK(w && row_ceiling_apply(w, &c, 1e6, 50, 512, "x") == ROW_OVER_CEILING);
	CHECK(w && w->ceiling && w->ceiling->applies == CEIL_TOOL);
	w = row_of(r, 1000, 12000000000ull, 1.0);
	CHECK(w && row_ceiling_apply(w, &c, NAN, NAN, 0, NULL) == ROW_OVER_CEILING);
	CHECK(w && w->ceiling && w->ceiling->applies == CEIL_LINK);
	/* the page cache answered (cache_inflated): the link does not apply, memory does */
	w = row_of(r, 1000, 12000000000ull, 1.0);
	if (w)
		w->flags |= ROW_CACHE_INFLATED;
	CHECK(w && row_ceiling_apply(w, &c, NAN, NAN, 0, NULL) == 0);
	CHECK(w && w->ceiling && w->ceiling->applies == CEIL_MEMORY &&
	      isnan(w->ceiling->link_bytes_s));
	w = row_of(r, 1000, 50000000000ull, 1.0);
	if (w)
		w->flags |= ROW_CACHE_INFLATED;
	CHECK(w && row_ceiling_apply(w, &c, NAN, NAN, 0, NULL) == ROW_OVER_CEILING);
	/* no time: nothing */
	w = row_of(r, 1000, 1000, 1.0);
	if (w)
		w->elapsed_ns = 0;
	CHECK(w && row_ceiling_apply(w, &c, 1e6, 50, 512, "x") == 0 && !w->ceiling);
	run_free(r);
}

static void t_pick(void)
{
	struct diskstats_set s;
	unsigned idx[DEVLAT_PICK_MAX];

	memset(&s, 0, sizeof(s));
	/* sda1 (partition) on sda: sda only */
	s.ndev = 2;
	s.dev[0] = (struct diskstats_dev){ 8, 1, "sda1", "", DISKSTATS_TOP, -1, 0, 1, { 0 } };
	s.dev[1] = (struct diskstats_dev){ 8, 0, "sda", "", DISKSTATS_DISK, 0, 1, 0, { 0 } };
	CHECK(devlat_pick(&s, idx, DEVLAT_PICK_MAX) == 1 && idx[0] == 1);
	/* dm-0 over nvme0n1p2 and nvme1n1: the members' disks, not dm-0 */
	s.ndev = 4;
	s.dev[0] = (struct diskstats_dev){ 253, 0, "dm-0", "", DISKSTATS_TOP, -1, 0, 0, { 0 } };
	s.dev[1] = (struct diskstats_dev){ 259, 2, "nvme0n1p2", "", DISKSTATS_MEMBER, 0, 1, 1,
					   { 0 } };
	s.dev[2] = (struct diskstats_dev){ 259, 0, "nvme0n1", "", DISKSTATS_DISK, 1, 2, 0, { 0 } };
	s.dev[3] = (struct diskstats_dev){ 259, 5, "nvme1n1", "", DISKSTATS_MEMBER, 0, 1, 0,
					   { 0 } };
	CHECK(devlat_pick(&s, idx, DEVLAT_PICK_MAX) == 2 && idx[0] == 2 && idx[1] == 3);
	/* loop0 over a file on vda: loop0 alone */
	s.ndev = 2;
	s.dev[0] = (struct diskstats_dev){ 7, 0, "loop0", "", DISKSTATS_TOP, -1, 0, 0, { 0 } };
	s.dev[1] = (struct diskstats_dev){ 254, 0, "vda", "", DISKSTATS_BACKING, 0, 1, 0, { 0 } };
	CHECK(devlat_pick(&s, idx, DEVLAT_PICK_MAX) == 1 && idx[0] == 0);
}

static void t_devlat_json(void)
{
	struct row_devlat *d = row_devlat_new(), *back = NULL;
	struct rdl_part dev, queue;
	struct hist *h = malloc(sizeof(*h)), *q = malloc(sizeof(*q));
	char err[160] = "";
	json_t *o, *o2;
	char *s1, *s2;

	CHECK(d && h && q);
	if (!d || !h || !q)
		return;
	hist_init(h);
	hist_init(q);
	for (unsigned i = 1; i <= 100; i++) {
		hist_add(h, i * 1000);	/* 1..100 us */
		hist_add(q, 0);
	}
	rdl_part_set(&d->op[RDL_WRITE].dev, h, 0, 100000);
	rdl_part_set(&d->op[RDL_WRITE].queue, q, 0, 0);
	d->requests = 101;
	d->unstamped = 1;
	d->devices = strdup("vda");
	CHECK_EQ_U64(d->op[RDL_WRITE].dev.n, 100);
	CHECK_NEAR(d->op[RDL_WRITE].dev.mean_ns, 50500, 1);
	CHECK_EQ_U64(d->op[RDL_WRITE].dev.max_ns, 100000);
	CHECK(d->op[RDL_WRITE].dev.p50_ns >= 49000 && d->op[RDL_WRITE].dev.p50_ns <= 51000);
	rdl_total(d, &dev, &queue);
	CHECK_EQ_U64(dev.n, 100);
	CHECK_EQ_U64(queue.max_ns, 0);
	o = rdl_to_json(d);
	CHECK(o && rdl_from_json(o, 0, &back, err, sizeof(err)) == 0 && back);
	o2 = back ? rdl_to_json(back) : NULL;
	s1 = o ? json_dumps(o, JSON_SORT_KEYS) : NULL;
	s2 = o2 ? json_dumps(o2, JSON_SORT_KEYS) : NULL;
	CHECK(s1 && s2 && !strcmp(s1, s2));	/* a loaded object dumps the same */
	{	/* without histograms: the same figures, no histogram kept */
		struct row_devlat *nh = NULL;

		CHECK(rdl_from_json(o, 1, &nh, err, sizeof(err)) == 0 && nh);
		CHECK(nh && !nh->op[RDL_WRITE].dev.hist && back && back->op[RDL_WRITE].dev.hist);
		CHECK(nh && nh->op[RDL_WRITE].dev.p50_ns == d->op[RDL_WRITE].dev.p50_ns &&
		      nh->op[RDL_WRITE].dev.n == 100);
		row_devlat_free(nh);
	}
	/* a bad histogram is refused, naming the member */
	json_object_set_new(json_object_get(json_object_get(json_object_get(o, "ops"), "write"),
					    "device"), "histogram", json_string("x"));
	row_devlat_free(back);
	back = NULL;
	/* not an array: no buckets */
	CHECK(rdl_from_json(o, 0, &back, err, sizeof(err)) == 0);
	row_devlat_free(back);
	back = NULL;
	/* a bad pair is refused with histograms or without (then checked, not kept) */
	json_object_set_new(json_object_get(json_object_get(json_object_get(o, "ops"), "write"),
					    "device"), "histogram", json_pack("[[ii]]", -1, 1));
	CHECK(rdl_from_json(o, 0, &back, err, sizeof(err)) < 0 && strstr(err, "histogram"));
	CHECK(rdl_from_json(o, 1, &back, err, sizeof(err)) < 0 && strstr(err, "histogram"));
	free(s1);
	free(s2);
	json_decref(o);
	json_decref(o2);
	row_devlat_free(back);
	row_devlat_free(d);
}

int main(void)
{
	RUN(t_rates);
	RUN(t_sysfs);
	RUN(t_rules);
	RUN(t_pick);
	RUN(t_devlat_json);
	return test_done();
}
