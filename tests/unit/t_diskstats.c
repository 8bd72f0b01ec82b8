/* t_diskstats.c - the iostat -dx figures on fixed before/after snapshots against numbers
 * computed by hand (every formula, zero-request intervals, counters that go back or wrap,
 * kernels without discard and flush fields), /proc/diskstats lines, the device walk on a
 * fake sysfs tree (partition -> disk, dm and md members, a loop device's backing file,
 * a cycle, queue facts) and, where the system has them, real readings. */
#define _XOPEN_SOURCE 700	/* mkdtemp, symlink */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "test.h"
#include "observe/diskstats.h"

#ifdef HAVE_DISKSTATS
#include <sys/sysmacros.h>
#endif

#define NS 1000000000ull

/* The before snapshot of the worked example (docs/methodology.md uses the same numbers). */
static struct diskstats_counters ex_a(void)
{
	struct diskstats_counters a = {
		.rd_ios = 100, .rd_merges = 10, .rd_sectors = 8000, .rd_ticks = 500,
		.wr_ios = 200, .wr_merges = 50, .wr_sectors = 16000, .wr_ticks = 1000,
		.in_flight = 0, .io_ticks = 3000, .time_in_queue = 4000,
		.dc_ios = 5, .dc_merges = 1, .dc_sectors = 2048, .dc_ticks = 10,
		.fl_ios = 7, .fl_ticks = 14, .nfields = 17,
	};
	return a;
}

/* ... and after, 2 s later: reads +200 (+50 merged, +3200 sectors, +400 ms), writes +400
 * (+100, +12800, +2000 ms), discards +10 (+10, +20480, +50 ms), flushes +20 (+30 ms),
 * 1500 ms busy, 3000 ms weighted. */
static struct diskstats_counters ex_b(void)
{
	struct diskstats_counters b = {
		.rd_ios = 300, .rd_merges = 60, .rd_sectors = 11200, .rd_ticks = 900,
		.wr_ios = 600, .wr_merges = 150, .wr_sectors = 28800, .wr_ticks = 3000,
		.in_flight = 3, .io_ticks = 4500, .time_in_queue = 7000,
		.dc_ios = 15, .dc_merges = 11, .dc_sectors = 22528, .dc_ticks = 60,
		.fl_ios = 27, .fl_ticks = 44, .nfields = 17,
	};
	return b;
}

static void t_every_formula(void)
{
	struct diskstats_counters a = ex_a(), b = ex_b();
	struct diskstats_figures f;

	CHECK(diskstats_compute(&a, &b, 2 * NS, &f) == 0);
	CHECK_NEAR(f.interval_s, 2.0, 1e-12);
	/* requests per second: delta / 2 s */
	CHECK_NEAR(f.r_s, 100.0, 1e-9);
	CHECK_NEAR(f.w_s, 200.0, 1e-9);
	CHECK_NEAR(f.d_s, 5.0, 1e-9);
	CHECK_NEAR(f.f_s, 10.0, 1e-9);
	/* kB/s: sectors / 2 / s -> 3200/2/2, 12800/2/2, 20480/2/2 */
	CHECK_NEAR(f.rkb_s, 800.0, 1e-9);
	CHECK_NEAR(f.wkb_s, 3200.0, 1e-9);
	CHECK_NEAR(f.dkb_s, 5120.0, 1e-9);
	/* merges per second and merged share: 50/(50+200), 100/(100+400), 10/(10+10) */
	CHECK_NEAR(f.rrqm_s, 25.0, 1e-9);
	CHECK_NEAR(f.wrqm_s, 50.0, 1e-9);
	CHECK_NEAR(f.drqm_s, 5.0, 1e-9);
	CHECK_NEAR(f.rrqm_pct, 20.0, 1e-9);
	CHECK_NEAR(f.wrqm_pct, 20.0, 1e-9);
	CHECK_NEAR(f.drqm_pct, 50.0, 1e-9);
	/* await: ms per request: 400/200, 2000/400, 50/10, 30/20 */
	CHECK_NEAR(f.r_await, 2.0, 1e-12);
	CHECK_NEAR(f.w_await, 5.0, 1e-12);
	CHECK_NEAR(f.d_await, 5.0, 1e-12);
	CHECK_NEAR(f.f_await, 1.5, 1e-12);
	/* request size in kB: 3200/200/2, 12800/400/2, 20480/10/2 */
	CHECK_NEAR(f.rareq_sz, 8.0, 1e-12);
	CHECK_NEAR(f.wareq_sz, 16.0, 1e-12);
	CHECK_NEAR(f.dareq_sz, 1024.0, 1e-12);
	/* queue: 3000 weighted ms / 2000 ms; util: 1500 busy ms / 2000 ms */
	CHECK_NEAR(f.aqu_sz, 1.5, 1e-12);
	CHECK_NEAR(f.util_pct, 75.0, 1e-9);
	CHECK_EQ_U64(f.rd_ios, 200);
	CHECK_EQ_U64(f.wr_ios, 400);
	CHECK_EQ_U64(f.dc_ios, 10);
	CHECK_EQ_U64(f.fl_ios, 20);
	CHECK_EQ_U64(f.rd_bytes, 3200u * 512u);
	CHECK_EQ_U64(f.wr_bytes, 12800u * 512u);
	CHECK_EQ_U64(f.dc_bytes, 20480u * 512u);
	CHECK(f.has_discard && f.has_flush && !f.reset);

	/* a 250 ms interval scales the rates and shares, not the per-request means */
	CHECK(diskstats_compute(&a, &b, NS / 4, &f) == 0);
	CHECK_NEAR(f.w_s, 1600.0, 1e-9);
	CHECK_NEAR(f.wkb_s, 25600.0, 1e-9);
	CHECK_NEAR(f.util_pct, 600.0, 1e-9);	/* not capped, as iostat */
	CHECK_NEAR(f.w_await, 5.0, 1e-12);
	CHECK_NEAR(f.wareq_sz, 16.0, 1e-12);
}

