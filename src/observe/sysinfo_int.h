/* sysinfo_int.h - sysinfo's BSD sources (sysinfo_bsd.c), for sysinfo.c only. Each exists
 * only where configure found its interface: HAVE_SYSCTLBYNAME for the first three,
 * HAVE_STATFS_FSTYPENAME for the last two. UNTESTED on the systems they are for (no
 * Linux build compiles them). Thread-safe. */
#ifndef IOB_OBSERVE_SYSINFO_INT_H
#define IOB_OBSERVE_SYSINFO_INT_H

#include <stddef.h>
#include <stdint.h>

struct env;

/* RAM in bytes from hw.physmem; 0 when unknown. */
uint64_t sysinfo_bsd_ram(void);
/* The CPU model from hw.model (malloc'd), or NULL. */
char *sysinfo_bsd_cpu_model(void);
/* From kern.vm_guest: 1 under a hypervisor, 0 on bare metal, -1 unknown. */
int sysinfo_bsd_virtualized(void);
/* The file system type, mount point, mount options and device of path (statfs) into
 * env. 0 (also when statfs fails: the fields stay unknown) or -ENOMEM. */
int sysinfo_bsd_target(struct env *env, const char *path);
/* The device name ("ada0p2") behind path, into buf; 0, -ENODEV (no device: a ZFS
 * dataset, tmpfs) or -errno. */
int sysinfo_bsd_device_of(const char *path, char *buf, size_t len);

#endif
