/* memlimit.h - how much file data the page cache can hold for this process: the RAM, or
 * less where a cgroup memory limit applies (cgroup v2 memory.max, v1
 * memory.limit_in_bytes, the smallest along the process's cgroup path). Linux reads
 * /proc/self/cgroup and /sys/fs/cgroup; elsewhere it is the RAM. Thread-safe. */
#ifndef IOB_OBSERVE_MEMLIMIT_H
#define IOB_OBSERVE_MEMLIMIT_H

#include <stdint.h>

/* The bytes the page cache can hold at most (0 when unknown). *limited (may be NULL) is
 * set to 1 when a cgroup limit below the RAM decided it. */
uint64_t memlimit_cache_bytes(int *limited);

#endif