static void t_zero_ios(void)
{
	struct diskstats_counters a = ex_a(), b = ex_a();
	struct diskstats_figures f;

	/* nothing happened: every figure 0, no division by zero */
	CHECK(diskstats_compute(&a, &b, NS, &f) == 0);
	CHECK(f.r_s == 0 && f.w_s == 0 && f.d_s == 0 && f.f_s == 0);
	CHECK(f.rkb_s == 0 && f.wkb_s == 0 && f.dkb_s == 0);
	CHECK(f.rrqm_pct == 0 && f.wrqm_pct == 0 && f.drqm_pct == 0);
	CHECK(f.r_await == 0 && f.w_await == 0 && f.d_await == 0 && f.f_await == 0);
	CHECK(f.rareq_sz == 0 && f.wareq_sz == 0 && f.dareq_sz == 0);
	CHECK(f.aqu_sz == 0 && f.util_pct == 0);

	/* a request in flight the whole second and none completed: busy and queued time
	 * grow, the means per completed request stay 0 */
	b.wr_ticks += 1000;
	b.io_ticks += 1000;
	b.time_in_queue += 1000;
	CHECK(diskstats_compute(&a, &b, NS, &f) == 0);
	CHECK(f.w_s == 0 && f.w_await == 0 && f.wareq_sz == 0);
	CHECK_NEAR(f.util_pct, 100.0, 1e-9);
	CHECK_NEAR(f.aqu_sz, 1.0, 1e-12);

	/* requests without merges: 0% merged; merges need requests to count */
	b = ex_a();
	b.rd_ios += 10;
	b.rd_sectors += 80;
	CHECK(diskstats_compute(&a, &b, NS, &f) == 0);
	CHECK(f.rrqm_pct == 0 && f.rrqm_s == 0);
	CHECK_NEAR(f.rareq_sz, 4.0, 1e-12);
	CHECK(f.r_await == 0);	/* 10 requests in 0 ms */
}

