/* t_battery_ranks - the room the battery's plan sees under mpirun, on injected ranks:
 * ranks whose files go to one file system share its free space (one host, one device
 * number; or a network file system of one type and size on two hosts), a host's ranks
 * share its memory, local file systems of two hosts are their own; and a plan made from
 * that room fits the files of every rank sharing the file system together, its skips
 * saying how many share it. */
#include <stdio.h>
#include <string.h>

#include "test.h"
#include "workload/battery/battery.h"
#include "workload/battery/battery_int.h"

#define MIB (1024ull * 1024)
#define GIB (1024 * MIB)

static struct battery_room room(const char *host, const char *type, uint64_t dev,
				uint64_t size, uint64_t free_b, uint64_t mem)
{
	struct battery_room k;

	memset(&k, 0, sizeof(k));
	snprintf(k.host, sizeof(k.host), "%s", host);
	snprintf(k.fs_type, sizeof(k.fs_type), "%s", type);
	k.dev = dev;
	k.fs_bytes = size;
	k.free_bytes = free_b;
	k.mem_avail = mem;
	return k;
}

/* Two ranks on one host and one disk: each gets half of its free space and memory. */
static void t_one_disk(void)
{
	struct battery_room k[2];
	struct battery_env e;

	memset(&e, 0, sizeof(e));
	k[0] = room("db01", "ext4", 0x700, 10 * GIB, 8 * GIB, 4 * GIB);
	k[1] = k[0];
	k[1].free_bytes = 8 * GIB - 4 * MIB;	/* measured a moment later */
	battery_room_least(k, 2, &e);
	CHECK(battery_room_shared(&k[0], &k[1]));
	CHECK_EQ_U64(e.free_bytes, (8 * GIB - 4 * MIB) / 2);
	CHECK_EQ_U64(e.fs_ranks, 2);
	CHECK_EQ_U64(e.mem_avail, 2 * GIB);
	/* alone: its own free space, fs_ranks 1 */
	battery_room_least(k, 1, &e);
	CHECK_EQ_U64(e.free_bytes, 8 * GIB);
	CHECK_EQ_U64(e.fs_ranks, 1);
	CHECK_EQ_U64(e.mem_avail, 4 * GIB);
}

/* One host, two file systems (another device number): each is its own; three ranks of
 * which two share the smaller one: their half of it is the least. */
static void t_two_disks(void)
{
	struct battery_room k[3];
	struct battery_env e;

	memset(&e, 0, sizeof(e));
	k[0] = room("db01", "ext4", 0x700, 100 * GIB, 60 * GIB, 0);
	k[1] = room("db01", "xfs", 0x800, 20 * GIB, 10 * GIB, 0);
	k[2] = k[1];
	CHECK(!battery_room_shared(&k[0], &k[1]));
	battery_room_least(k, 3, &e);
	CHECK_EQ_U64(e.free_bytes, 5 * GIB);
	CHECK_EQ_U64(e.fs_ranks, 2);
	CHECK_EQ_U64(e.mem_avail, 0);	/* no rank knows its memory */
	/* the larger disk shared by two: 30 GiB each, still more than 10 GiB alone */
	k[1] = k[0];
	k[2] = room("db01", "xfs", 0x800, 20 * GIB, 10 * GIB, 0);
	battery_room_least(k, 3, &e);
	CHECK_EQ_U64(e.free_bytes, 10 * GIB);
	CHECK_EQ_U64(e.fs_ranks, 1);
}

/* Two hosts: their local disks are their own even when alike (one device number, one
 * size); an NFS export or a Lustre file system of one size is shared, an unknown type
 * too; memory is per host. */
