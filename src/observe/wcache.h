/* wcache.h - write-cache honesty: what a device says about its cache, and whether a
 * durable write finished faster than the device could have made it durable.
 *
 * The facts come from sysfs: /sys/block/X/queue/write_cache ("write back": a volatile
 * cache the kernel must flush; "write through": none, or one that survives power loss),
 * queue/fua (the device honours Force Unit Access writes), queue/rotational, and for a
 * rotational disk its speed: --rpm when the user knows it, else the SCSI Block Device
 * Characteristics page (device/vpd_pgb1, bytes 4-5: the Nominal Media Rotation Rate that
 * hdparm -I prints for ATA disks, which the kernel's SCSI-ATA translation reports), else
 * an RPM in the model name, else 7,200 rpm assumed.
 *
 * The verdict (docs/methodology.md, "Write-cache honesty") is a lower bound, never a
 * proof of durability: a median sync faster than the floor proves that something between
 * the program and the medium acknowledged it early (a volatile cache, a hypervisor, a
 * file system that ignores flushes); a slower one proves nothing, since a cache may be
 * slow too. Only cutting the power settles it. Pure functions but wcache_facts (sysfs
 * reads); all thread-safe. */
#ifndef IOB_OBSERVE_WCACHE_H
#define IOB_OBSERVE_WCACHE_H

#include <stdint.h>

#include "observe/diskstats.h"

#define WCACHE_DEFAULT_RPM	7200u
#define WCACHE_MEDIA_FLOOR_NS	10000u	/* write through, not rotating: 10 us */

/* What the device under a file says about itself. */
struct wcache_facts {
	char name[DISKSTATS_NAME_LEN];	/* the device that stores the data ("sda"); "" none */
	char model[128];		/* "vendor model" from sysfs, "" unknown */
	int write_cache;		/* 1 write back, 0 write through, -1 unknown */
	int fua;			/* 1, 0, -1 */
	int rotational;			/* 1, 0, -1 */
	unsigned rpm;			/* 0 unknown (or not rotating) */
	const char *rpm_source;		/* "--rpm", "vpd", "model", "assumed"; NULL none */
	int memory_fs;			/* tmpfs or ramfs: nothing on it survives a power cut */
	char reason[192];		/* why there is no device, when name is "" */
};

/* The facts of the leaf device of set (the one that holds the data: below partitions,
 * device-mapper and loop devices; the first such in the set's order) under sysroot
 * ("/sys" when NULL). rpm_given: the user's --rpm, 0 when none. Returns the index in
 * set of that device, or -1 when the set has none (f->reason says why). */
int wcache_facts(const char *sysroot, const struct diskstats_set *set, unsigned rpm_given,
		 struct wcache_facts *f);

/* The RPM a model string states ("... 7200RPM", "Barracuda 7200.12", "5400", "10K",
 * "15K"), or 0. */
unsigned wcache_rpm_from_model(const char *model);

/* The RPM in a VPD page B1 of len bytes (bytes 4-5, big-endian): a speed, 1 for a
 * medium that does not rotate, or 0 not reported / too short. */
unsigned wcache_rpm_from_vpd(const unsigned char *page, unsigned len);

/* The verdict on one durable method's median op latency. */
struct wcache_verdict {
	uint64_t floor_ns;		/* the least a durable op can take; 0: no floor */
	char floor_why[96];		/* "half a revolution at 7200 rpm (assumed)" */
	int implausible;		/* p50 under the floor */
};

/* The floor for f and whether p50_ns is under it: a memory file system, every sync (no
 * floor: nothing there is durable at any speed); a rotational device (or one of unknown
 * kind whose rpm is known), half a revolution (30 / rpm s; rpm as f says, else 7,200
 * assumed); a non-rotating device that reports write through, a media write of
 * WCACHE_MEDIA_FLOOR_NS; a non-rotating write-back device or an unknown one: no floor,
 * since its flush may be fast for good reasons (power-loss protection). */
void wcache_verdict(const struct wcache_facts *f, uint64_t p50_ns, struct wcache_verdict *v);

/* "write back", "write through" or "unknown". */
const char *wcache_mode_name(int write_cache);

#endif