static void t_old_kernels(void)
{
	struct diskstats_counters a = ex_a(), b = ex_b();
	struct diskstats_figures f;

	/* 4.18 to 5.4: discards but no flush fields */
	a.nfields = b.nfields = 15;
	a.fl_ios = a.fl_ticks = b.fl_ios = b.fl_ticks = 0;
	CHECK(diskstats_compute(&a, &b, 2 * NS, &f) == 0);
	CHECK(f.has_discard && !f.has_flush && f.f_s == 0 && f.f_await == 0);
	CHECK_NEAR(f.d_s, 5.0, 1e-9);
	/* before 4.18: 11 fields */
	a = ex_a();
	b = ex_b();
	a.nfields = b.nfields = 11;
	a.dc_ios = a.dc_merges = a.dc_sectors = a.dc_ticks = 0;
	b.dc_ios = b.dc_merges = b.dc_sectors = b.dc_ticks = 0;
	a.fl_ios = a.fl_ticks = b.fl_ios = b.fl_ticks = 0;
	CHECK(diskstats_compute(&a, &b, 2 * NS, &f) == 0);
	CHECK(!f.has_discard && !f.has_flush && f.d_s == 0 && f.dkb_s == 0);
	CHECK_NEAR(f.w_await, 5.0, 1e-12);
	/* one snapshot of each kind: no discard figures claimed */
	a.nfields = 17;
	CHECK(diskstats_compute(&a, &b, 2 * NS, &f) == 0 && !f.has_discard);
}

static void t_back_and_wrap(void)
{
	struct diskstats_counters a = ex_a(), b = ex_b();
	struct diskstats_figures f;

	/* a count that went back while others grew: that figure reads 0 (sysstat 12.6+) */
	b.rd_merges = a.rd_merges - 1;
	CHECK(diskstats_compute(&a, &b, 2 * NS, &f) == 0);
	CHECK(!f.reset && f.rrqm_s == 0 && f.rrqm_pct == 0);
	CHECK_NEAR(f.r_s, 100.0, 1e-9);

	/* the device was removed and added again: everything smaller -> counted from 0 */
	b = ex_a();
	a = ex_b();
	CHECK(diskstats_compute(&a, &b, 2 * NS, &f) == 0);
	CHECK(f.reset);
	CHECK_NEAR(f.r_s, 50.0, 1e-9);		/* 100 reads / 2 s */
	CHECK_NEAR(f.wkb_s, 4000.0, 1e-9);	/* 16000 sectors / 2 / 2 */
	CHECK_NEAR(f.r_await, 5.0, 1e-12);	/* 500 ms / 100 */
	CHECK_NEAR(f.util_pct, 150.0, 1e-9);	/* 3000 ms / 2000 ms */

	/* ticks are 32-bit in the kernel's text: a wrap is a difference modulo 2^32 */
	a = ex_a();
	b = ex_b();
	a.rd_ticks = 0xffffff00u;
	b.rd_ticks = 0x100u;			/* 512 ms later */
	a.io_ticks = 0xfffffc18u;		/* 2^32 - 1000 */
	b.io_ticks = 500;			/* 1500 ms later */
	a.time_in_queue = 0xffffffffu;
	b.time_in_queue = 2999;			/* 3000 ms later */
	CHECK(diskstats_compute(&a, &b, 2 * NS, &f) == 0);
	CHECK_NEAR(f.r_await, 512.0 / 200.0, 1e-12);
	CHECK_NEAR(f.util_pct, 75.0, 1e-9);
	CHECK_NEAR(f.aqu_sz, 1.5, 1e-12);
}

static void t_bad_input(void)
{
	struct diskstats_counters a = ex_a(), b = ex_b(), none;
	struct diskstats_figures f;

	memset(&none, 0, sizeof(none));
	CHECK(diskstats_compute(&a, &b, 0, &f) == -EINVAL && f.w_s == 0);
	CHECK(diskstats_compute(&none, &b, NS, &f) == -EINVAL);
	CHECK(diskstats_compute(&a, &none, NS, &f) == -EINVAL);
}

