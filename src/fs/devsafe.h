/* devsafe.h - may this block device be overwritten? The checks a raw device target must
 * pass before iobattery writes to it (DESIGN.md 1.5: --destroy-data-on DEVICE): it is the
 * very device the user named, it is not mounted, holds no partitions, carries no
 * file-system, swap, LVM or partition-table signature in its first blocks, and nobody
 * has it open exclusively (Linux refuses an O_EXCL open of a mounted or claimed block
 * device with EBUSY). Linux only for the sysfs and mountinfo parts; elsewhere the
 * signature and exclusive-open checks still run. Thread-safe (no shared state). */
#ifndef IOB_FS_DEVSAFE_H
#define IOB_FS_DEVSAFE_H

#include <stddef.h>
#include <stdint.h>

/* Bytes of the device's start that devsafe_check reads for signatures. */
#define DEVSAFE_PROBE_BYTES	(128u * 1024u)

/* The name of the first signature found in buf (len bytes from the device's start), or
 * NULL: "ext2/3/4", "xfs", "btrfs", "swap", "LVM2 physical volume", "LUKS",
 * "GPT partition table", "MBR partition table or boot sector", "ISO 9660", "squashfs".
 * Pure. */
const char *devsafe_signature(const unsigned char *buf, size_t len);

/* Whether the block device at path may be destroyed: path must be a block device and
 * the same device as named (the --destroy-data-on argument); it must pass every check
 * above. *size (may be NULL) receives its size in bytes. 0, or -EINVAL / -EBUSY / -errno
 * with the reason (lowercase, no full stop) in why. */
int devsafe_check(const char *path, const char *named, uint64_t *size, char *why,
		  size_t wl);

#endif
