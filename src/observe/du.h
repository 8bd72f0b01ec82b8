/* du.h - bytes allocated on disk under a path (a measurement helper, not workload I/O).
 * Thread-safe. */
#ifndef IOB_OBSERVE_DU_H
#define IOB_OBSERVE_DU_H

#include <stdint.h>

/* Bytes allocated under path: a file's st_blocks * 512, or the sum over a tree (16 levels
 * at most, symbolic links not followed, entries that vanish meanwhile skipped). 0 or
 * -errno (the path itself cannot be examined). */
int du_bytes(const char *path, uint64_t *bytes);

#endif