static void t_parse_line(void)
{
	struct diskstats_counters c;
	unsigned mj = 0, mn = 0;
	char name[8];

	CHECK(diskstats_parse_line(" 254       0 vda 45098 6257 4082554 24822 272644 89761 "
				   "30598928 205498 0 30192 240632 70107 23 21361168 6690 "
				   "66533 3620\n", &mj, &mn, name, sizeof(name), &c) == 0);
	CHECK(mj == 254 && mn == 0 && strcmp(name, "vda") == 0 && c.nfields == 17);
	CHECK_EQ_U64(c.rd_ios, 45098);
	CHECK_EQ_U64(c.wr_sectors, 30598928);
	CHECK_EQ_U64(c.io_ticks, 30192);
	CHECK_EQ_U64(c.time_in_queue, 240632);
	CHECK_EQ_U64(c.dc_sectors, 21361168);
	CHECK_EQ_U64(c.fl_ios, 66533);
	CHECK_EQ_U64(c.fl_ticks, 3620);
	/* 15 and 11 fields; a longer name is cut to fit */
	CHECK(diskstats_parse_line("8 1 nvme0n1p1 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", &mj, &mn,
				   name, sizeof(name), &c) == 0);
	CHECK(mj == 8 && mn == 1 && strcmp(name, "nvme0n1") == 0 && c.nfields == 15);
	CHECK_EQ_U64(c.dc_ticks, 15);
	CHECK_EQ_U64(c.fl_ios, 0);
	CHECK(diskstats_parse_line("8 0 sda 1 2 3 4 5 6 7 8 9 10 11", &mj, &mn, NULL, 0, &c) == 0);
	CHECK(c.nfields == 11 && c.time_in_queue == 11 && c.dc_ios == 0);
	/* 16 numbers (a kernel between steps) keep the 15 known; 20 keep 17 */
	CHECK(diskstats_parse_line("8 0 sda 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16", &mj, &mn,
				   NULL, 0, &c) == 0 && c.nfields == 15 && c.fl_ios == 0);
	CHECK(diskstats_parse_line("8 0 sda 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 "
				   "20", &mj, &mn, NULL, 0, &c) == 0 && c.nfields == 17 &&
	      c.fl_ticks == 17);
	/* the old partition line: reads, read sectors, writes, written sectors */
	CHECK(diskstats_parse_line("3 1 hda1 10 80 20 160", &mj, &mn, NULL, 0, &c) == 0);
	CHECK(c.nfields == 4 && c.rd_ios == 10 && c.rd_sectors == 80 && c.wr_ios == 20 &&
	      c.wr_sectors == 160 && c.rd_merges == 0);
	CHECK(diskstats_parse_line("", &mj, &mn, NULL, 0, &c) == -EINVAL);
	CHECK(diskstats_parse_line("8 0", &mj, &mn, NULL, 0, &c) == -EINVAL);
	CHECK(diskstats_parse_line("8 0 sda 1 2 3 4 5 6 7", &mj, &mn, NULL, 0, &c) == -EINVAL);
	CHECK(diskstats_parse_line("x 0 sda 1 2 3 4 5 6 7 8 9 10 11", &mj, &mn, NULL, 0, &c) ==
	      -EINVAL);
	CHECK(c.nfields == 0);
}

static void t_parse_text(void)
{
	static const char text[] =
		"   7       0 loop0 855 0 1063772 3527 912 12 2114036 80947 0 3636 84952 "
		"0 0 0 0 68 477\n"
		"   8       0 sda 1 2 3 4 5 6 7 8 9 10 11\n"
		"   8       1 sda1 10 20 30 40 50 60 70 80 90 100 110 120 130 140 150 160 170\n"
		"garbage line\n"
		" 254       0 vda 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9";	/* no newline */
	struct diskstats_set set;
	struct diskstats_snap snap;

	diskstats_init(&set);
	set.ndev = 3;
	set.dev[0].major = 8;
	set.dev[0].minor = 1;
	set.dev[1].major = 254;
	set.dev[1].minor = 0;
	set.dev[2].major = 9;		/* not in the text */
	set.dev[2].minor = 9;
	CHECK(diskstats_parse(text, sizeof(text) - 1, &set, &snap) == 2);
	CHECK(snap.ndev == 3);
	CHECK(snap.c[0].nfields == 17 && snap.c[0].rd_ios == 10 && snap.c[0].fl_ticks == 170);
	CHECK(snap.c[1].nfields == 17 && snap.c[1].fl_ticks == 9);
	CHECK(snap.c[2].nfields == 0);
	/* a text cut in the middle of the last line still parses what is there */
	CHECK(diskstats_parse(text, sizeof(text) - 1 - 34, &set, &snap) == 1);
	CHECK(snap.c[1].nfields == 0);
	CHECK(diskstats_close(&set) == 0);
}

#ifdef HAVE_DISKSTATS
static char fake[1024];