static void t_hosts(void)
{
	struct battery_room k[4];
	struct battery_env e;

	memset(&e, 0, sizeof(e));
	k[0] = room("db01", "ext4", 0x10302, 1800 * GIB, 1000 * GIB, 64 * GIB);
	k[1] = room("db01", "ext4", 0x10302, 1800 * GIB, 1000 * GIB, 64 * GIB);
	k[2] = room("db02", "ext4", 0x10302, 1800 * GIB, 1000 * GIB, 64 * GIB);
	k[3] = room("db02", "ext4", 0x10302, 1800 * GIB, 1000 * GIB, 64 * GIB);
	CHECK(!battery_room_shared(&k[0], &k[2]));
	battery_room_least(k, 4, &e);
	CHECK_EQ_U64(e.free_bytes, 500 * GIB);
	CHECK_EQ_U64(e.fs_ranks, 2);
	CHECK_EQ_U64(e.mem_avail, 32 * GIB);
	/* one NFS export on both hosts: other device numbers, one size: four ranks */
	k[0] = room("db01", "nfs4", 0x2a, 4000 * GIB, 1000 * GIB, 64 * GIB);
	k[1] = k[0];
	k[2] = room("db02", "nfs4", 0x31, 4000 * GIB, 1000 * GIB, 64 * GIB);
	k[3] = k[2];
	CHECK(battery_room_shared(&k[0], &k[2]));
	battery_room_least(k, 4, &e);
	CHECK_EQ_U64(e.free_bytes, 250 * GIB);
	CHECK_EQ_U64(e.fs_ranks, 4);
	CHECK_EQ_U64(e.mem_avail, 32 * GIB);
	/* exports of two sizes are two file systems */
	k[2].fs_bytes = k[3].fs_bytes = 2000 * GIB;
	battery_room_least(k, 4, &e);
	CHECK_EQ_U64(e.free_bytes, 500 * GIB);
	CHECK_EQ_U64(e.fs_ranks, 2);
	/* Lustre and an unknown type are taken as shared between hosts */
	k[0] = room("c01", "lustre", 0x2a, 9000 * GIB, 900 * GIB, 0);
	k[1] = room("c02", "lustre", 0x2b, 9000 * GIB, 900 * GIB, 0);
	CHECK(battery_room_shared(&k[0], &k[1]));
	k[0] = room("c01", "", 1, 9000 * GIB, 900 * GIB, 0);
	k[1] = room("c02", "", 2, 9000 * GIB, 900 * GIB, 0);
	CHECK(battery_room_shared(&k[0], &k[1]));
	k[1] = room("c02", "lustre", 2, 9000 * GIB, 900 * GIB, 0);
	CHECK(!battery_room_shared(&k[0], &k[1]));	/* two types */
}

/* The plan from two ranks' room on one small disk: the copy's two files of each rank fit
 * the free space together, and a skip says the ranks share it. */
static void t_plan_fits_both(void)
{
	struct battery_room k[2];
	struct battery_env e;
	struct battery_probe p;
	struct battery_want w;
	struct battery_plan plan;
	uint64_t free_b = 700 * MIB;
	double s;

	memset(&e, 0, sizeof(e));
	e.ram = e.cache_bytes = 16 * GIB;
	e.has_direct = e.can_drop = 1;
	strcpy(e.fs_type, "ext4");
	k[0] = room("db01", "ext4", 0x700, 768 * MIB, free_b, 8 * GIB);
	k[1] = k[0];
	battery_room_least(k, 2, &e);
	memset(&p, 0, sizeof(p));
	p.w_bps = p.r_bps = 100e6;
	p.w_lat_s = p.r_lat_s = 100e-6;
	p.w1k_bps = 300e6;
	memset(&w, 0, sizeof(w));
	w.budget_ns = 60000000000ull;	/* a budget that wants more than the disk holds */
	w.repeats = w.configs = 1;
	w.steps = (1u << BSTEP_DD_1M) | (1u << BSTEP_CP);
	CHECK(battery_plan_make(&e, &p, &w, &plan) == 2);
	s = (double)battery_dd_bytes(&plan);
	CHECK(s >= 100e6);			/* a second at 100 MB/s at least */
	CHECK(2 * 2 * s <= (double)free_b);	/* two ranks, two files each */
	/* alone on the disk the same plan takes more than half of it */
	battery_room_least(k, 1, &e);
	CHECK(battery_plan_make(&e, &p, &w, &plan) == 2);
	CHECK(2 * (double)battery_dd_bytes(&plan) > (double)free_b / 2);
	/* two ranks on a disk too small for both: the skip says they share it */
	k[0].free_bytes = k[1].free_bytes = 300 * MIB;
	battery_room_least(k, 2, &e);
	CHECK(battery_plan_make(&e, &p, &w, &plan) == 0);
	CHECK(strstr(plan.s[BSTEP_DD_1M].why, "free for each of the 2 ranks sharing the file "
		     "system") != NULL);
}

int main(void)
{
	RUN(t_one_disk);
	RUN(t_two_disks);
	RUN(t_hosts);
	RUN(t_plan_fits_both);
	return test_done();
}
