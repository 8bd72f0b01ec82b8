/* ceiling.h - the ceilings a figure must stay under that the system sets: the link to the
 * disk behind the target, from sysfs (an NVMe or other PCIe device's current link speed
 * and width, a SATA link's speed, a USB device's speed; virtio and unknown buses have
 * none), and the rate at which memory copies, measured. stats/result_ceiling.h holds
 * them in the results; docs/methodology.md, "Ceilings", gives the rules.
 *
 * IOBATTERY_SYSFS_ROOT, when set, names the directory read instead of /sys (for tests on
 * crafted trees only). Thread-safe but ceiling_memcpy_rate's cache (one caller at a
 * time). */
#ifndef IOB_OBSERVE_CEILING_H
#define IOB_OBSERVE_CEILING_H

#include <stddef.h>
#include <stdint.h>

struct env_ceilings;

/* The link of disk (a kernel name: "nvme0n1", "sda", "vda") under sysroot (NULL: /sys
 * or $IOBATTERY_SYSFS_ROOT) into c's link members (replacing them): kind, words, bytes
 * per second (NaN where there is none or it is unknown). disk NULL: kind "none". 0 or
 * -ENOMEM. */
int ceiling_link(const char *sysroot, const char *disk, struct env_ceilings *c);

/* Bytes per second of a link as sysfs spells it, NaN when unparsable:
 *   PCIe: speed "8.0 GT/s PCIe" (or "8 GT/s"), width "4";
 *   SATA: "6.0 Gbps"; USB: "5000" (Mb/s). Pure. */
double ceiling_pcie_bytes_s(const char *speed, const char *width);
double ceiling_sata_bytes_s(const char *spd);
double ceiling_usb_bytes_s(const char *speed);

/* memcpy's rate in bytes per second over buffers larger than the caches, measured for
 * about dur_ns the first time and kept for the process's life. NaN when the buffers cannot
 * be had. */
double ceiling_memcpy_rate(uint64_t dur_ns);

#endif