/* Write text (and a newline) to fake/rel, making the folders. */
static void put(const char *rel, const char *text)
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
		fprintf(f, "%s\n", text);
		CHECK(fclose(f) == 0);
	}
}

/* A symbolic link fake/rel -> target (relative to the link's folder). */
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

/* A disk "vdz" for the real device of fake itself (the loop's backing file lives there),
 * a SCSI disk with a partition, an md array on another disk, a dm device over the
 * partition and the array, and a loop device; links as the kernel makes them. */
static void build_tree(dev_t real)
{
	char devno[32], link[64];

	put("devices/pci0/block/sdz/dev", "8:0");
	put("devices/pci0/block/sdz/queue/rotational", "1");
	put("devices/pci0/block/sdz/queue/fua", "1");
	put("devices/pci0/block/sdz/queue/write_cache", "write through");
	put("devices/pci0/block/sdz/queue/scheduler", "none [mq-deadline] kyber bfq");
	put("devices/pci0/block/sdz/queue/logical_block_size", "512");
	put("devices/pci0/block/sdz/queue/physical_block_size", "4096");
	put("devices/pci0/block/sdz/sdz1/dev", "8:1");
	put("devices/pci0/block/sdz/sdz1/partition", "1");
	put("devices/pci0/block/sdy/dev", "8:16");
	put("devices/pci0/block/sdy/queue/scheduler", "none");
	put("devices/virtual/block/md9/dev", "9:9");
	link_to("devices/virtual/block/md9/slaves/sdy", "../../../../pci0/block/sdy");
	put("devices/virtual/block/dm-3/dev", "253:3");
	put("devices/virtual/block/dm-3/dm/name", "vg-data");
	put("devices/virtual/block/dm-3/queue/write_cache", "write back");
	link_to("devices/virtual/block/dm-3/slaves/sdz1", "../../../../pci0/block/sdz/sdz1");
	link_to("devices/virtual/block/dm-3/slaves/md9", "../../md9");
	/* a cycle: md9 claims dm-3 as a member too; it must be met once */
	link_to("devices/virtual/block/md9/slaves/dm-3", "../../dm-3");
	put("devices/virtual/block/loop5/dev", "7:5");
	snprintf(devno, sizeof(devno), "%u:%u", major(real), minor(real));
	put("devices/virtual/block/vdz/dev", devno);
	link_to("dev/block/8:0", "../../devices/pci0/block/sdz");
	link_to("dev/block/8:1", "../../devices/pci0/block/sdz/sdz1");
	link_to("dev/block/253:3", "../../devices/virtual/block/dm-3");
	link_to("dev/block/7:5", "../../devices/virtual/block/loop5");
	snprintf(link, sizeof(link), "dev/block/%s", devno);
	link_to(link, "../../devices/virtual/block/vdz");
}

/* dm-3 -> md9 (-> sdy, and back to dm-3: met once) and sdz1 (-> sdz), members in name
 * order, each with its queue facts. */
static void walk_members(const char *sys)
{
	struct diskstats_set set;
	int n;

	diskstats_init(&set);
	n = diskstats_add_dev(sys, 253, 3, &set);
	CHECK(n == 5);
	CHECK(set.ndev == 5 && set.left_out == 0);
	if (set.ndev == 5) {
		CHECK(strcmp(set.dev[0].name, "dm-3") == 0 && set.dev[0].role == DISKSTATS_TOP);
		CHECK(strcmp(set.dev[0].alias, "vg-data") == 0 && set.dev[0].parent == -1);
		CHECK(set.dev[0].queue.write_cache == 1 && set.dev[0].queue.fua == -1);
		CHECK(strcmp(set.dev[1].name, "md9") == 0 && set.dev[1].role == DISKSTATS_MEMBER);
		CHECK(set.dev[1].parent == 0 && set.dev[1].depth == 1 && !set.dev[1].partition);
		CHECK(strcmp(set.dev[2].name, "sdy") == 0 && set.dev[2].parent == 1);
		CHECK(set.dev[2].role == DISKSTATS_MEMBER && set.dev[2].depth == 2);
		CHECK(strcmp(set.dev[2].queue.scheduler, "none") == 0);
		CHECK(set.dev[2].queue.rotational == -1 && set.dev[2].queue.logical_block == 0);
		CHECK(strcmp(set.dev[3].name, "sdz1") == 0 && set.dev[3].role == DISKSTATS_MEMBER);
		CHECK(set.dev[3].partition == 1 && set.dev[3].parent == 0);
		/* a partition has the queue of its disk */
		CHECK(set.dev[3].queue.rotational == 1 && set.dev[3].queue.fua == 1);
		CHECK(strcmp(set.dev[4].name, "sdz") == 0 && set.dev[4].role == DISKSTATS_DISK);
		CHECK(set.dev[4].parent == 3 && set.dev[4].depth == 2);
		CHECK(set.dev[4].major == 8 && set.dev[4].minor == 0);
		CHECK(set.dev[4].queue.write_cache == 0 && set.dev[4].queue.logical_block == 512 &&
		      set.dev[4].queue.physical_block == 4096);
		CHECK(strcmp(set.dev[4].queue.scheduler, "mq-deadline") == 0);
	}
	CHECK(diskstats_close(&set) == 0);

}

