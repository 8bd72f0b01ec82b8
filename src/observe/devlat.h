/* devlat.h - block-layer latency of the devices behind the target, per phase window, by
 * a small BPF program (devlat.bpf.c) on the block layer's tracepoints: for each request
 * class (read, write, FUA write, flush, discard, other) the device time (issue to
 * completion) and the queue time (insert to issue), as histograms; and, to check them
 * against the outside, the same devices' completed requests and await by /proc/diskstats
 * over the same window. docs/methodology.md, "Block-layer latency".
 *
 * Built only with configure's HAVE_BPF (clang, bpftool, libbpf, kernel BTF); without it
 * devlat_open says so. libbpf is opened by devlat_open (core/dlib.h), not linked: a
 * machine without it runs without these figures and says why. Loading needs root (or
 * CAP_BPF and CAP_PERFMON), kernel BTF and a kernel that allows BPF; where any is
 * missing, devlat_open fails with the reason in words and the run goes on without these
 * figures.
 *
 * The program is loaded and attached once per run (devlat_open); a phase opens the window
 * (devlat_begin) and closes it (devlat_end): only requests that complete inside the window
 * are counted. One window at a time; not thread-safe (the runner's main thread). */
#ifndef IOB_OBSERVE_DEVLAT_H
#define IOB_OBSERVE_DEVLAT_H

#include <stddef.h>

#include "observe/diskstats.h"

struct devlat;
struct row_devlat;

#define DEVLAT_PICK_MAX	DISKSTATS_MAX_DEVS

/* The devices of set whose requests are counted: those the file system's requests reach
 * first as requests, each once: every device of the stack but partitions (their whole
 * disk is in the set), devices with members in the set (device-mapper and md pass bios
 * to their members, which make the requests) and the device holding a loop device's
 * backing file (the loop device's requests are the target's). Their indexes into
 * set->dev go to idx (up to max); returns the count. Pure. */
unsigned devlat_pick(const struct diskstats_set *set, unsigned *idx, unsigned max);

/* Load and attach the program for the devices devlat_pick finds in set. 0 and *out, or
 * -errno (-ENOSYS without HAVE_BPF, -ENODEV without devices, -EPERM not allowed) with why
 * in words ("not root", "no kernel BTF" ...) in why. */
int devlat_open(const struct diskstats_set *set, struct devlat **out, char *why, size_t len);
/* Detach and free; NULL is fine. */
void devlat_close(struct devlat *d);
/* Open the window: counts zeroed, /proc/diskstats read for the devices, counting on. */
void devlat_begin(struct devlat *d);
/* Close the window: counting off, /proc/diskstats read again; the window's figures in a
 * new object (owned by the caller), NULL on ENOMEM. */
struct row_devlat *devlat_end(struct devlat *d);

#endif
