/* sysinfo.h - environment detection for the results model: host, OS, kernel, CPU, RAM,
 * and for a target path its file system, mount options and block device (model,
 * rotational flag, I/O scheduler, from /proc/self/mountinfo and /sys/block on Linux).
 * Thread-safe. */
#ifndef IOB_OBSERVE_SYSINFO_H
#define IOB_OBSERVE_SYSINFO_H

#include <stdint.h>

struct env;

/* Fill env (whose strings must be NULL or owned; they are replaced) for target, a path
 * that exists (directory or file). Unknown fields stay NULL / -1. Returns 0 or -ENOMEM. */
int sysinfo_fill(struct env *env, const char *target);
/* Physical RAM in bytes (0 when unknown). */
uint64_t sysinfo_ram(void);
/* 1 when the file system holding path keeps its files in memory (tmpfs, ramfs: on Linux
 * statfs's f_type; elsewhere, or when statfs fails, by the type name fs_type, which may
 * be NULL), else 0. Thread-safe. */
int sysinfo_memory_fs(const char *path, const char *fs_type);
/* MemAvailable of /proc/meminfo in bytes: what can be allocated without swapping (0 when
 * unknown, as off Linux). Thread-safe. */
uint64_t sysinfo_mem_available(void);
/* The block device name ("vda", "sda") holding path, into buf; 0 or -errno. */
int sysinfo_device_of(const char *path, char *buf, unsigned long len);

#endif