/* A loop device, a path, a backing file that went away, a file system without a device. */
static void walk_loop_and_paths(const char *sys, const struct stat *st, const char *img)
{
	char minfo[4096], line[4200];
	struct diskstats_set set;

	/* a loop device: its backing file's device (vdz, the real st_dev of the folder) */
	diskstats_init(&set);
	CHECK(diskstats_add_dev(sys, 7, 5, &set) == 2);
	CHECK(strcmp(set.dev[1].name, "vdz") == 0 && set.dev[1].role == DISKSTATS_BACKING);
	CHECK(set.dev[1].parent == 0 && set.dev[1].depth == 1);
	CHECK(strcmp(diskstats_role_name(set.dev[1].role), "backing") == 0);
	CHECK(diskstats_close(&set) == 0);

	/* a path: the folder's own device, through the fake tree */
	snprintf(minfo, sizeof(minfo), "%s/mountinfo", fake);
	snprintf(line, sizeof(line), "27 1 %u:%u / / rw,relatime - ext4 /dev/vdz rw",
		 major(st->st_dev), minor(st->st_dev));
	put("mountinfo", line);
	CHECK(diskstats_find_at(sys, minfo, fake, &set) == 1);
	CHECK(strcmp(set.dev[0].name, "vdz") == 0 && strcmp(set.fstype, "ext4") == 0);
	CHECK(diskstats_close(&set) == 0);

	/* the backing file is gone: the loop device alone, and a note saying so */
	CHECK(unlink(img) == 0);
	diskstats_init(&set);
	CHECK(diskstats_add_dev(sys, 7, 5, &set) == 1);
	CHECK(strstr(set.reason, "not found") != NULL);
	CHECK(diskstats_add_dev(sys, 1, 99, &set) == -ENOENT);
	CHECK(diskstats_close(&set) == 0);

	/* no block device: the mount says what it is */
	snprintf(line, sizeof(line), "%s/dev/block/%u:%u", fake, major(st->st_dev),
		 minor(st->st_dev));
	CHECK(unlink(line) == 0);
	snprintf(line, sizeof(line), "40 27 %u:%u / /t rw - tmpfs tmpfs rw,size=4k",
		 major(st->st_dev), minor(st->st_dev));
	put("mountinfo", line);
	CHECK(diskstats_find_at(sys, minfo, fake, &set) == -ENODEV);
	CHECK(set.ndev == 0 && strstr(set.reason, "tmpfs") != NULL);
	CHECK(strcmp(set.fstype, "tmpfs") == 0);
	{
		struct diskstats_snap snap;

		CHECK(diskstats_read(&set, &snap) == -ENODEV);
	}
	CHECK(diskstats_close(&set) == 0);

	/* btrfs: st_dev is an anonymous number mountinfo does not list; the mount point
	 * holding the path names the device (here through class/block, as no /dev node
	 * of that name need exist); a longer mount point above it wins over "/" */
	{
		char rp[PATH_MAX], esc[2400], *q = esc;
		const char *c;

		CHECK(realpath(fake, rp) != NULL);
		for (c = rp; *c && q < esc + sizeof(esc) - 5; c++)
			q += *c == ' ' ? sprintf(q, "\\040") : sprintf(q, "%c", *c);
		*q = '\0';
		put("class/block/iobtestloop5/dev", "7:5");
		snprintf(line, sizeof(line), "1 0 0:4241 / / rw - ext4 /dev/iobtestvd rw\n"
			 "41 1 0:4242 / %s rw - btrfs /dev/iobtestloop5 rw", esc);
		put("mountinfo", line);
		CHECK(diskstats_find_at(sys, minfo, fake, &set) >= 1);
		CHECK(strcmp(set.dev[0].name, "loop5") == 0 && set.dev[0].role == DISKSTATS_TOP);
		CHECK(strcmp(set.fstype, "btrfs") == 0);
		CHECK(diskstats_close(&set) == 0);
	}
	CHECK(diskstats_find_at(sys, minfo, "/nonexistent/x", &set) == -ENOENT);
	CHECK(strstr(set.reason, "cannot stat") != NULL);
	CHECK(diskstats_close(&set) == 0);

}

static void t_walk_fake(void)
{
	const char *tmp = getenv("TESTS_TMP") ? getenv("TESTS_TMP") : "/tmp";
	char img[4096], line[4200];
	struct stat st;

	snprintf(fake, sizeof(fake), "%.900s/iob-t_diskstats.XXXXXX", tmp);
	CHECK(mkdtemp(fake) != NULL);
	CHECK(stat(fake, &st) == 0);
	build_tree(st.st_dev);
	snprintf(img, sizeof(img), "%s/loop.img", fake);
	put("loop.img", "data");
	put("devices/virtual/block/loop5/loop/backing_file", img);
	walk_members(fake);
	walk_loop_and_paths(fake, &st, img);
	snprintf(line, sizeof(line), "rm -rf '%s'", fake);
	CHECK(system(line) == 0);
}

/* This machine: the device of the test's temp folder (none on tmpfs) read twice. */
static void t_real(void)
{
	const char *tmp = getenv("TESTS_TMP") ? getenv("TESTS_TMP") : "/tmp";
	struct diskstats_snap a, b;
	struct diskstats_figures f;
	struct diskstats_set set;
	int n = diskstats_find(tmp, &set);

	if (n == -ENODEV) {
		CHECK(set.reason[0] != '\0');
		printf("(no block device under %s: %s)\n", tmp, set.reason);
	} else if (n > 0 && access("/proc/diskstats", R_OK) == 0) {
		CHECK(set.dev[0].role == DISKSTATS_TOP && set.dev[0].name[0]);
		CHECK(diskstats_read(&set, &a) == n);
		CHECK(diskstats_read(&set, &b) == n);
		CHECK(b.t_ns > a.t_ns && a.c[0].nfields >= 11);
		CHECK(b.c[0].wr_sectors >= a.c[0].wr_sectors);
		CHECK(diskstats_compute(&a.c[0], &b.c[0], b.t_ns - a.t_ns, &f) == 0);
		CHECK(f.util_pct >= 0 && f.w_s >= 0);
		/* by name: the same device, read a moment later */
		{
			struct diskstats_counters c;

			CHECK(diskstats_read_name(set.dev[0].name, &c) == 0);
			CHECK(c.nfields == b.c[0].nfields && c.wr_sectors >= b.c[0].wr_sectors);
			CHECK(diskstats_read_name("no-such-device", &c) == -ENOENT);
			CHECK(c.nfields == 0);
		}
	}
	CHECK(diskstats_close(&set) == 0);
	CHECK(diskstats_close(&set) == 0);	/* idempotent */
}
#else
static void t_unavailable(void)
{
	struct diskstats_set set;
	struct diskstats_snap snap;

	CHECK(diskstats_find(".", &set) == -ENOSYS && set.ndev == 0 && set.reason[0]);
	CHECK(diskstats_read(&set, &snap) == -ENOSYS);
	CHECK(diskstats_close(&set) == 0);
}
#endif

int main(void)
{
	RUN(t_every_formula);
	RUN(t_zero_ios);
	RUN(t_old_kernels);
	RUN(t_back_and_wrap);
	RUN(t_bad_input);
	RUN(t_parse_line);
	RUN(t_parse_text);
#ifdef HAVE_DISKSTATS
	RUN(t_walk_fake);
	RUN(t_real);
#else
	RUN(t_unavailable);
#endif
	return test_done();
}
